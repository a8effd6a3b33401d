"""A call's time, judged on the processor time the submission's processes used.

On a busy machine (other submissions graded beside this one, one of them starting busy loops)
a correct call can take many times its usual wall-clock time without being at fault. So the
zygote, which sees every process of the submission, notes their CPU time when a call starts
(a mark) and reports what they used since (a usage): the time they ran, and the time they
waited, runnable, for a processor (the scheduler's run delay). At the call's limit on the
wall clock the grader judges:

- its processes used the call's limit in CPU time: the student's timeout;
- they were mostly neither running nor waiting to run (sleeping, blocked): the student's;
- they wanted a processor and did not get one: the call may run on, up to WALL_FACTOR times
  its limit (or the end of the submission's budget); past that it is a timeout *the machine*
  caused ("starved", when it got less than half a processor), and the grader grades the
  submission again alone before that counts (runners.py).

Where the usage cannot be read (not Linux), the limit is the wall clock's, as it always was.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

WALL_FACTOR = 4.0
"""How long a call that wants a processor and does not get one may run, in call limits."""
RUNNABLE_SHARE = 0.5
"""Below this share of the wall-clock time spent running or waiting to run, a call sleeps or
blocks: a busy machine is not what holds it up."""
CHECK_INTERVAL_S = 0.5
"""Between two looks at a call that is past its limit on the wall clock but not on CPU time."""
PROC = Path("/proc")
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

Verdict = Literal["running", "cpu", "idle", "starved", "wall"]
"""`running`: wait on; `cpu`: its processes used its limit; `idle`: it sleeps or blocks;
`starved`: it wanted a processor and was given little until its wall-clock cap; `wall`: out
of wall-clock time otherwise (or unmeasured)."""


@dataclass(frozen=True)
class Usage:
    """What a submission's processes used: CPU seconds (their own and their reaped
    children's), seconds waited runnable for a processor (None where unknown), how many."""

    cpu_s: float
    waited_s: float | None
    processes: int

    def since(self, earlier: Usage) -> Usage:
        """What was used after `earlier` (a process that ended unreaped takes its time with it:
        never below zero)."""
        waited = (
            None
            if self.waited_s is None or earlier.waited_s is None
            else max(self.waited_s - earlier.waited_s, 0.0)
        )
        return Usage(max(self.cpu_s - earlier.cpu_s, 0.0), waited, self.processes)


def judge(*, wall_s: float, used: Usage | None, limit_s: float, cap_s: float) -> Verdict:
    """Whether a call that has run `wall_s` seconds, its processes having used `used`, is
    over: its limit is `limit_s` of CPU time, and `cap_s` of wall-clock time at most."""
    if used is None:
        return "wall" if wall_s >= limit_s else "running"
    if used.cpu_s >= limit_s:
        return "cpu"
    if wall_s < limit_s:
        return "running"
    if used.waited_s is not None and used.cpu_s + used.waited_s < RUNNABLE_SHARE * wall_s:
        return "idle"
    if wall_s >= cap_s:  # out of time: the machine's fault only if it gave the call little
        return "starved" if used.cpu_s < RUNNABLE_SHARE * wall_s else "wall"
    return "running"


def descendants_usage(root: int) -> Usage | None:
    """What every descendant of process `root` uses (Linux; None elsewhere). Orphans count:
    the zygote that asks is their subreaper, so they are its children."""
    if not (PROC / str(root)).is_dir():
        return None
    cpu_ticks, waited_ns, known_wait, count = 0, 0, True, 0
    for pid in _descendants(root):
        try:
            fields = (PROC / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
            cpu_ticks += sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
        except (OSError, IndexError, ValueError):
            continue  # ended meanwhile
        count += 1
        waited = _waited_ns(pid)
        if waited is None:
            known_wait = False
        else:
            waited_ns += waited
    return Usage(cpu_ticks / TICKS, waited_ns / 1e9 if known_wait else None, count)


def _descendants(root: int) -> list[int]:
    """Every process below `root`, by the kernel's lists of children (a scan of the process
    table where those are not kept)."""
    if not (PROC / str(root) / "task" / str(root) / "children").exists():
        return _descendants_by_table(root)
    found: list[int] = []
    pending = [root]
    while pending:
        pid = pending.pop()
        with contextlib.suppress(OSError):
            for task in (PROC / str(pid) / "task").iterdir():
                with contextlib.suppress(OSError, ValueError):
                    children = [int(c) for c in (task / "children").read_text().split()]
                    found += children
                    pending += children
    return found


def _descendants_by_table(root: int) -> list[int]:
    from autograder.sandbox.reaper import process_table

    parents = {pid: parent for pid, (parent, _) in process_table().items()}
    found: list[int] = []
    pending = [root]
    while pending:
        pid = pending.pop()
        children = [child for child, parent in parents.items() if parent == pid]
        found += children
        pending += children
    return found


def _waited_ns(pid: int) -> int | None:
    """The time the threads of `pid` waited, runnable, for a processor (its schedstat)."""
    total = 0
    try:
        for task in (PROC / str(pid) / "task").iterdir():
            with contextlib.suppress(FileNotFoundError, ProcessLookupError):
                total += int((task / "schedstat").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return None
    return total
