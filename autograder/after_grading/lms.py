"""Grades in the files an LMS's own grade import reads: one column per assignment, final scores
(after late penalties), one row per roster student.

- `canvas`: the Gradebook CSV of Canvas's *Import* (Grades → Import): the columns `Student`,
  `ID`, `SIS User ID`, `SIS Login ID`, `Section`, then one column per assignment, and a second
  row `Points Possible`. A blank cell changes nothing in Canvas.
- `moodle`: Moodle's *Import grades → CSV file*: a header row, one row per student with an
  identifier Moodle maps (`ID number` or `Email address`, chosen in its "Identify user by"
  form) and a grade column per assignment, each mapped to a grade item. A blank cell is "no
  grade"; Moodle refuses grades above the item's maximum, so none is written.
- `csv`: the roster's own columns and one column per assignment, for any other system.

A graded or ungradable submission gives its final grade (final_grade.py: the automatic points
with instructors' overrides plus the points people gave written answers, less the late penalty
of the rubric and extensions as they are now), out of the assignment's full points written in
`Points Possible`; while any written answer of a student's is not graded yet, the cell stays
blank (a blank changes nothing in the LMS, where a partial score would look final) and the
command says how many wait. A grader error, or no submission, gives a blank cell (`missing="zero"`
writes 0 for students without a submission). Every text
cell is a `spreadsheet_cell`: nothing in the file starts like a formula.
"""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from autograder.after_grading.final_grade import FinalGrade, class_grades, recorded_grade
from autograder.after_grading.graded import current_books
from autograder.after_grading.roster import Matching, Student, match, read_roster
from autograder.grading.gradebook import Entry
from autograder.safe_text import spreadsheet_cell

if TYPE_CHECKING:
    from autograder.course.course import Course

FORMATS = ("canvas", "moodle", "csv")
CANVAS_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
MOODLE_COLUMNS = ("ID number", "Email address", "Full name")
CSV_COLUMNS = ("student_id", "name", "email", "login", "sis_id", "section", "submission")


@dataclass(frozen=True)
class Column:
    """One assignment's column: its heading, its points, and its graded entries by student."""

    heading: str
    points: float
    entries: Mapping[str, Entry]
    grades: Mapping[str, FinalGrade] | None = None
    """Each student's final grade (None: the entries' scores as recorded)."""


@dataclass(frozen=True)
class Export:
    rows: int
    blank: dict[str, tuple[str, ...]]
    """Per column heading: the roster students (ids) whose cell is blank."""
    grader_errors: dict[str, tuple[str, ...]]
    """Per column heading: submissions left blank because the grader failed on them."""
    waiting: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Per column heading: submissions left blank until people grade their written answers."""


@dataclass(frozen=True)
class GradeImport:
    """What `export_grades` wrote, and how the roster met the gradebook."""

    export: Export
    matching: Matching
    columns: int
    """Assignments with a column: those graded into the gradebook."""
    ungraded: tuple[str, ...]
    """The course's assignments with no grades in the gradebook (no column)."""
    assignments: tuple[str, ...] = ()
    """The assignments with a column, by name."""


def export_grades(
    folder: Path, target: Path, lms: str, *, roster: Path, course: Course, missing: str = "blank"
) -> GradeImport:
    """Write the grade-import file for `lms` from the gradebook of `folder`: one column per
    graded assignment, one row per student of the `roster` file, matched by submission name."""
    students = read_roster(roster)
    books = current_books(folder, course)
    columns = []
    for name, entries in books.items():
        spec = course.rubric.assignment(name)
        grades = class_grades(folder, spec, entries)
        most = spec.max_score + sum(part.points for part in spec.manual)
        columns.append(Column(spec.title, most, {e.student: e for e in entries}, grades))
    graded = {e.student for entries in books.values() for e in entries}
    matching = match(students, graded)
    ungraded = tuple(a.name for a in course.assignments if a.name not in books)
    export = write_lms_file(target, lms, matching, columns, missing=missing)
    return GradeImport(export, matching, len(books), ungraded, tuple(books))


def write_lms_file(
    target: Path,
    lms: str,
    matching: Matching,
    columns: Sequence[Column],
    *,
    missing: str = "blank",
) -> Export:
    """Write the grade-import file for `lms` (one of FORMATS) for every roster student."""
    head, identity = {
        "canvas": (CANVAS_COLUMNS, _canvas_identity),
        "moodle": (MOODLE_COLUMNS, _moodle_identity),
        "csv": (CSV_COLUMNS, _csv_identity),
    }[lms]
    blank: dict[str, list[str]] = {c.heading: [] for c in columns}
    errors: dict[str, tuple[str, ...]] = {
        c.heading: tuple(
            sorted(n for n, e in c.entries.items() if e.result.status == "grader_error")
        )
        for c in columns
    }
    with target.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow([spreadsheet_cell(h) for h in (*head, *(c.heading for c in columns))])
        if lms == "canvas":
            padding = [""] * (len(head) - 1)
            writer.writerow(["Points Possible", *padding, *(_number(c.points) for c in columns)])
        waiting: dict[str, list[str]] = {c.heading: [] for c in columns}
        for student in matching.students:
            cells: list[object] = list(identity(student))
            for column in columns:
                score = _score(column, student.submission, missing)
                if score is WAITING:  # told apart from the blanks below: people have yet to grade
                    score = ""
                    waiting[column.heading].append(student.student_id)
                elif score == "":
                    blank[column.heading].append(student.student_id)
                cells.append(score)
            writer.writerow([spreadsheet_cell(cell) for cell in cells])
    return Export(
        len(matching.students),
        {k: tuple(v) for k, v in blank.items()},
        errors,
        {k: tuple(v) for k, v in waiting.items()},
    )


WAITING = object()
"""A cell left blank until people grade the student's written answers."""


def _score(column: Column, submission: str | None, missing: str) -> object:
    """A student's cell: their final grade, blank (or 0) without one, WAITING while a written
    answer of theirs is not graded yet."""
    entry = column.entries.get(submission or "")
    if entry is None:
        return 0 if missing == "zero" else ""
    grade = (column.grades or {}).get(entry.student) or recorded_grade(entry)
    if not grade.graded:
        return ""
    if grade.ungraded:
        return WAITING
    return _number(grade.final)


def _number(value: float) -> object:
    """A score as the LMSs read it: an integer without a decimal point, else a plain decimal."""
    return int(value) if float(value).is_integer() else round(value, 4)


def _canvas_identity(s: Student) -> tuple[str, ...]:
    return (s.name, s.student_id, s.sis_id, s.login, s.section)


def _moodle_identity(s: Student) -> tuple[str, ...]:
    return (s.student_id, s.email, s.name)


def _csv_identity(s: Student) -> tuple[str, ...]:
    return (s.student_id, s.name, s.email, s.login, s.sis_id, s.section, s.submission)
