"""`autograder release`: the student version of each assignment, or a check that it is current."""

from __future__ import annotations

import argparse
from pathlib import Path

from autograder.authoring.notebook import write_nbgrader_course
from autograder.authoring.release import check_release, write_release
from autograder.commands.common import EXIT_OK, Command, add_assignment, add_course, course_of
from autograder.errors import AutograderError, ConfigError, TemplateDriftError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_assignment(parser, "every")
    parser.add_argument(
        "--check", action="store_true",
        help="write nothing; exit 1, naming each file, if a release folder is out of date",
    )  # fmt: skip
    add_course(parser)
    parser.add_argument(
        "--nbgrader",
        type=Path,
        metavar="COURSE_DIR",
        help="also write an nbgrader course folder (nbgrader_config.py, source/NAME/NAME.ipynb) "
        "for the assignment named with --assignment (or the course's only one)",
    )


def run(args: argparse.Namespace) -> int:
    chosen = course_of(args).selected(args.assignment)
    if args.check:
        drifted = []
        for assignment in chosen:
            try:
                check_release(assignment)
            except TemplateDriftError as error:
                drifted.append(str(error))
                continue
            print(f"{assignment.relative(assignment.release_dir)}/ is up to date")
        if drifted:
            raise AutograderError("\n".join(drifted))
        return EXIT_OK
    if args.nbgrader and len(chosen) > 1:
        raise ConfigError("--nbgrader writes one assignment's nbgrader course: add --assignment")
    for assignment in chosen:
        written = write_release(assignment)
        print(
            f"released {assignment.name}: {len(written)} files in "
            f"{assignment.relative(assignment.release_dir)}/"
        )
        if args.nbgrader:
            nbgrader_files = write_nbgrader_course(assignment, args.nbgrader)
            print(f"wrote the nbgrader course {args.nbgrader}: {len(nbgrader_files)} files")
    return EXIT_OK


COMMAND = Command(
    name="release",
    help="write student_template/NAME/ from reference/ and assignments/NAME/ (instructors)",
    description="Generate the student version of each assignment (or the one named) in "
    "student_template/NAME/: stubs, public tests, README, notebook, check workflow.",
    add_arguments=add_arguments,
    run=run,
)
