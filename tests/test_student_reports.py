"""What students read, in pieces: advice kept apart, real indices, readable test ids, and the
feedback files' and Gradescope's grouping by function with each cause given once."""

from __future__ import annotations

import json
import pickle
from dataclasses import replace

import numpy as np
import pytest

from autograder.after_grading.student_feedback import make_sheet, render_html, render_markdown
from autograder.checks import CheckFailure, assert_close
from autograder.checks.failure import fail
from autograder.gradescope.results import gradescope_results
from autograder.grading.gradebook import Entry
from autograder.grading.grouping import fix_first, grouped, without_advice
from autograder.grading.pytest_plugin import readable_parameters
from autograder.grading.results import SubmissionResult, TestOutcome, TestResult


def test_fail_keeps_its_advice_apart_and_the_text_unchanged() -> None:
    failure = fail("x should be 1", observed=2, hints=[lambda v: None, lambda v: "add one"])
    assert str(failure) == "x should be 1: add one" and failure.advice == "add one"
    assert pickle.loads(pickle.dumps(failure)).advice == "add one"
    assert fail("x should be 1", observed=2).advice is None
    assert CheckFailure("plain").advice is None


def test_index_map_names_the_entry_of_the_whole_array() -> None:
    whole = np.arange(8 * 16, dtype=float).reshape(8, 16)
    corners = np.ix_([7, 4], [0, 8, 15])
    picked = whole[corners].copy()
    picked[0, 1] += 1
    with pytest.raises(CheckFailure) as failure:
        assert_close(picked, whole[corners], what="f(8, 16)", index_map=corners)
    assert str(failure.value) == "f(8, 16), entry [7, 8] should be 120; yours is 121"
    row = whole[3, [2, 5, 9]].copy()
    row[2] = 0
    with pytest.raises(CheckFailure, match=r"^f, entry \[9\] should be 57; yours is 0$"):
        assert_close(row, whole[3, [2, 5, 9]], what="f", index_map=([2, 5, 9],))
    with pytest.raises(CheckFailure, match=r"^f\(8, 16\), entry \[0, 1\] should be"):
        assert_close(picked, whole[corners], what="f(8, 16)")  # without it: as before


def test_parameters_read_as_names_and_short_values() -> None:
    assert readable_parameters({"T": 4, "C": -2, "named": "C"}) == "T=4, C=-2, named=C"
    assert readable_parameters({"C": "8", "x": 2.0}) == "C='8', x=2.0"
    assert readable_parameters({"X": np.zeros((3, 4))}) == "X=<array (3, 4)>"
    long = readable_parameters({"v": list(range(100))})
    assert len(long) <= len("v=") + 40


def test_outcome_function_and_advice_round_trip() -> None:
    outcome = TestOutcome("a::b", "b", "b", "encoding", "failed", "m: fix it",
                          function="sinusoidal_encoding", advice="fix it")  # fmt: skip
    assert TestOutcome.from_dict(json.loads(json.dumps(outcome.to_dict()))) == outcome
    old = {"nodeid": "a::b", "name": "b", "title": "b", "part": None, "status": "passed"}
    assert TestOutcome.from_dict(old).function is None
    result = TestResult("t", "a::b", "p", 0, 1, "failed", "visible", function="f", advice="x")
    assert TestResult.from_dict(json.loads(json.dumps(result.to_dict()))) == result


def _outcome(title: str, function: str | None, status: str = "failed", **kw: object) -> TestOutcome:
    return TestOutcome(f"t::{title}", title, title, "p", status, **kw)  # type: ignore[arg-type]


def test_grouping_by_function_and_what_to_fix_first() -> None:
    tests = [
        replace(_outcome("a", None), function="f", message="f(1) should be 2"),
        replace(_outcome("b", None), function="g", status="passed"),
        replace(_outcome("c", None), function="f", message="f(2) is off: use 2i", advice="use 2i"),
        _outcome("d", None, status="passed"),
    ]
    groups = grouped(tests, order=("g", "f"))
    assert [g.name for g in groups] == ["g", "f", "part p"]
    assert fix_first(groups[1]) == "use 2i"  # advice before a bare message
    assert fix_first(replace(groups[1], tests=groups[1].tests[:1])) == "f(1) should be 2"
    assert without_advice("f(2) is off: use 2i", "use 2i") == "f(2) is off"


HINT = "you divide by the sum of the entries"
RESULT = SubmissionResult(
    "vectors", "ada", "graded", 1, 6, ("process",), 1.0,
    tests=(
        TestResult("normalise([3, 4])", "p::a", "numeric", 0, 1, "failed", "visible",
                   message="normalise([3, 4]) is wrong", hint=HINT, function="normalise"),
        TestResult("normalise keeps v", "p::b", "numeric", 0, 1, "failed", "visible",
                   message="normalise(v) is wrong", hint=HINT, function="normalise"),
        TestResult("scale", "p::c", "numeric", 1, 1, "passed", "visible", function="scale"),
        TestResult("cosine", "p::d", "numeric", 0, 1, "failed", "visible",
                   message="cosine is wrong", hint=HINT, function="cosine"),
        TestResult("square_sum", "p::e", "symbolic", 0, 1, "not_implemented", "visible",
                   message="`square_sum` is not implemented yet", function="square_sum"),
        TestResult("square_sum again", "p::f", "symbolic", 0, 1, "not_implemented", "visible",
                   message="`square_sum` is not implemented yet", function="square_sum"),
    ),
)  # fmt: skip


def test_feedback_groups_by_function_and_gives_a_hint_once() -> None:
    entry = Entry("ada", "hash", "run", RESULT, 0.0, None)
    spec = type(
        "Spec", (), {"title": "Vectors", "name": "vectors", "late": None, "parts": (), "manual": ()}
    )
    sheet = make_sheet(entry, spec(), after_due=True, released=None)  # type: ignore[arg-type]
    assert [(g.name, g.summary) for g in sheet.groups] == [
        ("normalise", "2 failed"), ("scale", "1 passed"), ("cosine", "1 failed"),
        ("square_sum", "not implemented yet (2 tests, 0 / 2 points)"),
    ]  # fmt: skip
    assert sheet.groups[0].fix_first == HINT
    assert sheet.groups[2].fix_first == "the same as for normalise, above"
    markdown = render_markdown(sheet)
    assert markdown.count(HINT) == 1
    assert markdown.count("(same cause as above)") == 3
    assert "### square\\_sum: not implemented yet (2 tests, 0 / 2 points)" in markdown
    assert "`square_sum` is not implemented yet" not in markdown
    page = render_html(sheet)
    assert page.count(HINT) == 1 and "<h3 id='group-0'>normalise: 2 failed</h3>" in page


def test_gradescope_says_same_cause_and_never_points_at_a_hidden_test() -> None:
    tests = json.loads(json.dumps(gradescope_results(RESULT, released=True)["tests"]))
    assert tests[0]["output"] == f"normalise([3, 4]) is wrong\nHint: {HINT}"
    assert tests[1]["output"] == "normalise(v) is wrong\nHint: same cause as above (test 1)"
    assert tests[3]["output"] == "cosine is wrong\nHint: same cause as above (test 1)"
    later = replace(RESULT, tests=(replace(RESULT.tests[0], visibility="after_due_date"),
                                   *RESULT.tests[1:]))  # fmt: skip
    shown = gradescope_results(later, released=False)["tests"]
    assert shown[1]["output"] == f"normalise(v) is wrong\nHint: {HINT}"  # test 1 is held back
    assert shown[3]["output"] == "cosine is wrong\nHint: same cause as above (test 2)"
