"""The course roster: who the students are in the LMS, and the name their submission carries.

A CSV with a header row: `student_id` (the LMS's id of the student), `name`, `submission` (the
name the grader knows them by: the submission's file or folder name without its suffix, or the
manifest's `student_id`), and optionally `email`, `login`, `sis_id` and `section`. Submissions
are matched to students by that exact name, and nothing else: whatever matches no one is listed,
never guessed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from autograder.course.bounded_csv import Bounds, Row, read_rows
from autograder.errors import ConfigError

REQUIRED = ("student_id", "name", "submission")
OPTIONAL = ("email", "login", "sis_id", "section")
MAX_STUDENTS = 100_000
ROSTER_BOUNDS = Bounds(max_bytes=8 * 2**20, max_lines=MAX_STUDENTS + 1, max_field_chars=4096)
"""A roster is a few columns of names and ids for each student, and a header line."""


@dataclass(frozen=True)
class Student:
    student_id: str
    name: str
    submission: str
    email: str = ""
    login: str = ""
    sis_id: str = ""
    section: str = ""


@dataclass(frozen=True)
class Matching:
    """Roster students with their submission names found in the gradebook, and what is left."""

    students: tuple[Student, ...]
    matched: tuple[Student, ...]
    without_submission: tuple[Student, ...]
    """On the roster, but no graded submission carries their name."""
    unmatched_submissions: tuple[str, ...]
    """Graded submissions whose name is on no roster line."""


def read_roster(path: Path) -> tuple[Student, ...]:
    """The roster at `path`; ConfigError naming the line and the fix for anything wrong."""
    rows = read_rows(path, "roster", ROSTER_BOUNDS)
    header = [cell.strip().lower() for cell in rows[0].cells] if rows else []
    missing = [name for name in REQUIRED if name not in header]
    if missing:
        raise ConfigError(
            f"the roster {path} has no {', '.join(missing)} column: its first line must name "
            f"the columns {', '.join(REQUIRED)} (and optionally {', '.join(OPTIONAL)})"
        )
    where = {name: header.index(name) for name in (*REQUIRED, *OPTIONAL) if name in header}
    students: list[Student] = []
    for row in rows[1:]:
        if not any(cell.strip() for cell in row.cells):
            continue
        cells = {name: _cell(row, i) for name, i in where.items()}
        if not cells["student_id"]:
            raise ConfigError(f"the roster {path}, line {row.line}: student_id is empty")
        students.append(Student(**cells))
    _refuse_duplicates(path, students)
    return tuple(students)


def _cell(row: Row, index: int) -> str:
    return row.cells[index].strip() if index < len(row.cells) else ""


def _refuse_duplicates(path: Path, students: Iterable[Student]) -> None:
    seen_ids: set[str] = set()
    seen_names: set[str] = set()
    for student in students:
        if student.student_id in seen_ids:
            raise ConfigError(f"the roster {path} lists student_id {student.student_id!r} twice")
        seen_ids.add(student.student_id)
        if student.submission and student.submission in seen_names:
            raise ConfigError(
                f"the roster {path} gives two students the submission name "
                f"{student.submission!r}: each submission belongs to one student"
            )
        seen_names.add(student.submission)


def match(students: tuple[Student, ...], submissions: Iterable[str]) -> Matching:
    """Pair roster students with the submission names graded (exact names only)."""
    graded = set(submissions)
    by_name = {s.submission: s for s in students if s.submission}
    matched = tuple(s for s in students if s.submission in graded)
    without = tuple(s for s in students if s.submission not in graded)
    unmatched = tuple(sorted(name for name in graded if name not in by_name))
    return Matching(students, matched, without, unmatched)
