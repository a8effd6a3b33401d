"""Long lists on the terminal: ten items, `… and K more`, the whole list in a file beside the
output; and `gradebook --lms` printing a class's unmatched names that way."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from autograder.cli import main
from autograder.course.course import Course
from autograder.grading.gradebook import Entry, Gradebook
from autograder.grading.results import SubmissionResult
from autograder.report.long_list import beside, long_list
from tests.conftest import ClassBuilder

ESCAPES = "mallory\x1b]0;owned\x07\x1b[2J\nscore: 100"
"""A student name that sets the terminal's title, clears the screen and starts a fake line."""
SHOWN_ESCAPES = "mallory\\x1b]0;owned\\x07\\x1b[2J\\nscore: 100"


def test_a_short_list_is_printed_whole_and_writes_no_file(tmp_path: Path) -> None:
    file = tmp_path / "grades.csv.unmatched.txt"
    names = [f"s{n}" for n in range(10)]
    assert long_list(names, file=file) == "s0, s1, s2, s3, s4, s5, s6, s7, s8, s9"
    assert not file.exists()
    assert long_list([], file=file) == ""


def test_a_long_list_shows_ten_and_writes_all_to_its_file(tmp_path: Path) -> None:
    file = tmp_path / "grades.csv.unmatched.txt"
    names = [f"s{n:02}" for n in range(98)]
    assert long_list(names, file=file) == (
        f"s00, s01, s02, s03, s04, s05, s06, s07, s08, s09, … and 88 more (all 98 in {file})"
    )
    lines = file.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 98 and lines[0] == "s00" and lines[97] == "s97"


def test_a_list_that_fits_again_removes_the_stale_file(tmp_path: Path) -> None:
    file = tmp_path / "grades.csv.unmatched.txt"
    long_list([f"s{n}" for n in range(11)], file=file)
    assert file.exists()
    assert long_list(["s1"], file=file) == "s1"
    assert not file.exists()


def test_escape_sequences_are_shown_escaped_on_the_terminal_and_in_the_file(
    tmp_path: Path,
) -> None:
    file = tmp_path / "out.txt"
    assert long_list([ESCAPES, "tab\there"], file=file) == f"{SHOWN_ESCAPES}, tab\\there"
    names = [ESCAPES] + [f"s{n}" for n in range(11)]
    printed = long_list(names, file=file, shown=1)
    assert printed == f"{SHOWN_ESCAPES}, … and 11 more (all 12 in {file})"
    written = file.read_text(encoding="utf-8")
    assert written.splitlines()[0] == SHOWN_ESCAPES and len(written.splitlines()) == 12
    assert "\x1b" not in written and "\x07" not in written


def test_lines_as_separator_and_a_file_that_cannot_be_written(tmp_path: Path) -> None:
    file = tmp_path / "missing-folder" / "problems.txt"
    printed = long_list(["a", "b", "c"], file=file, separator="\n", shown=2)
    assert printed == (
        f"a\nb\n… and 1 more (could not write the whole list to {file}: No such file or directory)"
    )


def test_the_file_of_a_list_lies_beside_the_output() -> None:
    assert beside(Path("exports/grades.csv"), "unmatched") == Path(
        "exports/grades.csv.unmatched.txt"
    )
    spelled = beside(Path("grades.csv"), "../../etc/passwd")
    assert spelled.parent == Path(".") and "/" not in spelled.name
    assert spelled.name.startswith("grades.csv.") and spelled.name.endswith(".txt")


def _result(student: str, status: str = "graded") -> SubmissionResult:
    return SubmissionResult("vectors", student, status, 10, 10, ("process",), 1.0, ())


def test_gradebook_lms_prints_ten_unmatched_names_and_files_the_rest(
    tmp_path: Path, course: Course
) -> None:
    """98 submissions no roster line names, one with escape sequences in its name; two
    roster students without a submission; one grader error."""
    out = tmp_path / "out"
    students = [ESCAPES] + [f"stu{n:03}" for n in range(97)] + ["ada", "ben"]
    with Gradebook(out) as book:
        book.bind(assignment="vectors", rubric_hash="r")
        for student in students:
            status = "grader_error" if student == "ben" else "graded"
            entry = Entry(student, "hash", "run", _result(student, status))
            book.record(entry, rubric_hash="r", kit_version="k")
    roster = tmp_path / "roster.csv"
    roster.write_text(
        "student_id,name,submission\n1,Ada,ada\n2,Ben,ben\n3,Zoe,zoe\n4,Yan,yan\n", "utf-8"
    )
    target = tmp_path / "grades.csv"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = main(["gradebook", str(out), "--lms", "csv", "--roster", str(roster),
                     "--out", str(target), "--course", str(course.root)])  # fmt: skip
    assert code == 0
    lines = printed.getvalue().splitlines()
    unmatched_file = tmp_path / "grades.csv.unmatched.txt"
    assert lines[1] == f"no grades in {out} (no column) for: series"
    assert lines[2] == (
        f"98 submission(s) match no roster line (not in the file): {SHOWN_ESCAPES}, stu000, "
        "stu001, stu002, stu003, stu004, stu005, stu006, stu007, stu008, … and 88 more "
        f"(all 98 in {unmatched_file})"
    )
    written = unmatched_file.read_text(encoding="utf-8").splitlines()
    assert written[0] == SHOWN_ESCAPES and written[1:] == [f"stu{n:03}" for n in range(97)]
    assert lines[3] == (
        "2 roster student(s) without any graded submission (a blank cell): Zoe (3), Yan (4)"
    )
    assert lines[4].endswith(": 3 blank cell(s), student_id 2, 3, 4")  # Ben's: a grader error
    assert lines[5].endswith(  # Ada's written answer is not graded yet
        ": 1 cell(s) left blank until their written answers are graded (`autograder manual`), "
        "student_id 1"
    )
    assert lines[6].endswith(": 1 grader error(s) left blank, regrade them: ben")
    assert not (tmp_path / "grades.csv.without-submission.txt").exists()
    assert all("\x1b" not in line for line in lines)


def test_grade_prints_ten_problems_and_files_the_rest(
    tmp_path: Path, make_class: ClassBuilder, course: Course, capsys: pytest.CaptureFixture[str]
) -> None:
    """Twelve submissions whose result files cannot be written (a file stands where their
    folder goes): ten problems on the terminal, all twelve in OUT/problems.txt."""
    names = [ESCAPES] + [f"stu{n:02}" for n in range(11)]
    folder = make_class(tmp_path / "class", dict.fromkeys(names, "correct_vectorised"))
    out = tmp_path / "out"
    out.mkdir()
    (out / "vectors").write_text("not a folder")
    code = main(["grade", str(folder), "--out", str(out), "--jobs", "2",
                 "--course", str(course.root), "--assignment", "vectors"])  # fmt: skip
    assert code == 0
    err = capsys.readouterr().err
    problems = [line for line in err.splitlines() if "result files could not be made" in line]
    assert len(problems) == 10
    assert f"autograder: … and 2 more (all 12 in {out / 'problems.txt'})" in err.splitlines()
    written = (out / "problems.txt").read_text(encoding="utf-8").splitlines()
    assert len(written) == 12 and sorted(written)[-1].startswith("stu10: the folder")
    assert sorted(written)[0].startswith(f"{SHOWN_ESCAPES}: the folder for its result files")
    assert "\x1b" not in err and "\x1b" not in "".join(written)
