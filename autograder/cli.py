"""The `autograder` command: the only module that prints or chooses an exit code.

Exit codes: 0 the command did its job (a low score included); 1 it could not (or `check` found
failing tests, or `release --check` found drift); 2 bad usage or a bad configuration file.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from autograder import __version__
from autograder.after_grading.graded import graded_books, graded_names
from autograder.after_grading.lms import FORMATS as LMS_FORMATS
from autograder.after_grading.similarity import THRESHOLD as SIMILARITY_THRESHOLD
from autograder.authoring.notebook import write_nbgrader_course
from autograder.authoring.release import check_release, write_release
from autograder.course.assignment import Assignment
from autograder.course.course import Course
from autograder.errors import AutograderError, ConfigError, TemplateDriftError
from autograder.gradescope.export import build_zip
from autograder.grading.batch import Item, discover, grade_class, shard
from autograder.grading.gradebook import Entry, Gradebook, merge
from autograder.grading.isolation_warning import isolation_warning
from autograder.grading.progress import Progress
from autograder.grading.runners import Runner
from autograder.report import FORMATS
from autograder.report.terminal import (
    render_check,
    render_class,
    render_grade,
    render_grade_line,
    render_validation,
)
from autograder.safe_text import file_stem, printable
from autograder.student.local_check import DEFAULT_TIMEOUT_S, locate, run_check

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
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


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="autograder", description="Autograded exercises for the maths of transformers."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    verbs = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")

    check = verbs.add_parser(
        "check",
        help="run the public tests on your module, with hints (students)",
        description="Run the public tests on your module and say what is wrong and why. "
        "Exit 0 when every public test passes.",
    )
    check.add_argument(
        "where", nargs="*", metavar="[PATH] [FUNCTION]",
        help="your module, or the folder that holds it (default: this folder), and/or the one "
        "function whose tests to show: `check .`, `check FUNCTION`, "
        "`check my.py FUNCTION`",
    )  # fmt: skip
    check.add_argument("--assignment", help="the assignment, when the course has several")
    check.add_argument(
        "-k", dest="keyword", metavar="EXPR",
        help="run only the tests pytest's -k EXPR selects (their names, e.g. -k 'shape or row')",
    )  # fmt: skip
    check.add_argument(
        "-v", "--verbose", action="store_true", help="list every passed test, not only a count"
    )
    check.add_argument(
        "--timeout", type=float, default=DEFAULT_TIMEOUT_S, metavar="SECONDS",
        help=f"give up after this long (default {DEFAULT_TIMEOUT_S:g})",
    )  # fmt: skip
    check.set_defaults(run=_check)

    release = verbs.add_parser(
        "release",
        help="write student_template/NAME/ from reference/ and assignments/NAME/ (instructors)",
        description="Generate the student version of each assignment (or the one named) in "
        "student_template/NAME/: stubs, public tests, README, notebook, check workflow.",
    )
    release.add_argument("--assignment", help="only this assignment (default: every one)")
    release.add_argument(
        "--check", action="store_true",
        help="write nothing; exit 1, naming each file, if a release folder is out of date",
    )  # fmt: skip
    release.add_argument("--course", type=Path, help="the course folder (default: found from here)")
    release.add_argument(
        "--nbgrader",
        type=Path,
        metavar="COURSE_DIR",
        help="also write an nbgrader course folder (nbgrader_config.py, source/NAME/NAME.ipynb) "
        "for the assignment named with --assignment (or the course's only one)",
    )
    release.set_defaults(run=_release)

    export = verbs.add_parser(
        "export",
        help="package the grader for another platform",
        description="Package each assignment's grader (or the one named) for a platform: "
        "`gradescope` writes NAME.zip for a Gradescope programming assignment (setup.sh, "
        "run_autograder, the kit, the course).",
    )
    export.add_argument("platform", choices=["gradescope"])
    export.add_argument(
        "--out", type=Path, default=Path("."),
        help="the folder for NAME.zip (default: this folder), or FILE.zip for one assignment",
    )  # fmt: skip
    export.add_argument("--assignment", help="only this assignment (default: every one)")
    export.add_argument("--course", type=Path, help="the course folder (default: found from here)")
    export.set_defaults(run=_export)

    grade = verbs.add_parser(
        "grade",
        help="grade submissions with the hidden and public tests, in a sandbox (CI, instructors)",
        description="Grade each submission (a .py file, a folder, a .zip or a notebook) with the "
        "hidden and public tests; student code runs in an isolated worker. Exit 0 when grading "
        "completed, whatever the scores.",
    )
    grade.add_argument(
        "submissions", nargs="*", type=Path, metavar="SUBMISSION",
        help="a submission (.py, .ipynb, .zip, folder) or a folder of them (a class)",
    )  # fmt: skip
    grade.add_argument(
        "-v", "--verbose", action="store_true",
        help="print every test of every submission (default: only when grading one)",
    )  # fmt: skip
    grade.add_argument("--assignment", help="the assignment, when the course has several")
    grade.add_argument("--course", type=Path, help="the course folder (default: found from here)")
    grade.add_argument(
        "--out", type=Path,
        help="keep the gradebook (gradebook.sqlite) and each result file here; a re-run skips "
        "what is already graded (default: print only)",
    )  # fmt: skip
    grade.add_argument(
        "--jobs", type=positive_int, default=os.cpu_count() or 2, help="grade this many at once"
    )
    grade.add_argument(
        "--shard", metavar="I/N", help="grade only the I-th of N deterministic shards"
    )
    grade.add_argument("--regrade", action="store_true", help="grade again what is already graded")
    grade.add_argument(
        "--manifest", type=Path,
        help="a CSV of student_id,path,submitted_at instead of SUBMISSION arguments",
    )  # fmt: skip
    grade.add_argument(
        "--format", default="json,gradescope,junit",
        help="comma-separated: json, gradescope, junit (default: all three)",
    )  # fmt: skip
    grade.set_defaults(run=_grade)

    check_assessment = verbs.add_parser(
        "validate",
        help="prove the tests: reference full, stubs zero, every known mistake caught (CI)",
        description="Grade the reference, the stubs, every catalogued misconception and the "
        "correct alternative styles through the real grading path, print the table, and exit 1 "
        "on any mismatch.",
    )
    check_assessment.add_argument("--assignment", help="only this assignment (default: every one)")
    check_assessment.add_argument(
        "--course", type=Path, help="the course folder (default: found from here)"
    )
    check_assessment.add_argument(
        "--only", nargs="+", default=(), metavar="NAME", help="only these cases"
    )
    check_assessment.add_argument(
        "--jobs", type=positive_int, default=os.cpu_count() or 2, help="grade this many at once"
    )
    check_assessment.set_defaults(run=_validate)

    book = verbs.add_parser(
        "gradebook",
        help="export a gradebook to CSV or an LMS's import file, or merge shard gradebooks",
        description="`gradebook OUT --csv FILE`: one row per student (status, score, late "
        "penalty, final score, each part, each test). `gradebook OUT --lms canvas|moodle|csv "
        "--roster ROSTER --out FILE`: the file the LMS's grade import reads, one row per roster "
        "student, final scores. `gradebook merge OUT1 OUT2 ... --out OUT`: merge shard "
        "gradebooks graded under the same rubric.",
    )
    book.add_argument("folders", nargs="+", type=Path, metavar="FOLDER")
    book.add_argument("--csv", type=Path, help="write the gradebook as CSV here")
    book.add_argument(
        "--out", type=Path,
        help="with merge: the folder of the merged gradebook; with --lms: the file to write",
    )  # fmt: skip
    book.add_argument(
        "--lms", choices=LMS_FORMATS,
        help="write the grade-import file of this LMS (needs --roster and --out): final "
        "scores, one column per assignment, one row per roster student",
    )  # fmt: skip
    book.add_argument(
        "--roster", type=Path,
        help="CSV with student_id, name, submission (and email, login, sis_id, section)",
    )  # fmt: skip
    book.add_argument(
        "--missing", choices=("blank", "zero"), default="blank",
        help="the cell of a roster student without a submission (default: blank, no grade)",
    )  # fmt: skip
    book.add_argument("--course", type=Path, help="the course folder (default: found from here)")
    book.set_defaults(run=_gradebook)

    report = verbs.add_parser(
        "report",
        help="write the class report: one self-contained HTML file with plots (instructors)",
        description="Score histogram, pass rate per test, part averages, frequent failures and "
        "hints, ungradable and timed-out submissions, the slowest submissions.",
    )
    report.add_argument("folder", type=Path, metavar="OUT", help="a --out folder of `grade`")
    report.add_argument(
        "--html", type=Path, required=True,
        help="the report file to write; a folder for NAME.html each when OUT holds several "
        "assignments",
    )  # fmt: skip
    report.add_argument("--assignment", help="only this assignment (default: every one in OUT)")
    report.add_argument(
        "--feedback", type=Path, metavar="DIR",
        help="link each student's row to their file in this `autograder feedback` folder",
    )  # fmt: skip
    report.add_argument("--course", type=Path, help="the course folder (default: found from here)")
    report.set_defaults(run=_report)

    feedback = verbs.add_parser(
        "feedback",
        help="write each student's feedback to hand back: HTML and Markdown (instructors)",
        description="One self-contained HTML file and a Markdown twin per student and "
        "assignment, in DIR/NAME/: score, late penalty, points per part, every test the "
        "student may see now with its message and hint. Tests shown after the due date are "
        "held back until the late policy's due date has passed (or with --after-due); hidden "
        "tests never show their inputs.",
    )
    feedback.add_argument("folder", type=Path, metavar="OUT", help="a --out folder of `grade`")
    feedback.add_argument(
        "--out", type=Path, required=True, metavar="DIR",
        help="the folder for NAME/STUDENT.html and NAME/STUDENT.md",
    )  # fmt: skip
    feedback.add_argument("--assignment", help="only this assignment (default: every one in OUT)")
    when = feedback.add_mutually_exclusive_group()
    when.add_argument(
        "--after-due", dest="after_due", action="store_true", default=None,
        help="show the results held back until the due date, whatever the date",
    )  # fmt: skip
    when.add_argument(
        "--before-due", dest="after_due", action="store_false",
        help="hold them back, whatever the date",
    )  # fmt: skip
    feedback.add_argument(
        "--course", type=Path, help="the course folder (default: found from here)"
    )
    feedback.set_defaults(run=_feedback)

    similarity = verbs.add_parser(
        "similarity",
        help="look for copied work: every pair of submissions compared by winnowing",
        description="Compare every pair of each assignment's graded submissions (their module "
        "sources, kept in the gradebook) by winnowing over normalised tokens, ignoring the "
        "released stub and passages much of the class shares; write the pairs above the "
        "threshold with their shared regions side by side.",
    )
    similarity.add_argument("folder", type=Path, metavar="OUT", help="a --out folder of `grade`")
    similarity.add_argument(
        "--html", type=Path, required=True,
        help="the report file; a folder for NAME.html each when OUT holds several assignments",
    )  # fmt: skip
    similarity.add_argument("--assignment", help="only this assignment (default: every one)")
    similarity.add_argument(
        "--threshold", type=float, default=SIMILARITY_THRESHOLD,
        help=f"list pairs where either side shares at least this share (default "
        f"{SIMILARITY_THRESHOLD:g})",
    )  # fmt: skip
    similarity.add_argument(
        "--course", type=Path, help="the course folder (default: found from here)"
    )
    similarity.set_defaults(run=_similarity)
    return parser


def positive_int(text: str) -> int:
    """The argparse type of a count that must be at least 1 (--jobs): less is a usage error."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _feedback(args: argparse.Namespace) -> int:
    from datetime import datetime, timezone

    from autograder.after_grading.student_feedback import write_feedback

    course = _course(args)
    now = datetime.now(timezone.utc)
    for name, entries in graded_books(args.folder, args.assignment).items():
        spec = course.rubric.assignment(name)
        written = write_feedback(entries, spec, args.out, after_due=args.after_due, now=now)
        folder = args.out / file_stem(name)
        print(printable(f"wrote {folder}/: feedback for {len(written)} students (HTML, Markdown)"))
    return EXIT_OK


