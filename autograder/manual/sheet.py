"""The grading spreadsheet: one row per student and written answer, exported and imported.

Export: assignment, student, part, max_points, answer, rubric, and the `points` and `comment`
people fill in (those already entered filled in), each grade's `version`, and the row's `key`.
Every cell is a `sheet_cell` (autograder.manual.sheet_cells): a cell that would start like a
formula, or with the apostrophe that marks one, gets one apostrophe in front (`=HYPERLINK(…)` is
written `'=HYPERLINK(…)`), and characters a sheet cannot carry or would hide (NUL and the other
controls, lone surrogates, direction overrides) are written escaped, as `\x00` or `\u202e`.
Import reads every cell back with `read_cell`, which undoes exactly that, so every answer,
student id and comment the gradebook holds comes back as it was. An answer whose cell would be
longer than SHEET_ANSWER_CHARS is cut in the sheet (a spreadsheet cell holds 32,767 characters;
the grading page shows all of it); the import never reads the answer.

The key is a digest of the row's student, part and answer (`row_key`). Import finds a row's
student by the student cell as read back; when the sheet has keys, the key decides between the
cell as the kit wrote it and as a spreadsheet that took the leading apostrophe for its own mark
saved it again (Excel writes `'=1+1` back as `=1+1`, and `''x` as `'x`), and it also names the
student when the cell matches nobody (a spreadsheet made `007` the number 7). A key that is no
row's now, on a row that gives a grade, means the student's answer changed after the export: a
conflict, like a stale version. A student cell naming another graded student than its key is an
error, never a guess; so is a cell that reads as two graded students in a sheet without keys.

An answer left as released (the placeholder, or blank) is no answer, as the submission with
none: its cell says so, and it counts 0 points unless its points are filled in.

Import: every row is checked before anything is written (points a number in [0, max] or blank, a
known student and part, no (student, part) twice, a file within bounds); any error is a
ConfigError naming each bad row as a spreadsheet numbers it (the header is row 1; a cell's line
breaks do not count) with its student, and nothing is written. Otherwise one transaction
replaces the grades of the rows given: a row's points become the answer's whole grade (its
rubric items are taken off). A row whose points and comment are unchanged (the comment read
either way above) leaves its grade, items included, as it is, so exporting and importing is a
no-op. Blank points on a row exported blank say nothing (the answer keeps whatever grade it has
now); blank points on a row exported graded take the grade off. A row whose answer was graded
again after the export (its version moved on, on the grading page or by another import) is a
conflict: the import writes nothing and names the row, so a sheet never overwrites a newer
grade. A sheet without the `version` and `key` columns (written by hand) never takes a grade
off, and is checked against nothing.
"""

from __future__ import annotations

import csv
import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path

from autograder.course.bounded_csv import Bounds, read_rows
from autograder.course.rubric import AssignmentSpec, ManualPart
from autograder.errors import ConfigError
from autograder.grading.gradebook import Gradebook
from autograder.grading.written_answers import ANSWER_PLACEHOLDER, MAX_ANSWER_CHARS
from autograder.manual.sheet_cells import read_cell, readings, sheet_cell
from autograder.manual.store import (
    Answer,
    Grade,
    Item,
    ManualStore,
    SheetConflict,
    answer_digest,
    grade_points,
)

COLUMNS = (
    "assignment", "student", "part", "max_points", "answer", "rubric", "points", "comment",
    "version", "key",
)  # fmt: skip
SHEET_ANSWER_CHARS = 30_000
"""The most of an answer the sheet holds: a spreadsheet cell's limit is 32,767 characters, and
an answer of quotes doubles in CSV; the import reads no answer."""
CUT = "\n[… cut here: the whole answer is on the grading page, `autograder manual serve`]"
NO_ANSWER = "(no answer: the submission held none; 0 points unless you fill in points)"
LEFT_AS_RELEASED = (
    f"(no answer: left as released, “{ANSWER_PLACEHOLDER}” or blank; 0 points unless you fill "
    "in points)"
)
NOT_CAPTURED = "(no answer was captured from this submission: not graded yet)"
MAX_PROBLEMS_SHOWN = 20
KEY_HEX_DIGITS = 24
"""96 bits of a row's key: no two rows of a class share one by chance."""
SHEET_BOUNDS = Bounds(
    max_bytes=64 * 2**20,
    max_lines=2_000_001,
    max_field_chars=MAX_ANSWER_CHARS * 2,
    max_row_chars=MAX_ANSWER_CHARS * 4,
)


def students_of(folder: Path, spec: AssignmentSpec) -> list[str]:
    with Gradebook(folder) as book:
        return [e.student for e in book.entries(spec.name)]


