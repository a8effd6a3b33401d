"""`autograder validate`: the tests proved on the reference, the stubs and every known mistake."""

from __future__ import annotations

import argparse

from autograder.commands.common import (
    EXIT_FAILED,
    EXIT_OK,
    Command,
    add_assignment,
    add_course,
    add_jobs,
    course_of,
)
from autograder.errors import ConfigError
from autograder.report.terminal import render_validation


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_assignment(parser, "every")
    add_course(parser)
    parser.add_argument("--only", nargs="+", default=(), metavar="NAME", help="only these cases")
    add_jobs(parser)
    parser.add_argument(
        "--without-catalogue",
        action="store_true",
        help="grade without the assignment's catalogue and signatures: how much of the "
        "independent corpus the kit's own judgement (mutants, generic measures) names alone",
    )


def run(args: argparse.Namespace) -> int:
    from autograder.authoring.validate import validate  # the grading machinery: only here

    chosen = course_of(args).selected(args.assignment)
    ok = True
    for assignment in chosen:
        verdicts = validate(
            assignment, only=args.only, jobs=args.jobs, catalogue=not args.without_catalogue
        )
        if not verdicts:
            if len(chosen) == 1:
                raise ConfigError(f"--only {' '.join(args.only)} matches no case")
            continue
        if len(chosen) > 1:
            print(f"== {assignment.name}")
        print(render_validation(verdicts))
        ok = ok and all(v.ok for v in verdicts)
    return EXIT_OK if ok else EXIT_FAILED


COMMAND = Command(
    name="validate",
    help="prove the tests: reference full, stubs zero, every known mistake caught (CI)",
    description="Grade the reference, the stubs, every catalogued misconception, the "
    "correct alternative styles and the impostors (a constant of the right shape; a function "
    "that returns its input, the identity, or the assignment's impostors.py: the computation "
    "without its new ingredient) through the real grading path, print the table, and exit 1 "
    "on any mismatch: a test that credits an impostor is named.",
    add_arguments=add_arguments,
    run=run,
)
