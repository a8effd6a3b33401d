"""People's grades are never lost or misplaced: a sheet exported before a grader's save cannot
overwrite it, a grade belongs to the answer it was given to, shard gradebooks carry their
answers through `merge`, and the grading server refuses what it cannot read safely."""

from __future__ import annotations

import csv
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

import pytest
from manual_class import ANSWERS, build_class, result
from starlette.testclient import TestClient

from autograder.course.rubric import AssignmentSpec
from autograder.errors import ConfigError
from autograder.grading.gradebook import PEOPLE_TABLES, Entry, Gradebook, merge
from autograder.manual.render import answer_html
from autograder.manual.server import create_app
from autograder.manual.sheet import SHEET_ANSWER_CHARS, export_sheet, import_sheet
from autograder.manual.store import SCHEMA, Conflict, ManualStore
from autograder.manual.totals import class_totals

ORIGIN = "http://127.0.0.1:8765"
TOKEN = "test-token-abc"


def _rows(path: Path) -> list[list[str]]:
    return list(csv.reader(path.open(newline="", encoding="utf-8")))


def _write(path: Path, rows: list[list[str]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    return path


def _grade(out: Path, student: str, adjustment: float, version: int = 0) -> None:
    with ManualStore(out) as store:
        store.save_grade("vectors", student, "why_unit", adjustment=adjustment, comment="",
                         items=(), version=version, grader="page", max_points=2)  # fmt: skip


def test_a_sheet_exported_before_a_save_cannot_overwrite_it(
    tmp_path: Path, spec: AssignmentSpec
) -> None:
    out = build_class(tmp_path / "out")
    sheet = tmp_path / "sheet.csv"
    export_sheet(out, spec, sheet)  # all three blank, version 0
    _grade(out, "ada", 2.0)  # graded on the page after the export
    _grade(out, "ben", 1.0)
    rows = _rows(sheet)
    assert [row[1] for row in rows[1:]] == ["ada", "ben", "cy"]
    rows[2][6] = "0.5"  # the sheet grades ben too: his page grade came after the export
    rows[3][6] = "1"  # and cy, whom nobody graded
    with pytest.raises(ConfigError) as raised:
        import_sheet(out, spec, _write(tmp_path / "edited.csv", rows), grader="sheet")
    message = str(raised.value)
    assert "1 row(s) would overwrite a newer grade, nothing was imported" in message
    assert "\nrow 3 (student 'ben'): why_unit was graded again after this sheet was exported " \
        "(version 0 in the sheet, 1 now)" in message  # fmt: skip
    totals = class_totals(out, spec)
    assert [totals[s].manual[0].points for s in ("ada", "ben", "cy")] == [2.0, 1.0, None]
    rows[2][6] = ""  # ben left as exported: blank says nothing, so his page grade stays
    done = import_sheet(out, spec, _write(tmp_path / "edited.csv", rows), grader="sheet")
    assert (done.rows, done.changed) == (1, 1)  # cy's row alone; ada's blank row said nothing
    totals = class_totals(out, spec)
    assert [totals[s].manual[0].points for s in ("ada", "ben", "cy")] == [2.0, 1.0, 1.0]


def test_export_then_import_changes_nothing_whatever_the_digits(
    tmp_path: Path, spec: AssignmentSpec
) -> None:
    out = build_class(tmp_path / "out")
    _grade(out, "ada", 1.2345678912)
    sheet = tmp_path / "sheet.csv"
    export_sheet(out, spec, sheet)
    assert _rows(sheet)[1][6] == "1.234568"  # points are kept to 6 decimals
    assert import_sheet(out, spec, sheet, grader="sheet").changed == 0


def test_an_answer_of_quotes_fits_the_sheet_and_the_sheet_imports(
    tmp_path: Path, spec: AssignmentSpec
) -> None:
    out = build_class(tmp_path / "out")
    with ManualStore(out) as store:
        store.record_answers("vectors", "ben", {"why_unit": '"' * 65536})  # doubled in CSV
    sheet = tmp_path / "sheet.csv"
    export_sheet(out, spec, sheet)
    answer = _rows(sheet)[2][4]
    assert len(answer) == SHEET_ANSWER_CHARS
    assert answer.endswith("the whole answer is on the grading page, `autograder manual serve`]")
    rows = _rows(sheet)
    rows[2][6] = "1"
    assert import_sheet(out, spec, _write(tmp_path / "b.csv", rows), grader="s").changed == 1


def test_a_grade_belongs_to_the_answer_it_was_given_to(
    tmp_path: Path, spec: AssignmentSpec
) -> None:
    out = build_class(tmp_path / "out")
    _grade(out, "ada", 2.0)
    assert class_totals(out, spec)["ada"].manual[0].points == 2.0
    # ada submits again, with another answer: the new attempt counts, and nobody graded it
    second = replace(result("ada"), submitted_at="2026-12-02T10:00:00+00:00")
    with Gradebook(out) as book:
        entry = Entry("ada", "other", "run2", second, 0.0, second.submitted_at, "test",
                      "2026-12-02T10:00:00.000000Z")  # fmt: skip
        book.record(entry, rubric_hash="rubric", kit_version="test")
    with ManualStore(out) as store:
        store.record_answers("vectors", "ada", {"why_unit": "A new answer."},
                             attempt="2026-12-02T10:00:00.000000Z")  # fmt: skip
        assert store.answers("vectors")["ada", "why_unit"].text == "A new answer."
        assert store.grades("vectors")["ada", "why_unit"].answer_changed
    totals = class_totals(out, spec)["ada"]
    assert totals.manual[0].points is None and totals.ungraded == ("why_unit",)
    _grade(out, "ada", 1.0, version=1)  # graded again, on the new answer
    assert class_totals(out, spec)["ada"].manual[0].points == 1.0
    # the same answer in a new attempt keeps its grade
    third = replace(second, submitted_at="2026-12-03T10:00:00+00:00")
    with Gradebook(out) as book:
        book.record(replace(entry, attempt="2026-12-03T10:00:00.000000Z", result=third),
                    rubric_hash="rubric", kit_version="test")  # fmt: skip
    with ManualStore(out) as store:
        store.record_answers("vectors", "ada", {"why_unit": "A new answer."},
                             attempt="2026-12-03T10:00:00.000000Z")  # fmt: skip
    assert class_totals(out, spec)["ada"].manual[0].points == 1.0


def test_merge_carries_the_written_answers_and_refuses_a_shard_people_graded(
    tmp_path: Path, spec: AssignmentSpec
) -> None:
    first, second = tmp_path / "shard-1", tmp_path / "shard-2"
    build_class(first)
    with Gradebook(second) as book:
        book.bind(assignment="vectors", rubric_hash="rubric")
        book.record(Entry("dee", "hash", "run", replace(result("ada"), submission="dee"), 0.0,
                          None, "test"), rubric_hash="rubric", kit_version="test")  # fmt: skip
    with ManualStore(second) as store:
        store.record_answers("vectors", "dee", {"why_unit": "Dee's answer."})
    merged = tmp_path / "merged"
    assert merge([first, second], merged) == 4
    assert merge([first, second], merged) == 4  # again: nothing doubles
    with ManualStore(merged) as store:
        answers = store.answers("vectors")
    assert {s: answers[s, "why_unit"].text for s, _ in answers} == {
        **ANSWERS,
        "dee": "Dee's answer.",
    }
    with Gradebook(merged) as book:
        assert book.history() == []  # merging the same rows twice replaced nothing
    _grade(second, "dee", 1.0)
    with pytest.raises(ConfigError) as raised:
        merge([first, second], tmp_path / "again")
    assert str(raised.value) == (
        f"{second} holds grades given by people (manual_grades, grade_history): merge the "
        "shards first, then grade written answers and override on the merged gradebook"
    )
    assert not (tmp_path / "again").exists()  # refused before anything was written


def test_the_people_tables_merge_refuses_are_the_stores_own() -> None:
    for table in PEOPLE_TABLES:
        assert f"CREATE TABLE IF NOT EXISTS {table} (" in SCHEMA


def test_the_feedback_of_an_ungradable_submission_shows_its_written_answer(
    tmp_path: Path, spec: AssignmentSpec
) -> None:
    from autograder.after_grading.student_feedback import write_feedback

    out = build_class(tmp_path / "out")
    _grade(out, "cy", 1.5)
    with Gradebook(out) as book:
        entries = book.entries("vectors")
    ungradable = [replace(e, result=replace(e.result, status="ungradable", tests=(), score=0))
                  for e in entries if e.student == "cy"]  # fmt: skip
    when = datetime(2026, 12, 1, tzinfo=timezone.utc)
    [page] = write_feedback(ungradable, spec, tmp_path / "fb", after_due=True, now=when,
                            totals=class_totals(out, spec))  # fmt: skip
    assert "1.5 / 2" in page.read_text(encoding="utf-8")


@pytest.fixture
def client(tmp_path: Path, spec: AssignmentSpec) -> TestClient:
    app = create_app(build_class(tmp_path / "out"), spec, token=TOKEN, origin=ORIGIN)
    client = TestClient(app, base_url=ORIGIN, follow_redirects=False)
    landing = client.get(f"/?token={TOKEN}")
    assert "set-cookie" not in landing.headers  # the token travels in a header only
    return client


def test_the_server_refuses_what_it_cannot_read_safely(client: TestClient) -> None:
    sent = {"Origin": ORIGIN, "X-Autograder-Token": TOKEN, "Content-Type": "application/json"}
    assert client.post("/api/grade", content=b"{}", headers={**sent, "Content-Length": "x"}
                       ).status_code == 413  # fmt: skip
    huge = (b'{"a": "' + b"x" * (70 * 1024) + b'"}' for _ in range(1))  # chunked: no length
    answer = client.post("/api/grade", content=huge, headers=sent)
    assert answer.status_code == 400  # read up to the bound only, then an empty request
    odd: dict[str, str | bytes] = {**sent, "X-Autograder-Token": "tökén".encode("latin-1")}
    assert client.post("/api/grade", json={}, headers=odd).status_code == 403  # not a 500
    odd_read: dict[str, str | bytes] = {"X-Autograder-Token": "ünïcode".encode("latin-1")}
    assert client.get("/api/state", headers=odd_read).status_code == 403


def test_an_item_is_changed_only_within_its_part(tmp_path: Path) -> None:
    """Its points were checked against the maximum of the part the request named."""
    out = build_class(tmp_path / "out")
    with ManualStore(out) as store:
        item = store.save_item("vectors", "why_unit", text="clear", points=1, max_points=2)
        with pytest.raises(Conflict):
            store.save_item("vectors", "a_larger_part", text="clear", points=10, max_points=10,
                            item_id=item.id, version=item.version)  # fmt: skip
        assert store.items("vectors") == [item]


def test_no_link_in_an_answer_can_be_followed() -> None:
    """Relative, protocol-relative and absolute links alike stay the text the student typed."""
    written = "[a](//evil.example/x) [b](/api/state) [c](https://ok.example/)"
    shown = answer_html(written)
    assert "<a" not in shown and "href" not in shown
    assert shown == f"<p>{written}</p>\n"


def test_before_the_due_date_the_written_answers_tell_no_automatic_total(
    tmp_path: Path, spec: AssignmentSpec
) -> None:
    """The total with the written answers counts every test: shown before the due date, it
    would tell how the tests held back went (here: a held-back test's part, overridden)."""
    from autograder.after_grading.student_feedback import write_feedback
    from autograder.manual.overrides import override

    out = build_class(tmp_path / "out")
    _grade(out, "ben", 1.5)
    override(out, spec, "ben", test=None, part="symbolic", points=2.0, reason="half right")
    with Gradebook(out) as book:
        [ben] = [e for e in book.entries("vectors") if e.student == "ben"]
    held = tuple(replace(t, visibility="after_due_date", hidden=True) if t.score < t.max_score
                 else t for t in ben.result.tests)  # fmt: skip
    ben = replace(ben, result=replace(ben.result, tests=held))
    when = datetime(2026, 12, 1, tzinfo=timezone.utc)
    totals = class_totals(out, spec)
    [page] = write_feedback([ben], spec, tmp_path / "early", after_due=False, now=when,
                            totals=totals)  # fmt: skip
    early = page.with_suffix(".md").read_text(encoding="utf-8")
    assert "Written answers: 1.5 of 2 points graded so far." in early
    assert "Total with the written answers" not in early
    assert "automatic points now" not in early and "9.5" not in early
    assert "the points are shown with every test's result" in early
    [page] = write_feedback([ben], spec, tmp_path / "late", after_due=True, now=when,
                            totals=totals)  # fmt: skip
    late = page.with_suffix(".md").read_text(encoding="utf-8")
    assert "**Score: 9.5 of 12 points**" in late  # 6 + 2 overridden + 1.5
