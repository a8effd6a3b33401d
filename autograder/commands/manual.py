"""`autograder manual`: written answers graded by people, and instructors' overrides.

`export OUT --out SHEET`, `import OUT SHEET`, `serve OUT` (the grading page), `override OUT ...`
and `history OUT` (overrides and written-answer grades). The page needs the `manual` extra
(Starlette, uvicorn, nh3)."""

from __future__ import annotations

import argparse
import getpass
from pathlib import Path
from typing import TYPE_CHECKING

from autograder.after_grading.graded import graded_names
from autograder.commands.common import EXIT_OK, Command, add_course, course_of
from autograder.course.rubric import AssignmentSpec
from autograder.errors import ConfigError
from autograder.safe_text import printable

if TYPE_CHECKING:
    from autograder.manual.grade_history import GradeChange
    from autograder.manual.store import OverrideChange

INSTALL = (
    "the grading page needs the `manual` extra: pip install 'transformer-maths-autograder[manual]'"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")

    def action(name: str, help: str) -> argparse.ArgumentParser:
        sub = actions.add_parser(name, help=help, description=help)
        sub.add_argument("folder", type=Path, metavar="OUT", help="a --out folder of `grade`")
        sub.add_argument(
            "--assignment", help="the assignment (needed when OUT holds several with manual parts)"
        )
        add_course(sub)
        return sub

    export = action("export", "write the grading sheet: one row per student and written answer")
    export.add_argument("--out", type=Path, required=True, metavar="SHEET", help="the CSV file")
    export.set_defaults(run=run_export)
    load = action("import", "read a filled-in grading sheet: every row checked, then all written")
    load.add_argument("sheet", type=Path, metavar="SHEET")
    load.add_argument("--grader", help="the name recorded with the grades (default: your login)")
    load.set_defaults(run=run_import)
    serve = action("serve", "serve the grading page on 127.0.0.1 (for teaching assistants)")
    serve.add_argument("--port", type=int, default=8765, help="default 8765; 0: any free port")
    serve.add_argument("--grader", help="the name recorded with the grades (default: your login)")
    serve.set_defaults(run=run_serve)
    change = action("override", "set one automatic test's or part's points, with a reason")
    which = change.add_mutually_exclusive_group(required=True)
    which.add_argument("--test", metavar="NODEID", help="the test's node id (see the result JSON)")
    which.add_argument("--part", help="an automatic part's name")
    change.add_argument("--student", required=True)
    change.add_argument("--points", type=float, required=True)
    change.add_argument("--reason", required=True)
    change.set_defaults(run=run_override)
    history = action(
        "history",
        "list every override and every change of a written answer's points: who, when, what, "
        "before -> after, and why or how",
    )
    history.set_defaults(run=run_history)


def _spec(args: argparse.Namespace, *, manual: bool = True) -> AssignmentSpec:
    course = course_of(args)
    names = graded_names(args.folder, args.assignment)
    specs = [course.rubric.assignment(name) for name in names]
    if manual:
        specs = [spec for spec in specs if spec.manual]
        if not specs:
            raise ConfigError(f"no assignment graded into {args.folder} has [manual] parts")
    if len(specs) > 1:
        listed = ", ".join(spec.name for spec in specs)
        raise ConfigError(f"{args.folder} holds several assignments ({listed}): name one")
    return specs[0]


def _grader(args: argparse.Namespace) -> str:
    if args.grader:
        return str(args.grader)
    try:
        return getpass.getuser()
    except Exception:  # no login name (a container)
        return "unknown"


def run_export(args: argparse.Namespace) -> int:
    from autograder.manual.sheet import export_sheet

    spec = _spec(args)
    rows = export_sheet(args.folder, spec, args.out)
    print(printable(f"wrote {args.out}: {rows} answers of {spec.name} to grade"))
    return EXIT_OK


def run_import(args: argparse.Namespace) -> int:
    from autograder.manual.sheet import import_sheet

    spec = _spec(args)
    done = import_sheet(args.folder, spec, args.sheet, grader=_grader(args))
    print(printable(f"imported {args.sheet}: {done.rows} rows, {done.changed} grades changed"))
    return EXIT_OK


def run_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn  # noqa: F401  (the extra itself, whatever was imported before)

        from autograder.manual.bounded import serve
        from autograder.manual.server import bound_socket, create_app, new_token
    except ImportError:
        raise ConfigError(INSTALL) from None
    spec = _spec(args)
    sock = bound_socket(args.port)
    port = sock.getsockname()[1]
    origin = f"http://127.0.0.1:{port}"
    token = new_token()
    app = create_app(args.folder, spec, token=token, origin=origin, grader=_grader(args))
    print(printable(f"grading {spec.name}: open {origin}/?token={token}"), flush=True)
    print("press Ctrl+C to stop", flush=True)
    serve(app, sock)
    return EXIT_OK


def run_override(args: argparse.Namespace) -> int:
    from autograder.manual.overrides import override

    spec = _spec(args, manual=False)
    change = override(
        args.folder, spec, args.student, test=args.test, part=args.part, points=args.points,
        reason=args.reason,
    )  # fmt: skip
    print(printable(
        f"{spec.name}: {change.student} {change.kind} {change.target}: "
        f"{change.before:g} -> {change.after:g} ({change.reason})"
    ))  # fmt: skip
    return EXIT_OK


def run_history(args: argparse.Namespace) -> int:
    from autograder.manual.store import ManualStore

    names = graded_names(args.folder, args.assignment)
    with ManualStore(args.folder) as store:
        lines = [(c.at, _override_line(c)) for name in names for c in store.history(name)]
        lines += [(c.at, _grade_line(c)) for name in names for c in store.grade_history(name)]
    if not lines:
        print("no overrides and no written-answer grades")
    for _, line in sorted(lines, key=lambda timed: timed[0]):  # stable: each kind in its order
        print(printable(line))
    return EXIT_OK


def _override_line(c: OverrideChange) -> str:
    before = "-" if c.before is None else f"{c.before:g}"
    return (
        f"{c.at} {c.who}: {c.assignment} {c.student} {c.kind} {c.target}: "
        f"{before} -> {c.after:g}: {c.reason}"
    )


def _grade_line(c: GradeChange) -> str:
    def points(value: float | None) -> str:
        return "not graded" if value is None else f"{value:g}"

    return (
        f"{c.at} {c.who}: {c.assignment} {c.student} written {c.part}: "
        f"{points(c.before)} -> {points(c.after)}: {c.via}"
    )


def run(args: argparse.Namespace) -> int:
    raise ConfigError("usage: autograder manual export|import|serve|override|history OUT ...")


COMMAND = Command(
    name="manual",
    help="grade written answers (a sheet or a local page) and override automatic scores",
    description="Written answers are captured when `grade` runs. `export OUT --out SHEET` "
    "and `import OUT SHEET`: grade them in a spreadsheet. `serve OUT`: a grading page on "
    "127.0.0.1 with reusable rubric items. `override OUT --assignment A --student S (--test "
    "NODEID | --part PART) --points X --reason TEXT`; `history OUT`: every override and every "
    "change of a written answer's points (who, when, before -> after).",
    add_arguments=add_arguments,
    run=run,
)
