"""Landlock's three system calls, with the ruleset fields the `landlock` package does not know.

The package (`landlock` on PyPI) builds rulesets of file-system rights only; since ABI 6
(Linux 6.12) a ruleset can also be *scoped*: a process in it may neither signal nor connect to
an abstract Unix socket of a process outside it. Those two scopes are what keeps a worker that
runs as the grader's own user (no bubblewrap, no root) from `kill(-1)` and from the user's D-Bus
session bus, so the kit calls the kernel itself here, as the kernel's documentation describes
(Documentation/userspace-api/landlock.rst: `struct landlock_ruleset_attr` grows by fields, and
the size passed says which the caller knows). The file-system rights come from the package.
"""

from __future__ import annotations

import ctypes
import os
import platform
from collections.abc import Iterable

from autograder.errors import AutograderError

SYSCALL_CREATE_RULESET = 444
SYSCALL_ADD_RULE = 445
SYSCALL_RESTRICT_SELF = 446
"""The same numbers on every architecture (they came after the unified syscall table)."""
CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH = 1
PR_SET_NO_NEW_PRIVS = 38

SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0
SCOPE_SIGNAL = 1 << 1
SCOPES_FROM_ABI = 6


class _RulesetAttr(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),  # ABI 4
        ("scoped", ctypes.c_uint64),  # ABI 6
    ]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1  # the kernel's struct is packed: 12 bytes
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


class LandlockError(AutograderError, OSError):
    """A Landlock call failed: the process is not (fully) confined."""


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> int:
    if result < 0:
        code = ctypes.get_errno()
        raise LandlockError(code, f"{what}: {os.strerror(code)}")
    return result


def abi_version() -> int:
    """The kernel's Landlock ABI, 0 where it has none (not Linux, not built in, disabled)."""
    if platform.system() != "Linux":
        return 0
    libc = _libc()
    result = libc.syscall(
        ctypes.c_long(SYSCALL_CREATE_RULESET), None, ctypes.c_size_t(0),
        ctypes.c_uint32(CREATE_RULESET_VERSION),
    )  # fmt: skip
    return max(int(result), 0)


def restrict_self(
    *,
    handled_fs: int,
    allowed: Iterable[tuple[str, int]],
    scoped: bool,
) -> None:
    """Confine this thread (and all it will start) to `allowed` (path, rights) pairs of the
    `handled_fs` rights; with `scoped`, also to signalling and abstract-socket connections
    within its own domain. Sets no_new_privs, as Landlock requires of an unprivileged caller."""
    libc = _libc()
    attr = _RulesetAttr(handled_fs, 0, (SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL) if scoped else 0)
    size = ctypes.sizeof(_RulesetAttr) if scoped else ctypes.sizeof(ctypes.c_uint64)
    ruleset = _check(
        libc.syscall(
            ctypes.c_long(SYSCALL_CREATE_RULESET), ctypes.byref(attr), ctypes.c_size_t(size),
            ctypes.c_uint32(0),
        ),
        "landlock_create_ruleset",
    )  # fmt: skip
    try:
        for path, rights in allowed:
            fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            try:
                rule = _PathBeneathAttr(rights, fd)
                _check(
                    libc.syscall(
                        ctypes.c_long(SYSCALL_ADD_RULE), ctypes.c_int(ruleset),
                        ctypes.c_int(RULE_PATH_BENEATH), ctypes.byref(rule), ctypes.c_uint32(0),
                    ),
                    f"landlock_add_rule({path})",
                )  # fmt: skip
            finally:
                os.close(fd)
        _check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(PR_SET_NO_NEW_PRIVS)")
        _check(
            libc.syscall(
                ctypes.c_long(SYSCALL_RESTRICT_SELF), ctypes.c_int(ruleset), ctypes.c_uint32(0)
            ),
            "landlock_restrict_self",
        )
    finally:
        os.close(ruleset)
