"""Leave no process behind: the runner adopts orphaned descendants and ends them.

On Linux the runner marks itself a child subreaper, so a process the student's code started
and detached (a double fork, `setsid`) is re-parented to the runner instead of to init; after
each worker, every remaining child of the runner is killed and reaped. Elsewhere this is a no-op
and the worker's process group (or bwrap's PID namespace) is what ends them.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import select
import signal
import sys
import time
from pathlib import Path

PR_SET_CHILD_SUBREAPER = 36
PR_SET_PDEATHSIG = 1


def become_subreaper() -> bool:
    """Ask Linux to re-parent this process's orphaned descendants to it; True if it agreed."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def die_with_parent() -> bool:
    """Ask Linux to kill this process when its parent dies (a grader killed with SIGKILL must not
    leave its runners grading on); True if it agreed."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def wait_for_exit(pid: int, deadline: float | None) -> int | None:
    """Child `pid`'s exit code once it ended; None if it still runs at `deadline` (a
    time.monotonic() value; None waits forever) or is not this process's child.

    Sleeps on a pidfd where Linux has them (woken the moment the child ends), else polls."""
    if deadline is not None:
        with contextlib.suppress(AttributeError, OSError):
            handle = os.pidfd_open(pid)
            try:
                select.select([handle], [], [], max(deadline - time.monotonic(), 0.0))
            finally:
                os.close(handle)
    pause = 0.001
    while True:
        try:
            done, status = os.waitpid(pid, 0 if deadline is None else os.WNOHANG)
        except ChildProcessError:
            return None
        if done:
            return os.waitstatus_to_exitcode(status)
        if deadline is None or time.monotonic() >= deadline:
            return None
        time.sleep(pause)
        pause = min(pause * 2, 0.02)


def end_children() -> int:
    """Kill and reap every child of this process (adopted orphans included); return how many."""
    ended, quiet = 0, 0
    for _ in range(100):  # orphans are adopted a moment after their parent dies: look again
        children = _children()
        if not children:
            quiet += 1
            if quiet == 2:
                break
            time.sleep(0.02)
            continue
        quiet = 0
        for pid in children:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        for pid in children:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
                ended += 1
    return ended


def _children() -> list[int]:
    me = os.getpid()
    return [pid for pid, (parent, _) in process_table().items() if parent == me]


def process_table() -> dict[int, tuple[int, int]]:
    """Every process on this machine (Linux): pid → (parent pid, resident memory in bytes)."""
    table: dict[int, tuple[int, int]] = {}
    proc = Path("/proc")
    if not proc.is_dir():
        return table
    page = os.sysconf("SC_PAGE_SIZE")
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # after the command name: state, ppid, …; rss is the 24th field of the line, 22nd here
        table[int(entry.name)] = (int(fields[1]), int(fields[21]) * page)
    return table
