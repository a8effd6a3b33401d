"""Every way a student submits reads to the same module; what cannot be graded says why."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from autograder.course.assignment import Assignment
from autograder.grading.runners import grade_submission
from autograder.grading.submission import Ungradable, load_submission, notebook_to_module

MODULE = "vectors.py"
SOURCE = "def f():\n    return 1\n"


def notebook(*cells: tuple[str, str]) -> bytes:
    return json.dumps(
        {"cells": [{"cell_type": kind, "source": text, "metadata": {}} for kind, text in cells],
         "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    ).encode()  # fmt: skip


def test_file_folder_zip_and_notebook(tmp_path: Path) -> None:
    single = tmp_path / "alice.py"
    single.write_text(SOURCE)
    folder = tmp_path / "bob"
    (folder / "helpers").mkdir(parents=True)
    (folder / MODULE).write_text(SOURCE)
    (folder / "helpers" / "util.py").write_text("X = 1\n")
    archive = tmp_path / "carol.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr(f"carol/{MODULE}", SOURCE)
        zipped.writestr("carol/notes.txt", "hi")
        zipped.writestr("__MACOSX/._junk", "x")
    book = tmp_path / "dave.ipynb"
    book.write_bytes(
        notebook(("markdown", "# Title"), ("code", SOURCE), ("code", "%timeit f()\n!ls"))
    )
    assert load_submission(single, module=MODULE).module_source == SOURCE
    from_folder = load_submission(folder, module=MODULE)
    assert from_folder.id == "bob" and dict(from_folder.files) == {"helpers/util.py": b"X = 1\n"}
    from_zip = load_submission(archive, module=MODULE)
    assert from_zip.id == "carol" and dict(from_zip.files) == {"notes.txt": b"hi"}
    from_book = load_submission(book, module=MODULE)
    assert (
        "def f():" in from_book.module_source
        and "# [dropped by the grader] %timeit f()" in from_book.module_source
    )
    assert from_book.notes == ("2 IPython magic or shell line(s) were commented out",)


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("broken.ipynb", b"{not json", "not valid JSON"),
        ("empty.ipynb", notebook(("markdown", "only words")), "has no code"),
        ("bad.zip", b"PK not really", "damaged or not a zip"),
        ("essay.txt", b"hello", "submit a .py file"),
        ("latin.py", "x = 'é'".encode("latin-1"), "not UTF-8"),
    ],
)
def test_ungradable_submissions_say_why(
    tmp_path: Path, name: str, content: bytes, reason: str
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(Ungradable, match=reason):
        load_submission(path, module=MODULE)


def test_zip_paths_cannot_escape(tmp_path: Path) -> None:
    archive = tmp_path / "sneaky.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("../../etc/evil.py", "x")
        zipped.writestr(MODULE, SOURCE)
    with pytest.raises(Ungradable, match="a path outside its folder"):
        load_submission(archive, module=MODULE)


def test_folder_without_the_module_lists_what_it_found(tmp_path: Path) -> None:
    (tmp_path / "erin").mkdir()
    (tmp_path / "erin" / "solution.py").write_text(SOURCE)
    with pytest.raises(Ungradable, match=r"no vectors\.py found .*solution\.py"):
        load_submission(tmp_path / "erin", module=MODULE)


def test_notebook_module_keeps_cell_order() -> None:
    source, notes = notebook_to_module(notebook(("code", "a = 1"), ("code", "b = a + 1")))
    assert source.index("a = 1") < source.index("b = a + 1") and notes == ()


def test_ungradable_and_partly_broken_submissions_are_still_results(
    tmp_path: Path, assignment: Assignment
) -> None:
    bad = tmp_path / "frank.ipynb"
    bad.write_text("{")
    result = grade_submission(assignment, bad)
    assert (
        result.status == "ungradable"
        and result.score == 0
        and "not valid JSON" in (result.message or "")
    )
    syntax = tmp_path / "grace.py"
    syntax.write_text("def normalise(v)\n    pass\n")
    broken = grade_submission(assignment, syntax)
    assert broken.status == "graded" and broken.score == 0
    assert {t.message for t in broken.tests} == {
        "vectors.py has a syntax error on line 1: expected ':'"
    }
    partial = tmp_path / "heidi.py"
    reference = assignment.reference.read_text()
    partial.write_text(reference.split("def square_sum(")[0])  # the numeric part only
    half = grade_submission(assignment, partial)
    assert half.part_scores() == {"numeric": (6, 6), "symbolic": (0, 4)}
    missing = {t.message for t in half.tests if t.part == "symbolic"}
    assert missing == {
        "vectors.py does not define `square_sum`",
        "vectors.py does not define `PYTHAGORAS_PROOF`",
    }
