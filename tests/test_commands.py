"""The command line's shape: one module per verb in the registry, imported only when its verb
is used; `gradebook`'s two forms; a path a command cannot use said in one line (exit 2); a
grader error's exit code, the same with and without --out."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.cli import build_parser, main
from autograder.commands import VERBS, commands
from autograder.commands import gradebook as gradebook_command
from autograder.course.course import Course
from autograder.grading.gradebook import Entry, Gradebook
from autograder.protocol.results import SubmissionResult, TestResult


def test_every_verb_of_the_registry_is_a_subcommand_in_its_order() -> None:
    assert [command.name for command in commands()] == list(VERBS)
    help_text = build_parser().format_help()
    assert [verb for verb in VERBS if f"    {verb}" in help_text] == list(VERBS)


@pytest.mark.parametrize(
    "arguments",
    [["graded", "--csv", "g.csv"], ["--csv", "g.csv", "graded"]],
)
def test_gradebook_out_is_the_default_form_with_options_on_either_side(
    arguments: list[str],
) -> None:
    args = build_parser().parse_args(["gradebook", *arguments])
    assert args.run is gradebook_command.run
    assert args.folders == [Path("graded")] and args.csv == Path("g.csv")


@pytest.mark.parametrize(
    "arguments",
    [["merge", "a", "b", "--out", "c"], ["--out", "c", "merge", "a", "b"]],
)
def test_gradebook_merge_is_a_subcommand(arguments: list[str]) -> None:
    args = build_parser().parse_args(["gradebook", *arguments])
    assert args.run is gradebook_command.run_merge
    assert args.folders == [Path("a"), Path("b")] and args.out == Path("c")


def test_gradebook_merge_has_its_own_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_args(["gradebook", "merge", "--help"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.startswith("usage: autograder gradebook merge [-h] [--out OUT]")


def test_gradebook_merge_merges_and_refuses_without_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shards = [tmp_path / "out-1", tmp_path / "out-2"]
    for shard in shards:
        Gradebook(shard).close()
    target = tmp_path / "class"
    assert main(["gradebook", "merge", *map(str, shards), "--out", str(target)]) == 0
    assert capsys.readouterr().out == f"merged 2 gradebooks into {target}: 0 submissions\n"
    assert main(["gradebook", "merge", *map(str, shards)]) == 2
    assert capsys.readouterr().err == (
        "autograder: usage: autograder gradebook merge OUT1 OUT2 ... --out OUT\n"
    )


# --- the lazy registry: `--help` and `--version` import no verb -----------------------------


def test_the_registry_says_each_verbs_own_name_and_help() -> None:
    assert [(c.name, c.help) for c in commands()] == list(VERBS.items())


def _verb_modules_imported(*arguments: str) -> tuple[int, list[str], str]:
    """Run `autograder ARGUMENTS` in a fresh interpreter: its exit code, the verb modules it
    imported, and what it printed."""
    script = (
        "import sys\n"
        "from autograder.cli import main\n"
        "try:\n"
        f"    code = main({list(arguments)!r})\n"
        "except SystemExit as stop:\n"
        "    code = stop.code\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('autograder.commands.'))\n"
        "print('LOADED', ' '.join(loaded))\n"
        "sys.exit(code)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    loaded = done.stdout.rpartition("LOADED ")[2].split()
    return done.returncode, [m.removeprefix("autograder.commands.") for m in loaded], done.stdout


@pytest.mark.parametrize("option", ["--help", "--version"])
def test_help_and_version_import_no_verb(option: str) -> None:
    code, loaded, printed = _verb_modules_imported(option)
    assert code == 0
    assert loaded == ["common"]  # the verbs' shared shape only
    if option == "--help":
        assert all(f"    {verb}" in printed for verb in VERBS)


def test_a_verbs_help_imports_that_verb_alone() -> None:
    code, loaded, printed = _verb_modules_imported("samples", "--help")
    assert code == 0 and loaded == ["common", "samples"]
    assert "usage: autograder samples" in printed and "--scores" in printed


# --- a path the command cannot use: one line, exit 2 ----------------------------------------


def _graded_book(out: Path) -> None:
    """A gradebook holding one graded `vectors` submission (recorded, not graded here)."""
    test = TestResult("test_scale", "public_tests/test_v.py::test_scale", "numeric", 1.0, 1.0,
                      "passed", "visible")  # fmt: skip
    result = SubmissionResult("vectors", "ada", "graded", 1, 10, ("process",), 1.0, (test,))
    with Gradebook(out) as book:
        book.bind(assignment="vectors", rubric_hash="r")
        book.record(Entry("ada", "hash", "run", result), rubric_hash="r", kit_version="k")


@pytest.mark.parametrize(
    "arguments",
    [
        ["grade", "{reference}", "--assignment", "vectors", "--out", "{blocked}"],
        ["samples", "--out", "{blocked}"],
        ["export", "gradescope", "--out", "{blocked}"],
        ["report", "{book}", "--html", "{blocked}"],
        ["feedback", "{book}", "--out", "{blocked}"],
        ["gradebook", "{book}", "--csv", "{blocked}/grades.csv"],
        ["gradebook", "merge", "{book}", "{book}", "--out", "{blocked}"],
        ["similarity", "{book}", "--html", "{blocked}"],
        ["manual", "export", "{book}", "--out", "{blocked}/sheet.csv"],
    ],
    ids=lambda arguments: " ".join(arguments[:2]),
)
def test_an_output_path_that_cannot_be_made_is_one_line_and_exit_2(
    arguments: list[str], tmp_path: Path, course: Course, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder asked for under a file (as `--out /proc/nope` is under a folder that refuses
    one): the path and why on one line, no traceback."""
    (tmp_path / "file").write_text("", encoding="utf-8")
    blocked = tmp_path / "file" / "out"
    _graded_book(tmp_path / "book")
    reference = course.assignment("vectors").reference
    places = {"blocked": blocked, "book": tmp_path / "book", "reference": reference}
    filled = [a.format(**places) for a in arguments]
    assert main([*filled, "--course", str(course.root)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"autograder: {tmp_path / 'file'}") and err.endswith(
        ": Not a directory\n"
    )
    assert err.count("\n") == 1


def test_the_path_the_tester_named_is_one_line_on_stderr(course: Course) -> None:
    """`grade x.py --out /proc/nope`, run as a user runs it."""
    reference = course.root / "reference" / "vectors.py"
    command = [sys.executable, "-m", "autograder", "grade", str(reference), "--assignment",
               "vectors", "--course", str(course.root), "--out", "/proc/nope"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2
    assert done.stderr == "autograder: /proc/nope: No such file or directory\n"


def test_an_os_error_about_no_path_is_the_kits_own_failure_and_keeps_its_trace(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def fail(args: object) -> int:
        raise OSError(11, "Resource temporarily unavailable")  # no file name: not a user's path

    monkeypatch.setattr("autograder.cli.build_parser", lambda: _Parsed(fail))
    with pytest.raises(OSError, match="temporarily"):
        main([])


class _Parsed:
    def __init__(self, run: object) -> None:
        self.run = run

    def parse_args(self, argv: object) -> argparse.Namespace:
        return argparse.Namespace(run=self.run)


# --- grader errors: exit 1, with or without --out ---------------------------------------------


@pytest.mark.parametrize("keep", [False, True], ids=["printed", "with --out"])
def test_a_grader_error_exits_1_with_or_without_out(
    keep: bool, course_copy: Course, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reference = course_copy.root / "reference" / "vectors.py"
    submission = tmp_path / "ada.py"
    submission.write_text(reference.read_text(encoding="utf-8"), encoding="utf-8")
    reference.write_text("def broken(:\n", encoding="utf-8")  # the grader's own file is broken
    out = tmp_path / "out"
    kept = ["--out", str(out)] if keep else []
    command = ["grade", str(submission), "--assignment", "vectors", "--jobs", "1",
               "--course", str(course_copy.root), *kept]  # fmt: skip
    assert main(command) == 1
    assert "grader error" in capsys.readouterr().out
    if keep:  # recorded all the same, to be graded again by the next run
        with Gradebook(out) as book:
            assert [e.result.status for e in book.entries("vectors")] == ["grader_error"]