def export_sheet(folder: Path, spec: AssignmentSpec, target: Path) -> int:
    """Write the sheet of `spec`'s written answers; returns its number of rows."""
    students = students_of(folder, spec)
    with ManualStore(folder) as store:
        answers = store.answers(spec.name)
        grades = store.grades(spec.name)
        items = {i.id: i for i in store.items(spec.name)}
    rows = 0
    with target.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(COLUMNS)
        for student in students:
            for part in spec.manual:
                answer = answers.get((student, part.name))
                grade = grades.get((student, part.name))
                version = grade.version if grade is not None else 0
                if grade is not None and grade.answer_changed:
                    grade = None  # given to an earlier answer: this one is not graded yet
                points = "" if grade is None else _number(grade_points(grade, items, part.points))
                head = [spec.name, student, part.name, _number(part.points)]
                tail = [part.rubric, points, grade.comment if grade else "", str(version)]
                key = row_key(spec.name, student, part.name, answer)
                writer.writerow([*map(sheet_cell, head), _answer_cell(answer),
                                 *map(sheet_cell, tail), key])  # fmt: skip
                rows += 1
    return rows


def _answer_cell(answer: Answer | None) -> str:
    """The answer as the sheet shows it, cut to SHEET_ANSWER_CHARS (never inside an escape)."""
    if answer is None:
        return NOT_CAPTURED
    if answer.text is None:
        return LEFT_AS_RELEASED if answer.left_as_released else NO_ANSWER
    cell = sheet_cell(answer.text)
    if len(cell) <= SHEET_ANSWER_CHARS:
        return cell
    room = SHEET_ANSWER_CHARS - len(CUT)
    shortest, longest = 0, min(len(answer.text), room)  # the cell of a beginning grows with it
    while shortest < longest:
        middle = (shortest + longest + 1) // 2
        if len(sheet_cell(answer.text[:middle])) <= room:
            shortest = middle
        else:
            longest = middle - 1
    return sheet_cell(answer.text[:shortest]) + CUT


def row_key(assignment: str, student: str, part: str, answer: Answer | None) -> str:
    """A row's key: a digest of its student and part and of the answer it shows. The import
    finds the row by it (whatever a spreadsheet did to the student cell) and sees by it that the
    answer is still the one that counts. A letter then hex digits: never a number or a date."""
    named = json.dumps([assignment, student, part, answer_digest(answer)])
    return "k" + hashlib.sha256(named.encode("ascii")).hexdigest()[:KEY_HEX_DIGITS]


def _number(value: float) -> str:
    """A number as the sheet writes it: every digit a float holds, no trailing zeros."""
    return f"{value:.15g}"


@dataclass(frozen=True)
class Imported:
    rows: int
    changed: int


@dataclass(frozen=True)
class _SheetRow:
    """A row that says something: the grade to write, unless the gradebook holds it already."""

    student: str
    part: str
    points: float | None
    comment: str
    comment_readings: tuple[str, ...]
    """The comment as the kit wrote it, or as a spreadsheet saved it again: either is unchanged."""


@dataclass(frozen=True)
class _Identity:
    student: str
    answer_changed: bool = False
    """The row's key names this student's answer as it was: another one counts now."""


