"""`autograder similarity`: every pair of graded submissions compared, to look for copied work."""

from __future__ import annotations

import argparse
from pathlib import Path

from autograder.after_grading.graded import graded_names
from autograder.after_grading.similarity import THRESHOLD
from autograder.commands.common import EXIT_OK, Command, add_assignment, add_course, course_of
from autograder.grading.gradebook import Gradebook
from autograder.safe_text import file_stem, printable


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("folder", type=Path, metavar="OUT", help="a --out folder of `grade`")
    parser.add_argument(
        "--html", type=Path, required=True,
        help="the report file; a folder for NAME.html each when OUT holds several assignments",
    )  # fmt: skip
    add_assignment(parser, "every")
    parser.add_argument(
        "--threshold", type=float, default=THRESHOLD,
        help=f"list pairs where either side shares at least this share (default "
        f"{THRESHOLD:g})",
    )  # fmt: skip
    add_course(parser)


def run(args: argparse.Namespace) -> int:
    from autograder.after_grading.similarity import compare, released_stub
    from autograder.report.similarity_html import nearest_line, render_similarity

    course = course_of(args)
    names = graded_names(args.folder, args.assignment)
    several = len(names) > 1
    if several:
        args.html.mkdir(parents=True, exist_ok=True)
    for name in names:
        assignment = course.assignment(name)
        with Gradebook(args.folder) as book:
            sources = book.sources(name)
        comparison = compare(sources, stub=released_stub(assignment), threshold=args.threshold)
        target = args.html / f"{file_stem(name)}.html" if several else args.html
        target.write_text(
            render_similarity(comparison, sources, title=f"{name}: similar submissions"),
            encoding="utf-8",
        )
        closest = nearest_line(comparison)
        print(printable(
            f"wrote {target}: {comparison.compared} submissions of {name} compared, "
            f"{len(comparison.pairs)} pair(s) at or above {args.threshold:.0%} shared"
            + (f"; {closest}" if closest else "")
        ))  # fmt: skip
        for pair in comparison.pairs[:20]:
            shared = f"{pair.similarity[0]:.0%} / {pair.similarity[1]:.0%}"
            print(printable(f"  {pair.first}  {pair.second}  {shared}"))
    return EXIT_OK


COMMAND = Command(
    name="similarity",
    help="look for copied work: every pair of submissions compared by winnowing",
    description="Compare every pair of each assignment's graded submissions (their module "
    "sources, kept in the gradebook) by winnowing over normalised tokens, ignoring the "
    "released stub and passages much of the class shares; write the pairs above the "
    "threshold with their shared regions side by side.",
    add_arguments=add_arguments,
    run=run,
)
