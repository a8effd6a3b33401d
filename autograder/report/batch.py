"""Grade a class (autograder.grading.batch) and write each result in the report formats."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from autograder.course.assignment import Assignment
from autograder.grading import batch
from autograder.grading.batch import BatchSummary, Item
from autograder.grading.gradebook import Entry
from autograder.protocol.results import SubmissionResult
from autograder.report import FORMATS
from autograder.safe_text import file_stem


def grade_class(
    assignment: Assignment,
    items: Sequence[Item],
    *,
    out: Path,
    jobs: int,
    regrade: bool = False,
    formats: Sequence[str] = ("json", "gradescope"),
    on_result: Callable[[Entry, int, int], None] = lambda entry, done, total: None,
) -> BatchSummary:
    """Grade every item not already in `out`'s gradebook (all of them with `regrade`), and
    write each new result in `formats` (names of FORMATS) beside it."""
    return batch.grade_class(
        assignment,
        items,
        out=out,
        jobs=jobs,
        regrade=regrade,
        write_files=lambda student, result: write_result_files(out, student, result, formats),
        on_result=on_result,
    )


def write_result_files(
    out: Path, student: str, result: SubmissionResult, formats: Sequence[str]
) -> list[str]:
    """The result in each format, in `out`'s folder for the result's assignment, named after
    the student (a safe spelling of the name); the gradebook holds it already, so a file that
    cannot be written is reported, not fatal."""
    problems = []
    out = out / file_stem(result.assignment)
    try:
        out.mkdir(exist_ok=True)
    except OSError as error:
        return [f"{student}: the folder for its result files could not be made: {error}"]
    for name in formats:
        suffix, render = FORMATS[name]
        try:
            (out / f"{file_stem(student)}{suffix}").write_text(render(result), encoding="utf-8")
        except OSError as error:
            problems.append(f"{student}: the {name} result file could not be written: {error}")
    return problems
