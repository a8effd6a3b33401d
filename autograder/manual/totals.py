"""Each student's totals on one assignment, the one computation every output reads.

automatic = the graded score with the instructor's overrides (a test's override replaces its
score; a part's override replaces the sum of its tests), less the late penalty (which applies
to the automatic points alone, as it always has), never below 0; manual = the points people
gave each written answer; total = automatic + manual. A manual part nobody has graded is "not
graded yet": it counts in `ungraded`, never as 0, and the totals that need it
(`complete_manual_points`, `complete_total`) are None until it is graded. A part the student
did not answer (no answer, or the released placeholder left as it was) counts 0 points unless
people graded it anyway (as nbgrader does): it waits for nobody.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from autograder.course.rubric import AssignmentSpec
from autograder.grading.gradebook import FILE_NAME, Entry, ExtraColumns, Gradebook
from autograder.manual.store import ManualStore, Override, grade_points

__all__ = ["NOT_GRADED", "NO_ANSWER", "ManualMark", "Totals", "grade_points"]

NOT_GRADED = "not graded yet"
NO_ANSWER = "no answer"


@dataclass(frozen=True)
class ManualMark:
    part: str
    title: str
    max_points: float
    points: float | None
    """None: not graded yet. 0 for a part not answered that nobody graded."""
    comment: str = ""
    no_answer: bool = False
    """True: the answer captured from the submission is none (or the placeholder as released)
    and nobody graded it, so its points are 0 without anyone's grade. A submission whose
    answers were never captured waits for people instead."""


@dataclass(frozen=True)
class Totals:
    student: str
    status: str
    automatic: float
    """After overrides, before the late penalty."""
    automatic_max: float
    late_penalty: float
    manual: tuple[ManualMark, ...] = ()
    overridden: tuple[str, ...] = ()
    """The tests and parts whose score an instructor set, as "test NODEID" or "part NAME"."""

    @property
    def final_automatic(self) -> float:
        return max(0.0, round(self.automatic - self.late_penalty, 6))

    @property
    def manual_points(self) -> float:
        """The written answers' points graded so far (see `complete_manual_points`)."""
        return round(sum(m.points or 0.0 for m in self.manual), 6)

    @property
    def complete_manual_points(self) -> float | None:
        """The written answers' points; None while any is not graded yet."""
        return None if self.ungraded else self.manual_points

    @property
    def manual_max(self) -> float:
        return sum(m.max_points for m in self.manual)

    @property
    def ungraded(self) -> tuple[str, ...]:
        return tuple(m.part for m in self.manual if m.points is None)

    @property
    def total(self) -> float:
        """The total so far: the written answers not graded yet count nothing (see `ungraded`,
        and `complete_total`)."""
        return round(self.final_automatic + self.manual_points, 6)

    @property
    def complete_total(self) -> float | None:
        """The total; None while a written answer is not graded yet (never a total that
        looks final but is not)."""
        return None if self.ungraded else self.total

    @property
    def max_total(self) -> float:
        return self.automatic_max + self.manual_max


def csv_columns(totals: Mapping[str, Totals]) -> ExtraColumns:
    """The gradebook CSV's final scores with overrides, and a column per written answer ("not
    graded yet" until people grade it, never 0), manual_points and total ("not graded yet" too
    while any written answer is) and max_total."""
    first = next(iter(totals.values()), None)
    final = {student: t.final_automatic for student, t in totals.items()}
    if first is None or not first.manual:
        return ExtraColumns(final)
    header = (*(m.part for m in first.manual), "manual_points", "total", "max_total")
    cells = {
        student: (*(NOT_GRADED if m.points is None else m.points for m in t.manual),
                  *(NOT_GRADED if x is None else x for x in (t.complete_manual_points,
                                                             t.complete_total)),
                  t.max_total)
        for student, t in totals.items()
    }  # fmt: skip
    return ExtraColumns(final, header, cells)


def automatic_with_overrides(entry: Entry, overrides: Sequence[Override]) -> float:
    """The entry's automatic score with `overrides` applied (see the module docstring)."""
    tests = {o.target: o.points for o in overrides if o.kind == "test"}
    parts = {o.target: o.points for o in overrides if o.kind == "part"}
    score = entry.result.score
    by_part: dict[str, float] = {}
    for test in entry.result.tests:
        new = tests.get(test.nodeid, test.score)
        score += new - test.score
        by_part[test.part] = by_part.get(test.part, 0.0) + new
    for part, points in parts.items():
        score += points - by_part.get(part, 0.0)
    return round(score, 6)


def assignment_totals(
    entries: Sequence[Entry], spec: AssignmentSpec, store: ManualStore | None
) -> dict[str, Totals]:
    """Every entry's Totals, by student (`store` None: no manual tables yet)."""
    grades = store.grades(spec.name) if store else {}
    answers = store.answers(spec.name) if store else {}
    items = {i.id: i for i in store.items(spec.name)} if store else {}
    overrides = store.overrides(spec.name) if store else {}
    found = {}
    for entry in entries:
        own = overrides.get(entry.student, [])
        marks = []
        for part in spec.manual:
            grade = grades.get((entry.student, part.name))
            if grade is not None and grade.answer_changed:
                grade = None  # given to another answer than the one that counts now
            answer = answers.get((entry.student, part.name))
            points = None if grade is None else grade_points(grade, items, part.points)
            no_answer = points is None and answer is not None and answer.text is None
            if no_answer:
                points = 0.0  # nothing to grade: no answer is worth no points
            comment = grade.comment if grade else ""
            marks.append(ManualMark(part.name, part.title, part.points, points, comment, no_answer))
        found[entry.student] = Totals(
            student=entry.student,
            status=entry.result.status,
            automatic=automatic_with_overrides(entry, own),
            automatic_max=entry.result.max_score,
            late_penalty=entry.late_penalty,
            manual=tuple(marks),
            overridden=tuple(f"{o.kind} {o.target}" for o in own),
        )
    return found


def class_totals(folder: Path, spec: AssignmentSpec) -> dict[str, Totals]:
    """The Totals of every student of `spec` graded into the gradebook of `folder`."""
    if not (folder / FILE_NAME).is_file():
        return {}
    with Gradebook(folder) as book:
        entries = book.entries(spec.name)
    with ManualStore(folder) as store:
        return assignment_totals(entries, spec, store)
