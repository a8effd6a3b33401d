"""Written answers and overrides without a browser: answers read from submissions, the grading
sheet out and back in, overrides and their history, and the totals every output shows."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re
import zipfile
from pathlib import Path

import pytest
from manual_class import ANSWERS, FAILING_NODE, HOSTILE_ANSWER, ROSTER, build_class, result

from autograder.after_grading.student_feedback import feedback_path
from autograder.cli import main
from autograder.course.course import Course
from autograder.course.rubric import AssignmentSpec
from autograder.errors import ConfigError
from autograder.grading.gradebook import Entry, Gradebook
from autograder.grading.written_answers import MAX_ANSWER_CHARS, read_answers
from autograder.manual.overrides import override
from autograder.manual.sheet import NO_ANSWER, export_sheet, import_sheet
from autograder.manual.store import ManualStore
from autograder.manual.totals import class_totals


def _run(*argv: str) -> tuple[int, str]:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = main(list(argv))
    return code, printed.getvalue()


def _notebook(cells: list[dict[str, object]]) -> str:
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


ANSWER_CELL = {
    "cell_type": "markdown",
    "source": ["It keeps the ", "direction only."],
    "metadata": {"nbgrader": {"grade_id": "why_unit", "solution": True, "grade": True}},
}


def test_the_answer_comes_from_the_notebook_cell_or_the_named_file(
    tmp_path: Path, spec: AssignmentSpec
) -> None:
    notebook = tmp_path / "nb.ipynb"
    notebook.write_text(_notebook([{"cell_type": "code", "source": "x = 1", "metadata": {}},
                                   ANSWER_CELL]))  # fmt: skip
    assert read_answers(notebook, spec) == {"why_unit": "It keeps the direction only."}
    folder = tmp_path / "ben"
    (folder / "deep").mkdir(parents=True)
    (folder / "vectors.py").write_text("x = 1\n")
    (folder / "why_unit.md").write_text("Top copy.", encoding="utf-8")
    (folder / "deep" / "why_unit.md").write_text("Deeper copy.")
    assert read_answers(folder, spec) == {"why_unit": "Top copy."}
    archive = tmp_path / "cy.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("cy/vectors.py", "x = 1\n")
        zipped.writestr("cy/why_unit.md", "From the zip.")
    assert read_answers(archive, spec) == {"why_unit": "From the zip."}
    alone = tmp_path / "dee.py"
    alone.write_text("x = 1\n")
    assert read_answers(alone, spec) == {"why_unit": None}  # no room for an answer file
    broken = tmp_path / "eve.ipynb"
    broken.write_text("{not json")
    assert read_answers(broken, spec) == {"why_unit": None}
    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as zipped:
        zipped.writestr("why_unit.md", "a" * (30 * 2**20))  # past the reader's 20 MiB bound
    assert read_answers(bomb, spec) == {"why_unit": None}


def test_an_answer_is_stored_capped(tmp_path: Path) -> None:
    with Gradebook(tmp_path) as book:
        entry = Entry("ada", "hash", "run", result("ada"), 0.0, None, "test")
        book.record(entry, rubric_hash="rubric", kit_version="test")
    with ManualStore(tmp_path) as store:
        store.record_answers("vectors", "ada", {"why_unit": "é" * (MAX_ANSWER_CHARS + 10)})
        stored = store.answers("vectors")[("ada", "why_unit")]
    assert stored.text == "é" * 65536
    assert stored.truncated


@pytest.mark.parametrize("name", ["../secret.md", "a/b.md", ".hidden", "", "x" * 101, 3])
def test_answer_file_must_be_a_plain_name(course_copy: Course, name: object) -> None:
    toml = course_copy.root / "grading.toml"
    text = toml.read_text().replace(
        'answer_file = "why_unit.md"', f"answer_file = {json.dumps(name)}"
    )
    toml.write_text(text)
    with pytest.raises(ConfigError, match=r"why_unit.answer_file\] must be a plain file name"):
        Course.load(course_copy.root)


def test_grading_captures_the_answers(tmp_path: Path, course: Course) -> None:
    from autograder.grading.batch import discover, grade_class

    assignment = course.assignment("vectors")
    klass = tmp_path / "class"
    (klass / "ben").mkdir(parents=True)
    (klass / "ben" / "vectors.py").write_text(
        (assignment.sample_class / "correct_vectorised.py").read_text()
    )
    (klass / "ben" / "why_unit.md").write_text("Only the direction is kept.")
    (klass / "dee.py").write_text((assignment.sample_class / "correct_vectorised.py").read_text())
    out = tmp_path / "out"
    grade_class(assignment, discover([klass], module="vectors.py"), out=out, jobs=1)
    with ManualStore(out) as store:
        answers = {key: a.text for key, a in store.answers("vectors").items()}
    assert answers == {
        ("ben", "why_unit"): "Only the direction is kept.",
        ("dee", "why_unit"): None,
    }


def _sheet_rows(path: Path) -> list[list[str]]:
    return list(csv.reader(path.open(newline="", encoding="utf-8")))


def test_the_sheet_has_a_row_per_answer_and_no_formula(
    tmp_path: Path, spec: AssignmentSpec
) -> None:
    out = build_class(tmp_path / "out")
    with ManualStore(out) as store:
        store.record_answers("vectors", "ben", {"why_unit": None})
    sheet = tmp_path / "sheet.csv"
    assert export_sheet(out, spec, sheet) == 3
    rows = _sheet_rows(sheet)
    assert rows[0] == ["assignment", "student", "part", "max_points", "answer", "rubric",
                       "points", "comment", "version", "key"]  # fmt: skip
    assert [row[1] for row in rows[1:]] == ["ada", "ben", "cy"]
    assert rows[1][3:5] == ["2", ANSWERS["ada"]]
    assert rows[2][4] == NO_ANSWER  # a missing answer says so
    # a formula-like answer stays text, and its terminal escapes show as escapes
    shown = HOSTILE_ANSWER.replace("\x1b", "\\x1b").replace("\x07", "\\x07")
    assert rows[3][4] == "'" + shown and "\x1b" not in rows[3][4]
    assert rows[1][5] == "2: says a unit vector keeps only the direction; 0: missing."
    assert [row[6:9] for row in rows[1:]] == [["", "", "0"], ["", "", "0"], ["", "", "0"]]
    keys = [row[9] for row in rows[1:]]
    assert len(set(keys)) == 3 and all(re.fullmatch(r"k[0-9a-f]{24}", key) for key in keys)


def _write_sheet(path: Path, rows: list[list[str]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["assignment", "student", "part", "points", "comment"])
        writer.writerows(rows)
    return path


def test_a_sheet_with_one_bad_row_writes_nothing_and_names_it(
    tmp_path: Path, spec: AssignmentSpec
) -> None:
    out = build_class(tmp_path / "out")
    good = ["vectors", "ada", "why_unit", "2", "clear"]
    cases = {
        "points '3' must be a number from 0 to 2": ["vectors", "ben", "why_unit", "3", ""],
        "points 'nan' must be a number": ["vectors", "ben", "why_unit", "nan", ""],
        "points 'two' must be a number": ["vectors", "ben", "why_unit", "two", ""],
        "points '-1' must be a number": ["vectors", "ben", "why_unit", "-1", ""],
        "no graded student 'zed'": ["vectors", "zed", "why_unit", "1", ""],
        "no manual part 'numeric'": ["vectors", "ben", "numeric", "1", ""],
        "why_unit of 'ada' is already on row 2": good,
        "assignment 'series' is not 'vectors'": ["series", "ben", "why_unit", "1", ""],
    }
    for message, bad in cases.items():
        sheet = _write_sheet(tmp_path / "sheet.csv", [good, bad])
        with pytest.raises(ConfigError) as raised:
            import_sheet(out, spec, sheet, grader="ta")
        assert (
            f"sheet.csv: 1 bad row(s), nothing was imported:\nrow 3 (student '{bad[1]}'): "
            f"{message}" in str(raised.value)
        )
        with ManualStore(out) as store:
            assert store.grades("vectors") == {}  # not even line 2


def test_import_then_reimport_replaces(tmp_path: Path, spec: AssignmentSpec) -> None:
    out = build_class(tmp_path / "out")
    rows = [
        ["vectors", "ada", "why_unit", "2", "'=clear"],
        ["vectors", "ben", "why_unit", "0.5", ""],
    ]
    sheet = _write_sheet(tmp_path / "s.csv", rows)
    done = import_sheet(out, spec, sheet, grader="ta")
    assert (done.rows, done.changed) == (2, 2)
    totals = class_totals(out, spec)
    assert [totals[s].manual[0].points for s in ("ada", "ben", "cy")] == [2.0, 0.5, None]
    assert totals["ada"].manual[0].comment == "=clear"  # the sheet's quote is undone
    exported = tmp_path / "again.csv"
    export_sheet(out, spec, exported)
    assert [row[6:9] for row in _sheet_rows(exported)[1:]] == [
        ["2", "'=clear", "1"], ["0.5", "", "1"], ["", "", "0"]]  # fmt: skip
    assert import_sheet(out, spec, exported, grader="ta").changed == 0  # the same sheet: no-op
    sheet = _write_sheet(tmp_path / "s.csv", [["vectors", "ben", "why_unit", "", ""]])
    assert import_sheet(out, spec, sheet, grader="ta").changed == 0  # by hand, blank: no word
    rows = _sheet_rows(exported)
    rows[2][6] = ""  # ben's points taken off the exported sheet: not graded again
    with (tmp_path / "cleared.csv").open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    assert import_sheet(out, spec, tmp_path / "cleared.csv", grader="ta").changed == 1
    assert class_totals(out, spec)["ben"].ungraded == ("why_unit",)


def test_overrides_change_the_score_and_keep_their_history(
    tmp_path: Path, course: Course, spec: AssignmentSpec
) -> None:
    out = build_class(tmp_path / "out")
    code, printed = _run("manual", "override", str(out), "--assignment", "vectors",
                         "--student", "ben", "--test", FAILING_NODE, "--points", "3",
                         "--reason", "right idea\x1b[2J", "--course", str(course.root))  # fmt: skip
    assert code == 0
    assert f"ben test {FAILING_NODE}: 0 -> 3 (right idea\\x1b[2J)" in printed
    assert class_totals(out, spec)["ben"].automatic == 9.0  # 6 + 3
    override(out, spec, "ben", test=None, part="symbolic", points=4, reason="all of it",
             who="prof")  # fmt: skip
    assert class_totals(out, spec)["ben"].automatic == 10.0  # the part's override wins
    override(out, spec, "cy", test=None, part="numeric", points=1, reason="copied", who="prof")
    assert class_totals(out, spec)["cy"].automatic == 1.0  # 4 of numeric became 1
    for wrong, why in [({"points": 5.0}, "between 0 and 4"),
                       ({"part": "why_unit", "test": None}, "graded by people"),
                       ({"test": "nope"}, "no test 'nope'"),
                       ({"reason": " "}, "must say why")]:  # fmt: skip
        arguments = {"test": FAILING_NODE, "part": None, "points": 1.0, "reason": "r"} | wrong
        with pytest.raises(ConfigError, match=why):
            override(out, spec, "ada", who="prof", **arguments)  # type: ignore[arg-type]
    code, printed = _run("manual", "history", str(out), "--course", str(course.root))
    lines = printed.splitlines()
    assert len(lines) == 3
    assert lines[0].endswith(f"vectors ben test {FAILING_NODE}: 0 -> 3: right idea\\x1b[2J")
    assert lines[1].endswith("prof: vectors ben part symbolic: 3 -> 4: all of it")
    assert lines[2].endswith("prof: vectors cy part numeric: 4 -> 1: copied")


def test_manual_points_flow_into_every_output(
    tmp_path: Path, course: Course, spec: AssignmentSpec
) -> None:
    out = build_class(tmp_path / "out")
    rows = [
        ["vectors", "ada", "why_unit", "2", "Well put"],
        ["vectors", "ben", "why_unit", "1", "Half"],
    ]
    sheet = _write_sheet(tmp_path / "s.csv", rows)
    assert _run("manual", "import", str(out), str(sheet), "--course", str(course.root))[0] == 0
    override(out, spec, "ben", test=FAILING_NODE, part=None, points=2, reason="r", who="prof")
    root = ("--course", str(course.root))
    book = tmp_path / "book.csv"
    assert _run("gradebook", str(out), "--csv", str(book), *root)[0] == 0
    rows = list(csv.DictReader(book.open(newline="")))
    # final_score is the final grade, written answers included: the LMS file's number
    assert [(r["student"], r["final_score"], r["why_unit"], r["max_score"]) for r in rows] == [
        ("ada", "12.0", "2.0", "12.0"), ("ben", "9.0", "1.0", "12.0"),
        ("cy", "4.0", "not graded yet", "12.0")]  # fmt: skip
    roster = tmp_path / "roster.csv"
    roster.write_text(ROSTER)
    canvas = tmp_path / "canvas.csv"
    code, printed = _run("gradebook", str(out), "--lms", "canvas", "--roster", str(roster),
                         "--out", str(canvas), *root)  # fmt: skip
    assert code == 0
    table = list(csv.reader(canvas.open(newline="")))
    assert table[1][-1] == "12"  # points possible: 10 automatic + 2 written
    assert [row[-1] for row in table[2:]] == ["12", "9", ""]
    assert "1 cell(s) left blank until their written answers are graded" in printed
    feedback = tmp_path / "feedback"
    assert _run("feedback", str(out), "--out", str(feedback), "--after-due", *root)[0] == 0
    ada = feedback_path(feedback, "vectors", "ada").read_text()
    assert (
        "<th scope='row'>why_unit (2, graded by people)</th><td>Why unit vectors</td><td>2 / 2</td>"
        in ada
    )
    assert "Comment on Why unit vectors: Well put" in ada
    assert "Score: 12 of 12 points" in ada
    ben = feedback_path(feedback, "vectors", "ben").read_text()
    assert "automatic points now 8 / 10" in ben
    cy = feedback_path(feedback, "vectors", "cy", ".md").read_text()
    assert "not graded yet" in cy
    waiting = "(not graded yet: 1 written answer(s), 2 points to come)"
    assert f"**Score: 4 of 12 points {waiting}**" in cy
    report = tmp_path / "report.html"
    assert _run("report", str(out), "--html", str(report), *root)[0] == 0
    page = report.read_text()
    assert (
        "<td>ben</td><td>8 / 10</td><td>1</td><td>why_unit: 1</td><td></td><td>9 / 12</td>" in page
    )
    assert (
        "<td>cy</td><td>4 / 10</td><td></td><td>why_unit: not graded yet</td><td></td>"
        "<td>4 / 12 (incomplete)</td>" in page
    )


def test_serve_says_how_to_install_what_it_needs(
    tmp_path: Path, course: Course, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    out = build_class(tmp_path / "out")
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if the extra were not installed
    printed = io.StringIO()
    with contextlib.redirect_stderr(printed):
        code = main(["manual", "serve", str(out), "--course", str(course.root)])
    assert code == 2
    assert "pip install 'transformer-maths-autograder[manual]'" in printed.getvalue()
