"""The assignments a `grade --out` folder holds: what every after-grading command reads."""

from __future__ import annotations

from pathlib import Path

from autograder.errors import ConfigError
from autograder.grading.gradebook import FILE_NAME, Entry, Gradebook


def graded_names(folder: Path, assignment: str | None) -> list[str]:
    """The assignments graded into the gradebook of `folder` (or the one named, if it is)."""
    if not (folder / FILE_NAME).is_file():
        raise ConfigError(f"{folder} holds no {FILE_NAME}: grade with --out {folder} first")
    with Gradebook(folder) as book:
        names = list(book.assignments())
    if assignment is not None:
        if assignment not in names:
            raise ConfigError(f"{folder} holds no grades for {assignment!r}")
        names = [assignment]
    if not names:
        raise ConfigError(f"{folder} holds no grades yet")
    return names


def graded_books(folder: Path, assignment: str | None) -> dict[str, list[Entry]]:
    """Every assignment's entries in the gradebook of `folder` (or the one named)."""
    names = graded_names(folder, assignment)
    with Gradebook(folder) as book:
        return {name: book.entries(name) for name in names}
