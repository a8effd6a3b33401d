"""Student-derived text, made safe for each place it goes: storage, terminal, XML, CSV, files."""

from __future__ import annotations

import html
import json
import re
import sqlite3
import unicodedata
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path
from urllib.parse import unquote

import pytest

from autograder.after_grading.student_feedback import feedback_path
from autograder.cli import main
from autograder.course.course import Course
from autograder.grading.batch import discover
from autograder.report.batch import grade_class
from autograder.safe_text import file_stem, printable, spreadsheet_cell, storable, xml_text

HOSTILE = "ok \ud800 \x1b[2J\x1b]0;title\x07 \x00 \u202egnp.exe \U0001f600"


def test_storable_text_goes_into_sqlite_and_utf8_files() -> None:
    text = storable(HOSTILE)
    assert "\ud800" not in text and "\ufffd" in text and "\U0001f600" in text
    text.encode("utf-8")  # no lone surrogate left
    with sqlite3.connect(":memory:") as db:
        db.execute("CREATE TABLE t (x TEXT)")
        db.execute("INSERT INTO t VALUES (?)", (text,))
    assert storable("plain") == "plain"
    assert storable("\ud83d\ude00") == "\U0001f600"  # a pair written as two halves is joined


def test_printable_shows_every_control_character_escaped() -> None:
    shown = printable(HOSTILE + "\nnext line\tand a tab")
    assert not any(c in shown for c in "\x1b\x07\x00\u202e")
    assert "\\x1b[2J" in shown and "\\x07" in shown and "\\u202e" in shown
    assert "\nnext line\tand a tab" in shown  # layout characters stay


def test_xml_text_always_parses() -> None:
    element = ET.Element("case", message=xml_text(HOSTILE))
    parsed = ET.fromstring(ET.tostring(element))
    assert parsed.get("message", "").startswith("ok ")


@pytest.mark.parametrize("cell", ["=1+1", "+1", "-1", "@SUM(A1)", '=HYPERLINK("x")', "\t=1"])
def test_formula_cells_are_quoted(cell: str) -> None:
    assert spreadsheet_cell(cell) == "'" + cell
    assert spreadsheet_cell(2.5) == 2.5 and spreadsheet_cell("alice") == "alice"


LONGEST_SUFFIX = ".results.json"
"""The longest suffix the kit appends to a stem (result files; feedback adds .html and .md)."""


def _fits(stem: str) -> bool:
    """The stem, with any suffix the kit appends, is one path component of at most 255 bytes."""
    return len((stem + LONGEST_SUFFIX).encode("utf-8")) <= 255


def _as_seen_by_a_forgiving_file_system(stem: str) -> str:
    """The file a stem opens where case and Unicode normalisation do not count (macOS, Windows)
    and Windows drops trailing dots and spaces."""
    return unicodedata.normalize("NFD", stem).casefold().rstrip(" .")


@pytest.mark.parametrize(
    "name", ["../../etc/passwd", ".hidden", "<b>", 'a:b"c', "\x1b]0;x\x07", "a\ud800", "x" * 300]
)
def test_file_stems_stay_in_their_folder_and_never_collide(name: str) -> None:
    stem = file_stem(name)
    assert "/" not in stem and not stem.startswith(".") and _fits(stem)
    assert stem != file_stem(name + "!")
    json.dumps(stem).encode("utf-8")


def test_plain_lower_case_names_keep_their_spelling() -> None:
    for name in ("alice", "correct_loops", "bug_exponent_i", "s123-4", "jane doe", "20231234"):
        assert file_stem(name) == name


@pytest.mark.parametrize(
    "name",
    ["Jane Doe", "Zoë_2", "x.results", "nul", "COM1", "-rf", "trailing ", "a-0123456789abcdef"],
)
def test_other_names_are_spelled_with_a_digest(name: str) -> None:
    """Upper case, non-ASCII, a dot (`x.results` + `.json` is `x` + `.results.json`), a Windows
    device, a leading dash, a trailing space, a name ending like a digest spelling."""
    stem = file_stem(name)
    assert stem != name and re.fullmatch(r".+-[0-9a-f]{16}", stem), stem


