"""Resource limits for the worker, and the scrubbed environment it starts with."""

from __future__ import annotations

import contextlib
import os
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
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
    disk_mb: int = 64
    """The sandbox's /tmp, which holds the submission's folder: a tmpfs of this size where
    bubblewrap runs (without it, only file_size_mb bounds each file)."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Limits:
        return cls(**data)


def apply_limits(limits: Limits, *, own_user: bool) -> list[str]:
    """Set this process's rlimits (inherited by its children); return the names of those set.

    RLIMIT_NPROC counts every process of the user. For a user of the worker's own (`own_user`:
    the uid a root grader drops to) it is the rubric's `processes`; for a grader's own user it is
    that many more than the user runs already, which still stops a fork bomb.
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
        "RLIMIT_NICE": 0,  # no priority above the one it was given (cpu_share.py)
    }
    wanted["RLIMIT_NPROC"] = limits.processes + (0 if own_user else processes_of(os.getuid()))
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


def processes_of(uid: int) -> int:
    """How many processes (threads count for RLIMIT_NPROC, so: tasks) `uid` runs now (Linux)."""
    count = 0
    with contextlib.suppress(OSError):
        for entry in os.scandir("/proc"):
            if entry.name.isdigit():
                with contextlib.suppress(OSError):
                    if entry.stat().st_uid == uid:
                        count += len(os.listdir(f"/proc/{entry.name}/task"))
    return count


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


def limit_address_space(extra_mb: int) -> None:
    """Cap this process's address space at what it maps now plus `extra_mb` (Linux): a
    limit on what it may add, whatever it inherited (a Jupyter kernel maps gigabytes it never
    uses, in threads' stacks and malloc's arenas)."""
    import resource

    with contextlib.suppress(OSError, ValueError, StopIteration):  # not Linux: no limit
        status = Path("/proc/self/status").read_bytes()  # its Name: line may be any bytes
        mapped_kb = int(next(line for line in status.splitlines() if line.startswith(b"VmSize:"))
                        .split()[1])  # fmt: skip
        limit = (mapped_kb + extra_mb * 1024) * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))
