"""The `autograder` command: its verbs from `autograder.commands`, and the exit code.

Exit codes: 0 the command did its job (a low score included); 1 it could not (or `check` found
failing tests, or `release --check` found drift); 2 bad usage or a bad configuration file.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from autograder import __version__
from autograder.commands import commands
from autograder.commands.common import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from autograder.errors import AutograderError, ConfigError


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except BrokenPipeError:  # the output went to a pager or `head` that closed early
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - keeps Python quiet at exit
        return EXIT_OK
    except ConfigError as error:
        print(f"autograder: {error}", file=sys.stderr)
        return EXIT_USAGE
    except AutograderError as error:
        print(f"autograder: {error}", file=sys.stderr)
        return EXIT_FAILED


def build_parser() -> argparse.ArgumentParser:
    """`autograder` and a subcommand per verb; each verb's `run` is the parsed `args.run`."""
    parser = argparse.ArgumentParser(
        prog="autograder", description="Autograded exercises for the maths of transformers."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    verbs = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")
    for command in commands():
        verb = verbs.add_parser(command.name, help=command.help, description=command.description)
        command.add_arguments(verb)
        verb.set_defaults(run=command.run)
    return parser
