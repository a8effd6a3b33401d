"""The grading sheet comes back exactly: every answer, student id and comment the gradebook
holds survives `manual export` then `manual import` of the unchanged sheet, a grade entered in
the sheet lands on its own student and answer, and a sheet a spreadsheet saved again (its
leading apostrophes dropped, CRLF line ends, a byte-order mark) still imports where the row's
key leaves no doubt."""

from __future__ import annotations

import contextlib
import csv
import io
import tempfile
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from manual_class import result

from autograder.cli import main
from autograder.course.bounded_csv import read_rows
from autograder.course.course import Course
from autograder.course.rubric import AssignmentSpec
from autograder.errors import ConfigError
from autograder.grading.gradebook import Entry, Gradebook
from autograder.grading.written_answers import MAX_ANSWER_CHARS
from autograder.manual.sheet import SHEET_ANSWER_CHARS, SHEET_BOUNDS, export_sheet, import_sheet
from autograder.manual.sheet_cells import read_cell, readings, sheet_cell
from autograder.manual.store import MAX_COMMENT_CHARS, ManualStore

PART = "why_unit"  # the fixture course's written answer, worth 2 points
COLUMN = {"student": 1, "answer": 4, "points": 6, "comment": 7, "version": 8, "key": 9}

HOSTILE = {
    "nul": "a\x00b\x00",
    "controls": "\x1b[2J\x1b]52;c;cGF5bG9hZA==\x07 \x08\x7f\x85\x9b",
    "formula =": '=HYPERLINK("http://evil.example/","x")',
    "formula +": "+1",
    "formula -": "-1-1",
    "formula @": "@SUM(A1)",
    "formula tab": "\t=1+1",
    "formula cr": "\r=1+1",
    "escape mark": "'=1+1",
    "escape marks": "''x",
    "a lone mark": "'",
    "quotes and commas": 'say "hi", then, "bye"',
    "newlines": "one\ntwo\n\nthree\n",
    "crlf": "one\r\ntwo\r\n",
    "lone cr": "one\rtwo",
    "non-bmp": "\U0001f600 \U0001d4b3 \U00010348",
    "bidi": "\u202egnp.exe\u202c \u2066x\u2069 \u200f",
    "line separators": "a\u2028b\u2029c",
    "backslashes": "\\frac{1}{2} \\x00 \\u202e \\\\ \\",
    "noncharacters": "\ufffe\uffff\ufffd",
    "byte-order mark": "\ufeffstart",
    "spaces": "  padded  ",
    "numeric": "007",
}
"""One text of each class the sheet must carry; each is an answer, a student id and a comment."""


def _record(folder: Path, answers: Mapping[str, str | None]) -> Path:
    """A gradebook in `folder` with one graded submission and one answer per student id."""
    with Gradebook(folder) as book:
        book.bind(assignment="vectors", rubric_hash="rubric")
        for student in answers:
            entry = Entry(student, "hash", "run", replace(result("ada"), submission=student))
            book.record(entry, rubric_hash="rubric", kit_version="test")
    with ManualStore(folder) as store:
        for student, answer in answers.items():
            store.record_answers("vectors", student, {PART: answer})
    return folder


def _grade(folder: Path, student: str, points: float, comment: str) -> None:
    with ManualStore(folder) as store:
        store.save_grade("vectors", student, PART, adjustment=points, comment=comment, items=(),
                         version=0, grader="page", max_points=2)  # fmt: skip


def _snapshot(folder: Path) -> tuple[object, ...]:
    """Everything an import could change: answers, grades (versions and times included)."""
    with ManualStore(folder) as store:
        return store.answers("vectors"), store.grades("vectors"), store.items("vectors")


def _rows(sheet: Path) -> list[list[str]]:
    return list(csv.reader(sheet.open(newline="", encoding="utf-8")))


def _write(sheet: Path, rows: list[list[str]], *, encoding: str = "utf-8") -> Path:
    with sheet.open("w", newline="", encoding=encoding) as handle:
        csv.writer(handle).writerows(rows)
    return sheet


def _row_of(rows: list[list[str]], student: str) -> list[str]:
    [row] = [row for row in rows[1:] if read_cell(row[COLUMN["student"]]) == student]
    return row


def _as_a_spreadsheet_saves_it(rows: list[list[str]]) -> list[list[str]]:
    """What Excel writes back: a leading apostrophe is its own "text" mark, hidden on opening a
    CSV and left out on saving one (`'=1+1` comes back `=1+1`, `''x` comes back `'x`)."""
    return [[cell.removeprefix("'") for cell in row] for row in rows]


# the codec alone


