"""A list of any length on the terminal: a screenful of it, and the whole list in a file.

A class of 300 gives lists of 300 names (roster students without a submission, blank cells);
on one line they bury the rest of the output. The terminal gets the first few and `… and 88
more (all 98 in FILE)`; FILE, beside the command's output, holds one item a line. Every item is
made safe for a terminal and kept on one line, in the file too (it is read with `cat`)."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from pathlib import Path

from autograder.safe_text import file_stem, printable

SHOWN = 10
"""Items shown on the terminal before `… and K more`."""


def beside(output: Path, what: str) -> Path:
    """The file of a list about `output`: `grades.csv` and "unmatched" give
    `grades.csv.unmatched.txt` in the same folder (`what` made a safe file name)."""
    return output.with_name(f"{output.name}.{file_stem(what)}.txt")


def long_list(
    items: Sequence[str], *, file: Path, separator: str = ", ", shown: int = SHOWN
) -> str:
    """`items` joined by `separator`, at most `shown` of them, then `… and K more (all N in
    FILE)` with every item written to `file`. A list that fits removes the `file` an earlier,
    longer list left there, so what lies beside the output is never stale."""
    lines = [one_line(item) for item in items]
    if len(lines) <= shown:
        with contextlib.suppress(OSError):  # not there, or not a file we could have written
            file.unlink()
        return separator.join(lines)
    head = separator.join(lines[:shown])
    more = f"… and {len(lines) - shown} more"
    try:
        file.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    except OSError as error:
        where = printable(f"could not write the whole list to {file}: {error.strerror or error}")
        return f"{head}{separator}{more} ({where})"
    return f"{head}{separator}{more} (all {len(lines)} in {one_line(str(file))})"


def one_line(text: str) -> str:
    """`text` for one line of a terminal: control characters escaped, newlines and tabs too."""
    return printable(text).replace("\n", "\\n").replace("\t", "\\t")
