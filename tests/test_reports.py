"""Results render to the kit's JSON, Gradescope's results.json (schema-valid) and JUnit XML."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from dataclasses import replace

import jsonschema
import pytest

from autograder.gradescope.results import gradescope_results
from autograder.gradescope.simulate import SCHEMA
from autograder.grading.results import SubmissionResult, TestResult
from autograder.report import render_gradescope, render_json, render_junit

GRADED = SubmissionResult(
    assignment="vectors",
    submission="alice",
    status="graded",
    score=2.5,
    max_score=4.0,
    isolation=("process", "rlimits", "bwrap"),
    duration_s=1.25,
    tests=(
        TestResult(
            name="row 0 is [0, 1, …]", nodeid="public_tests/t.py::a", part="encoding",
            score=2.0, max_score=2.0, status="passed", visibility="visible",
        ),
        TestResult(
            name="random shapes", nodeid="hidden_tests/t.py::b", part="encoding", score=0.0,
            max_score=1.5, status="failed", visibility="after_due_date",
            message="normalise(v)[1] should be 0.8; yours is 0.6",
        ),
        TestResult(
            name="loop", nodeid="hidden_tests/t.py::c", part="symbolic", score=0.5,
            max_score=0.5, status="passed", visibility="hidden",
        ),
        TestResult(
            name="slow", nodeid="hidden_tests/t.py::d", part="symbolic", score=0.0,
            max_score=0.0, status="timeout", visibility="hidden", message="no return in 5 s",
        ),
    ),
    output="printed by the student",
    notes=("1 IPython magic or shell line(s) were commented out",),
)  # fmt: skip
UNGRADABLE = SubmissionResult(
    assignment="vectors", submission="bob", status="ungradable", score=0.0,
    max_score=100.0, isolation=(), duration_s=0.01, message="the notebook is not valid JSON",
)  # fmt: skip
GRADER_ERROR = SubmissionResult(
    assignment="vectors", submission="carol", status="grader_error", score=0.0,
    max_score=100.0, isolation=(), duration_s=60.0, message="the grader's runner did not finish",
)  # fmt: skip


@pytest.mark.parametrize("result", [GRADED, UNGRADABLE, GRADER_ERROR], ids=lambda r: r.status)
def test_kit_json_round_trips(result: SubmissionResult) -> None:
    assert SubmissionResult.from_dict(json.loads(render_json(result))) == result


@pytest.mark.parametrize("result", [GRADED, UNGRADABLE, GRADER_ERROR], ids=lambda r: r.status)
@pytest.mark.parametrize("before_due", ["shown_tests", "hidden"])
def test_gradescope_results_validate_against_the_specification(
    result: SubmissionResult, before_due: str
) -> None:
    for released in (False, True):
        rendered = gradescope_results(result, released=released, score_before_due=before_due)
        jsonschema.validate(rendered, SCHEMA)


def test_gradescope_content() -> None:
    rendered = json.loads(render_gradescope(GRADED))
    assert [t["status"] for t in rendered["tests"]] == ["passed", "failed", "passed", "failed"]
    assert rendered["tests"][1]["visibility"] == "after_due_date"
    assert rendered["stdout_visibility"] == "hidden"
    # the summary students see at once is built from the visible test alone: the hidden tests'
    # losses (1.5 points of encoding) must not show before the due date
    assert rendered["output"].startswith(
        "Score so far (tests shown now): 2 of 2 points, the score shown until"
    )
    assert "3 more tests (2 points)" in rendered["output"]
    assert "encoding: 2 / 2" in rendered["output"] and "3.5" not in rendered["output"]
    assert "symbolic" not in rendered["output"] and "2.5" not in rendered["output"]
    assert "hidden_tests" not in json.dumps(rendered)  # test files' names stay with the grader
    assert "not valid JSON" in json.loads(render_gradescope(UNGRADABLE))["output"]


def test_gradescope_score_before_the_due_date_counts_only_the_tests_shown() -> None:
    """The score is shown at once: counting the hidden tests would answer, for every
    submission, how they went (2.5 of which 0.5 from a hidden test)."""
    before = gradescope_results(GRADED, released=False)
    assert (before["score"], before["visibility"]) == (2.0, "visible")
    after = gradescope_results(GRADED, released=True)
    assert (after["score"], after["visibility"]) == (2.5, "visible")
    assert after["output"].startswith("2.5 / 4 points.")
    held = gradescope_results(GRADED, released=False, score_before_due="hidden")
    assert (held["score"], held["visibility"]) == (2.5, "after_due_date")
    assert not held["output"].startswith("Score so far")


def test_gradescope_never_shows_a_private_tests_message() -> None:
    """A hidden test's message names its inputs: not even after the due date; its hint is
    shown without the values of the calls it quotes."""
    hinted = replace(
        GRADED,
        tests=tuple(
            replace(t, hint="normalise(np.array([0.3, 0.4])) divides by the sum")
            if t.nodeid.endswith("::b") else t
            for t in GRADED.tests
        ),
    )  # fmt: skip
    for released in (False, True):
        test = gradescope_results(hinted, released=released)["tests"][1]
        assert "0.8" not in test["output"] and "should be" not in test["output"]
        assert test["output"] == "Hint: normalise(…) divides by the sum"
        assert (
            "no return in 5 s"
            not in gradescope_results(hinted, released=released)["tests"][3]["output"]
        )


def test_an_all_visible_result_shows_the_whole_score() -> None:
    visible = replace(GRADED, tests=tuple(replace(t, visibility="visible") for t in GRADED.tests))
    output = json.loads(render_gradescope(visible))["output"]
    assert output.startswith("2.5 / 4 points.") and "encoding: 2 / 3.5" in output


def test_schema_rejects_what_gradescope_would() -> None:
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"tests": [{"status": "timeout"}]}, SCHEMA)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"output": "no score"}, SCHEMA)


@pytest.mark.parametrize("result", [GRADED, UNGRADABLE], ids=lambda r: r.status)
def test_junit_xml_parses(result: SubmissionResult) -> None:
    suite = ET.fromstring(render_junit(result))
    assert suite.tag == "testsuite" and suite.get("name") == f"vectors.{result.submission}"
    cases = suite.findall("testcase")
    if result.status == "graded":
        assert len(cases) == 4 and suite.get("failures") == "1" and suite.get("errors") == "1"
        assert cases[1].find("failure") is not None and cases[3].find("error") is not None
    else:
        assert cases[0].find("error").get("message") == result.message  # type: ignore[union-attr]
