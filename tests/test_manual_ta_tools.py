"""The teaching assistants' tools without a browser: sheet errors name the row a spreadsheet
shows and its student, an answer left as released is no answer everywhere, every change of a
written answer's points is in `manual history`, and a total that waits for a grade says so."""

from __future__ import annotations

import contextlib
import csv
import io
import re
from pathlib import Path

import pytest
from manual_class import build_class
from starlette.testclient import TestClient

from autograder.authoring.notebook import ANSWER_PLACEHOLDER as RELEASED_BY_THE_NOTEBOOK
from autograder.cli import main
from autograder.course.bounded_csv import read_rows
from autograder.course.course import Course
from autograder.course.rubric import AssignmentSpec
from autograder.errors import ConfigError
from autograder.grading.written_answers import ANSWER_PLACEHOLDER, is_no_answer, read_answers
from autograder.manual.server import create_app
from autograder.manual.sheet import LEFT_AS_RELEASED, NO_ANSWER, export_sheet, import_sheet
from autograder.manual.store import ManualStore
from autograder.manual.totals import NOT_GRADED, class_totals, csv_columns

ORIGIN = "http://127.0.0.1:8765"
TOKEN = "test-token-abc"
SEVERAL_LINES = "First line of the answer.\n\nA second paragraph,\nand a third line."


def _rows(path: Path) -> list[list[str]]:
    return list(csv.reader(path.open(newline="", encoding="utf-8")))


