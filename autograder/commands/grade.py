"""`autograder grade`: submissions graded in the sandbox, into a gradebook or to the terminal."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from autograder.commands.common import (
    EXIT_FAILED,
    EXIT_OK,
    Command,
    add_assignment,
    add_course,
    add_jobs,
    assignment_of,
)
from autograder.course.assignment import Assignment
from autograder.errors import ConfigError
from autograder.grading.array_job import shard_option
from autograder.grading.batch import Item, discover, shard
from autograder.grading.gradebook import Entry, Gradebook
from autograder.grading.isolation_warning import isolation_warning
from autograder.grading.progress import Progress
from autograder.grading.runners import Runner
from autograder.protocol.results import SubmissionResult
from autograder.report import FORMATS
from autograder.report.batch import grade_class
from autograder.report.long_list import long_list
from autograder.report.terminal import render_class, render_grade, render_grade_line
from autograder.safe_text import printable


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "submissions", nargs="*", type=Path, metavar="SUBMISSION",
        help="a submission (.py, .ipynb, .zip, folder) or a folder of them (a class)",
    )  # fmt: skip
    parser.add_argument(
        "-v", "--verbose", action="store_true",
        help="print every test of every submission (default: only when grading one)",
    )  # fmt: skip
    add_assignment(parser, "one")
    add_course(parser)
    parser.add_argument(
        "--out", type=Path,
        help="keep the gradebook (gradebook.sqlite) and each result file here; a re-run skips "
        "what is already graded (default: print only)",
    )  # fmt: skip
    add_jobs(parser)
    parser.add_argument(
        "--shard", metavar="I/N",
        help="grade only the I-th of N deterministic shards; auto/N (or auto) in a task of a "
        "Kubernetes Indexed Job, a Slurm job array or an AWS Batch array job reads I (and N) "
        "from its environment",
    )  # fmt: skip
    parser.add_argument("--regrade", action="store_true", help="grade again what is already graded")
    parser.add_argument(
        "--manifest", type=Path,
        help="a CSV of student_id,path,submitted_at instead of SUBMISSION arguments",
    )  # fmt: skip
    parser.add_argument(
        "--format", default="json,gradescope,junit",
        help="comma-separated: json, gradescope, junit (default: all three)",
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    assignment = assignment_of(args)
    spec = assignment.spec
    formats = [name.strip() for name in args.format.split(",") if name.strip()]
    unknown = [name for name in formats if name not in FORMATS]
    if unknown:
        raise ConfigError(f"unknown --format {unknown[0]!r}; choose from {', '.join(FORMATS)}")
    items = discover(args.submissions, module=spec.module, manifest=args.manifest)
    if not items:
        raise ConfigError(_nothing_to_grade(args.submissions, args.manifest, spec.module))
    if args.shard:
        items = _shard(args.shard, items)
    warning = isolation_warning(assignment)
    if warning:
        print(f"autograder: warning: {warning}", file=sys.stderr)
    if args.out is None:
        return _grade_without_gradebook(assignment, items, verbose=args.verbose)
    total = len(items)

    def describe(entry: Entry) -> str:
        detailed = total == 1 or args.verbose
        return render_grade(entry.result) if detailed else render_grade_line(entry.result)

    progress = Progress(total, describe=describe, verbose=args.verbose)
    summary = grade_class(
        assignment, items, out=args.out, jobs=args.jobs, regrade=args.regrade,
        formats=formats, on_result=progress.update,
    )  # fmt: skip
    progress.close()
    if summary.skipped:
        print(
            f"{len(summary.skipped)} submission(s) already graded with this rubric: current, "
            "not graded again (lateness is applied when grades are read: gradebook, feedback "
            "and report use the late policy and extensions as they are when they run)"
        )
    if summary.brought_up_to_date:
        listed = long_list(summary.brought_up_to_date, file=args.out / "lateness-updated.txt")
        print(
            f"late penalty or counted attempt brought up to date with the late policy and "
            f"extensions now, without grading again: {len(summary.brought_up_to_date)} "
            f"student(s): {listed}"
        )
    with Gradebook(args.out) as book:
        entries = [e for e in book.entries(spec.name) if e.student in {i.student for i in items}]
    if len(entries) > 1:
        print(render_class(spec, [e.result for e in entries]))
    unlisted = long_list(summary.unlisted, file=args.out / "unlisted-attempts.txt")
    if summary.unlisted:
        print(
            f"autograder: {len(summary.unlisted)} earlier attempt(s) of these students are in "
            f"the gradebook but not in this run, and still count by the rubric's attempts rule: "
            f"{unlisted}",
            file=sys.stderr,
        )
    problems = long_list(summary.problems, file=args.out / "problems.txt", separator=SEPARATOR)
    if summary.problems:
        print(f"autograder: {problems}", file=sys.stderr)
    if summary.grader_errors:
        print(
            f"autograder: {summary.grader_errors} submission(s) ended in a grader error (recorded "
            "with the reason); run the same command again to retry them",
            file=sys.stderr,
        )
    return _exit_code([entry.result for entry in summary.graded])


SEPARATOR = "\nautograder: "
"""Between the problems `grade` reports: one a line."""


def _shard(option: str, items: list[Item]) -> list[Item]:
    """The items of --shard's shard; an array job's task says which one it took, and why."""
    index, count, source = shard_option(option, os.environ)
    chosen = shard(items, index, count)
    if source is not None:
        print(
            f"autograder: shard {index}/{count} from {source}: {len(chosen)} of {len(items)} "
            "submissions",
            file=sys.stderr,
        )
    return chosen


def _nothing_to_grade(paths: Sequence[Path], manifest: Path | None, module: str) -> str:
    """Why `grade` refuses: a CI glob that matched nothing must not look like a graded class."""
    if manifest is not None:
        return printable(f"the manifest {manifest} lists no submission")
    if not paths:
        return "no submission to grade: name files or folders of them, or give --manifest"
    searched = ", ".join(str(path) for path in paths)
    return printable(
        f"no submission found in {searched}: a submission is a .py, .ipynb or .zip file, or a "
        f"folder holding {module} or one notebook (names starting with . or _ are skipped)"
    )


def _grade_without_gradebook(assignment: Assignment, items: list[Item], *, verbose: bool) -> int:
    """Grade each item in one runner and print it: nothing is kept."""
    results = []
    spec = assignment.spec
    with Runner(assignment) as runner:
        for item in items:
            result = runner.grade(item.path)
            results.append(result)
            detailed = len(items) == 1 or verbose
            print(render_grade(result) if detailed else render_grade_line(result), flush=True)
    if len(results) > 1:
        print(render_class(spec, results))
    return _exit_code(results)


def _exit_code(results: Sequence[SubmissionResult]) -> int:
    """1 when a submission of this run ended in a grader error (one the kit could not grade),
    with or without --out; else 0, whatever the scores (an ungradable submission included)."""
    return EXIT_FAILED if any(r.status == "grader_error" for r in results) else EXIT_OK


COMMAND = Command(
    name="grade",
    help="grade submissions with the hidden and public tests, in a sandbox (CI, instructors)",
    description="Grade each submission (a .py file, a folder, a .zip or a notebook) with the "
    "hidden and public tests; student code runs in an isolated worker. Exit 0 when every "
    "submission was graded, whatever the scores; 1 when one ended in a grader error (with "
    "--out it is recorded, and the next run grades it again).",
    add_arguments=add_arguments,
    run=run,
)
