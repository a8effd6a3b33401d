"""Which isolation layers grading goes without here, said once before a class is graded."""

from __future__ import annotations

import os

from autograder.course.assignment import Assignment
from autograder.sandbox.isolation import choose


def isolation_warning(assignment: Assignment) -> str | None:
    """Refuse (AutograderError) where the worker cannot be confined, unless the rubric accepts
    it; else the isolation layers this machine cannot provide, as one sentence (None: all)."""
    spec = assignment.spec
    layers = choose(
        hidden=[assignment.course.root], bubblewrap=spec.bubblewrap, isolation=spec.isolation
    ).layers
    missing = []
    if "bwrap" not in layers and "landlock" not in layers:
        missing.append(
            'any file-system confinement (isolation = "unsafe": student code can read what '
            "its user can read, open sockets and fill the disk)"
        )
    elif "bwrap" not in layers and spec.bubblewrap != "off":
        missing.append("bubblewrap (Landlock and seccomp confine the worker instead)")
    if "unprivileged_user" not in layers and hasattr(os, "geteuid") and os.geteuid() == 0:
        missing.append("dropping to an unprivileged user")
    return f"grading without {'; without '.join(missing)}" if missing else None
