"""`autograder release`: the student version of each assignment, or a check that it is current."""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Sequence
from pathlib import Path

from autograder.authoring.notebook import write_nbgrader_course
from autograder.authoring.release import check_release, write_release
from autograder.authoring.wheelhouse import FOLDER as WHEELHOUSE
from autograder.authoring.wheelhouse import build_wheelhouse, copy_wheelhouse
from autograder.commands.common import EXIT_OK, Command, add_assignment, add_course, course_of
from autograder.course.assignment import Assignment
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
    parser.add_argument(
        "--wheelhouse", action="store_true",
        help=f"also put {WHEELHOUSE}/ in each released folder: the kit's wheel and every wheel "
        "it needs, which the students' README installs from with no network (pip downloads "
        "the dependencies once, here)",
    )  # fmt: skip
    parser.add_argument(
        "--platform", action="append", default=[], metavar="TAG",
        help="with --wheelhouse: a platform the students use, as pip names it "
        "(manylinux2014_x86_64, macosx_11_0_arm64, win_amd64; repeat for several); "
        "default: this machine's",
    )  # fmt: skip
    parser.add_argument(
        "--python-version", action="append", default=[], metavar="X.Y",
        help="with --wheelhouse: a Python version the students use (repeat for several); "
        "default: this one",
    )  # fmt: skip


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
    if (args.platform or args.python_version) and not args.wheelhouse:
        raise ConfigError("--platform and --python-version choose the wheelhouse's wheels: "
                          "add --wheelhouse")  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="autograder-wheelhouse-") as scratch:
        wheels = Path(scratch) / WHEELHOUSE
        if args.wheelhouse:
            built = build_wheelhouse(
                wheels, platforms=args.platform, python_versions=args.python_version
            )
            print(f"built the wheelhouse: {len(built)} wheels")
        _release(chosen, args, wheels if args.wheelhouse else None)
    return EXIT_OK


def _release(chosen: Sequence[Assignment], args: argparse.Namespace, wheels: Path | None) -> None:
    for assignment in chosen:
        written = write_release(assignment)
        folder = assignment.relative(assignment.release_dir)
        print(f"released {assignment.name}: {len(written)} files in {folder}/")
        if wheels is not None:
            copy_wheelhouse(wheels, assignment.release_dir / WHEELHOUSE)
            print(f"  with {folder}/{WHEELHOUSE}/ (the students install the kit from it)")
        if args.nbgrader:
            nbgrader_files = write_nbgrader_course(assignment, args.nbgrader)
            print(f"wrote the nbgrader course {args.nbgrader}: {len(nbgrader_files)} files")


COMMAND = Command(
    name="release",
    help="write student_template/NAME/ from reference/ and assignments/NAME/ (instructors)",
    description="Generate the student version of each assignment (or the one named) in "
    "student_template/NAME/: stubs, public tests, README, notebook, check workflow; with "
    "--wheelhouse, also the wheels students install the kit from, offline.",
    add_arguments=add_arguments,
    run=run,
)
