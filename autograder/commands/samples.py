"""`autograder samples`: each assignment's sample class, written out to be graded, or graded
here beside expected.toml's scores (the author's loop: measure, review, commit)."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from autograder.authoring.sample_class import EXPECTED_FILE, Sample, sample_class, write_samples
from autograder.commands.common import (
    EXIT_FAILED,
    EXIT_OK,
    Command,
    add_assignment,
    add_course,
    add_jobs,
    course_of,
)
from autograder.course.assignment import Assignment
from autograder.errors import ConfigError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_assignment(parser, "every")
    add_course(parser)
    parser.add_argument(
        "--out", type=Path, metavar="DIR",
        help="write DIR/NAME/SAMPLE.py for each assignment (DIR/NAME is replaced)",
    )  # fmt: skip
    parser.add_argument(
        "--scores", action="store_true",
        help="grade every sample in the sandbox, as `grade` does, and print its score beside "
        "expected.toml's, with the difference; exit 1 when one differs",
    )  # fmt: skip
    parser.add_argument(
        "--update", action="store_true",
        help="with --scores (implied): write the scores and parts lost measured into "
        "expected.toml, its comments kept, for review with `git diff`",
    )  # fmt: skip
    parser.add_argument("--only", nargs="+", default=(), metavar="SAMPLE", help="only these")
    add_jobs(parser)


def run(args: argparse.Namespace) -> int:
    scores = args.scores or args.update
    if (args.out is None) == (not scores):
        raise ConfigError(
            "give --out DIR to write the sample class, or --scores (--update) to grade it "
            "beside expected.toml: one of the two"
        )
    chosen = [
        (a, _chosen(sample_class(a), args.only)) for a in course_of(args).selected(args.assignment)
    ]
    unknown = set(args.only) - {s.name for _, samples in chosen for s in samples}
    if unknown:
        raise ConfigError(f"--only: no sample {', '.join(sorted(unknown))}")
    if not scores:
        for assignment, samples in chosen:
            written = _write(samples, args.out / assignment.name)
            print(f"{assignment.name}: {len(written)} samples in {args.out / assignment.name}/")
        return EXIT_OK
    agree = True
    for assignment, samples in chosen:
        if not samples:
            continue
        if len(chosen) > 1:
            print(f"== {assignment.name}")
        agree = _scores(assignment, samples, jobs=args.jobs, update=args.update) and agree
    return EXIT_OK if agree else EXIT_FAILED


def _chosen(samples: list[Sample], only: tuple[str, ...] | list[str]) -> list[Sample]:
    return [s for s in samples if not only or s.name in only]


def _write(samples: list[Sample], folder: Path) -> list[Path]:
    if folder.is_symlink() or folder.is_file():
        folder.unlink()
    elif folder.exists():
        shutil.rmtree(folder)
    return write_samples(samples, folder)


def _scores(assignment: Assignment, samples: list[Sample], *, jobs: int, update: bool) -> bool:
    """Grade the samples, printing each row as it comes; with `update`, write what differs.
    Whether every sample now agrees with expected.toml."""
    from autograder.authoring.sample_scores import grade_samples, write_measured  # the runners
    from autograder.report.terminal import (
        render_sample_score,
        render_sample_scores_head,
        render_sample_scores_tally,
    )

    width = max(len("sample"), *(len(s.name) for s in samples)) + 2
    print(render_sample_scores_head(width), flush=True)
    measured = []
    for score in grade_samples(assignment, samples, jobs=jobs):
        print(render_sample_score(score, width), flush=True)
        measured.append(score)
    print(render_sample_scores_tally(measured))
    if not update:
        return all(score.agrees for score in measured)
    written = write_measured(assignment, measured)
    where = assignment.relative(assignment.sample_class / EXPECTED_FILE)
    if written:
        print(
            f"{where}: wrote the measured score of {len(written)} sample(s) "
            f"({', '.join(written)}); review them (git diff) before committing"
        )
    else:
        print(f"{where}: nothing to write")
    return all(s.agrees or (s.graded and not s.unsaid) for s in measured)


COMMAND = Command(
    name="samples",
    help="write each assignment's sample class, or grade it beside expected.toml's scores",
    description="`--out DIR`: write every sample of each assignment's sample class "
    "(assignments/NAME/sample_class/expected.toml): its committed files, the reference with "
    "each named catalogue entry's function, and the reference with each named hostile payload, "
    "into DIR/NAME/, ready for `autograder grade`. `--scores`: grade every sample here, in the "
    "sandbox as `grade` does, and print a table: sample, expected.toml's score, the score it "
    "got, the difference, and what else differs (the parts lost, a missing `says`); exit 1 "
    "when a sample differs. `--update` also writes the measured scores and parts lost into "
    "expected.toml, keeping its comments, for the author to review with `git diff`.",
    add_arguments=add_arguments,
    run=run,
)