def test_a_name_of_251_bytes_is_cut_to_fit_with_every_suffix() -> None:
    name = "a" + "語" * 83 + "b"
    assert len(name.encode("utf-8")) == 251  # kept whole, NAME.results.json would be 264 bytes
    stem = file_stem(name)
    assert _fits(stem) and stem.startswith("a語語語")
    assert stem != file_stem(name[:-1] + "c")  # the cut part still tells two names apart


@pytest.mark.parametrize("letter", ["é", "語", "\U0001f600"])
def test_a_long_name_is_cut_between_characters(letter: str) -> None:
    stem = file_stem(letter * 200)
    readable, _, digest = stem.rpartition("-")
    assert _fits(stem) and len(digest) == 16
    assert set(readable) == {letter}  # no half character left at the cut


def test_a_name_spelled_like_a_digested_name_gets_a_file_of_its_own() -> None:
    victim = 'John "JJ" Smith'
    spelled = file_stem(victim)
    assert spelled == "John _JJ_ Smith-0f643bd3e7bc0062"  # sha256 of the name, 16 hex digits
    for impostor in (spelled, spelled.lower(), spelled.upper()):
        seen = _as_seen_by_a_forgiving_file_system(file_stem(impostor))
        assert seen != _as_seen_by_a_forgiving_file_system(spelled), impostor


def test_names_that_differ_by_case_or_normalisation_get_different_files() -> None:
    names = [
        "ada", "Ada", "ADA", "zoë", "zoe\u0308", "Zoë", "straße", "strasse", "STRASSE",
        "ﬁle", "file", "a.", "a", "a ", "nul", "NUL", "x" * 300, "x" * 301, "X" * 300,
    ]  # fmt: skip
    seen = [_as_seen_by_a_forgiving_file_system(file_stem(name)) for name in names]
    assert len(set(seen)) == len(names)
    assert all(_fits(file_stem(name)) for name in names)


LONG_NAME = "a" + "語" * 83 + "b"
AWKWARD_CLASS = (LONG_NAME, 'John "JJ" Smith', "John _JJ_ Smith-0f643bd3e7bc0062", "Ada", "ada")
"""A 251-byte name, a name and its digest spelling, two names that differ only by case."""


def test_awkward_names_each_get_their_own_files_and_feedback(
    tmp_path: Path, course: Course
) -> None:
    assignment = course.assignment("vectors")
    correct = (assignment.sample_class / "correct_vectorised.py").read_text()
    klass = tmp_path / "class"
    klass.mkdir()
    with zipfile.ZipFile(klass / f"{LONG_NAME}.zip", "w") as archive:  # a 255-byte file name
        archive.writestr("vectors.py", correct)
    for name in AWKWARD_CLASS[1:]:
        (klass / f"{name}.py").write_text(correct)
    out = tmp_path / "out"
    items = discover([klass], module=assignment.spec.module)
    assert sorted(item.student for item in items) == sorted(AWKWARD_CLASS)
    summary = grade_class(assignment, items, out=out, jobs=2, formats=("json", "gradescope"))
    assert summary.problems == ()
    _assert_one_file_each(out / "vectors", 2 * len(AWKWARD_CLASS))

    feedback, root = tmp_path / "feedback", ["--course", str(course.root)]
    assert main(["feedback", str(out), "--out", str(feedback), "--after-due", *root]) == 0
    _assert_one_file_each(feedback / "vectors", 2 * len(AWKWARD_CLASS))
    for name in AWKWARD_CLASS:
        assert f"<b>{html.escape(name)}</b>" in feedback_path(feedback, "vectors", name).read_text()

    report = tmp_path / "report.html"
    assert (
        main(["report", str(out), "--html", str(report), "--feedback", str(feedback), *root]) == 0
    )
    links = set(re.findall(r"<a href='([^'#][^']*)'>", report.read_text()))  # each student's
    pages = {(report.parent / unquote(html.unescape(link))).resolve() for link in links}
    assert pages == set((feedback / "vectors").glob("*.html"))


def _assert_one_file_each(folder: Path, count: int) -> None:
    """`count` files in `folder`, each name fits a path component, none the same file where case
    and normalisation do not count."""
    names = [path.name for path in folder.iterdir()]
    assert len(names) == count
    assert all(len(name.encode("utf-8")) <= 255 for name in names)
    assert len({_as_seen_by_a_forgiving_file_system(name) for name in names}) == count
