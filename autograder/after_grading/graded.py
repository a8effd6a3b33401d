"""The assignments a `grade --out` folder holds: what every after-grading command reads."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from autograder.errors import ConfigError
from autograder.grading.batch import count_attempts
from autograder.grading.gradebook import FILE_NAME, Entry, Gradebook

if TYPE_CHECKING:
    from autograder.course.course import Course


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


def current_books(
    folder: Path, course: Course, assignment: str | None = None
) -> dict[str, list[Entry]]:
    """graded_books, after every attempt's late penalty and each student's counted attempt
    are brought up to date with the rubric and extensions as they are now (batch's
    count_attempts, writing only what changed): no one reads a penalty of an extension file
    since edited. An assignment the course no longer describes is read as recorded."""
    names = graded_names(folder, assignment)
    described = {spec.name: spec for spec in course.rubric.assignments}
    with Gradebook(folder) as book:
        for name in names:
            if name in described:
                count_attempts(book, described[name])
        return {name: book.entries(name) for name in names}


def stale_rubric_notes(folder: Path, course: Course, names: Iterable[str]) -> list[str]:
    """A warning per assignment whose counted grades were made under other tests, reference
    or rubric than the course's now (what lateness cannot fix when read: a regrade can)."""
    notes = []
    described = {spec.name for spec in course.rubric.assignments}
    with Gradebook(folder) as book:
        for name in names:
            if name not in described:
                continue
            rubric = course.assignment(name).grading_hash()
            stale = book.graded_under_another_rubric(name, rubric)
            if stale:
                notes.append(
                    f"{name}: {len(stale)} student(s) were graded under other tests, reference "
                    f"or rubric than the course's now; run `autograder grade ... --out {folder} "
                    f"--assignment {name}` to grade them again"
                )
    return notes
