"""The isolation layers around the worker, chosen by what this machine allows.

1. always: a separate process in its own session, rlimits (a process limit included), a
   scrubbed environment, a private working directory, capped output (see client.py, limits.py);
2. `bwrap` (bubblewrap), where it is installed and works: no network, its own PID namespace, a
   private size-capped /tmp, and a read-only file system that holds only what Python needs (an
   allow-list): no course folder (hidden tests, reference, results), no home folder, nothing
   else; where it does not, `landlock` and `seccomp` (confine.py): the same allow-list, read
   only, the worker's slot the one place it may write, no sockets but Unix ones, no tracing;
   where neither works, grading refuses unless the rubric says `isolation = "unsafe"`;
3. when the grader runs as root: the worker drops to an unprivileged user of its runner's own
   (a uid no account has, one per runner), before it imports any student code: the workers of
   two runners cannot write each other's folders, signal or trace each other;
4. the processors: a CPU cgroup capped at the runner's share where one can be made, and the
   lowest priority for every process of the student's (cpu_share.py); calls are timed on the
   CPU time their processes use (cpu_time.py).

The submission reaches the worker through an inbox (read-only under bwrap); the zygote copies
it into a fresh slot for each submission (inside the sandbox's size-capped /tmp under bwrap)
and removes the slot when the submission ends.
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
from typing import Any

WORKER_UID_BASE = 0x70000000
"""Workers drop to WORKER_UID_BASE + the runner's pid: unique among running graders, and far
above any account's uid."""
SHM_BYTES = 8 * 2**20
"""The sandbox's /dev/shm (POSIX semaphores and shared memory of a student's multiprocessing)."""
SANDBOX_WORKDIR = "/tmp/submission"
SANDBOX_INBOX = "/tmp/inbox"


