"""The `autograder` command: its verbs from `autograder.commands`, and the exit code.

Exit codes, the same for every verb:

- 0: the command did its job, whatever the scores (a low score, an ungradable submission).
- 1: it could not: a submission ended in a grader error (with or without `--out`: with it the
  error is recorded and the next run grades that submission again), `check` found a failing
  test, `validate` a mismatch, `release --check` drift, `samples --scores` a sample whose
  score differs from its expected.toml.
- 2: bad usage, a bad configuration file, or a file or folder it cannot read or write (an
  `--out` that cannot be made, a missing input): one line naming the path and why, no
  traceback. An OSError about no path is the kit's own failure and keeps its traceback.

A verb's module is imported only when that verb runs or shows its help: `autograder --help`
and `--version` import none (some pull in the grading machinery).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from autograder import __version__
from autograder.commands import VERBS, command
from autograder.commands.common import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from autograder.errors import AutograderError, ConfigError
from autograder.safe_text import printable


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
    except OSError as error:
        if error.filename is None:  # not about a path: the kit's own failure, with its trace
            raise
        print(f"autograder: {path_problem(error)}", file=sys.stderr)
        return EXIT_USAGE


def path_problem(error: OSError) -> str:
    """An OSError about a path as one line: the path(s), then why ("/proc/x: No such file or
    directory"), without the "[Errno 2]" Python adds."""
    paths = [os.fsdecode(p) for p in (error.filename, error.filename2) if p is not None]
    why = error.strerror or type(error).__name__
    return printable(f"{' -> '.join(paths)}: {why}")


def build_parser() -> argparse.ArgumentParser:
    """`autograder` and a subcommand per verb; each verb's `run` is the parsed `args.run`."""
    parser = argparse.ArgumentParser(
        prog="autograder", description="Autograded exercises for the maths of transformers."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    verbs = parser.add_subparsers(
        title="commands", required=True, metavar="COMMAND", parser_class=_VerbParser
    )
    for verb, help_text in VERBS.items():
        verbs.add_parser(verb, help=help_text, verb=verb)
    return parser


class _VerbParser(argparse.ArgumentParser):
    """A verb's parser, which imports the verb's module (its description, arguments and run)
    only when it parses or shows its help: the lazy registry of pip's command line."""

    def __init__(self, *args: Any, verb: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._verb = verb  # None once loaded, and for a verb's own subcommands (their class)

    def _load(self) -> None:
        if self._verb is None:
            return
        loaded, self._verb = command(self._verb), None
        self.description = loaded.description
        loaded.add_arguments(self)
        self.set_defaults(run=loaded.run)

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        self._load()
        return super().parse_known_args(args, namespace)

    def format_help(self) -> str:
        self._load()
        return super().format_help()

    def format_usage(self) -> str:
        self._load()
        return super().format_usage()