def _write(path: Path, rows: list[list[str]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    return path


def _client(out: Path, spec: AssignmentSpec) -> TestClient:
    app = create_app(out, spec, token=TOKEN, origin=ORIGIN, grader="ta")
    return TestClient(app, base_url=ORIGIN, follow_redirects=False)


def _post(client: TestClient, path: str, body: dict[str, object]) -> dict[str, object]:
    response = client.post(path, json=body, headers={"Origin": ORIGIN, "X-Autograder-Token": TOKEN})
    assert response.status_code == 200, response.text
    answer: dict[str, object] = response.json()
    return answer


def _state(client: TestClient) -> dict[str, dict[str, object]]:
    """/api/state's answers, by student."""
    state = client.get("/api/state", headers={"X-Autograder-Token": TOKEN}).json()
    return {answer["student"]: answer for answer in state["answers"]}


def _run(*argv: str) -> tuple[int, str]:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = main(list(argv))
    return code, printed.getvalue()


# sheet errors: the spreadsheet's row and the student


def test_a_sheet_error_names_the_spreadsheet_row_and_its_student(
    tmp_path: Path, spec: AssignmentSpec
) -> None:
    out = build_class(tmp_path / "out")
    with ManualStore(out) as store:  # answers of several lines: a row spans several text lines
        for student in ("ada", "ben"):
            store.record_answers("vectors", student, {"why_unit": SEVERAL_LINES})
    sheet = tmp_path / "sheet.csv"
    export_sheet(out, spec, sheet)
    rows = _rows(sheet)
    assert [row[1] for row in rows] == ["student", "ada", "ben", "cy"]
    rows[3][6] = "9"  # cy, the sheet's row 4: more than the part's 2 points
    edited = _write(tmp_path / "edited.csv", rows)
    cy_line = read_rows(edited, "sheet")[3].line
    assert cy_line > 4  # its text line is not its row: the message must not name that
    with pytest.raises(ConfigError) as raised:
        import_sheet(out, spec, edited, grader="ta")
    message = str(raised.value)
    assert message == (
        f"{edited}: 1 bad row(s), nothing was imported:\n"
        "row 4 (student 'cy'): points '9' must be a number from 0 to 2 (or blank: not graded yet)"
    )
    assert f":{cy_line}" not in message
    rows[3][6] = "1"
    rows.append(list(rows[1]))  # ada again, on row 5
    rows[1][6], rows[4][6] = "2", "2"
    with pytest.raises(ConfigError) as raised:
        import_sheet(out, spec, _write(tmp_path / "twice.csv", rows), grader="ta")
    assert str(raised.value).endswith(
        "row 5 (student 'ada'): why_unit of 'ada' is already on row 2"
    )
    with ManualStore(out) as store:
        assert store.grades("vectors") == {}  # all or nothing: not even cy's good row


def test_a_header_without_its_columns_is_row_1(tmp_path: Path, spec: AssignmentSpec) -> None:
    out = build_class(tmp_path / "out")
    sheet = _write(tmp_path / "bad.csv", [["student", "points"], ["ada", "1"]])
    with pytest.raises(ConfigError, match=r"bad.csv, row 1 \(the header\): no column part$"):
        import_sheet(out, spec, sheet, grader="ta")


# the released placeholder is no answer


def test_the_placeholder_is_the_one_the_notebook_releases(tmp_path: Path, course: Course) -> None:
    assert ANSWER_PLACEHOLDER == RELEASED_BY_THE_NOTEBOOK
    released = course.root / "student_template" / "vectors" / "vectors.ipynb"
    spec = course.assignment("vectors").spec
    [answer] = read_answers(released, spec).values()
    assert answer is not None and is_no_answer(answer)  # the released cell, untouched


@pytest.mark.parametrize(
    ("text", "none"),
    [
        (None, True),
        ("", True),
        (" \n\t", True),
        (ANSWER_PLACEHOLDER, True),
        (f"\n  {ANSWER_PLACEHOLDER.replace(' ', chr(10))}  \n", True),
        (f"{ANSWER_PLACEHOLDER} It keeps the direction.", False),
        ("your answer here", False),  # written by the student: an answer, if a poor one
    ],
)
def test_what_counts_as_no_answer(text: str | None, none: bool) -> None:
    assert is_no_answer(text) is none


def test_an_answer_left_as_released_is_no_answer_everywhere(
    tmp_path: Path, spec: AssignmentSpec
) -> None:
    out = build_class(tmp_path / "out")
    with ManualStore(out) as store:
        store.record_answers("vectors", "ben", {"why_unit": f"{ANSWER_PLACEHOLDER}\n"})
        store.record_answers("vectors", "cy", {"why_unit": None})
        answers = store.answers("vectors")
    assert answers["ben", "why_unit"].text is None
    assert answers["ben", "why_unit"].left_as_released
    assert not answers["cy", "why_unit"].left_as_released
    # the sheet: not an answer to grade
    sheet = tmp_path / "sheet.csv"
    export_sheet(out, spec, sheet)
    rows = _rows(sheet)
    assert [row[4] for row in rows[2:]] == [LEFT_AS_RELEASED, NO_ANSWER]
    assert ANSWER_PLACEHOLDER in LEFT_AS_RELEASED and "0 points" in LEFT_AS_RELEASED
    assert [row[6] for row in rows[1:]] == ["", "", ""]
    # the totals: 0 points, and nothing waits for people but ada's real answer
    totals = class_totals(out, spec)
    marks = {s: totals[s].manual[0] for s in ("ada", "ben", "cy")}
    assert [(m.points, m.no_answer) for m in marks.values()] == [
        (None, False), (0.0, True), (0.0, True)]  # fmt: skip
    assert [totals[s].ungraded for s in ("ada", "ben", "cy")] == [("why_unit",), (), ()]
    assert totals["ben"].complete_total == totals["ben"].final_automatic == 6.0
    # the page: no answer, with its status
    client = _client(out, spec)
    state = _state(client)
    assert state["ben"]["html"] is None and state["ben"]["left_as_released"] is True
    assert [state[s]["status"] for s in ("ada", "ben", "cy")] == [
        "not_graded", "no_answer", "no_answer"]  # fmt: skip
    # a grader may still grade it (the answer came another way): the grade counts
    _post(client, "/api/grade", {"student": "ben", "part": "why_unit", "adjustment": 1.5,
                                 "version": 0})  # fmt: skip
    assert _state(client)["ben"]["status"] == "graded"
    ben = class_totals(out, spec)["ben"].manual[0]
    assert (ben.points, ben.no_answer) == (1.5, False)


def test_a_grade_of_an_earlier_answer_shows_as_such(tmp_path: Path, spec: AssignmentSpec) -> None:
    out = build_class(tmp_path / "out")
    client = _client(out, spec)
    _post(client, "/api/grade", {"student": "ada", "part": "why_unit", "adjustment": 2,
                                 "version": 0})  # fmt: skip
    with ManualStore(out) as store:
        store.record_answers("vectors", "ada", {"why_unit": "A new answer."})
    assert _state(client)["ada"]["status"] == "answer_changed"
    assert class_totals(out, spec)["ada"].ungraded == ("why_unit",)


# totals that wait for a grade


def test_a_total_waiting_for_a_grade_is_not_a_number(tmp_path: Path, spec: AssignmentSpec) -> None:
    out = build_class(tmp_path / "out")
    client = _client(out, spec)
    _post(client, "/api/grade", {"student": "ada", "part": "why_unit", "adjustment": 1.5,
                                 "version": 0})  # fmt: skip
    totals = class_totals(out, spec)
    assert (totals["ada"].complete_manual_points, totals["ada"].complete_total) == (1.5, 11.5)
    assert (totals["ben"].complete_manual_points, totals["ben"].complete_total) == (None, None)
    columns = csv_columns(totals)
    assert columns.header == ("why_unit", "manual_points", "total", "max_total")
    assert columns.cells["ada"] == (1.5, 1.5, 11.5, 12.0)
    assert columns.cells["ben"] == (NOT_GRADED, NOT_GRADED, NOT_GRADED, 12.0)


# history: who, when, before -> after, for written answers too


def test_manual_history_lists_every_change_of_a_written_answers_points(
    tmp_path: Path, course: Course, spec: AssignmentSpec
) -> None:
    out = build_class(tmp_path / "out")
    client = _client(out, spec)
    item = _post(client, "/api/item", {"part": "why_unit", "text": "direction", "points": 2,
                                       "grader": "lee"})["item"]  # fmt: skip
    assert isinstance(item, dict)
    _post(client, "/api/grade", {"student": "ada", "part": "why_unit", "adjustment": 0,
                                 "items": [item["id"]], "version": 0, "grader": "lee"})  # fmt: skip
    _post(client, "/api/grade", {"student": "ben", "part": "why_unit", "adjustment": 0.5,
                                 "comment": "short", "version": 0})  # fmt: skip
    _post(client, "/api/item", {"id": item["id"], "part": "why_unit", "text": "direction",
                                "points": 1, "version": 1, "grader": "mo"})  # fmt: skip
    sheet = tmp_path / "sheet.csv"
    export_sheet(out, spec, sheet)
    rows = _rows(sheet)
    rows[2][6], rows[2][7] = "", ""  # ben's grade taken off
    rows[3][6] = "0.5"  # cy graded
    import_sheet(out, spec, _write(tmp_path / "s.csv", rows), grader="sam")
    clear = {"student": "ada", "part": "why_unit", "adjustment": 0, "items": [item["id"]],
             "comment": "Clear.", "grader": "lee"}  # fmt: skip
    _post(client, "/api/grade", clear | {"version": 1})
    _post(client, "/api/grade", clear | {"version": 2})  # saved again as it was: no change
    code, printed = _run("manual", "history", str(out), "--course", str(course.root))
    assert code == 0
    lines = printed.splitlines()
    stamp = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00"
    assert all(re.match(stamp + " ", line) for line in lines), lines
    assert [line.split(" ", 1)[1] for line in lines] == [
        "lee: vectors ada written why_unit: not graded -> 2: grading page",
        "ta: vectors ben written why_unit: not graded -> 0.5: grading page",
        "mo: vectors ada written why_unit: 2 -> 1: rubric item 1 (direction): 2 -> 1 points",
        "sam: vectors ben written why_unit: 0.5 -> not graded: sheet import: grade taken off",
        "sam: vectors cy written why_unit: not graded -> 0.5: sheet import",
        "lee: vectors ada written why_unit: 1 -> 1: grading page; comment changed",
    ]
    with ManualStore(out) as store:
        assert len(store.grade_history("vectors")) == 6
        assert store.grade_history("series") == []


def test_history_interleaves_overrides_and_grades_by_time(
    tmp_path: Path, course: Course, spec: AssignmentSpec
) -> None:
    from manual_class import FAILING_NODE

    from autograder.manual.overrides import override

    out = build_class(tmp_path / "out")
    assert _run("manual", "history", str(out), "--course", str(course.root))[1] == (
        "no overrides and no written-answer grades\n"
    )
    override(out, spec, "ben", test=FAILING_NODE, part=None, points=3, reason="r", who="prof")
    _post(_client(out, spec), "/api/grade", {"student": "ben", "part": "why_unit",
                                             "adjustment": 1, "version": 0})  # fmt: skip
    lines = _run("manual", "history", str(out), "--course", str(course.root))[1].splitlines()
    assert len(lines) == 2
    assert lines[0].endswith(f"prof: vectors ben test {FAILING_NODE}: 0 -> 3: r")
    assert lines[1].endswith("ta: vectors ben written why_unit: not graded -> 1: grading page")
    assert lines[0].split(" ")[0] <= lines[1].split(" ")[0]
