"""`autograder feedback`: each student's feedback to hand back, HTML and Markdown."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from autograder.after_grading.graded import current_books, stale_rubric_notes
from autograder.commands.common import EXIT_OK, Command, add_assignment, add_course, course_of
from autograder.grading.gradebook import Gradebook
from autograder.safe_text import file_stem, printable


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("folder", type=Path, metavar="OUT", help="a --out folder of `grade`")
    parser.add_argument(
        "--out", type=Path, required=True, metavar="DIR",
        help="the folder for NAME/STUDENT.html and NAME/STUDENT.md",
    )  # fmt: skip
    add_assignment(parser, "graded")
    when = parser.add_mutually_exclusive_group()
    when.add_argument(
        "--after-due", dest="after_due", action="store_true", default=None,
        help="show the results held back until the due date, whatever the date",
    )  # fmt: skip
    when.add_argument(
        "--before-due", dest="after_due", action="store_false",
        help="hold them back, whatever the date",
    )  # fmt: skip
    add_course(parser)


def run(args: argparse.Namespace) -> int:
    from datetime import datetime, timezone

    from autograder.after_grading.student_feedback import write_feedback
    from autograder.manual.totals import class_totals

    course = course_of(args)
    now = datetime.now(timezone.utc)
    books = current_books(args.folder, course, args.assignment)
    for name, entries in books.items():
        spec = course.rubric.assignment(name)
        totals = class_totals(args.folder, spec)
        with Gradebook(args.folder) as book:
            attempts = book.attempts(name)
        written = write_feedback(
            entries,
            spec,
            args.out,
            after_due=args.after_due,
            now=now,
            attempts=attempts,
            totals=totals,
        )
        folder = args.out / file_stem(name)
        print(printable(f"wrote {folder}/: feedback for {len(written)} students (HTML, Markdown)"))
    for note in stale_rubric_notes(args.folder, course, books):
        print(printable(f"autograder: warning: {note}"), file=sys.stderr)
    return EXIT_OK


COMMAND = Command(
    name="feedback",
    help="write each student's feedback to hand back: HTML and Markdown (instructors)",
    description="One self-contained HTML file and a Markdown twin per student and "
    "assignment, in DIR/NAME/: the final grade (the late policy and extensions as they are "
    "now), late penalty, points per part, every test the "
    "student may see now with its message and hint. Tests shown after the due date are "
    "held back until the late policy's due date has passed (or with --after-due); hidden "
    "tests never show their inputs.",
    add_arguments=add_arguments,
    run=run,
)
