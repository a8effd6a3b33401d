"""What the verbs share: a verb's shape, the exit codes, --course and --assignment, --jobs."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from autograder.course.assignment import Assignment
from autograder.course.course import Course

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
"""Done (a low score included); could not (a grader error, with or without --out; or `check`
found failing tests, `release --check` drift, `samples --scores` a differing sample); bad
usage, a bad configuration file, or a path that cannot be read or written (cli.py says more)."""

COURSE_HELP = "the course folder (default: found from here)"
ASSIGNMENT_HELP = {
    "one": "the assignment, when the course has several",
    "every": "only this assignment (default: every one)",
    "graded": "only this assignment (default: every one in OUT)",
}
"""--assignment's help by what a verb does without it: the only one, every one, every graded."""


@dataclass(frozen=True)
class Command:
    """A verb of `autograder`: its name and help, its arguments, and what it does."""

    name: str
    help: str
    description: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    """Returns the exit code; raises AutograderError (exit 1) or ConfigError (exit 2)."""


def add_course(parser: argparse.ArgumentParser) -> None:
    """--course, the course folder (read by `course_of(args)`)."""
    parser.add_argument("--course", type=Path, help=COURSE_HELP)


def add_assignment(parser: argparse.ArgumentParser, scope: str) -> None:
    """--assignment, with its help for `scope` (one of ASSIGNMENT_HELP)."""
    parser.add_argument("--assignment", help=ASSIGNMENT_HELP[scope])


def add_jobs(parser: argparse.ArgumentParser) -> None:
    """--jobs: how many submissions to grade at once."""
    parser.add_argument(
        "--jobs", type=positive_int, default=os.cpu_count() or 2, help="grade this many at once"
    )


def positive_int(text: str) -> int:
    """The argparse type of a count that must be at least 1 (--jobs): less is a usage error."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def course_of(args: argparse.Namespace) -> Course:
    """The course of --course, or the one this folder is in."""
    return Course.load(args.course) if args.course else Course.find(Path.cwd())


def assignment_of(args: argparse.Namespace) -> Assignment:
    """The assignment a verb works on (--course, --assignment; no name: the only one)."""
    return course_of(args).assignment(args.assignment)
