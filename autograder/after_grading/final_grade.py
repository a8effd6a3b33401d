"""The final grade: one definition, computed when grades are read, and the number every output
shows (the gradebook CSV's `final_score`, the LMS files, each student's feedback, the class
report).

    earned   = automatic points (each test's score as graded; an instructor's override
               replaces a test's or a part's) + written-answer points (a part nobody has
               graded yet counts 0, and is said to be "not graded yet")
    maximum  = the assignment's full points: the automatic maximum + every written part's
    days     = started days past the student's own due date (their extension, else the
               rubric's `due`) plus `grace_minutes`; 0 without a late policy or a submission time
    penalty  = `penalty_per_day` percent of `maximum` per day, never more than `earned`;
               past `cutoff_days`, all of `earned`
    final    = earned - penalty

The percentage is of the assignment's full points, as Canvas's late policy takes it (of the
points possible) and MarkUs's by default (of the assignment total): ten percent a day costs
every late student the same points, whatever they scored. It comes off the whole grade, written
answers included, as nbgrader's penalty comes off the total score: a submission is late in
every part of it.

Lateness is never read from what `grade` recorded: the rubric and its extensions file as they
are now, and the submission time recorded beside the raw score, decide it here, so an extension
granted or a late policy changed shows in the next export without grading anyone again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from autograder.course.rubric import AssignmentSpec
from autograder.grading.attempts import days_late, penalty_for
from autograder.grading.gradebook import Entry
from autograder.manual.store import ManualStore
from autograder.manual.totals import NO_ANSWER, NOT_GRADED, ManualMark, Totals, assignment_totals


@dataclass(frozen=True)
class FinalGrade:
    """One student's grade on one assignment, by the definition above."""

    student: str
    status: str
    score: float
    """The automatic points as graded."""
    automatic: float
    """The automatic points with instructors' overrides."""
    automatic_max: float
    written: tuple[ManualMark, ...] = ()
    """Each written part: its points, None while nobody has graded it."""
    overridden: tuple[str, ...] = ()
    """The tests and parts an instructor set, as "test NODEID" or "part NAME"."""
    submitted_at: str | None = None
    due: datetime | None = None
    """The student's own due date (their extension's or the rubric's); None: no late policy."""
    days_late: int = 0
    penalty_per_day: float = 0.0
    past_cutoff: bool = False
    late_penalty: float = 0.0
    current: bool = True
    """False: the penalty is the one the last `grade` run recorded (no rubric was at hand)."""

    @property
    def written_points(self) -> float:
        return round(sum(mark.points or 0.0 for mark in self.written), 6)

    @property
    def written_max(self) -> float:
        return sum(mark.max_points for mark in self.written)

    @property
    def ungraded(self) -> tuple[ManualMark, ...]:
        """The written parts nobody has graded yet (each counted as 0 until then)."""
        return tuple(mark for mark in self.written if mark.points is None)

    @property
    def earned(self) -> float:
        return round(self.automatic + self.written_points, 6)

    @property
    def maximum(self) -> float:
        return self.automatic_max + self.written_max

    @property
    def final(self) -> float:
        return max(0.0, round(self.earned - self.late_penalty, 6))

    @property
    def graded(self) -> bool:
        """A grade to hand on: the grader did its job (an ungradable submission included)."""
        return self.status != "grader_error"


def final_grade(entry: Entry, spec: AssignmentSpec, totals: Totals | None = None) -> FinalGrade:
    """`entry`'s final grade under `spec` as it is now (its late policy and extensions);
    `totals` (autograder/manual/totals.py) add overrides and written answers. Without them,
    the automatic points as graded and every written part not graded yet."""
    written = (
        totals.manual
        if totals is not None
        else tuple(ManualMark(p.name, p.title, p.points, None) for p in spec.manual)
    )
    grade = FinalGrade(
        student=entry.student,
        status=entry.result.status,
        score=entry.result.score,
        automatic=totals.automatic if totals is not None else entry.result.score,
        automatic_max=entry.result.max_score,
        written=written,
        overridden=totals.overridden if totals is not None else (),
        submitted_at=entry.submitted_at,
    )
    policy = spec.late
    if policy is None or not grade.graded:
        return grade
    when = datetime.fromisoformat(entry.submitted_at) if entry.submitted_at else None
    days = days_late(when, policy, entry.student)
    return replace(
        grade,
        due=policy.due_for(entry.student),
        days_late=days,
        penalty_per_day=policy.penalty_per_day,
        past_cutoff=policy.cutoff_days is not None and days > policy.cutoff_days,
        late_penalty=penalty_for(grade.earned, grade.maximum, when, policy, entry.student),
    )


def recorded_grade(entry: Entry) -> FinalGrade:
    """`entry`'s grade with the penalty the last `grade` run recorded, for a reader with no
    rubric at hand (a class report written outside the course): marked not `current`."""
    return FinalGrade(
        student=entry.student,
        status=entry.result.status,
        score=entry.result.score,
        automatic=entry.result.score,
        automatic_max=entry.result.max_score,
        submitted_at=entry.submitted_at,
        late_penalty=entry.late_penalty,
        current=False,
    )


def class_grades(
    folder: Path, spec: AssignmentSpec, entries: Sequence[Entry]
) -> dict[str, FinalGrade]:
    """The final grade of each of `entries` (counted attempts graded into `folder`), with the
    overrides and written-answer points kept beside the gradebook, by student."""
    with ManualStore(folder) as store:
        totals: Mapping[str, Totals] = assignment_totals(entries, spec, store)
    return {e.student: final_grade(e, spec, totals.get(e.student)) for e in entries}


def late_reason(grade: FinalGrade) -> str:
    """Why the penalty is what it is, in words: the days and the rule."""
    if grade.past_cutoff:
        return f"{grade.days_late} days late, past the cut-off: all points"
    days = f"{grade.days_late} day{'s' if grade.days_late != 1 else ''} late"
    return f"{days} at {grade.penalty_per_day:g}% of the {grade.maximum:g} points a day"


def written_text(mark: ManualMark, *, out_of: bool) -> str:
    """A written answer's points as every page shows them: "1.5 / 2" (or "1.5"), "0 / 2 (no
    answer)" for one the student left unanswered, "not graded yet"."""
    if mark.points is None:
        return NOT_GRADED
    shown = f"{mark.points:g} / {mark.max_points:g}" if out_of else f"{mark.points:g}"
    return f"{shown} ({NO_ANSWER})" if mark.no_answer else shown
