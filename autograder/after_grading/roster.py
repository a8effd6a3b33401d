"""The course roster: who the students are in the LMS, and the name their submission carries.

A CSV with a header row: `student_id` (the LMS's id of the student), `name`, `submission` (the
name the grader knows them by: the submission's file or folder name without its suffix, or the
manifest's `student_id`), and optionally `email`, `login`, `sis_id` and `section`. Submissions
are matched to students by that exact name, and nothing else: whatever matches no one is listed,
never guessed.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from autograder.errors import ConfigError

REQUIRED = ("student_id", "name", "submission")
OPTIONAL = ("email", "login", "sis_id", "section")
MAX_ROSTER_BYTES = 8 * 1024 * 1024
MAX_STUDENTS = 100_000


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
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_ROSTER_BYTES + 1)
    except OSError as error:
        raise ConfigError(f"the roster {path} cannot be read: {error}") from None
    if len(data) > MAX_ROSTER_BYTES:
        raise ConfigError(f"the roster {path} is larger than {MAX_ROSTER_BYTES // 2**20} MiB")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ConfigError(f"the roster {path} is not UTF-8 text (byte {error.start})") from None
    rows = csv.reader(io.StringIO(text, newline=""))
    header = [cell.strip().lower() for cell in next(rows, [])]
    missing = [name for name in REQUIRED if name not in header]
    if missing:
        raise ConfigError(
            f"the roster {path} has no {', '.join(missing)} column: its first line must name "
            f"the columns {', '.join(REQUIRED)} (and optionally {', '.join(OPTIONAL)})"
        )
    where = {name: header.index(name) for name in (*REQUIRED, *OPTIONAL) if name in header}
    students: list[Student] = []
    for number, row in enumerate(rows, start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(students) >= MAX_STUDENTS:
            raise ConfigError(f"the roster {path} has more than {MAX_STUDENTS} students")
        cells = {name: row[i].strip() if i < len(row) else "" for name, i in where.items()}
        if not cells["student_id"]:
            raise ConfigError(f"the roster {path}, line {number}: student_id is empty")
        students.append(Student(**cells))
    _refuse_duplicates(path, students)
    return tuple(students)


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