@pytest.mark.parametrize("text", [*HOSTILE.values(), "\ud800", "a\udfffb", "\udc80\ud800", ""])
def test_each_hostile_text_reads_back_and_the_cell_is_safe(text: str) -> None:
    cell = sheet_cell(text)
    assert read_cell(cell) == text
    assert readings(cell)[0] == text
    assert not cell.startswith(("=", "+", "-", "@", "\t", "\r"))
    cell.encode("utf-8")  # no lone surrogate left
    assert not any(c in cell for c in "\x00\x1b\x07\x7f\x85\u202e\u2028\ufffe")


@pytest.mark.parametrize(
    ("text", "cell"),
    [
        ('plain words, and "quotes"\n', 'plain words, and "quotes"\n'),
        ("=1+1", "'=1+1"),
        ("'=1+1", "''=1+1"),
        ("'quoted'", "''quoted'"),
        ("-", "'-"),
        ("a\x00b", "a\\x00b"),
        ("\x1b[2J", "\\x1b[2J"),
        ("\ud800", "\\ud800"),
        ("\u202egnp", "\\u202egnp"),
        ("=\x00", "'=\\x00"),
        ("\x00=", "\\x00="),  # no longer starts like a formula once escaped
        ("\\frac{1}{2} \\alpha", "\\frac{1}{2} \\alpha"),  # LaTeX as written
        ("\\x00", "\\\\x00"),  # a backslash that would read as an escape is doubled
        ("\\u202e", "\\\\u202e"),
        ("\\\\", "\\\\\\"),  # the first one precedes a backslash
        ("\\\x00", "\\\\\\x00"),
        ("ends in \\", "ends in \\"),
        ("\\xZZ \\u12", "\\xZZ \\u12"),
        ("\\X41", "\\X41"),  # upper case is never an escape the kit writes
    ],
)
def test_the_cell_is_what_the_module_docstring_says(text: str, cell: str) -> None:
    assert sheet_cell(text) == cell
    assert read_cell(cell) == text


ANY_TEXT = st.text(
    st.one_of(
        st.characters(exclude_categories=()),  # every code point, lone surrogates included
        st.sampled_from(list("\\'=+-@\t\r\n\x00\x1bxu0123456789abcdef\",\u202e")),
    ),
    max_size=60,
)


@given(ANY_TEXT)
def test_every_text_reads_back(text: str) -> None:
    cell = sheet_cell(text)
    assert read_cell(cell) == text
    cell.encode("utf-8")
    assert "\x00" not in cell and not cell.startswith(("=", "+", "-", "@", "\t", "\r"))
    # a spreadsheet that drops the leading apostrophe leaves a cell that still reads as `text`
    assert text in readings(cell.removeprefix("'"))


@given(st.lists(st.lists(ANY_TEXT, min_size=1, max_size=4), min_size=1, max_size=6))
@settings(suppress_health_check=[HealthCheck.too_slow])
def test_every_text_reads_back_through_a_csv_file(rows: list[list[str]]) -> None:
    """The file as the kit writes it and reads it: csv, UTF-8, read within the sheet's bounds
    (which refuse a NUL byte: none is ever written)."""
    with tempfile.TemporaryDirectory() as folder:
        sheet = _write(Path(folder) / "s.csv", [[sheet_cell(t) for t in row] for row in rows])
        read = [
            [read_cell(cell) for cell in row.cells]
            for row in read_rows(sheet, "sheet", SHEET_BOUNDS)
        ]
    assert read == rows


# the whole round trip