def import_sheet(folder: Path, spec: AssignmentSpec, sheet: Path, *, grader: str) -> Imported:
    """Check every row of `sheet`, then write them all in one transaction (or nothing)."""
    rows = read_rows(sheet, "grading sheet", SHEET_BOUNDS)
    if not rows:
        raise ConfigError(f"{sheet} is empty: export one with `autograder manual export`")
    header = [cell.strip().lower() for cell in rows[0].cells]
    missing = [c for c in ("student", "part", "points") if c not in header]
    if missing:
        raise ConfigError(f"{sheet}, row 1 (the header): no column {', '.join(missing)}")
    students = set(students_of(folder, spec))
    parts = {p.name: p for p in spec.manual}
    with ManualStore(folder) as store:
        answers = store.answers(spec.name)
    keys = {row_key(spec.name, s, p, answers.get((s, p))): (s, p) for s in students for p in parts}
    problems: list[str] = []
    seen: dict[tuple[str, str], int] = {}
    grades: list[_SheetRow] = []
    versions: dict[tuple[str, str], int] = {}
    has_versions = "version" in header
    for number, row in enumerate(rows[1:], start=2):  # a spreadsheet's row numbers
        if not any(cell.strip() for cell in row.cells):
            continue
        written = dict(zip(header, row.cells, strict=False))
        cells = {column: read_cell(cell) for column, cell in written.items()}
        where = _row(number, cells.get("student", ""))
        assignment = cells.get("assignment", spec.name).strip()
        if assignment != spec.name:
            problems.append(f"{where}: assignment {assignment[:80]!r} is not {spec.name!r}")
            continue
        name = cells.get("part", "").strip()
        part = parts.get(name)
        if part is None:
            known = ", ".join(parts) or "none"
            problems.append(f"{where}: no manual part {name[:80]!r} (known: {known})")
            continue
        key = written.get("key", "").strip()
        found = _identify(written.get("student", ""), name, key, students, keys, spec.name)
        if isinstance(found, str):
            problems.append(f"{where}: {found}")
            continue
        student = found.student
        where = _row(number, student)
        if (student, name) in seen:
            problems.append(f"{where}: {name} of {student[:80]!r} is already on row "
                            f"{seen[student, name]}")  # fmt: skip
            continue
        seen[student, name] = number
        written_points = cells.get("points", "").strip()
        points: float | None = None
        if written_points:
            try:
                points = float(written_points)
            except ValueError:
                points = math.nan
            if not math.isfinite(points) or not 0 <= points <= part.points:
                problems.append(
                    f"{where}: points {written_points[:40]!r} must be a number from 0 to "
                    f"{part.points:g} (or blank: not graded yet)"
                )
                continue
        exported = cells.get("version", "").strip() if has_versions else ""
        if has_versions and not (exported.isascii() and exported.isdigit() and len(exported) < 10):
            problems.append(f"{where}: version {exported[:40]!r} is not the exported number")
            continue
        if points is None and (not has_versions or int(exported) == 0):
            continue  # exported blank, left blank: the sheet says nothing of this answer
        if found.answer_changed:
            problems.append(
                f"{where}: the answer to {name} that counts changed after this sheet was "
                "exported (a new submission); export the sheet again"
            )
            continue
        if has_versions:
            versions[student, name] = int(exported)
        comment = written.get("comment", "")
        grades.append(_SheetRow(student, name, points, read_cell(comment), readings(comment)))
    if problems:
        raise ConfigError(
            f"{sheet}: {len(problems)} bad row(s), nothing was imported:\n" + _listed(problems)
        )
    with ManualStore(folder) as store:
        current = store.grades(spec.name)
        items = {i.id: i for i in store.items(spec.name)}
        changes = [(row.student, row.part, row.points, row.comment) for row in grades
                   if not _unchanged(row, current, items, parts)]  # fmt: skip
        most = {name: part.points for name, part in parts.items()}
        try:
            changed = store.replace_grades(
                spec.name, changes, grader, max_points=most, versions=versions
            )
        except SheetConflict as conflict:
            lines = [
                f"{_row(seen[key], key[0])}: {key[1]} was graded again after this sheet was "
                f"exported (version {versions[key]} in the sheet, {now} now)"
                for key, now in sorted(conflict.stale, key=lambda stale: seen[stale[0]])
            ]
            raise ConfigError(
                f"{sheet}: {len(lines)} row(s) would overwrite a newer grade, nothing was "
                "imported; export the sheet again and carry your changes over:\n" + _listed(lines)
            ) from None
    return Imported(len(grades), changed)


def _row(number: int, student: str) -> str:
    """Where a problem is, as a grader finds it in a spreadsheet: "row 7 (student 'ada')"."""
    return f"row {number} (student {student.strip()[:80]!r})"


def _listed(problems: list[str]) -> str:
    shown = problems[:MAX_PROBLEMS_SHOWN]
    if len(problems) > MAX_PROBLEMS_SHOWN:
        shown.append(f"… and {len(problems) - MAX_PROBLEMS_SHOWN} more")
    return "\n".join(shown)


def _identify(
    cell: str,
    part: str,
    key: str,
    students: set[str],
    keys: dict[str, tuple[str, str]],
    assignment: str,
) -> _Identity | str:
    """The student a row grades, or what is wrong. The student cell is compared as read back
    (`readings`: as the kit wrote it, or as a spreadsheet that dropped its apostrophe saved it);
    the key, when the row has one, decides between readings and tells a changed answer."""
    read = readings(cell)
    known = [text for text in read if text in students]
    exported = keys.get(key) if key else None
    if exported is not None:
        student, exported_part = exported
        if exported_part != part:
            return f"the row was exported for part {exported_part!r}, not {part!r}"
        if student in read or not known:  # none known: a spreadsheet made `007` a number, 7
            return _Identity(student)
        return (
            f"the student cell reads {known[0][:80]!r} but the row was exported for "
            f"{student[:80]!r}"
        )
    if len(known) == 1:
        return _Identity(known[0], answer_changed=bool(key))
    if not known:
        return f"no graded student {read[0][:80]!r} in {assignment}"
    return (
        f"the student cell may read {known[0][:80]!r} or {known[1][:80]!r} (a spreadsheet may "
        "have dropped its leading apostrophe): the exported sheet's `key` column tells"
    )


def _unchanged(
    row: _SheetRow,
    current: dict[tuple[str, str], Grade],
    items: dict[int, Item],
    parts: dict[str, ManualPart],
) -> bool:
    """The row says what the gradebook holds already (its items then stay applied)."""
    grade = current.get((row.student, row.part))
    if grade is None or grade.answer_changed:  # a grade of an earlier answer is no grade
        return row.points is None
    now = grade_points(grade, items, parts[row.part].points)
    return (
        row.points is not None
        and math.isclose(row.points, now)
        and grade.comment in row.comment_readings
    )
