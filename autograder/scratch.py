"""Private scratch folders that outlive no one: named after the process that owns them.

A grader killed with SIGKILL cannot remove its folders. Each folder's name carries its owner's
pid, and whoever makes a new one first removes those whose owner is gone.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from pathlib import Path

_OWNED = re.compile(r"^autograder-(?P<kind>[a-z]+)-(?P<pid>\d+)-")


def private_folder(kind: str) -> Path:
    """A new folder `autograder-KIND-PID-…` in the temporary folder, after removing the stale."""
    remove_stale(kind)
    return Path(tempfile.mkdtemp(prefix=f"autograder-{kind}-{os.getpid()}-"))


def remove_stale(kind: str) -> int:
    """Remove every `autograder-KIND-PID-…` folder whose process no longer exists."""
    removed = 0
    root = Path(tempfile.gettempdir())
    with contextlib.suppress(OSError):
        for entry in root.iterdir():
            owned = _OWNED.match(entry.name)
            if owned and owned["kind"] == kind and not _alive(int(owned["pid"])):
                shutil.rmtree(entry, ignore_errors=True)
                removed += 1
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
