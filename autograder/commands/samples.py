"""`autograder samples`: each assignment's whole sample class, written out to be graded."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from autograder.authoring.sample_class import write_sample_class
from autograder.commands.common import EXIT_OK, Command, add_assignment, add_course, course_of


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_assignment(parser, "every")
    add_course(parser)
    parser.add_argument(
        "--out", type=Path, required=True, metavar="DIR",
        help="write DIR/NAME/SAMPLE.py for each assignment (DIR/NAME is replaced)",
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    for assignment in course_of(args).selected(args.assignment):
        folder = args.out / assignment.name
        if folder.is_symlink() or folder.is_file():
            folder.unlink()
        elif folder.exists():
            shutil.rmtree(folder)
        written = write_sample_class(assignment, folder)
        print(f"{assignment.name}: {len(written)} samples in {folder}/")
    return EXIT_OK


COMMAND = Command(
    name="samples",
    help="write each assignment's sample class (committed and made from expected.toml)",
    description="Write every sample of each assignment's sample class "
    "(assignments/NAME/sample_class/expected.toml): its committed files, the reference with "
    "each named catalogue entry's function, and the reference with each named hostile payload, "
    "into DIR/NAME/, ready for `autograder grade`.",
    add_arguments=add_arguments,
    run=run,
)
