"""`autograder gradebook`: a gradebook as CSV or an LMS file, or shard gradebooks merged."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from autograder.after_grading.lms import FORMATS as LMS_FORMATS
from autograder.commands.common import COURSE_HELP, EXIT_OK, Command, course_of
from autograder.commands.forms import add_forms
from autograder.errors import ConfigError
from autograder.grading.gradebook import Gradebook, merge
from autograder.report.long_list import beside, long_list
from autograder.safe_text import printable

if TYPE_CHECKING:
    from autograder.course.course import Course


def add_arguments(parser: argparse.ArgumentParser) -> None:
    _add_options(parser)  # here too: they may come before OUT
    export = argparse.ArgumentParser(prog=parser.prog, description=parser.description)
    export.add_argument("folders", nargs="+", type=Path, metavar="FOLDER")
    _add_options(export)
    forms = add_forms(parser, export, metavar="FOLDER")
    merging = forms.add_parser(
        "merge",
        help="merge shard gradebooks graded under the same rubric",
        description="Merge the gradebooks of `grade --shard` runs (refusing shards graded "
        "under different rubrics) into the gradebook of --out.",
    )
    merging.add_argument(
        "folders", nargs="*", type=Path, metavar="SHARD", help="a --out folder of `grade --shard`"
    )
    _add_options(merging, merging=True)
    merging.set_defaults(run=run_merge)


def _add_options(parser: argparse.ArgumentParser, *, merging: bool = False) -> None:
    """The options of `gradebook OUT`; `merge` shows only --out and accepts the others."""
    shown = (lambda text: argparse.SUPPRESS) if merging else (lambda text: text)
    parser.add_argument(
        "--csv", type=Path,
        help=shown("write the gradebook as CSV here (with --changes: the changes)"),
    )  # fmt: skip
    parser.add_argument(
        "--changes", action="store_true",
        help=shown("list each student whose score the latest regrade changed: the score "
                   "before and after, and each test that changed"),
    )  # fmt: skip
    parser.add_argument("--assignment", help=shown("with --changes: only this assignment"))
    parser.add_argument(
        "--out", type=Path,
        help="the folder of the merged gradebook" if merging else
        "with merge: the folder of the merged gradebook; with --lms: the file to write",
    )  # fmt: skip
    parser.add_argument(
        "--lms", choices=LMS_FORMATS,
        help=shown("write the grade-import file of this LMS (needs --roster and --out): final "
                   "scores, one column per assignment, one row per roster student"),
    )  # fmt: skip
    parser.add_argument(
        "--roster", type=Path,
        help=shown("CSV with student_id, name, submission (and email, login, sis_id, section)"),
    )  # fmt: skip
    parser.add_argument(
        "--missing", choices=("blank", "zero"), default="blank",
        help=shown("the cell of a roster student without a submission (default: blank, no "
                   "grade)"),
    )  # fmt: skip
    parser.add_argument("--course", type=Path, help=shown(COURSE_HELP))


def run(args: argparse.Namespace) -> int:
    """`gradebook OUT --csv FILE` or `gradebook OUT --lms LMS --roster ROSTER --out FILE`."""
    folders: list[Path] = args.folders
    if len(folders) == 1 and args.changes:
        return _changes(args, folders[0])
    if len(folders) == 1 and args.lms:
        return _lms_file(args, folders[0])
    if len(folders) != 1 or not args.csv:
        raise ConfigError(
            "usage: autograder gradebook OUT --csv FILE, or gradebook OUT --lms LMS --roster "
            "ROSTER --out FILE, or gradebook merge OUT1 OUT2 ... --out OUT"
        )
    from autograder.after_grading.gradebook_csv import write_gradebook_csv

    course = course_of(args)
    rows, names = write_gradebook_csv(folders[0], args.csv, course)
    print(f"wrote {rows} students ({', '.join(names)}) to {args.csv}")
    _warn_stale(folders[0], course, names)
    return EXIT_OK


def _warn_stale(folder: Path, course: Course, names: list[str]) -> None:
    """Say which assignments' grades were made under other tests than the course's now."""
    from autograder.after_grading.graded import stale_rubric_notes

    for note in stale_rubric_notes(folder, course, names):
        print(printable(f"autograder: warning: {note}"), file=sys.stderr)


def run_merge(args: argparse.Namespace) -> int:
    """`gradebook merge OUT1 OUT2 ... --out OUT`."""
    if not args.out or not args.folders:
        raise ConfigError("usage: autograder gradebook merge OUT1 OUT2 ... --out OUT")
    count = merge(args.folders, args.out)
    print(f"merged {len(args.folders)} gradebooks into {args.out}: {count} submissions")
    return EXIT_OK


def _changes(args: argparse.Namespace, folder: Path) -> int:
    """`gradebook OUT --changes [--assignment NAME] [--csv FILE]`."""
    from autograder.after_grading.graded import graded_names
    from autograder.grading.regrades import changes, describe, write_changes_csv

    found = []
    with Gradebook(folder) as book:
        for name in graded_names(folder, args.assignment):
            listed = changes(book, name)
            print(printable(f"{name}: {len(listed)} attempt(s) changed by the latest regrade"))
            for change in listed:
                for line in describe(change):
                    print(printable(line))
            found += listed
    if args.csv:
        write_changes_csv(found, args.csv)
        print(printable(f"wrote {len(found)} change(s) to {args.csv}"))
    return EXIT_OK


def _lms_file(args: argparse.Namespace, folder: Path) -> int:
    from autograder.after_grading.lms import export_grades

    if args.roster is None or args.out is None:
        raise ConfigError("usage: autograder gradebook OUT --lms LMS --roster ROSTER --out FILE")
    course = course_of(args)
    done = export_grades(folder, args.out, args.lms, roster=args.roster, course=course,
                         missing=args.missing)  # fmt: skip
    export, matching, ungraded = done.export, done.matching, done.ungraded
    print(printable(
        f"wrote {args.out} ({args.lms}): {export.rows} roster students, "
        f"{len(matching.matched)} with a graded submission, {done.columns} assignment column(s)"
    ))  # fmt: skip
    out: Path = args.out
    listed = long_list(ungraded, file=beside(out, "ungraded"))
    if ungraded:
        print(printable(f"no grades in {folder} (no column) for: {listed}"))
    unmatched = matching.unmatched_submissions
    listed = long_list(unmatched, file=beside(out, "unmatched"))
    if unmatched:
        print(f"{len(unmatched)} submission(s) match no roster line (not in the file): {listed}")
    absent = [f"{s.name} ({s.student_id})" for s in matching.without_submission]
    listed = long_list(absent, file=beside(out, "without-submission"))
    if absent:
        cell = "0" if args.missing == "zero" else "a blank cell"
        print(f"{len(absent)} roster student(s) without any graded submission ({cell}): {listed}")
    for heading, blank in export.blank.items():
        # blank cells of the students above alone are not news; other blank cells are
        news = bool(blank) and len(blank) != len(absent)
        listed = long_list(blank if news else [], file=beside(out, f"{heading}.blank"))
        if news:
            print(printable(f"{heading}: {len(blank)} blank cell(s), student_id {listed}"))
    for heading, waiting in export.waiting.items():
        listed = long_list(waiting, file=beside(out, f"{heading}.waiting"))
        if waiting:
            print(printable(
                f"{heading}: {len(waiting)} cell(s) left blank until their written answers are "
                f"graded (`autograder manual`), student_id {listed}"
            ))  # fmt: skip
    for heading, failed in export.grader_errors.items():
        listed = long_list(failed, file=beside(out, f"{heading}.grader-errors"))
        if failed:
            print(printable(
                f"{heading}: {len(failed)} grader error(s) left blank, regrade them: {listed}"
            ))  # fmt: skip
    _warn_before_release(folder, course)
    _warn_stale(folder, course, list(done.assignments))
    return EXIT_OK


def _warn_before_release(folder: Path, course: Course) -> None:
    """Say which assignments' final scores count tests whose results are not released yet: a
    student who reads them in the LMS learns how those tests went (grading/before_release.py)."""
    from datetime import datetime, timezone

    from autograder.after_grading.graded import graded_books
    from autograder.after_grading.visibility import results_released_at
    from autograder.grading.before_release import shown_at_once

    now = datetime.now(timezone.utc)
    for name, entries in graded_books(folder, None).items():
        spec = course.rubric.assignment(name)
        released = results_released_at(spec.late)
        if released is not None and now >= released:
            continue
        if any(not shown_at_once(t) for e in entries for t in e.result.tests):
            when = f"until {released.isoformat()}" if released else "(the rubric sets no due date)"
            print(printable(
                f"autograder: {spec.title}: its results are not released {when}; its scores "
                "count tests not shown yet: import them into the LMS once they are"
            ), file=sys.stderr)  # fmt: skip


COMMAND = Command(
    name="gradebook",
    help="export a gradebook to CSV or an LMS's import file, or merge shard gradebooks",
    description="`gradebook OUT --csv FILE`: one row per student (status, score, late "
    "penalty, final score, each part, each test, written answers). `gradebook OUT --lms "
    "canvas|moodle|csv --roster ROSTER --out FILE`: the file the LMS's grade import reads, one "
    "row per roster student, final scores. The final score is the same in both: automatic "
    "points with overrides plus written answers, less the late penalty of the late policy and "
    "extensions as they are when the command runs (a share of the assignment's full points "
    "per day late). `gradebook OUT --changes [--assignment NAME] [--csv FILE]`: "
    "what the latest regrade changed, per student, before anything is published. "
    "`gradebook merge OUT1 OUT2 ... --out OUT`: merge shard "
    "gradebooks graded under the same rubric.",
    add_arguments=add_arguments,
    run=run,
)
