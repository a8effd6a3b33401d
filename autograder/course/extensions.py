"""Per-student extensions of a late policy: `[assignments.NAME.late] extensions = "FILE"`.

The file is a CSV (read within bounds, bounded_csv.py) with the columns `student` (the name
the gradebook knows the student by), either `due` (an ISO 8601 date and time; no zone means
UTC, as the rubric's `due`) or `extra_days` (a non-negative number of days after the rubric's
due date), and `reason` (for the instructor; never shown to anyone else). Any other column, a
row with both or neither of due and extra_days, a bad date or number, or a student listed
twice is a ConfigError naming the file and the line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from autograder.course.bounded_csv import Bounds, read_rows
from autograder.errors import ConfigError
from autograder.safe_text import storable

EXTENSION_COLUMNS = ("student", "due", "extra_days", "reason")
EXTENSIONS_BOUNDS = Bounds(max_bytes=2 * 2**20, max_lines=20_001, max_field_chars=1024)
"""A class of at most 20,000 students, each named and justified in a line."""
MAX_EXTRA_DAYS = 3660.0


@dataclass(frozen=True)
class Extension:
    """One student's own due date."""

    student: str
    due: datetime
    reason: str = ""


def read_extensions(path: Path, due: datetime) -> tuple[Extension, ...]:
    """The extensions listed in `path`; `extra_days` count from `due`, the rubric's date."""
    if not path.is_file():
        raise ConfigError(f"the extensions file {path} does not exist")
    rows = read_rows(path, "extensions file", EXTENSIONS_BOUNDS)
    header = [cell.strip() for cell in rows[0].cells] if rows else []
    unknown = [name for name in header if name not in EXTENSION_COLUMNS]
    if unknown or "student" not in header:
        raise ConfigError(
            f"{path}:1: the columns must be student, due or extra_days, and reason; "
            f"got {', '.join(map(repr, header)) or 'none'}"
        )
    extensions: dict[str, Extension] = {}
    for row in rows[1:]:
        if not any(cell.strip() for cell in row.cells):
            continue  # a blank line
        cells = {name: value.strip() for name, value in zip(header, row.cells, strict=False)}
        student = storable(dict(zip(header, row.cells, strict=False)).get("student", ""))
        where = f"{path}:{row.line}"
        if not student:
            raise ConfigError(f"{where}: each row names a student")
        if student in extensions:
            raise ConfigError(f"{where}: {student!r} is listed twice; keep one line per student")
        extensions[student] = Extension(
            student, _due(where, cells, due), storable(cells.get("reason", ""))
        )
    return tuple(extensions.values())


def _due(where: str, cells: dict[str, str], due: datetime) -> datetime:
    written, extra = cells.get("due", ""), cells.get("extra_days", "")
    if bool(written) == bool(extra):
        raise ConfigError(f"{where}: give either due or extra_days (exactly one of them)")
    if written:
        try:
            moment = datetime.fromisoformat(written)
        except ValueError:
            raise ConfigError(
                f"{where}: due {written!r} is not a date and time such as 2026-12-03T23:59:00Z"
            ) from None
        return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
    try:
        days = float(extra)
    except ValueError:
        days = math.nan
    if not 0 <= days <= MAX_EXTRA_DAYS:
        raise ConfigError(
            f"{where}: extra_days {extra!r} must be a number of days from 0 to {MAX_EXTRA_DAYS:g}"
        )
    return due + timedelta(days=days)
