"""The isolation layers around the worker, chosen by what this machine allows.

1. always: a separate process in its own session, rlimits, a scrubbed environment, a private
   working directory, capped output (see client.py and limits.py);
2. `bwrap` (bubblewrap), where it is installed and works: no network, its own PID namespace, a
   read-only view of the system in which the course folder (hidden tests, reference, results)
   and the home folders do not exist, a private /tmp;
3. when the grader runs as root: the worker drops to the unprivileged user `nobody` before it
   imports any student code.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

UNPRIVILEGED_UID = 65534  # `nobody` on Linux distributions
SANDBOX_WORKDIR = "/tmp/submission"
HOME_FOLDERS = ("/root", "/home")


@dataclass(frozen=True)
class Isolation:
    """How workers are started: with or without bwrap, as this user or as `nobody`."""

    bwrap: str | None
    drop_user: bool
    hidden: tuple[Path, ...]
    """Folders the worker must not see (the course, the results folder)."""

    @property
    def layers(self) -> list[str]:
        layers = ["process", "rlimits"]
        if self.bwrap:
            layers.append("bwrap")
        if self.drop_user:
            layers.append("unprivileged_user")
        return layers

    def workdir_in_worker(self, workdir: Path) -> str:
        return SANDBOX_WORKDIR if self.bwrap else str(workdir)

    def wrap(self, command: Sequence[str], workdir: Path) -> list[str]:
        """`command` (the worker) as it should be started under these layers."""
        if not self.bwrap:
            return list(command)
        argv = [self.bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
        argv += ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts"]
        argv += ["--die-with-parent", "--new-session", "--tmpfs", "/tmp"]
        covered = [
            *(Path(p) for p in _existing(HOME_FOLDERS)),
            *(h for h in self.hidden if h.is_dir()),
        ]
        for folder in covered:
            argv += ["--perms", "0755", "--tmpfs", str(folder)]
        for folder, needed in _needed_inside(covered):
            # bwrap would create the folders between with mode 0700, closed to `nobody`
            for between in reversed(needed.parents):
                if folder in between.parents:
                    argv += ["--perms", "0755", "--dir", str(between)]
            argv += ["--ro-bind", str(needed), str(needed)]
        argv += ["--bind", str(workdir), SANDBOX_WORKDIR, "--chdir", SANDBOX_WORKDIR, "--"]
        return argv + list(command)


def hand_to_worker(folder: Path) -> None:
    """Make `folder` (the submission's private copy) the worker's own: readable and writable
    by it, whether it runs as this user or, when the grader is root, as `nobody`."""
    entries = [folder, *folder.rglob("*")]
    for entry in entries:
        entry.chmod(0o755 if entry.is_dir() else 0o644)
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            os.chown(entry, UNPRIVILEGED_UID, UNPRIVILEGED_UID)


def choose(*, hidden: Sequence[Path], bubblewrap: str = "auto") -> Isolation:
    """The strongest layers this machine allows. `bubblewrap`: "auto", "required" or "off"."""
    bwrap = None
    if bubblewrap != "off":
        bwrap = usable_bwrap()
        if bwrap is None and bubblewrap == "required":
            from autograder.errors import AutograderError

            raise AutograderError(
                "the rubric requires bubblewrap, but `bwrap` is missing or does not work here "
                "(install the Debian/Ubuntu package `bubblewrap`)"
            )
    drop = hasattr(os, "geteuid") and os.geteuid() == 0 and (bwrap is not None or _reachable())
    return Isolation(bwrap=bwrap, drop_user=drop, hidden=tuple(p.resolve() for p in hidden))


@functools.cache
def usable_bwrap() -> str | None:
    """The path of a bwrap that can create the namespaces we need here, or None."""
    path = shutil.which("bwrap")
    if path is None or not sys.platform.startswith("linux"):
        return None
    probe = [path, "--ro-bind", "/", "/", "--unshare-pid", "--unshare-net", "--dev", "/dev",
             "--proc", "/proc", "--tmpfs", "/tmp", "--", "/bin/true"]  # fmt: skip
    try:
        done = subprocess.run(probe, capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return path if done.returncode == 0 else None


def _needed_inside(hidden: Sequence[Path]) -> list[tuple[Path, Path]]:
    """(hidden folder, path) for each path the worker needs (the interpreter, its packages, the
    engine) that sits in a hidden folder and must be bound back, read-only, on top of it."""
    import autograder

    needed = {
        Path(sys.prefix).resolve(),
        Path(sys.base_prefix).resolve(),
        Path(sys.executable).resolve().parent.parent,
        Path(autograder.__file__).resolve().parent,
    }
    needed |= {
        Path(p).resolve() for p in sys.path if p and Path(p).is_dir() and "site-packages" in p
    }
    pairs = {(h, p) for p in needed for h in hidden if h in p.parents}
    outermost = {(h, p) for h, p in pairs if not any(q in p.parents for _, q in pairs)}
    return sorted(outermost)


def _existing(paths: Sequence[str]) -> list[str]:
    return [p for p in paths if Path(p).is_dir()]


def _reachable() -> bool:
    """Without bwrap, `nobody` can only run this interpreter if every folder above it is open."""
    return all(
        os.stat(folder).st_mode & 0o001 for folder in Path(sys.base_prefix).resolve().parents
    )