def _similarity(args: argparse.Namespace) -> int:
    from autograder.after_grading.similarity import compare, released_stub
    from autograder.report.similarity_html import render_similarity

    course = _course(args)
    names = graded_names(args.folder, args.assignment)
    several = len(names) > 1
    if several:
        args.html.mkdir(parents=True, exist_ok=True)
    for name in names:
        assignment = course.assignment(name)
        with Gradebook(args.folder) as book:
            sources = book.sources(name)
        stub = released_stub(assignment)
        comparison = compare(sources, stub=stub, threshold=args.threshold)
        target = args.html / f"{file_stem(name)}.html" if several else args.html
        target.write_text(
            render_similarity(comparison, sources, title=f"{name}: similar submissions"),
            encoding="utf-8",
        )
        print(printable(
            f"wrote {target}: {comparison.compared} submissions of {name} compared, "
            f"{len(comparison.pairs)} pair(s) at or above {args.threshold:.0%} shared"
        ))  # fmt: skip
        for pair in comparison.pairs[:20]:
            shared = f"{pair.similarity[0]:.0%} / {pair.similarity[1]:.0%}"
            print(printable(f"  {pair.first}  {pair.second}  {shared}"))
    return EXIT_OK


def _report(args: argparse.Namespace) -> int:
    from autograder.report.html import feedback_links, known_mistakes, render_class_report

    books = graded_books(args.folder, args.assignment)
    try:
        course: Course | None = _course(args)
    except ConfigError:
        if args.course is not None:
            raise
        course = None  # run outside the course folder: no catalogue to tally
    several = len(books) > 1
    if several:
        args.html.mkdir(parents=True, exist_ok=True)
    for name, entries in books.items():
        target = args.html / f"{file_stem(name)}.html" if several else args.html
        mistakes = known_mistakes(course, name)
        links = {}
        if args.feedback is not None:
            links = feedback_links(entries, args.feedback, name, target)
        target.write_text(
            render_class_report(
                entries, title=f"{name}: class report", mistakes=mistakes, feedback_links=links
            ),
            encoding="utf-8",
        )
        print(printable(f"wrote {target} ({len(entries)} submissions of {name})"))
    return EXIT_OK


