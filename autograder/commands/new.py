"""`autograder new`: a new assignment's files, from the kit's template or a copy of another."""

from __future__ import annotations

import argparse
from pathlib import Path

from autograder.authoring.new_assignment import new_assignment
from autograder.commands.common import EXIT_OK, Command
from autograder.course.course import find_course_root


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", help="the assignment's name: a folder and a module name")
    parser.add_argument(
        "--from", dest="copy_of", metavar="EXISTING",
        help="copy this assignment (its folder, reference and rubric table), renamed",
    )  # fmt: skip
    parser.add_argument(
        "--course", type=Path,
        help="the course folder (default: found from here, else this folder: a new course)",
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    root = args.course or find_course_root(Path.cwd()) or Path.cwd()
    made = new_assignment(root, args.name, copy_of=args.copy_of)
    for path in made.files:
        print(f"wrote {path.relative_to(root.resolve())}")
    chosen = f"--assignment {made.name}" + (f" --course {args.course}" if args.course else "")
    print(
        f"next: autograder release {chosen}; autograder validate {chosen}; and the course "
        "tests: python -m pytest --pyargs autograder.authoring.course_tests"
    )
    return EXIT_OK


COMMAND = Command(
    name="new",
    help="write a new assignment: reference, tests, README, sample class, rubric table",
    description="Write a new assignment NAME in the course: a reference with one marked "
    "function, its README, a public and a hidden test, a sample class with expected.toml, and "
    "its table appended to grading.toml (created for a new course); --from EXISTING copies "
    "another assignment instead, renamed. Refuses a name that exists or is not a plain folder "
    "name, before writing anything.",
    add_arguments=add_arguments,
    run=run,
)
