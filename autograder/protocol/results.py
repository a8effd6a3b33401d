"""What a test run produced, as frozen values that round-trip through JSON."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal, cast

Status = Literal["passed", "failed", "error", "not_implemented", "timeout"]
STATUSES: tuple[Status, ...] = ("passed", "failed", "error", "not_implemented", "timeout")


@dataclass(frozen=True)
class TestOutcome:
    """The outcome of one test: which test, its rubric part, and a message for the student."""

    __test__ = False  # not a pytest test class, despite the name

    nodeid: str
    name: str
    title: str
    part: str | None
    status: Status
    message: str | None = None
    points: float | None = None
    """From the test's `points` marker; None when it has none."""
    visibility: str | None = None
    """From the test's `visibility` marker; None for the rubric's default."""
    credit: float | None = None
    """The share of the points a failed test still earns (partial credit), if any."""
    duration_s: float = 0.0
    hint: str | None = None
    """The misconception a failure matches, when diagnosis recognised one."""
    hidden: bool = False
    """Collected from the assignment's hidden tests' folder (its results follow the rubric's
    hidden visibility)."""
    function: str | None = None
    """The public function of the student's module the test is about (reports group by it);
    None when the test calls none, e.g. a test of a constant."""
    advice: str | None = None
    """The advice a failed check gave (CheckFailure.advice; it also ends `message`), when no
    hint was found: what a report prints as the thing to fix first."""

    def to_dict(self) -> dict[str, Any]:
        return _shallow_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TestOutcome:
        status = data["status"]
        if status not in STATUSES:
            raise ValueError(f"unknown test status {status!r}")
        return cls(
            nodeid=str(data["nodeid"]),
            name=str(data["name"]),
            title=str(data["title"]),
            part=None if data.get("part") is None else str(data["part"]),
            status=cast(Status, status),
            message=None if data.get("message") is None else str(data["message"]),
            points=None if data.get("points") is None else float(data["points"]),
            visibility=None if data.get("visibility") is None else str(data["visibility"]),
            credit=None if data.get("credit") is None else float(data["credit"]),
            duration_s=float(data.get("duration_s", 0.0)),
            hint=None if data.get("hint") is None else str(data["hint"]),
            hidden=data.get("hidden") is True,
            function=None if data.get("function") is None else str(data["function"]),
            advice=None if data.get("advice") is None else str(data["advice"]),
        )


def _shallow_dict(value: Any) -> dict[str, Any]:
    """A frozen result's fields by name (dataclasses.asdict deep-copies every value: these are
    strings and numbers, and the grader writes two of these dicts per submission)."""
    return {field.name: getattr(value, field.name) for field in dataclasses.fields(value)}


SubmissionStatus = Literal["graded", "ungradable", "grader_error"]
SCHEMA_VERSION = 1


@dataclass(frozen=True)
class TestResult:
    """One graded test, as the student (or Gradescope) sees it."""

    __test__ = False

    name: str
    nodeid: str
    part: str
    score: float
    max_score: float
    status: Status
    visibility: str
    message: str | None = None
    hint: str | None = None
    duration_s: float = 0.0
    hidden: bool = False
    """One of the assignment's hidden tests: feedback never shows its message (it names the
    test's inputs), whatever its visibility."""
    function: str | None = None
    """The function the test is about (TestOutcome.function): feedback groups by it."""
    advice: str | None = None
    """The advice ending the message (TestOutcome.advice): shown only where the message is."""

    def to_dict(self) -> dict[str, Any]:
        return _shallow_dict(self)

    @property
    def private(self) -> bool:
        """Its inputs stay with the instructor: a hidden test, or one shown only later or never."""
        return self.hidden or self.visibility != "visible"

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TestResult:
        if data["status"] not in STATUSES:
            raise ValueError(f"unknown test status {data['status']!r}")
        return cls(**data)


@dataclass(frozen=True)
class SubmissionResult:
    """The grade of one submission: the kit's own JSON schema, rendered to every other format."""

    assignment: str
    submission: str
    status: SubmissionStatus
    score: float
    max_score: float
    isolation: tuple[str, ...]
    duration_s: float
    tests: tuple[TestResult, ...] = ()
    message: str | None = None
    """Why a submission is ungradable, or what went wrong in the grader."""
    output: str = ""
    """What the student's code printed (capped): the instructor's to read."""
    shown_output: str = ""
    """What it printed while the tests shown at once ran: all a student-facing result may
    carry (what it printed later may repeat a hidden test's inputs)."""
    notes: tuple[str, ...] = ()
    late_penalty: float = 0.0
    """Points the rubric's late policy takes off `score`."""
    submitted_at: str | None = None
    failed_after_shown: bool = False
    """A grader error (status grader_error) met only after every test shown at once had run:
    those tests' results are whole, the later ones are listed unscored. Until results are
    released it stands for the student as a graded result (grading/before_release.py)."""

    @property
    def final_score(self) -> float:
        return max(0.0, round(self.score - self.late_penalty, 6))

    def to_dict(self) -> dict[str, Any]:
        data = _shallow_dict(self)
        data["isolation"] = list(self.isolation)
        data["notes"] = list(self.notes)
        data["tests"] = [test.to_dict() for test in self.tests]
        return {"schema": SCHEMA_VERSION, **data}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SubmissionResult:
        fields = dict(data)
        if fields.pop("schema", None) != SCHEMA_VERSION:
            raise ValueError(f"not a result of schema {SCHEMA_VERSION}")
        if fields["status"] not in ("graded", "ungradable", "grader_error"):
            raise ValueError(f"unknown submission status {fields['status']!r}")
        fields["isolation"] = tuple(fields["isolation"])
        fields["notes"] = tuple(fields.get("notes", ()))
        fields["tests"] = tuple(TestResult.from_dict(test) for test in fields["tests"])
        return cls(**fields)

    def part_scores(self) -> dict[str, tuple[float, float]]:
        """{part: (score, max_score)} in the order the parts first appear."""
        parts: dict[str, tuple[float, float]] = {}
        for test in self.tests:
            score, most = parts.get(test.part, (0.0, 0.0))
            parts[test.part] = (round(score + test.score, 6), round(most + test.max_score, 6))
        return parts