def test_an_unchanged_sheet_of_hostile_answers_ids_and_comments_imports_as_a_no_op(
    tmp_path: Path, spec: AssignmentSpec
) -> None:
    answers: dict[str, str | None] = {text: text for text in HOSTILE.values()}
    answers["long"] = ("\x00\\x" * MAX_ANSWER_CHARS)[:MAX_ANSWER_CHARS]  # cut in the sheet
    long_id = "\x00" + "=é\U0001f600\u202e" * 1023 + "end"  # as long as a manifest's cell
    answers[long_id] = None  # and no answer
    out = _record(tmp_path / "out", answers)
    _grade(out, long_id, 2.0, ("\\\x00" * MAX_COMMENT_CHARS)[:MAX_COMMENT_CHARS])
    for text in HOSTILE.values():  # half of them graded, with the hostile text as a comment
        if len(text) % 2:
            _grade(out, text, 1.5, text)
    before = _snapshot(out)
    sheet = tmp_path / "sheet.csv"
    assert export_sheet(out, spec, sheet) == len(answers)
    assert b"\x00" not in sheet.read_bytes()
    rows = _rows(sheet)
    assert len(_row_of(rows, "long")[COLUMN["answer"]]) <= SHEET_ANSWER_CHARS
    for text in HOSTILE.values():
        row = _row_of(rows, text)
        assert read_cell(row[COLUMN["answer"]]) == text
        assert read_cell(row[COLUMN["comment"]]) == (text if len(text) % 2 else "")
    done = import_sheet(out, spec, sheet, grader="sheet")
    assert done.changed == 0
    assert _snapshot(out) == before


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_grade_entered_in_the_sheet_lands_on_its_own_student(
    tmp_path: Path, spec: AssignmentSpec, name: str
) -> None:
    text = HOSTILE[name]
    neighbours = {"'" + text, text + "'", text.strip() or "blank", "plain"}  # look-alike ids
    out = _record(tmp_path / "out", {text: "mine", **{n: n for n in neighbours - {text}}})
    before = _snapshot(out)
    sheet = tmp_path / "sheet.csv"
    export_sheet(out, spec, sheet)
    rows = _rows(sheet)
    row = _row_of(rows, text)
    row[COLUMN["points"]], row[COLUMN["comment"]] = "1.25", sheet_cell(text)
    done = import_sheet(out, spec, _write(tmp_path / "graded.csv", rows), grader="sheet")
    assert (done.rows, done.changed) == (1, 1)
    with ManualStore(out) as store:
        grades = store.grades("vectors")
    assert list(grades) == [(text, PART)]
    assert (grades[text, PART].adjustment, grades[text, PART].comment) == (1.25, text)
    assert _snapshot(out)[0] == before[0]  # the answers are as they were


@given(
    student=st.text(max_size=40),  # what the gradebook can hold: no lone surrogate
    answer=st.text(max_size=200),
    comment=st.text(max_size=80),
)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_id_answer_and_comment_round_trip(
    spec: AssignmentSpec, student: str, answer: str, comment: str
) -> None:
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        other = "o" + student
        out = _record(folder / "out", {student: answer, "'" + student: answer, other: comment})
        _grade(out, "'" + student, 0.5, comment)  # the look-alike's grade must not move
        before = _snapshot(out)
        export_sheet(out, spec, folder / "sheet.csv")
        assert import_sheet(out, spec, folder / "sheet.csv", grader="sheet").changed == 0
        assert _snapshot(out) == before
        rows = _rows(folder / "sheet.csv")
        row = _row_of(rows, student)
        row[COLUMN["points"]], row[COLUMN["comment"]] = "2", sheet_cell(comment)
        graded = _write(folder / "graded.csv", rows)
        assert import_sheet(out, spec, graded, grader="sheet").changed == 1
        with ManualStore(out) as store:
            grades = store.grades("vectors")
    assert {key: (g.adjustment, g.comment) for key, g in grades.items()} == {
        (student, PART): (2.0, comment),
        ("'" + student, PART): (0.5, comment),
    }


def test_the_commands_carry_the_hostile_class_there_and_back(
    tmp_path: Path, course: Course, spec: AssignmentSpec
) -> None:
    """`autograder manual export` then `autograder manual import`, as a teaching assistant
    runs them: the sheet that failed before (a NUL in an answer, a formula-like id)."""
    ids = {"nul\x00id": "a\x00b", "=cmd|' /C calc'!A0": "=1+1", "'=x": "\x1b[2J", "ada": "ok"}
    out = _record(tmp_path / "out", ids)
    _grade(out, "'=x", 1.0, "'=kept'")
    before = _snapshot(out)
    sheet, root = tmp_path / "sheet.csv", ("--course", str(course.root))
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        assert main(["manual", "export", str(out), "--out", str(sheet), *root]) == 0
        assert main(["manual", "import", str(out), str(sheet), *root]) == 0
    assert "4 answers of vectors to grade" in printed.getvalue()
    assert (
        "1 rows, 0 grades changed" in printed.getvalue()
    )  # the graded row; blank ones say nothing
    assert _snapshot(out) == before
    rows = _rows(sheet)
    _row_of(rows, "nul\x00id")[COLUMN["points"]] = "2"
    _write(sheet, rows)
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        assert main(["manual", "import", str(out), str(sheet), *root]) == 0
    assert "2 rows, 1 grades changed" in printed.getvalue()
    with ManualStore(out) as store:
        grades = store.grades("vectors")
    assert {key[0]: g.adjustment for key, g in grades.items()} == {"nul\x00id": 2.0, "'=x": 1.0}
    assert grades["'=x", PART].comment == "'=kept'"


# a sheet a spreadsheet saved again


