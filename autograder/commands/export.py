"""`autograder export`: each assignment's grader packaged for another platform."""

from __future__ import annotations

import argparse
from pathlib import Path

from autograder.commands.common import EXIT_OK, Command, add_assignment, add_course, course_of
from autograder.errors import ConfigError
from autograder.gradescope.export import build_zip
from autograder.safe_text import file_stem


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("platform", choices=["gradescope"])
    parser.add_argument(
        "--out", type=Path, default=Path("."),
        help="the folder for NAME.zip (default: this folder), or FILE.zip for one assignment",
    )  # fmt: skip
    add_assignment(parser, "every")
    add_course(parser)


def run(args: argparse.Namespace) -> int:
    chosen = course_of(args).selected(args.assignment)
    single_file = args.out.suffix == ".zip"
    if single_file and len(chosen) > 1:
        raise ConfigError(
            f"--out {args.out} names one zip, and the course has several assignments: "
            "name a folder, or one assignment with --assignment"
        )
    for assignment in chosen:
        target = args.out if single_file else args.out / f"{file_stem(assignment.name)}.zip"
        names = build_zip(assignment, target)
        print(f"wrote {target}: {len(names)} files (setup.sh, run_autograder, engine/, course/)")
    return EXIT_OK


COMMAND = Command(
    name="export",
    help="package the grader for another platform",
    description="Package each assignment's grader (or the one named) for a platform: "
    "`gradescope` writes NAME.zip for a Gradescope programming assignment (setup.sh, "
    "run_autograder, the kit, the course).",
    add_arguments=add_arguments,
    run=run,
)