def _validate(args: argparse.Namespace) -> int:
    from autograder.authoring.validate import validate

    chosen = _course(args).selected(args.assignment)
    ok = True
    for assignment in chosen:
        verdicts = validate(assignment, only=args.only, jobs=args.jobs)
        if not verdicts:
            if len(chosen) == 1:
                raise ConfigError(f"--only {' '.join(args.only)} matches no case")
            continue
        if len(chosen) > 1:
            print(f"== {assignment.name}")
        print(render_validation(verdicts))
        ok = ok and all(v.ok for v in verdicts)
    return EXIT_OK if ok else EXIT_FAILED


def _course(args: argparse.Namespace) -> Course:
    return Course.load(args.course) if args.course else Course.find(Path.cwd())


def _assignment(args: argparse.Namespace) -> Assignment:
    """The assignment a verb works on (--course, --assignment; no name: the only one)."""
    return _course(args).assignment(args.assignment)


def _release(args: argparse.Namespace) -> int:
    chosen = _course(args).selected(args.assignment)
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
    for assignment in chosen:
        written = write_release(assignment)
        print(
            f"released {assignment.name}: {len(written)} files in "
            f"{assignment.relative(assignment.release_dir)}/"
        )
        if args.nbgrader:
            nbgrader_files = write_nbgrader_course(assignment, args.nbgrader)
            print(f"wrote the nbgrader course {args.nbgrader}: {len(nbgrader_files)} files")
    return EXIT_OK


