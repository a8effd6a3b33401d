"""The isolation layers around the worker, chosen by what this machine allows.

1. always: a separate process in its own session, rlimits, a scrubbed environment, a private
   working directory, capped output (see client.py and limits.py);
2. `bwrap` (bubblewrap), where it is installed and works: no network, its own PID namespace, a
   private /tmp, and a read-only file system that holds only what Python needs (an allow-list):
   no course folder (hidden tests, reference, results), no home folder, nothing else;
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
        """`command` (the worker) as it should be started under these layers.

        With bwrap the worker's file system is an allow-list: the system's programs and
        libraries, the Python installation and its packages, the kit's engine, and its own
        folder. Everything else (every course folder on the machine, home folders, results,
        other submissions) does not exist for it; a hidden folder inside an allowed one is
        covered by an empty tmpfs.
        """
        if not self.bwrap:
            return list(command)
        argv = [self.bwrap, "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts"]
        argv += ["--die-with-parent", "--new-session", "--dev", "/dev", "--proc", "/proc"]
        argv += ["--perms", "1777", "--tmpfs", "/tmp"]
        for link in SYSTEM_LINKS:
            target = Path(link)
            if target.is_symlink():
                argv += ["--symlink", os.readlink(target), link]
            elif target.is_dir():
                argv += ["--ro-bind", link, link]
        for folder in _allowed_folders():
            for between in reversed(folder.parents):  # bwrap would make these 0700: not for nobody
                if between != Path("/"):
                    argv += ["--perms", "0755", "--dir", str(between)]
            argv += ["--ro-bind", str(folder), str(folder)]
        allowed = _allowed_folders()
        for hidden in self.hidden:
            if any(folder == hidden or folder in hidden.parents for folder in allowed):
                argv += ["--perms", "0755", "--tmpfs", str(hidden)]
        argv += ["--bind", str(workdir), SANDBOX_WORKDIR, "--chdir", SANDBOX_WORKDIR, "--"]
        return argv + list(command)


SYSTEM_FOLDERS = ("/usr", "/etc")
SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
"""Merged-/usr systems make these symlinks into /usr; older ones have real folders."""


def _allowed_folders() -> list[Path]:
    """The folders the worker may read: system, interpreter, packages, engine; outermost only."""
    import autograder

    wanted = {Path(f) for f in SYSTEM_FOLDERS}
    wanted |= {Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve()}
    wanted.add(Path(sys.executable).resolve().parent.parent)
    wanted.add(Path(autograder.__file__).resolve().parent)
    wanted |= {Path(p).resolve() for p in sys.path if p and "-packages" in p and Path(p).is_dir()}
    existing = sorted(p for p in wanted if p.is_dir())
    return [p for p in existing if not any(q in p.parents for q in existing)]


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


def _reachable() -> bool:
    """Without bwrap, `nobody` can only run this interpreter if every folder above it is open."""
    return all(
        os.stat(folder).st_mode & 0o001 for folder in Path(sys.base_prefix).resolve().parents
    )
