"""Confinement without namespaces: what an unprivileged Linux process can still do to itself.

Where bubblewrap cannot run (Docker's default profile, AppArmor's restriction of user
namespaces on Ubuntu 24.04, some CI runners), the worker confines itself before it imports any
student code, with two layers that need no privilege:

- `landlock` (Linux 5.13+): the file system becomes read-only but for the worker's own slot,
  and unreadable outside the folders Python needs (the system, the interpreter, its packages,
  the kit's engine): no course file, no results, no other slot, no /tmp;
- `seccomp`: no socket but Unix ones (so no network), no tracing or reading of other processes'
  memory, no new namespaces, mounts, keyrings, io_uring or kernel modules.

Both are inherited by every process the worker starts and cannot be lifted. The bindings are
the `landlock` and `pyseccomp` packages (pyseccomp calls the system's libseccomp).
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import socket
import sys
from collections.abc import Sequence
from pathlib import Path

DENIED_SYSCALLS = (
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
    "perf_event_open", "bpf", "userfaultfd", "mount", "umount2", "pivot_root", "move_mount",
    "open_tree", "fsopen", "fsmount", "setns", "unshare", "keyctl", "add_key", "request_key",
    "io_uring_setup", "io_uring_enter", "io_uring_register", "kexec_load", "kexec_file_load",
    "init_module", "finit_module", "delete_module", "reboot", "swapon", "swapoff", "syslog",
    "acct", "quotactl", "name_to_handle_at", "open_by_handle_at", "personality",
)  # fmt: skip
"""Calls a worker has no use for and an escape could: each fails with EPERM."""


class ConfinementFailed(Exception):
    """A layer could not be applied: the worker must not run student code."""


@functools.cache
def landlock_abi() -> int:
    """The kernel's Landlock ABI version, 0 where there is none (or no binding)."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        from landlock.plumbing import landlock_abi_version

        return int(landlock_abi_version())
    except Exception:  # not built in, disabled at boot, or no binding installed
        return 0


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


def confine(*, readable: Sequence[str], writable: Sequence[str]) -> list[str]:
    """Confine this process (and all it will start): read-only `readable`, read-write
    `writable`, nothing else of the file system; no network, no tracing. The layers applied."""
    import pyseccomp
    from landlock import Ruleset
    from landlock.plumbing import FSAccess

    syscalls = pyseccomp.SyscallFilter(pyseccomp.ALLOW)
    denied = pyseccomp.ERRNO(errno.EPERM)
    syscalls.add_rule(
        pyseccomp.ERRNO(errno.EACCES),
        "socket",
        pyseccomp.Arg(0, pyseccomp.NE, socket.AF_UNIX),
    )
    for name in DENIED_SYSCALLS:
        with contextlib.suppress(OSError, ValueError, RuntimeError):  # unknown on this arch
            syscalls.add_rule(denied, name)
    files = FSAccess.all()
    read = FSAccess.READ_FILE | FSAccess.READ_DIR | FSAccess.EXECUTE
    ruleset = Ruleset(restrict_rules=files)
    for path in readable:
        if os.path.exists(path):
            ruleset.allow(path, rules=read if os.path.isdir(path) else read & FSAccess.all_file())
    for path in writable:
        rules = files if os.path.isdir(path) else FSAccess.all_file()
        ruleset.allow(path, rules=rules)
    try:
        ruleset.apply()
        syscalls.load()
    except Exception as error:
        raise ConfinementFailed(f"{type(error).__name__}: {error}") from error
    return ["landlock", "seccomp"]


def devices() -> list[str]:
    """The device files a Python process uses: read and written like any file."""
    return [
        d for d in ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random") if Path(d).exists()
    ]