def _export(args: argparse.Namespace) -> int:
    chosen = _course(args).selected(args.assignment)
    single_file = args.out.suffix == ".zip"
    if single_file and len(chosen) > 1:
        raise ConfigError(
            f"--out {args.out} names one zip, and the course has several assignments: "
            "name a folder, or one assignment with --assignment"
        )
    for assignment in chosen:
        target = args.out if single_file else args.out / f"{file_stem(assignment.name)}.zip"
        names = build_zip(assignment, target)
        print(f"wrote {target}: {len(names)} files (setup.sh, run_autograder, engine/, course/)")
    return EXIT_OK


def _grade(args: argparse.Namespace) -> int:
    assignment = _assignment(args)
    spec = assignment.spec
    formats = [name.strip() for name in args.format.split(",") if name.strip()]
    unknown = [name for name in formats if name not in FORMATS]
    if unknown:
        raise ConfigError(f"unknown --format {unknown[0]!r}; choose from {', '.join(FORMATS)}")
    items = discover(args.submissions, module=spec.module, manifest=args.manifest)
    if not items:
        raise ConfigError(_nothing_to_grade(args.submissions, args.manifest, spec.module))
    if args.shard:
        index, _, count = args.shard.partition("/")
        if not (index.isdigit() and count.isdigit()):
            raise ConfigError(f"--shard {args.shard!r}: write i/n, e.g. --shard 2/4")
        items = shard(items, int(index), int(count))
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
        print(f"{len(summary.skipped)} submission(s) already graded with this rubric: skipped")
    with Gradebook(args.out) as book:
        entries = [e for e in book.entries(spec.name) if e.student in {i.student for i in items}]
    if len(entries) > 1:
        print(render_class(spec, [e.result for e in entries]))
    for problem in summary.problems:
        print(f"autograder: {printable(problem)}", file=sys.stderr)
    if summary.grader_errors:
        print(
            f"autograder: {summary.grader_errors} submission(s) ended in a grader error (recorded "
            "with the reason); run the same command again to retry them",
            file=sys.stderr,
        )
    return EXIT_OK  # every submission is recorded, grader errors included


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
    return EXIT_FAILED if any(r.status == "grader_error" for r in results) else EXIT_OK


