"""The CSV files an instructor hands the kit (a roster, a grading manifest), read within bounds.

Such a file may be anything: an LMS export with a 200,000-character cell, a spreadsheet saved
as UTF-16 or in its binary format, a log file. It is read up to a size, decoded as UTF-8 (a
spreadsheet's byte-order mark allowed), and parsed with bounds on its lines and on the length
of each row and field; anything else is a ConfigError naming the file and the line.

The csv module's field limit is global to the process, so it is never changed: the parser is fed
one line at a time, and a row is refused before it could grow past that limit.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from autograder.errors import ConfigError


@dataclass(frozen=True)
class Bounds:
    max_bytes: int = 8 * 2**20
    max_lines: int = 100_001
    """Physical lines, the header and blank lines included."""
    max_field_chars: int = 4096
    max_row_chars: int = 65_536
    """A row's characters from its first line to its last (a quote left open runs to the end)."""


@dataclass(frozen=True)
class Row:
    line: int
    """The line the row starts on, counting from 1."""
    cells: tuple[str, ...]


def read_rows(path: Path, kind: str, bounds: Bounds = Bounds()) -> list[Row]:
    """Every row of the CSV at `path` (the header first; a blank line is a row of no cells).
    `kind` names the file in messages: "roster" gives "the roster PATH is larger than …"."""
    text = _text(path, kind, bounds)
    lines = _Lines(path, text, bounds)
    rows = []
    reader = csv.reader(lines)
    try:
        for cells in reader:
            rows.append(Row(lines.row_start, tuple(cells)))
            _check_fields(path, rows[-1], bounds.max_field_chars)
            lines.start_row(reader.line_num + 1)
    except csv.Error as error:  # not expected within the bounds above, but never a traceback
        raise ConfigError(f"{path}:{lines.row_start}: not readable as CSV ({error})") from None
    return rows


def _text(path: Path, kind: str, bounds: Bounds) -> str:
    try:
        with path.open("rb") as handle:
            data = handle.read(bounds.max_bytes + 1)
    except OSError as error:
        raise ConfigError(f"the {kind} {path} cannot be read: {error.strerror or error}") from None
    if len(data) > bounds.max_bytes:
        raise ConfigError(f"the {kind} {path} is larger than {_size(bounds.max_bytes)}")
    if b"\0" in data:
        line = data.count(b"\n", 0, data.index(b"\0")) + 1
        raise ConfigError(
            f"{path}:{line}: a NUL byte: this is not a text file (UTF-16, or a spreadsheet's "
            "own format?); save it as CSV in UTF-8"
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise ConfigError(
            f"{path}:{line}: not UTF-8 text (byte {error.start}); save it as CSV in UTF-8"
        ) from None


def _size(count: int) -> str:
    return f"{count // 2**20} MiB" if count >= 2**20 else f"{count} bytes"


def _check_fields(path: Path, row: Row, limit: int) -> None:
    if any(len(cell) > limit for cell in row.cells):
        raise ConfigError(f"{path}:{row.line}: a field longer than {limit} characters")


class _Lines(Iterator[str]):
    """The lines of `text` for csv.reader, refusing too many lines, and a row that grows past
    its bound (kept under csv's global field limit, so that limit is never what stops it)."""

    def __init__(self, path: Path, text: str, bounds: Bounds) -> None:
        self._path = path
        self._lines = enumerate(io.StringIO(text, newline=""), start=1)
        self._max_lines, self._max_field = bounds.max_lines, bounds.max_field_chars
        self._max_row = min(bounds.max_row_chars, csv.field_size_limit() - 1)
        self.row_start = 1
        self._row_chars = 0

    def start_row(self, line: int) -> None:
        self.row_start, self._row_chars = line, 0

    def __next__(self) -> str:
        number, line = next(self._lines)
        if number > self._max_lines:
            raise ConfigError(f"{self._path}:{number}: more than {self._max_lines} lines")
        self._row_chars += len(line)
        if self._row_chars > self._max_row:
            raise ConfigError(f"{self._path}:{self.row_start}: {self._overrun(number)}")
        return line

    def _overrun(self, line: int) -> str:
        if line == self.row_start:
            most = f"a field holds {self._max_field} at most"
            return f"a line longer than {self._max_row} characters ({most})"
        return (
            f"a row of more than {self._max_row} characters, from this line to line {line} "
            "(a quote left open?)"
        )
