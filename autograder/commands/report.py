"""`autograder report`: the class report, one self-contained HTML file with plots."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from autograder.after_grading.graded import current_books, graded_books, stale_rubric_notes
from autograder.commands.common import EXIT_OK, Command, add_assignment, add_course, course_of
from autograder.course.course import Course
from autograder.errors import ConfigError
from autograder.safe_text import file_stem, printable

if TYPE_CHECKING:
    from autograder.after_grading.final_grade import FinalGrade
    from autograder.grading.gradebook import Entry


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("folder", type=Path, metavar="OUT", help="a --out folder of `grade`")
    parser.add_argument(
        "--html", type=Path, required=True,
        help="the report file to write; a folder for NAME.html each when OUT holds several "
        "assignments",
    )  # fmt: skip
    add_assignment(parser, "graded")
    parser.add_argument(
        "--feedback", type=Path, metavar="DIR",
        help="link each student's row to their file in this `autograder feedback` folder",
    )  # fmt: skip
    add_course(parser)


def run(args: argparse.Namespace) -> int:
    from autograder.report.html import (
        feedback_links,
        known_mistakes,
        render_class_report,
        rubric_parts,
    )

    try:
        course: Course | None = course_of(args)
    except ConfigError:
        if args.course is not None:
            raise
        course = None  # run outside the course folder: no catalogue to tally, no rubric
    if course is None:
        books = graded_books(args.folder, args.assignment)
    else:
        books = current_books(args.folder, course, args.assignment)
    several = len(books) > 1
    if several:
        args.html.mkdir(parents=True, exist_ok=True)
    for name, entries in books.items():
        target = args.html / f"{file_stem(name)}.html" if several else args.html
        mistakes = known_mistakes(course, name)
        parts = rubric_parts(course, name)
        links = {}
        if args.feedback is not None:
            links = feedback_links(entries, args.feedback, name, target)
        target.write_text(
            render_class_report(
                entries,
                title=f"{name}: class report",
                mistakes=mistakes,
                feedback_links=links,
                parts=parts,
                grades=_grades(args.folder, course, name, entries),
            ),
            encoding="utf-8",
        )
        print(printable(f"wrote {target} ({len(entries)} submissions of {name})"))
    for note in _notes(args.folder, course, list(books)):
        print(printable(f"autograder: warning: {note}"), file=sys.stderr)
    return EXIT_OK


def _notes(folder: Path, course: Course | None, names: list[str]) -> list[str]:
    """What the report could not bring up to date: grades made under other tests, and
    assignments no course here describes (their lateness as recorded)."""
    notes = stale_rubric_notes(folder, course, names) if course else []
    described = {spec.name for spec in course.rubric.assignments} if course else set()
    return notes + [
        f"{name}: no course describes it here (run in its course folder or give --course): "
        "its late penalties are those the last `grade` run recorded, and its written answers "
        "are left out"
        for name in names
        if name not in described
    ]


def _grades(
    folder: Path, course: Course | None, name: str, entries: list[Entry]
) -> dict[str, FinalGrade] | None:
    """The final grades, where the course describes the assignment (None: as recorded)."""
    from autograder.after_grading.final_grade import class_grades

    specs = {spec.name: spec for spec in course.rubric.assignments} if course else {}
    return class_grades(folder, specs[name], entries) if name in specs else None


COMMAND = Command(
    name="report",
    help="write the class report: one self-contained HTML file with plots (instructors)",
    description="Score histogram, pass rate per test, part averages, frequent failures and "
    "hints, ungradable and timed-out submissions, the slowest submissions.",
    add_arguments=add_arguments,
    run=run,
)
