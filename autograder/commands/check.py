"""`autograder check`: the public tests on a student's module, with hints."""

from __future__ import annotations

import argparse
from pathlib import Path

from autograder.commands.common import EXIT_FAILED, EXIT_OK, Command, add_assignment
from autograder.errors import ConfigError
from autograder.report.terminal import render_check
from autograder.student.local_check import DEFAULT_TIMEOUT_S, locate, run_check


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "where", nargs="*", metavar="[PATH] [FUNCTION]",
        help="your module, or the folder that holds it (default: this folder), and/or the one "
        "function whose tests to show: `check .`, `check FUNCTION`, "
        "`check my.py FUNCTION`",
    )  # fmt: skip
    add_assignment(parser, "one")
    parser.add_argument(
        "-k", dest="keyword", metavar="EXPR",
        help="run only the tests pytest's -k EXPR selects (their names, e.g. -k 'shape or row')",
    )  # fmt: skip
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="list every passed test, not only a count"
    )
    parser.add_argument(
        "--timeout", type=float, default=DEFAULT_TIMEOUT_S, metavar="SECONDS",
        help=f"give up after this long (default {DEFAULT_TIMEOUT_S:g})",
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    path, function = check_arguments(args.where)
    target = locate(path, assignment=args.assignment)
    report = run_check(target, timeout_s=args.timeout, keyword=args.keyword)
    if function is not None:
        report = report.only(function)
    print(render_check(report, verbose=args.verbose, function=function))
    return EXIT_OK if report.all_passed else EXIT_FAILED


def check_arguments(where: list[str]) -> tuple[Path, str | None]:
    """`check`'s arguments as (path, function): `[PATH] [FUNCTION]`; a lone one that is no
    existing path but a Python name is a function (of the module in this folder)."""
    if len(where) > 2:
        raise ConfigError(f"check takes at most a path and a function, not {len(where)} arguments")
    if not where:
        return Path("."), None
    if len(where) == 2:
        if not where[1].isidentifier():
            raise ConfigError(f"{where[1]!r} is not a function's name")
        return Path(where[0]), where[1]
    (only,) = where
    if not Path(only).exists() and only.isidentifier():
        return Path("."), only
    return Path(only), None


COMMAND = Command(
    name="check",
    help="run the public tests on your module, with hints (students)",
    description="Run the public tests on your module and say what is wrong and why. "
    "Exit 0 when every public test passes.",
    add_arguments=add_arguments,
    run=run,
)
