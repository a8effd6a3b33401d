"""Confinement without namespaces: what an unprivileged Linux process can still do to itself.

Where bubblewrap cannot run (Docker's default profile, AppArmor's restriction of user
namespaces on Ubuntu 24.04, some CI runners), the worker confines itself before it imports any
student code, with two layers that need no privilege. Deny by default: it runs as the grader's
own user there, so whatever it could reach of that user's is closed off.

- `landlock` (Linux 5.13+): the file system becomes read-only but for the worker's own slot,
  and unreadable outside the folders Python needs (the system, the interpreter, its packages,
  the kit's engine): no course file, no results, no other slot, no /tmp. From ABI 6 (Linux
  6.12) the ruleset is also scoped: no signal to, and no abstract Unix socket of, any process
  outside the worker's own domain (landlock_ruleset.py);
- `seccomp`: no socket at all (no network, no path or abstract Unix socket: Landlock's file
  rules do not cover `connect` to a socket file, and nothing a worker legitimately does needs
  one; `socketpair`, which reaches nobody, stays), no tracing or reading of other processes'
  memory, no re-limiting of another process (`prlimit64` on pid 0 only), no new namespaces,
  mounts, keyrings, io_uring or kernel modules. On a kernel without Landlock's scopes it also
  confines signals: `kill` only to the worker's own process group (pid 0), `tgkill`,
  `rt_sigqueueinfo` and `rt_tgsigqueueinfo` only to the worker itself, no `tkill` and no
  `pidfd_send_signal`.

Both are inherited by every process the worker starts and cannot be lifted. The bindings are
the `landlock` package (its file-system rights), our own landlock_ruleset.py (its calls with
the scopes), and `pyseccomp` (the system's libseccomp).
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from autograder.errors import AutograderError

DENIED_SYSCALLS = (
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
    "perf_event_open", "bpf", "userfaultfd", "mount", "umount2", "pivot_root", "move_mount",
    "open_tree", "fsopen", "fsmount", "setns", "unshare", "keyctl", "add_key", "request_key",
    "io_uring_setup", "io_uring_enter", "io_uring_register", "kexec_load", "kexec_file_load",
    "init_module", "finit_module", "delete_module", "reboot", "swapon", "swapoff", "syslog",
    "acct", "quotactl", "name_to_handle_at", "open_by_handle_at", "personality",
    # Landlock governs opening and making files, not their metadata: no mode, owner, time or
    # extended attribute of any file (outside the slot they are the grader's)
    "chmod", "fchmod", "fchmodat", "fchmodat2", "chown", "fchown", "lchown", "fchownat",
    "utime", "utimes", "utimensat", "futimesat", "setxattr", "lsetxattr", "fsetxattr",
    "removexattr", "lremovexattr", "fremovexattr",
    # state that outlives the worker (and the submission): System V and POSIX IPC; memory
    # RLIMIT_AS does not count
    "msgget", "semget", "shmget", "mq_open", "memfd_create", "memfd_secret",
    # sockets other than a connected stream pair: no name to bind or reach
    "bind", "connect", "listen", "accept", "accept4",
    # scheduling of another process (pid 0, itself, stays allowed below)
    "ioprio_set", "process_madvise", "pidfd_open",
)  # fmt: skip
"""Calls a worker has no use for and an escape could: each fails with EPERM."""
ONLY_ITSELF = ("prlimit64", "sched_setscheduler", "sched_setparam", "sched_setaffinity",
               "sched_setattr")  # fmt: skip
"""Calls whose first argument is a process: the worker's own (0) only."""
NAMESPACE_FLAGS = (0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000,
                   0x40000000, 0x00000080)  # fmt: skip
"""CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET, NEWTIME: no clone() may
make a namespace (clone3 hides its flags in memory, so it is refused as unknown: ENOSYS, and
the C library falls back to clone)."""
SOCKET_TYPES_DENIED = (2, 3, 4, 5, 10)
"""SOCK_DGRAM, RAW, RDM, SEQPACKET, PACKET: a socketpair of these can still send to a name."""
SOCK_TYPE_MASK = 0xF
F_SETOWN, F_SETOWN_EX, F_SETSIG = 8, 15, 10
FIOSETOWN, SIOCSPGRP = 0x8901, 0x8902
"""fcntl and ioctl requests that have the kernel signal another process (SIGIO) for us."""


class ConfinementFailed(AutograderError):
    """A layer could not be applied: the worker must not run student code."""


SCOPES_FROM_ABI = 6
"""Landlock's signal and abstract-socket scopes (Linux 6.12)."""


@functools.cache
def landlock_abi() -> int:
    """The kernel's Landlock ABI version, 0 where there is none (or no binding); the
    environment's AUTOGRADER_LANDLOCK_ABI may lower it (to test an older kernel's path)."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        import landlock.plumbing  # noqa: F401  (its file-system rights are needed too)

        from autograder.sandbox.landlock_ruleset import abi_version

        abi = abi_version()
    except Exception:  # not built in, disabled at boot, or no binding installed
        return 0
    ceiling = os.environ.get("AUTOGRADER_LANDLOCK_ABI", "")
    return min(abi, int(ceiling)) if ceiling.isdigit() else abi


@functools.cache
def seccomp_usable() -> bool:
    """Whether a seccomp filter can be built here (libseccomp and its binding are present)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import pyseccomp

        pyseccomp.SyscallFilter(pyseccomp.ALLOW)
    except Exception:
        return False
    return True


