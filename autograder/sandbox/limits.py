"""Resource limits for the worker, and the scrubbed environment it starts with."""

from __future__ import annotations

import os
import sys
from dataclasses import asdict, dataclass
from typing import Any

MIB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """What one submission may use. The rubric's `[assignments.NAME.limits]` table sets them."""

    call_timeout_s: float = 10.0
    submission_timeout_s: float = 120.0
    cpu_s: int = 120
    memory_mb: int = 1024
    processes: int = 64
    file_size_mb: int = 16
    open_files: int = 64
    output_kb: int = 64

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Limits:
        return cls(**data)


def apply_limits(limits: Limits, *, limit_processes: bool) -> list[str]:
    """Set this process's rlimits (inherited by its children); return the names of those set.

    RLIMIT_NPROC counts every process of the user, so it is only set for a user that runs
    nothing but workers (the unprivileged user the worker drops to when the grader is root).
    """
    if sys.platform == "win32":  # pragma: no cover - students' checks only, never grading
        return []
    import resource

    wanted = {
        "RLIMIT_AS": limits.memory_mb * MIB,
        "RLIMIT_CPU": limits.cpu_s,
        "RLIMIT_FSIZE": limits.file_size_mb * MIB,
        "RLIMIT_NOFILE": limits.open_files,
        "RLIMIT_CORE": 0,
    }
    if limit_processes:
        wanted["RLIMIT_NPROC"] = limits.processes
    applied = []
    for name, value in wanted.items():
        kind = getattr(resource, name, None)
        if kind is None:
            continue
        _, hard = resource.getrlimit(kind)
        ceiling = value if hard == resource.RLIM_INFINITY else min(value, hard)
        try:
            resource.setrlimit(kind, (ceiling, ceiling))
        except (ValueError, OSError):  # macOS refuses some (RLIMIT_AS); the others still hold
            continue
        applied.append(name)
    return applied


KEPT_VARIABLES = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "SYSTEMROOT", "TZ")
"""Needed for numpy to run correctly on some processors, or for Python on Windows; no secrets."""


def scrubbed_environment(home: str) -> dict[str, str]:
    """The worker's whole environment: no tokens, no user paths, one thread per numeric library."""
    environment = {name: os.environ[name] for name in KEPT_VARIABLES if name in os.environ}
    environment.update(
        PATH="/usr/local/bin:/usr/bin:/bin",
        HOME=home,
        TMPDIR=home,
        LANG="C.UTF-8",
        LC_ALL="C.UTF-8",
        PYTHONDONTWRITEBYTECODE="1",
        PYTHONNOUSERSITE="1",
        PYTHONHASHSEED="0",
        OPENBLAS_NUM_THREADS="1",
        OMP_NUM_THREADS="1",
        MKL_NUM_THREADS="1",
        NUMEXPR_NUM_THREADS="1",
    )
    return environment