@dataclass(frozen=True)
class Isolation:
    """How workers are started: with bwrap or Landlock, as this user or as one of their own."""

    bwrap: str | None
    drop_user: bool
    hidden: tuple[Path, ...]
    """Folders the worker must not see (the course, the results folder)."""
    tmp_bytes: int = 64 * 2**20
    """The size of the sandbox's /tmp (bwrap's tmpfs), which holds the submission's slot."""
    worker_uid: int | None = None
    """The uid workers drop to (when `drop_user`): this runner's own."""
    landlock: bool = False
    """Without bwrap: the worker confines its file access with Landlock (confine.py)."""
    scopes: bool = False
    """The worker takes Landlock's signal and abstract-socket scopes (Linux 6.12+)."""
    seccomp: bool = False
    """The worker filters its system calls (confine.py): with Landlock, and under bwrap where
    libseccomp is at hand."""
    cpu_cgroup: bool = False
    """The zygote runs in a CPU cgroup capped at the runner's share (cpu_share.py). Where it
    does not, the lowest priority the worker takes is all that stands for it."""

    @property
    def layers(self) -> list[str]:
        layers = ["process", "rlimits"]
        if self.bwrap:
            layers.append("bwrap")
        if self.landlock:
            layers.append("landlock")
        if self.scopes:
            layers.append("landlock_scopes")
        if self.seccomp:
            layers.append("seccomp")
        if self.drop_user:
            layers.append("unprivileged_user")
        if self.cpu_cgroup:
            layers.append("cpu-cgroup")
        if hasattr(os, "nice"):  # the worker takes the lowest priority (worker.py)
            layers.append("cpu-nice")
        return layers

    def confinement(self, slot: str) -> dict[str, Any] | None:
        """What the worker confines itself to (confine.confine's arguments), or None."""
        if not (self.landlock or self.scopes or self.seccomp):
            return None
        files: dict[str, Any] = {"readable": None}
        if self.landlock:
            from autograder.sandbox.confine import devices

            readable = [str(p) for p in _allowed_folders()]
            files = {"readable": readable, "writable": [slot, *devices()]}
        return {**files, "scoped": self.scopes, "seccomp": self.seccomp}

    def inbox_in_worker(self, inbox: Path) -> str:
        return SANDBOX_INBOX if self.bwrap else str(inbox)

    def wrap(self, command: Sequence[str], inbox: Path) -> list[str]:
        """`command` (the zygote) as it should be started under these layers.

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
        argv += ["--perms", "1777", "--size", str(SHM_BYTES), "--tmpfs", "/dev/shm"]
        argv += ["--remount-ro", "/dev"]  # its own tmpfs, in memory and unbounded: read-only
        argv += ["--perms", "1777", "--size", str(self.tmp_bytes), "--tmpfs", "/tmp"]
        for link in SYSTEM_LINKS:
            target = Path(link)
            if target.is_symlink():
                argv += ["--symlink", os.readlink(target), link]
            elif target.is_dir():
                argv += ["--ro-bind", link, link]
        for folder in _allowed_folders():
            for between in reversed(folder.parents):  # bwrap makes these 0700: not for a worker
                if between != Path("/"):
                    argv += ["--perms", "0755", "--dir", str(between)]
            argv += ["--ro-bind", str(folder), str(folder)]
        allowed = _allowed_folders()
        for hidden in self.hidden:
            if any(folder == hidden or folder in hidden.parents for folder in allowed):
                argv += ["--perms", "0755", "--tmpfs", str(hidden)]
        argv += ["--ro-bind", str(inbox), SANDBOX_INBOX, "--chdir", "/tmp", "--"]
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


def hand_to_worker(folder: Path, uid: int | None) -> None:
    """Make `folder` (a submission's slot) the worker's own and no one else's: owned by `uid`
    (when the grader is root and drops to it), readable and writable by it alone."""
    folder.chmod(0o700)
    for entry in [folder, *folder.rglob("*")]:
        if uid is not None and not entry.is_symlink():
            os.chown(entry, uid, uid)


def choose(
    *,
    hidden: Sequence[Path],
    bubblewrap: str = "auto",
    tmp_mb: int = 64,
    isolation: str = "confined",
) -> Isolation:
    """The strongest layers this machine allows. `bubblewrap`: "auto", "required" or "off";
    `tmp_mb`: the size of the sandbox's /tmp (the rubric's disk_mb); `isolation`: "confined"
    refuses to grade where neither bwrap nor Landlock confines the worker, "unsafe" grades."""
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
    hidden = [p.resolve() for p in hidden]
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    landlock = bwrap is None and _landlock_confines(hidden)
    if bwrap is None and isolation != "unsafe":
        from autograder.errors import AutograderError

        if not landlock:
            raise AutograderError(unconfinable_message(hidden))
        if root and not drop:
            raise AutograderError(
                f"without bubblewrap the worker would run as root: the interpreter in "
                f"{Path(sys.base_prefix).resolve()} lies in a folder other users cannot enter. "
                "Install bubblewrap, or grade with a Python installed where every user may read "
                '(/usr, /opt); or set isolation = "unsafe" in the rubric\'s [limits]'
            )
    return Isolation(
        bwrap=bwrap,
        drop_user=drop,
        hidden=tuple(hidden),
        tmp_bytes=tmp_mb * 2**20,
        worker_uid=WORKER_UID_BASE + os.getpid() if drop else None,
        landlock=landlock,
        scopes=(bwrap is not None or landlock) and _scopes_available(),
        seccomp=landlock or (bwrap is not None and seccomp_usable()),
    )


def seccomp_usable() -> bool:
    from autograder.sandbox.confine import seccomp_usable as usable

    return usable()


def _scopes_available() -> bool:
    from autograder.sandbox.confine import SCOPES_FROM_ABI, landlock_abi

    return landlock_abi() >= SCOPES_FROM_ABI


def unconfinable_message(hidden: Sequence[Path]) -> str:
    """Why the worker cannot be confined here, and the ways to make it so."""
    from autograder.sandbox.confine import landlock_abi, seccomp_usable

    missing = []
    if usable_bwrap() is None:
        missing.append(
            "bubblewrap does not work (missing, or user namespaces are forbidden)"
            if shutil.which("bwrap") is None or not sys.platform.startswith("linux")
            else "bubblewrap is installed but cannot create namespaces here"
        )
    if landlock_abi() < 1:
        missing.append("the kernel has no Landlock (Linux 5.13+, `lsm=landlock`)")
    if not seccomp_usable():
        missing.append("seccomp cannot be used (the libseccomp library and `pyseccomp`)")
    if landlock_abi() >= 1 and seccomp_usable():
        missing.append(
            "a folder the worker must not read lies inside one it must (Landlock cannot hide "
            f"it): {', '.join(str(h) for h in hidden)}"
        )
    return (
        "grading refuses to run student code unconfined: " + "; ".join(missing) + ". Ways to "
        "confine it: run the grader as root (bubblewrap then needs no user namespace); on "
        "Ubuntu 23.10+ allow unprivileged user namespaces (sysctl "
        "kernel.apparmor_restrict_unprivileged_userns=0, or an AppArmor profile for bwrap); "
        "in Docker, run with --security-opt seccomp=unconfined --security-opt "
        "apparmor=unconfined, or use a kernel with Landlock and install libseccomp. To grade "
        'with the weaker layers anyway, set isolation = "unsafe" in the rubric\'s [limits]'
    )


def _landlock_confines(hidden: Sequence[Path]) -> bool:
    """Landlock and seccomp work here, and no hidden folder lies inside a folder the worker may
    read (Landlock only allows: unlike bwrap, it cannot hide a folder inside an allowed one)."""
    from autograder.sandbox.confine import available

    if not available():
        return False
    allowed = _allowed_folders()
    return not any(folder == h or folder in h.parents for h in hidden for folder in allowed)


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
    """Without bwrap, another user can run this interpreter only if every folder above it is
    open to others."""
    return all(
        os.stat(folder).st_mode & 0o001 for folder in Path(sys.base_prefix).resolve().parents
    )