def available() -> bool:
    """Both layers can be applied on this machine."""
    return landlock_abi() >= 1 and seccomp_usable()


def confine(
    *,
    readable: Sequence[str] | None,
    writable: Sequence[str] = (),
    scoped: bool,
    seccomp: bool = True,
) -> list[str]:
    """Confine this process (and all it will start); the layers applied.

    `readable` (read-only) and `writable` (read-write): the only files it may open, by
    Landlock; None under bwrap, whose allow-listed file system does that already. `scoped`:
    Landlock's signal and abstract-socket scopes (under bwrap too: a worker of the grader's
    own user would otherwise signal the zygote that shares its PID namespace). `seccomp`: the
    filter of the module's docstring, which confines signals itself where there are no scopes.
    """
    import pyseccomp
    from landlock.plumbing import FSAccess

    from autograder.sandbox.landlock_ruleset import restrict_self

    layers = []
    try:
        syscalls = _seccomp_filter(pyseccomp, confine_signals=not scoped) if seccomp else None
        if readable is not None:
            files = FSAccess.all()
            read = FSAccess.READ_FILE | FSAccess.READ_DIR | FSAccess.EXECUTE
            allowed = [
                (path, int(read if os.path.isdir(path) else read & FSAccess.all_file()))
                for path in readable
                if os.path.exists(path)
            ]
            allowed += [
                (path, int(files if os.path.isdir(path) else FSAccess.all_file()))
                for path in writable
            ]
            restrict_self(handled_fs=int(files), allowed=allowed, scoped=scoped)
            layers.append("landlock")
        elif scoped:
            restrict_self(handled_fs=0, allowed=[], scoped=True)
        if scoped:
            layers.append("landlock_scopes")
        if syscalls is not None:
            syscalls.load()
            layers.append("seccomp")
    except Exception as error:
        raise ConfinementFailed(f"{type(error).__name__}: {error}") from error
    return layers


SIGNAL_SYSCALLS_TO_SELF = ("tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo")
"""Their first argument is a thread group: the worker may address its own (raise(), Python's
signal.pthread_kill), no other."""
SIGNAL_SYSCALLS_DENIED = ("tkill", "pidfd_send_signal")


def _seccomp_filter(pyseccomp: Any, *, confine_signals: bool) -> Any:
    """The worker's system-call filter (see the module's docstring)."""
    syscalls = pyseccomp.SyscallFilter(pyseccomp.ALLOW)
    denied = pyseccomp.ERRNO(errno.EPERM)
    syscalls.add_rule(pyseccomp.ERRNO(errno.EACCES), "socket")
    for name in DENIED_SYSCALLS:
        with contextlib.suppress(OSError, ValueError, RuntimeError):  # unknown on this arch
            syscalls.add_rule(denied, name)
    with contextlib.suppress(OSError, ValueError, RuntimeError):
        syscalls.add_rule(pyseccomp.ERRNO(errno.ENOSYS), "clone3")
    for name in ONLY_ITSELF:
        syscalls.add_rule(denied, name, pyseccomp.Arg(0, pyseccomp.NE, 0))
    for which in (0, 1):  # setpriority(PRIO_PROCESS, 0, …) alone: no group, user or other pid
        syscalls.add_rule(denied, "setpriority", pyseccomp.Arg(which, pyseccomp.NE, 0))
    for flag in NAMESPACE_FLAGS:
        syscalls.add_rule(denied, "clone", pyseccomp.Arg(0, pyseccomp.MASKED_EQ, flag, flag))
    for kind in SOCKET_TYPES_DENIED:
        syscalls.add_rule(
            denied, "socketpair", pyseccomp.Arg(1, pyseccomp.MASKED_EQ, SOCK_TYPE_MASK, kind)
        )
    for command in (F_SETOWN, F_SETOWN_EX, F_SETSIG):
        syscalls.add_rule(denied, "fcntl", pyseccomp.Arg(1, pyseccomp.EQ, command))
    for request in (FIOSETOWN, SIOCSPGRP):
        syscalls.add_rule(denied, "ioctl", pyseccomp.Arg(1, pyseccomp.EQ, request))
    if confine_signals:
        syscalls.add_rule(denied, "kill", pyseccomp.Arg(0, pyseccomp.NE, 0))
        me = os.getpid()
        for name in SIGNAL_SYSCALLS_TO_SELF:
            syscalls.add_rule(denied, name, pyseccomp.Arg(0, pyseccomp.NE, me))
        for name in SIGNAL_SYSCALLS_DENIED:
            with contextlib.suppress(OSError, ValueError, RuntimeError):
                syscalls.add_rule(denied, name)
    return syscalls


def devices() -> list[str]:
    """The device files a Python process uses: read and written like any file."""
    return [
        d for d in ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random") if Path(d).exists()
    ]
