"""The instructor's CSV files (a roster, a grading manifest) are read within bounds: anything
too large, too long, not UTF-8 or binary is a ConfigError naming the file and the line, and
the command exits 2 with that message."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from autograder.after_grading.roster import read_roster
from autograder.cli import main
from autograder.course.bounded_csv import Bounds, Row, read_rows
from autograder.course.course import Course
from autograder.errors import ConfigError
from autograder.grading.batch import Item, discover

HEADER = b"student_id,name,submission\n"
MODULE = "vectors.py"
SMALL = Bounds(max_bytes=1000, max_lines=5, max_field_chars=10, max_row_chars=50)


def _file(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "roster.csv"
    path.write_bytes(data)
    return path


OPEN_QUOTE = "a row of more than 50 characters, from this line to line 5 (a quote left open?)"


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (HEADER + b"1,ada,ada\n2,12345678901,b\n", ":3: a field longer than 10 characters"),
        (HEADER + b"1,ada,ada\n2," + b"x" * 60 + b"\n", ":3: a line longer than 50 characters"),
        (HEADER + b'1,"ada\n' + b"2,bbbbbbbbbbbbbbb,b\n" * 3, f":2: {OPEN_QUOTE}"),
        (HEADER + b"1,a,a\n" * 5, ":6: more than 5 lines"),
        (HEADER + b"1,a,a\n2,b\0,b\n", ":3: a NUL byte"),
        (HEADER + b"1,a,a\n2,\xe9,b\n", ":3: not UTF-8 text (byte 35)"),
        ("student_id,name\n".encode("utf-16"), ":1: a NUL byte"),
        (HEADER + b"1,a,a\n" * 200, " is larger than 1000 bytes"),
    ],
)
def test_what_is_refused_names_the_file_and_the_line(
    tmp_path: Path, data: bytes, problem: str
) -> None:
    path = _file(tmp_path, data)
    with pytest.raises(ConfigError, match=re.escape(f"{path}{problem}")):
        read_rows(path, "roster", SMALL)


def test_a_missing_file_is_named() -> None:
    with pytest.raises(
        ConfigError, match=r"the roster /nonexistent/r\.csv cannot be read: No such"
    ):
        read_rows(Path("/nonexistent/r.csv"), "roster")


def test_rows_keep_the_line_they_start_on(tmp_path: Path) -> None:
    data = '\ufeffa,b\r\n"two\nlines",x\r\n\r\nlast,"y ""q"""\n'.encode()
    assert read_rows(_file(tmp_path, data), "roster") == [
        Row(1, ("a", "b")),
        Row(2, ("two\nlines", "x")),
        Row(4, ()),
        Row(5, ("last", 'y "q"')),
    ]


def test_the_global_field_limit_is_neither_changed_nor_what_refuses(tmp_path: Path) -> None:
    path = _file(tmp_path, HEADER + b"1," + b"x" * 3000 + b",a\n")
    before = csv.field_size_limit(2000)  # as another part of the process may have set it
    try:
        with pytest.raises(ConfigError, match=r"roster\.csv:2: a line longer than 1999 char"):
            read_rows(path, "roster")
        assert csv.field_size_limit() == 2000
    finally:
        csv.field_size_limit(before)
    read_rows(path, "roster", Bounds(max_field_chars=3000))
    assert csv.field_size_limit() == before


def test_the_roster_is_bounded(tmp_path: Path) -> None:
    path = _file(tmp_path, HEADER + b"1,ada,ada\n2," + b"x" * 5000 + b",ben\n")
    with pytest.raises(ConfigError, match=r"roster\.csv:3: a field longer than 4096 characters"):
        read_roster(path)


def test_a_huge_roster_cell_exits_2_with_its_line(
    tmp_path: Path, course: Course, capsys: pytest.CaptureFixture[str]
) -> None:
    roster = _file(tmp_path, HEADER + b"1,ada,ada\n2," + b"x" * 200_000 + b",ben\n")
    code = main(["gradebook", str(tmp_path / "out"), "--lms", "canvas", "--roster", str(roster),
                 "--out", str(tmp_path / "grades.csv"), "--course", str(course.root)])  # fmt: skip
    assert code == 2
    err = capsys.readouterr().err
    assert err == f"autograder: {roster}:3: a line longer than 65536 characters (a field holds " \
        "4096 at most)\n"  # fmt: skip


LONG_PATH = "the path names a file longer than 255 bytes"


def _manifest(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "manifest.csv"
    path.write_bytes(data)
    return path


def test_the_manifest_is_read_with_its_lines(tmp_path: Path) -> None:
    data = (
        b"student_id,path,submitted_at\n"
        b'ada,ada.py,2026-12-01T12:00:00+00:00\n\n"b,en",ben.py,\n'
        b"cy,,\n"
    )
    with pytest.raises(ConfigError, match=r"manifest\.csv:5: each row needs student_id and path"):
        discover([], module=MODULE, manifest=_manifest(tmp_path, data))
    items = discover([], module=MODULE, manifest=_manifest(tmp_path, data[: -len(b"cy,,\n")]))
    assert [(i.student, i.path.name, i.submitted_at is not None) for i in items] == [
        ("ada", "ada.py", True),
        ("b,en", "ben.py", False),
    ]
    assert items[0] == Item("ada", tmp_path.resolve() / "ada.py", items[0].submitted_at)


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (b"student_id,path\nada," + b"d" * 5000 + b"\n", ":2: a field longer than 4096 characters"),
        (b"student_id,path\nada,x\0.py\n", ":2: a NUL byte"),
        (b"student_id,path\nada,\xff.py\n", ":2: not UTF-8 text"),
        (b"student_id,path\nada,sub/" + b"n" * 256 + b".py\n", f":2: {LONG_PATH}"),
    ],
)
def test_a_bad_manifest_exits_2_with_its_line(
    tmp_path: Path, course: Course, capsys: pytest.CaptureFixture[str], data: bytes, problem: str
) -> None:
    manifest = _manifest(tmp_path, data)
    code = main(["grade", "--manifest", str(manifest), "--assignment", "vectors",
                 "--course", str(course.root)])  # fmt: skip
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"autograder: {manifest}{problem}"), err
