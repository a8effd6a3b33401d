"""Calls are timed on the processor time the submission's processes use, beside a generous wall
clock: a call that burns its limit, one that sleeps and one a busy machine starves are told
apart, and only the last is graded again alone."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path

import pytest

from autograder.grading.runners import RETRIED_ALONE, Runner
from autograder.grading.turns import Turns
from autograder.protocol import zygote as messages
from autograder.protocol.messages import MessageError
from autograder.protocol.results import SubmissionResult
from autograder.sandbox.client import StudentSession, StudentTimeout, SubmissionTimeExhausted
from autograder.sandbox.cpu_time import TICKS, WALL_FACTOR, Usage, descendants_usage, judge
from autograder.sandbox.isolation import choose
from autograder.sandbox.limits import Limits

LIMIT = 1.0
CAP = WALL_FACTOR * LIMIT


@pytest.mark.parametrize(("wall", "used", "verdict"), [
    (0.5, Usage(0.4, 0.0, 1), "running"),      # within its time
    (0.5, Usage(1.2, 0.0, 3), "cpu"),          # three processes used its limit already
    (1.0, Usage(1.0, 0.0, 1), "cpu"),          # an endless loop on a free processor
    (1.0, Usage(0.01, 0.02, 1), "idle"),       # it sleeps: neither ran nor waited to run
    (1.0, Usage(0.2, 0.7, 1), "running"),      # it waited for a processor: may run on
    (3.9, Usage(0.9, 2.9, 1), "running"),      # still short of its limit, and of the cap
    (4.0, Usage(0.3, 3.6, 1), "starved"),      # the cap: the machine's fault, not the call's
    (1.0, Usage(0.9, 0.1, 1), "running"),
    (1.0, Usage(0.3, None, 1), "running"),     # waiting time unknown: it may be starved
    (0.9, None, "running"),                    # unmeasured: the wall clock as it always was
    (1.0, None, "wall"),
])  # fmt: skip
def test_judge_tells_burning_sleeping_and_starved_calls_apart(
    wall: float, used: Usage | None, verdict: str
) -> None:
    assert judge(wall_s=wall, used=used, limit_s=LIMIT, cap_s=CAP) == verdict


def test_at_the_end_of_its_budget_a_call_that_ran_is_out_of_time_not_starved() -> None:
    """The submission's budget may cut the cap down to the limit itself."""
    ran = Usage(0.95, 0.05, 1)
    assert judge(wall_s=1.0, used=ran, limit_s=1.0, cap_s=1.0) == "wall"
    starved = Usage(0.1, 0.9, 1)
    assert judge(wall_s=1.0, used=starved, limit_s=1.0, cap_s=1.0) == "starved"


def test_usage_since_a_mark_never_goes_below_zero() -> None:
    later = Usage(cpu_s=2.0, waited_s=1.0, processes=2).since(Usage(3.0, 0.5, 4))
    assert later == Usage(0.0, 0.5, 2)  # a process ended meanwhile, taking its time with it
    assert Usage(2.0, None, 1).since(Usage(1.0, 0.5, 1)) == Usage(1.0, None, 1)


def test_usage_messages_carry_numbers_only() -> None:
    reply = messages.reply_from_json({"id": "1", "cpu_s": 1.5, "waited_s": None, "processes": 3})
    assert reply == messages.Usage("1", 1.5, None, 3)
    assert messages.reply_from_json({"id": "1", "cpu_s": None, "processes": 0}).cpu_s is None
    for bad in (-1, float("nan"), "1", True):
        with pytest.raises(MessageError):
            messages.reply_from_json({"id": "1", "cpu_s": bad, "processes": 1})
    for request in (messages.MarkRequest("a"), messages.UsageRequest("b")):
        assert messages.request_from_json(request.to_json()) == request


BURN_THEN_WAIT = (
    "import sys, time\n"
    "while time.process_time() < 0.3: pass\n"
    "print('burnt', flush=True)\n"
    "sys.stdin.read()\n"
)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads Linux's /proc")
def test_descendants_usage_counts_every_process_below() -> None:
    """A child that burnt 0.3 s and one that only waits: both are counted, the CPU time is the
    burner's; the caller's own time is not counted."""
    command = [sys.executable, "-c", BURN_THEN_WAIT]
    burner = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    waiter = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"],
                              stdin=subprocess.PIPE)  # fmt: skip
    try:
        assert burner.stdout is not None and burner.stdout.readline() == "burnt\n"
        used = descendants_usage(os.getpid())
        assert used is not None
        assert used.processes >= 2
        assert 0.3 - 2 / TICKS <= used.cpu_s < 1.0, used  # counted in clock ticks
        assert used.waited_s is not None and used.waited_s >= 0
    finally:
        for child in (burner, waiter):
            assert child.stdin is not None
            child.stdin.close()
            child.wait()


SUBMISSION = """
import time

def sleeps():
    time.sleep(120)

def burns():
    while True:
        pass

def burns_a_little():
    start = time.process_time()
    while time.process_time() - start < 0.3:
        pass
    return 1
"""


