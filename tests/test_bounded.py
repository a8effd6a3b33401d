"""The grader's symbolic work on a student's data runs in a forked child, bounded in time and
in the memory it may add to what it inherits (a Jupyter kernel's process maps gigabytes)."""

from __future__ import annotations

import mmap
import os

from autograder.checks.bounded import MEMORY_LIMIT_MB, run_bounded


def in_a_child(work: object) -> int:
    """Run `work()` in a forked process; its exit code (0: what the test expects held)."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through its exit code
        code = 3
        try:
            code = 0 if work() else 1  # type: ignore[operator]
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def test_work_gets_its_answer_and_a_timeout_its_reason() -> None:
    assert run_bounded(lambda: 6 * 7, timeout_s=30).value == 42
    assert run_bounded(lambda: __import__("time").sleep(30), timeout_s=0.2).problem == "timeout"
    assert (run_bounded(lambda: 1 / 0, timeout_s=30).problem or "").startswith(
        "error: ZeroDivisionError"
    )


def test_a_process_that_maps_gigabytes_still_gets_its_answers() -> None:
    """A process whose address space is beyond the child's allowance (a notebook's kernel):
    the allowance counts from what the child inherits, so the work still runs, and still may
    not take more than the allowance."""

    def mapped_then_bounded() -> bool:
        reserved = mmap.mmap(-1, (MEMORY_LIMIT_MB + 512) * 2**20)  # mapped, never touched
        small = run_bounded(lambda: len(bytearray(64 * 2**20)), timeout_s=30)
        large = run_bounded(lambda: len(bytearray((MEMORY_LIMIT_MB + 64) * 2**20)), timeout_s=30)
        reserved.close()
        return small.value == 64 * 2**20 and (large.problem or "").startswith("error: MemoryError")

    assert in_a_child(mapped_then_bounded) == 0