def test_a_sheet_saved_again_by_a_spreadsheet_still_imports(
    tmp_path: Path, spec: AssignmentSpec
) -> None:
    """Excel drops the apostrophe in front of each cell: `''=x` comes back `'=x`, which the kit
    would read as `=x`, another student here; the key tells which one the row is."""
    ids = ["=x", "'=x", "''=x", "'quoted'", "quoted'", "-1", "plain"]
    out = _record(tmp_path / "out", {s: f"answer of {s}" for s in ids})
    _grade(out, "'quoted'", 1.0, "'a comment in quotes'")
    _grade(out, "=x", 0.5, "=a formula-like comment")
    before = _snapshot(out)
    sheet = tmp_path / "sheet.csv"
    export_sheet(out, spec, sheet)
    saved = _as_a_spreadsheet_saves_it(_rows(sheet))
    shown = {row[COLUMN["answer"]].removeprefix("answer of "): row[COLUMN["student"]]
             for row in saved[1:]}  # fmt: skip
    assert shown == {s: s for s in ids}  # each id as the spreadsheet showed it
    again = tmp_path / "saved.csv"
    with again.open("w", newline="", encoding="utf-8-sig") as handle:  # with a byte-order mark
        csv.writer(handle, lineterminator="\r\n").writerows(saved)
    assert import_sheet(out, spec, again, grader="sheet").changed == 0
    assert _snapshot(out) == before
    for row in saved[1:]:
        if row[COLUMN["student"]] == "'=x":  # the kit would read `=x`: the key says `'=x`
            row[COLUMN["points"]] = "2"
    import_sheet(out, spec, _write(tmp_path / "graded.csv", saved), grader="sheet")
    with ManualStore(out) as store:
        grades = store.grades("vectors")
    assert {key[0]: g.adjustment for key, g in grades.items()} == {
        "'quoted'": 1.0, "=x": 0.5, "'=x": 2.0}  # fmt: skip
    assert grades["'quoted'", PART].comment == "'a comment in quotes'"


def test_without_keys_a_cell_that_reads_as_two_students_is_refused(
    tmp_path: Path, spec: AssignmentSpec
) -> None:
    out = _record(tmp_path / "out", {"=x": "a", "'=x": "b"})
    rows = [["assignment", "student", "part", "points"], ["vectors", "'=x", PART, "1"]]
    with pytest.raises(ConfigError) as raised:
        import_sheet(out, spec, _write(tmp_path / "hand.csv", rows), grader="sheet")
    assert "\nrow 2 (student '=x'): the student cell may read '=x' or \"'=x\"" in str(raised.value)
    rows[1][1] = "''=x"  # as the kit writes `'=x`: one reading only
    assert import_sheet(out, spec, _write(tmp_path / "hand.csv", rows), grader="s").changed == 1
    with ManualStore(out) as store:
        assert list(store.grades("vectors")) == [("'=x", PART)]


def test_the_key_names_the_student_a_spreadsheet_reformatted(
    tmp_path: Path, spec: AssignmentSpec
) -> None:
    out = _record(tmp_path / "out", {"007": "a", "ada": "b"})
    sheet = tmp_path / "sheet.csv"
    export_sheet(out, spec, sheet)
    rows = _rows(sheet)
    row = _row_of(rows, "007")
    row[COLUMN["student"]], row[COLUMN["points"]] = "7", "1"  # the number a spreadsheet shows
    import_sheet(out, spec, _write(tmp_path / "numbers.csv", rows), grader="sheet")
    with ManualStore(out) as store:
        assert list(store.grades("vectors")) == [("007", PART)]
    row[COLUMN["student"]], row[COLUMN["points"]] = "ada", "2"  # another graded student
    with pytest.raises(ConfigError) as raised:
        import_sheet(out, spec, _write(tmp_path / "moved.csv", rows), grader="sheet")
    assert "the student cell reads 'ada' but the row was exported for '007'" in str(raised.value)


def test_a_row_whose_answer_changed_after_the_export_is_a_conflict(
    tmp_path: Path, spec: AssignmentSpec
) -> None:
    out = _record(tmp_path / "out", {"=ada": "first answer", "ben": "ben's"})
    sheet = tmp_path / "sheet.csv"
    export_sheet(out, spec, sheet)
    with ManualStore(out) as store:  # ada's answer changes: the sheet shows the old one
        store.record_answers("vectors", "=ada", {PART: "second answer"})
    assert import_sheet(out, spec, sheet, grader="sheet").changed == 0  # blank rows say nothing
    rows = _rows(sheet)
    _row_of(rows, "=ada")[COLUMN["points"]] = "2"
    _row_of(rows, "ben")[COLUMN["points"]] = "1"
    with pytest.raises(ConfigError) as raised:
        import_sheet(out, spec, _write(tmp_path / "graded.csv", rows), grader="sheet")
    assert (
        "\nrow 2 (student '=ada'): the answer to why_unit that counts changed after this sheet "
        "was exported" in str(raised.value)
    )
    with ManualStore(out) as store:
        assert store.grades("vectors") == {}  # not even ben's