def _gradebook(args: argparse.Namespace) -> int:
    folders: list[Path] = args.folders
    if folders and str(folders[0]) == "merge":
        if not args.out or len(folders) < 2:
            raise ConfigError("usage: autograder gradebook merge OUT1 OUT2 ... --out OUT")
        count = merge(folders[1:], args.out)
        print(f"merged {len(folders) - 1} gradebooks into {args.out}: {count} submissions")
        return EXIT_OK
    if len(folders) == 1 and args.lms:
        return _lms_file(args, folders[0])
    if len(folders) != 1 or not args.csv:
        raise ConfigError(
            "usage: autograder gradebook OUT --csv FILE, or gradebook OUT --lms LMS --roster "
            "ROSTER --out FILE, or gradebook merge OUT1 OUT2 ... --out OUT"
        )
    course = _course(args)
    with Gradebook(folders[0]) as book:
        names = list(book.assignments())
        if not names:
            raise ConfigError(f"{folders[0]} holds no grades yet")
        parts = {
            name: [part.name for part in course.rubric.assignment(name).parts] for name in names
        }
        rows = book.export_csv(args.csv, parts=parts)
    print(f"wrote {rows} students ({', '.join(names)}) to {args.csv}")
    return EXIT_OK


def _lms_file(args: argparse.Namespace, folder: Path) -> int:
    from autograder.after_grading.lms import export_grades

    if args.roster is None or args.out is None:
        raise ConfigError("usage: autograder gradebook OUT --lms LMS --roster ROSTER --out FILE")
    course = _course(args)
    done = export_grades(folder, args.out, args.lms, roster=args.roster, course=course,
                         missing=args.missing)  # fmt: skip
    export, matching, ungraded = done.export, done.matching, done.ungraded
    print(printable(
        f"wrote {args.out} ({args.lms}): {export.rows} roster students, "
        f"{len(matching.matched)} with a graded submission, {done.columns} assignment column(s)"
    ))  # fmt: skip
    if ungraded:
        print(printable(f"no grades in {folder} (no column) for: {', '.join(ungraded)}"))
    if matching.unmatched_submissions:
        print(printable(
            f"{len(matching.unmatched_submissions)} submission(s) match no roster line (not in "
            f"the file): {', '.join(matching.unmatched_submissions)}"
        ))  # fmt: skip
    if matching.without_submission:
        names = ", ".join(f"{s.name} ({s.student_id})" for s in matching.without_submission)
        cell = "0" if args.missing == "zero" else "a blank cell"
        print(printable(
            f"{len(matching.without_submission)} roster student(s) without any graded "
            f"submission ({cell}): {names}"
        ))  # fmt: skip
    for heading, blank in export.blank.items():
        if blank and len(blank) != len(matching.without_submission):
            shown = ", ".join(blank[:20]) + (", …" if len(blank) > 20 else "")
            print(printable(f"{heading}: {len(blank)} blank cell(s), student_id {shown}"))
    for heading, failed in export.grader_errors.items():
        if failed:
            print(printable(
                f"{heading}: {len(failed)} grader error(s) left blank, regrade them: "
                f"{', '.join(failed)}"
            ))  # fmt: skip
    return EXIT_OK


def _check(args: argparse.Namespace) -> int:
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
