"""The messages between the grader (grading/runners.py) and its runner process (grading/serve.py).

The runner is started with a RunnerStart as its argument; it answers RunnerReady on stdout once
its tests are collected, then a GradeReply to each GradeRequest read on stdin (one JSON object
a line). Each forked child writes its ChildResults to the request's results file. All of it is
trusted code's output, yet read as carefully as the worker's: a malformed line is a runner that
failed (MessageError), never a crash of the grader.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from autograder.protocol.messages import MessageError, fields, integer, optional_text, text
from autograder.protocol.results import TestOutcome

PATH_LIMIT = 4096
PROBLEM_LIMIT = 20_000
"""What went wrong in a child: a line and the last lines of its traceback."""
MAX_HIDDEN = 1000
MAX_TESTS = 100_000


@dataclass(frozen=True)
class RunnerStart:
    """Which assignment to grade (found again from its course's folder), the folders the
    sandbox hides, whether to rehearse on the reference first, and the processors the
    submissions it grades may use (None: the whole machine's)."""

    course: str
    assignment: str
    hide: tuple[str, ...] = ()
    rehearse: bool = False
    cores: float | None = None
    catalogue: bool = True
    """False: hints from the kit's own judgement alone (mutants, generic measures), as
    `validate --without-catalogue` measures how far it reaches."""

    def to_json(self) -> dict[str, Any]:
        return {
            "course": self.course,
            "assignment": self.assignment,
            "hide": list(self.hide),
            "rehearse": self.rehearse,
            "cores": self.cores,
            "catalogue": self.catalogue,
        }

    @classmethod
    def from_json(cls, data: Any) -> RunnerStart:
        message = fields(data, "a runner's configuration")
        hide = message.get("hide", [])
        if not isinstance(hide, list) or len(hide) > MAX_HIDDEN:
            raise MessageError("a runner's configuration whose hidden folders are not a list")
        if not all(isinstance(folder, str) for folder in hide):
            raise MessageError("a runner's configuration whose hidden folders are not paths")
        return cls(
            course=text(message, "course", PATH_LIMIT),
            assignment=text(message, "assignment", PATH_LIMIT),
            hide=tuple(hide),
            rehearse=message.get("rehearse") is True,
            cores=_cores(message.get("cores")),
            catalogue=message.get("catalogue") is not False,
        )


@dataclass(frozen=True)
class Rehearsal:
    """What the runner's rehearsal did: how many of how many tests the reference passed, or
    why it stopped."""

    passed: int = 0
    tests: int = 0
    failed: str | None = None

    def to_json(self) -> dict[str, Any]:
        if self.failed is not None:
            return {"failed": self.failed}
        return {"passed": self.passed, "tests": self.tests}

    @classmethod
    def from_json(cls, data: Any) -> Rehearsal:
        message = fields(data, "a rehearsal")
        if "failed" in message:
            return cls(failed=text(message, "failed", PROBLEM_LIMIT))
        return cls(passed=integer(message, "passed"), tests=integer(message, "tests"))


@dataclass(frozen=True)
class RunnerReady:
    """The runner collected its tests (and rehearsed, when asked)."""

    tests: int
    rehearsal: Rehearsal | None = None

    def to_json(self) -> dict[str, Any]:
        rehearsal = None if self.rehearsal is None else self.rehearsal.to_json()
        return {"ready": True, "tests": self.tests, "rehearsal": rehearsal}

    @classmethod
    def from_json(cls, data: Any) -> RunnerReady:
        message = fields(data, "a runner's first line")
        if message.get("ready") is not True:
            raise MessageError("a runner's first line that does not say it is ready")
        rehearsal = message.get("rehearsal")
        return cls(
            tests=integer(message, "tests"),
            rehearsal=None if rehearsal is None else Rehearsal.from_json(rehearsal),
        )


@dataclass(frozen=True)
class GradeRequest:
    """Grade the submission copied to `submission_dir` (its module is `module_file`) and write
    the ChildResults to `results`."""

    id: int
    submission_dir: str
    results: str
    module_file: str

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "submission_dir": self.submission_dir,
            "results": self.results,
            "module_file": self.module_file,
        }

    @classmethod
    def from_json(cls, data: Any) -> GradeRequest:
        message = fields(data, "a request to grade")
        return cls(
            id=integer(message, "id"),
            submission_dir=text(message, "submission_dir", PATH_LIMIT),
            results=text(message, "results", PATH_LIMIT),
            module_file=text(message, "module_file", PATH_LIMIT),
        )


@dataclass(frozen=True)
class GradeReply:
    """The request `id` is done: None for `problem` when its results are written, else what
    went wrong."""

    id: int | None
    problem: str | None
    duration_s: float

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "problem": self.problem, "duration_s": self.duration_s}

    @classmethod
    def from_json(cls, data: Any) -> GradeReply:
        message = fields(data, "a runner's answer")
        duration = message.get("duration_s", 0.0)
        if type(duration) not in (int, float):
            raise MessageError("a runner's answer whose duration is not a number")
        return cls(
            id=None if message.get("id") is None else integer(message, "id"),
            problem=optional_text(message, "problem", PROBLEM_LIMIT),
            duration_s=float(duration),
        )


@dataclass(frozen=True)
class ChildResults:
    """What a child that graded one submission writes: each test's outcome, the isolation
    layers, the student's output (all of it, and what the tests shown at once printed), and
    what became of its workers."""

    tests: tuple[TestOutcome, ...]
    isolation: tuple[str, ...]
    output: str
    shown_output: str = ""
    worker_events: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "tests": [outcome.to_dict() for outcome in self.tests],
            "isolation": list(self.isolation),
            "output": self.output,
            "shown_output": self.shown_output,
            "worker_events": list(self.worker_events),
        }

    @classmethod
    def from_json(cls, data: Any) -> ChildResults:
        message = fields(data, "a child's results")
        tests, isolation = message.get("tests"), message.get("isolation")
        events = message.get("worker_events", [])
        if not isinstance(tests, list) or len(tests) > MAX_TESTS:
            raise MessageError("a child's results whose tests are not a list")
        for name, entries in (("isolation", isolation), ("worker_events", events)):
            if not isinstance(entries, list) or not all(isinstance(e, str) for e in entries):
                raise MessageError(f"a child's results whose {name} is not a list of strings")
        try:
            outcomes = tuple(TestOutcome.from_dict(fields(o, "a test's outcome")) for o in tests)
        except (KeyError, TypeError, ValueError) as error:
            problem = f"a child's results with a malformed test outcome ({error})"
            raise MessageError(problem) from None
        output = message.get("output")
        shown = message.get("shown_output", "")
        if not isinstance(output, str) or not isinstance(shown, str):
            raise MessageError("a child's results whose output is not text")
        return cls(outcomes, tuple(isolation), output, shown, tuple(events))  # type: ignore[arg-type]


def _cores(value: Any) -> float | None:
    if value is None:
        return None
    if type(value) not in (int, float) or not 0 < value < 1e6:
        raise MessageError("a runner's configuration whose cores are not a positive number")
    return float(value)
