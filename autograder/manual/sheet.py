"""The grading spreadsheet: one row per student and written answer, exported and imported.

Export: assignment, student, part, max_points, answer, rubric, and the `points` and `comment`
people fill in (those already entered filled in). Every cell is a `spreadsheet_cell`, so an
answer such as `=HYPERLINK(…)` stays text.

Export also writes each grade's `version`. An answer longer than SHEET_ANSWER_CHARS is cut in
the sheet (a spreadsheet cell holds 32,767 characters; the grading page shows all of it).

Import: every row is checked before anything is written (points a number in [0, max] or blank,
a known student and part, no (student, part) twice, a file within bounds); any error is a
ConfigError naming each bad line, and nothing is written. Otherwise one transaction replaces the
grades of the rows given: a row's points become the answer's whole grade (its rubric items are
taken off). A row whose points and comment are unchanged leaves its grade, items included, as
it is, so exporting and importing is a no-op. Blank points on a row exported blank say nothing
(the answer keeps whatever grade it has now); blank points on a row exported graded take the
grade off. A row whose answer was graded again after the export (its version moved on, on the
grading page or by another import) is a conflict: the import writes nothing and names the line,
so a sheet never overwrites a newer grade. A sheet without the `version` column (written by
hand) never takes a grade off, and is checked against nothing.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from pathlib import Path

from autograder.course.bounded_csv import Bounds, read_rows
from autograder.course.rubric import AssignmentSpec, ManualPart
from autograder.errors import ConfigError
from autograder.grading.gradebook import Gradebook
from autograder.grading.written_answers import MAX_ANSWER_CHARS
from autograder.manual.store import Grade, Item, ManualStore, SheetConflict
from autograder.manual.totals import grade_points
from autograder.safe_text import spreadsheet_cell

COLUMNS = (
    "assignment", "student", "part", "max_points", "answer", "rubric", "points", "comment",
    "version",
)  # fmt: skip
SHEET_ANSWER_CHARS = 30_000
"""The most of an answer the sheet holds: a spreadsheet cell's limit is 32,767 characters, and
an answer of quotes doubles in CSV; the import reads no answer."""
CUT = "\n[… cut here: the whole answer is on the grading page, `autograder manual serve`]"
NO_ANSWER = "(no answer: the submission held none)"
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
                text = answer.text if answer and answer.text is not None else NO_ANSWER
                if len(text) > SHEET_ANSWER_CHARS:
                    text = text[: SHEET_ANSWER_CHARS - len(CUT)] + CUT
                grade = grades.get((student, part.name))
                if grade is not None and grade.answer_changed:
                    grade = None  # given to an earlier answer: this one is not graded yet
                points = "" if grade is None else _number(grade_points(grade, items, part.points))
                version = (
                    grades[student, part.name].version if (student, part.name) in grades else 0
                )
                cells = [spec.name, student, part.name, _number(part.points), text, part.rubric,
                         points, grade.comment if grade else "", version]  # fmt: skip
                writer.writerow([spreadsheet_cell(cell) for cell in cells])
                rows += 1
    return rows


def _number(value: float) -> str:
    """A number as the sheet writes it: every digit a float holds, no trailing zeros."""
    return f"{value:.15g}"


@dataclass(frozen=True)
class Imported:
    rows: int
    changed: int


def _unquoted(cell: str) -> str:
    """A cell as written before `spreadsheet_cell` quoted it."""
    if cell.startswith("'") and cell[1:2] in ("=", "+", "-", "@", "\t", "\r"):
        return cell[1:]
    return cell


def import_sheet(folder: Path, spec: AssignmentSpec, sheet: Path, *, grader: str) -> Imported:
    """Check every row of `sheet`, then write them all in one transaction (or nothing)."""
    rows = read_rows(sheet, "grading sheet", SHEET_BOUNDS)
    if not rows:
        raise ConfigError(f"{sheet} is empty: export one with `autograder manual export`")
    header = [cell.strip().lower() for cell in rows[0].cells]
    missing = [c for c in ("student", "part", "points") if c not in header]
    if missing:
        raise ConfigError(f"{sheet}:1: the header has no column {', '.join(missing)}")
    students = set(students_of(folder, spec))
    parts = {p.name: p for p in spec.manual}
    problems: list[str] = []
    seen: dict[tuple[str, str], int] = {}
    grades: list[tuple[str, str, float | None, str]] = []
    versions: dict[tuple[str, str], int] = {}
    has_versions = "version" in header
    for row in rows[1:]:
        if not any(cell.strip() for cell in row.cells):
            continue
        cells = {k: _unquoted(v) for k, v in zip(header, row.cells, strict=False)}
        where = f"{sheet}:{row.line}"
        student, name = cells.get("student", ""), cells.get("part", "").strip()
        assignment = cells.get("assignment", spec.name).strip()
        if assignment != spec.name:
            problems.append(f"{where}: assignment {assignment!r} is not {spec.name!r}")
            continue
        if student not in students:
            problems.append(f"{where}: no graded student {student[:80]!r} in {spec.name}")
            continue
        part = parts.get(name)
        if part is None:
            known = ", ".join(parts) or "none"
            problems.append(f"{where}: no manual part {name[:80]!r} (known: {known})")
            continue
        if (student, name) in seen:
            problems.append(
                f"{where}: {student[:80]!r} {name} is already on line {seen[student, name]}"
            )
            continue
        seen[student, name] = row.line
        written = cells.get("points", "").strip()
        points: float | None = None
        if written:
            try:
                points = float(written)
            except ValueError:
                points = math.nan
            if not math.isfinite(points) or not 0 <= points <= part.points:
                problems.append(
                    f"{where}: points {written[:40]!r} must be a number from 0 to "
                    f"{part.points:g} (or blank: not graded yet)"
                )
                continue
        exported = cells.get("version", "").strip() if has_versions else ""
        if has_versions and not (exported.isascii() and exported.isdigit() and len(exported) < 10):
            problems.append(f"{where}: version {exported[:40]!r} is not the exported number")
            continue
        if points is None and (not has_versions or int(exported) == 0):
            continue  # exported blank, left blank: the sheet says nothing of this answer
        if has_versions:
            versions[student, name] = int(exported)
        grades.append((student, name, points, cells.get("comment", "")))
    if problems:
        shown = problems[:20] + ([f"… and {len(problems) - 20} more"] if len(problems) > 20 else [])
        raise ConfigError(
            f"{sheet}: {len(problems)} bad row(s), nothing was imported:\n" + "\n".join(shown)
        )
    with ManualStore(folder) as store:
        current = store.grades(spec.name)
        items = {i.id: i for i in store.items(spec.name)}
        changes = [row for row in grades if not _unchanged(row, current, items, parts)]
        try:
            changed = store.replace_grades(spec.name, changes, grader, versions=versions)
        except SheetConflict as conflict:
            lines = [
                f"{sheet}:{seen[key]}: {key[0][:80]!r} {key[1]} was graded again after this "
                f"sheet was exported (version {versions[key]} in the sheet, {now} now)"
                for key, now in conflict.stale
            ]
            shown = lines[:20] + ([f"… and {len(lines) - 20} more"] if len(lines) > 20 else [])
            raise ConfigError(
                f"{sheet}: {len(lines)} row(s) would overwrite a newer grade, nothing was "
                "imported; export the sheet again and carry your changes over:\n" + "\n".join(shown)
            ) from None
    return Imported(len(grades), changed)


def _unchanged(
    row: tuple[str, str, float | None, str],
    current: dict[tuple[str, str], Grade],
    items: dict[int, Item],
    parts: dict[str, ManualPart],
) -> bool:
    """The row says what the gradebook holds already (its items then stay applied)."""
    student, part, points, comment = row
    grade = current.get((student, part))
    if grade is None or grade.answer_changed:  # a grade of an earlier answer is no grade
        return points is None
    now = grade_points(grade, items, parts[part].points)
    return points is not None and math.isclose(points, now) and comment == grade.comment