@pytest.fixture
def session(tmp_path: Path) -> Iterator[StudentSession]:
    folder = tmp_path / "submission"
    folder.mkdir()
    tmp_path.chmod(0o755)
    module = folder / "vectors.py"
    module.write_text(SUBMISSION, encoding="utf-8")
    isolation = choose(hidden=[Path(__file__).resolve().parents[1]])
    limits = Limits(call_timeout_s=LIMIT, submission_timeout_s=60)
    with StudentSession(
        submission=module, module_name="vectors", limits=limits, isolation=isolation
    ) as student:
        yield student


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux's /proc")
def test_a_call_that_sleeps_is_the_students_timeout_at_its_limit(
    session: StudentSession,
) -> None:
    started = time.monotonic()
    with pytest.raises(StudentTimeout, match=r"within 1 s while running for almost none of it"):
        session.call("sleeps", (), {})
    assert time.monotonic() - started < CAP, "a sleeping call is not waited for up to the cap"
    assert session.events == ["timeout"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux's /proc")
def test_a_call_that_burns_its_limit_is_the_students_timeout(session: StudentSession) -> None:
    burnt = r"burns\(\) did not return within 1 s of processor time: does it loop forever"
    with pytest.raises(StudentTimeout, match=burnt):
        session.call("burns", (), {})
    assert session.events == ["timeout"]


@contextlib.contextmanager
def busy_machine() -> Iterator[None]:
    """Two busy loops a processor at normal priority, each in a session of its own: a worker,
    which takes the lowest priority, gets almost no processor time beside them."""
    loops = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
        for _ in range(2 * (os.cpu_count() or 1))
    ]
    try:
        yield
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux's /proc")
def test_a_call_a_busy_machine_starves_runs_on_and_is_marked_for_a_grade_alone(
    session: StudentSession,
) -> None:
    """A call that needs 0.3 s of processor time, on a machine whose every processor is taken
    by others: not the student's timeout at its 1 s limit; at the cap it is one the grader
    records as the machine's ("starved")."""
    assert session.call("burns_a_little", (), {}) == 1  # the worker is up: its import is done
    with busy_machine():
        started = time.monotonic()
        with pytest.raises(StudentTimeout, match="the machine was busy"):
            session.call("burns_a_little", (), {})
        assert time.monotonic() - started >= CAP
    assert session.events[-2:] == ["timeout", "starved"]


def test_a_submission_whose_budget_runs_out_is_still_the_students(tmp_path: Path) -> None:
    """The budget of the whole submission is wall-clock time: a call that burns through it
    exhausts it, and is not called the machine's fault."""
    folder = tmp_path / "submission"
    folder.mkdir()
    tmp_path.chmod(0o755)
    (folder / "vectors.py").write_text(SUBMISSION, encoding="utf-8")
    limits = Limits(call_timeout_s=5, submission_timeout_s=1)
    with StudentSession(
        submission=folder / "vectors.py",
        module_name="vectors",
        limits=limits,
        isolation=choose(hidden=[Path(__file__).resolve().parents[1]]),
    ) as student:
        with pytest.raises(SubmissionTimeExhausted, match="time budget of 1 s ran out"):
            student.call("burns", (), {})
        assert "starved" not in student.events


def _result(isolation: tuple[str, ...], score: float) -> SubmissionResult:
    return SubmissionResult(
        assignment="vectors",
        submission="alice",
        status="graded",
        score=score,
        max_score=10,
        isolation=isolation,
        duration_s=1.0,
    )


def test_a_starved_submission_is_graded_again_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """The runner grades a submission again, in a turn alone, when a call of it starved; the
    second grade is its result, and says it was graded again."""
    turns_taken: list[str] = []

    class RecordingTurns(Turns):
        def shared(self) -> AbstractContextManager[None]:
            turns_taken.append("shared")
            return super().shared()

        def alone(self) -> AbstractContextManager[None]:
            turns_taken.append("alone")
            return super().alone()

    attempts = iter([(_result(("process",), 8.0), True), (_result(("process",), 10.0), False)])

    def attempt(self: Runner, path: Path) -> tuple[SubmissionResult, str | None]:
        result, starved = next(attempts)
        self._starved = starved
        return result, "source"

    monkeypatch.setattr(Runner, "_attempt", attempt)
    runner = Runner.__new__(Runner)  # no process: only its grade-again logic runs
    runner.turns = RecordingTurns()
    result, source = runner.grade_with_source(Path("alice.py"))
    assert turns_taken == ["shared", "alone"]
    assert result.score == 10.0 and result.isolation == ("process", RETRIED_ALONE)
    assert source == "source"


def test_a_turn_alone_waits_for_the_grades_under_way() -> None:
    """A grade alone starts only once the shared turns taken before it have ended."""
    import threading

    turns = Turns()
    log: list[str] = []
    inside, release = threading.Event(), threading.Event()

    def beside() -> None:
        with turns.shared():
            log.append("shared in")
            inside.set()
            release.wait()
            log.append("shared out")

    def alone() -> None:
        with turns.alone():
            log.append("alone")

    first = threading.Thread(target=beside)
    first.start()
    inside.wait()
    second = threading.Thread(target=alone)
    second.start()
    with turns._changed:  # the grade alone is waiting, provably, before the shared one ends
        assert turns._changed.wait_for(lambda: turns._waiting_alone == 1, timeout=30)
    assert log == ["shared in"]
    release.set()
    for thread in (first, second):
        thread.join()
    assert log == ["shared in", "shared out", "alone"]
