"""The author's loop over a sample class: each sample's score beside expected.toml's (the
course tests' messages say the two), and the measured scores written back in place."""

from __future__ import annotations

from pathlib import Path

import pytest

from autograder.authoring.expected_update import Update, update_expected
from autograder.authoring.sample_class import EXPECTED_FILE, Sample
from autograder.authoring.sample_scores import SampleScore
from autograder.cli import main
from autograder.course.course import Course
from autograder.errors import ConfigError
from autograder.protocol.results import (
    Status,
    SubmissionResult,
    SubmissionStatus,
    TestResult,
)
from autograder.report.terminal import render_sample_score


def _sample(
    score: float = 53, lost: frozenset[str] | set[str] = frozenset(), says: tuple[str, ...] = ()
) -> Sample:
    return Sample("bug_x", "", score, frozenset(lost), says, "misconception x")


def _test(nodeid: str, part: str, score: float, message: str | None = None) -> TestResult:
    status: Status = "passed" if score else "failed"
    return TestResult(nodeid, nodeid, part, score, 1.0, status, "visible", message)


def _result(
    *tests: TestResult, status: SubmissionStatus = "graded", message: str | None = None
) -> SubmissionResult:
    score = sum(t.score for t in tests)
    return SubmissionResult("a", "bug_x", status, score, 2, ("process",), 1.0, tests, message)


# --- what a course test says when a sample differs ----------------------------------------------


def test_a_wrong_score_says_expected_and_got_then_the_tests_that_lost() -> None:
    result = _result(_test("t.py::test_a", "mask", 1.0), _test("t.py::test_b", "mask", 0.0))
    problems = SampleScore(_sample(2, {"mask"}), result).problems()
    assert problems == ["sample bug_x: expected 2, got 1; tests that lost points: t.py::test_b"]


def test_a_fraction_is_written_as_a_number_not_an_exponent() -> None:
    result = _result(_test("t.py::test_a", "mask", 0.5))
    assert SampleScore(_sample(0.25, {"mask"}), result).problems() == [
        "sample bug_x: expected 0.25, got 0.5; tests that lost points: t.py::test_a"
    ]


def test_the_parts_lost_and_a_missing_fragment_are_said_apart_from_the_score() -> None:
    result = _result(_test("t.py::test_a", "mask", 0.0, "built the wrong way"))
    score = SampleScore(_sample(0, {"order"}, ("the wrong way", "peeks")), result)
    assert score.score_agrees and not score.agrees
    assert score.problems() == [
        "sample bug_x: loses points in mask; expected.toml's lost: order",
        "sample bug_x: its feedback does not say 'peeks'; it says: built the wrong way",
    ]


def test_a_sample_that_was_not_graded_says_what_it_got_instead() -> None:
    result = _result(status="grader_error", message="the runner failed")
    assert SampleScore(_sample(), result).problems() == [
        "sample bug_x: expected 53, got grader error; the runner failed"
    ]


def test_a_sample_that_scores_what_expected_toml_says_has_no_problem() -> None:
    result = _result(_test("t.py::test_a", "mask", 1.0), _test("t.py::test_b", "order", 0.0))
    assert SampleScore(_sample(1, {"order"}), result).problems() == []


def test_a_row_signs_its_difference_and_says_what_else_differs() -> None:
    half = _result(_test("t.py::test_a", "mask", 0.5), _test("t.py::test_b", "order", 1.0))
    rows = render_sample_score(SampleScore(_sample(0, {"order"}), half), 10).splitlines()
    assert rows[0].split() == ["bug_x", "0", "1.5", "+1.5", "DIFFERS"]
    assert rows[1:] == ["  -> loses points in mask; expected.toml's lost: order"]
    failed = _result(status="grader_error", message="the runner failed")
    rows = render_sample_score(SampleScore(_sample(), failed), 10).splitlines()
    assert rows == [f"{'bug_x':<10}{'53':>10}{'-':>10}{'-':>12}  DIFFERS",
                    "  -> grader error: the runner failed"]  # fmt: skip


# --- expected.toml updated in place ---------------------------------------------------------------

EXPECTED = """\
# The sample class (a comment the author wrote).

# the reference
["correct"]
reference = true
score = 100  # full marks

# why 46: the mask tests and what builds on them
["bug_mask"]
misconception = "mask_upper"
score = 46
lost = [
    "mask",  # its contract
    "order",
]
says = ["the wrong way"]

# why 50
['bug_sum']
misconception = "renormalise_forgotten"
score = 50

# last
[bug_last]
score = 3
lost = ["order"]
"""


def test_scores_and_parts_lost_are_rewritten_and_every_comment_stays(tmp_path: Path) -> None:
    path = tmp_path / EXPECTED_FILE
    path.write_text(EXPECTED, encoding="utf-8")
    updates = {
        "bug_mask": Update(45.5, ("mask",)),
        "bug_sum": Update(52, ("masked", "peeking")),
        "bug_last": Update(3, ()),
    }
    update_expected(path, updates, where="expected.toml")
    assert path.read_text(encoding="utf-8") == (
        EXPECTED.replace('score = 46\nlost = [\n    "mask",  # its contract\n    "order",\n]',
                         'score = 45.5\nlost = ["mask"]')
        .replace("score = 50\n", 'score = 52\nlost = ["masked", "peeking"]\n')
        .replace('score = 3\nlost = ["order"]\n', "score = 3\n")
    )  # fmt: skip


def test_a_score_alone_keeps_its_comment_and_its_lost(tmp_path: Path) -> None:
    path = tmp_path / EXPECTED_FILE
    path.write_text(EXPECTED, encoding="utf-8")
    update_expected(path, {"correct": Update(99)}, where="expected.toml")
    assert path.read_text(encoding="utf-8") == EXPECTED.replace(
        "score = 100  # full marks", "score = 99  # full marks"
    )


def test_an_entry_that_cannot_be_updated_in_place_is_named_and_nothing_is_written(
    tmp_path: Path,
) -> None:
    path = tmp_path / EXPECTED_FILE
    dotted = 'first.score = 1\n\n["second"]\nscore = 2\n'
    path.write_text(dotted, encoding="utf-8")
    with pytest.raises(ConfigError, match=r"expected.toml \[first\]: no table header"):
        update_expected(path, {"second": Update(3), "first": Update(4)}, where="expected.toml")
    assert path.read_text(encoding="utf-8") == dotted


# --- `autograder samples --scores [--update]`, graded in the sandbox ----------------------------


def test_samples_scores_prints_the_difference_and_update_writes_it(
    course_copy: Course, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = course_copy.assignment("vectors").sample_class / EXPECTED_FILE
    text = expected.read_text(encoding="utf-8")
    guessed = text.replace("score = 6\n", "score = 7\n")  # bug_normalise_by_sum scores 6
    expected.write_text(guessed, encoding="utf-8")
    command = ["samples", "--scores", "--assignment", "vectors", "--course", str(course_copy.root),
               "--only", "correct_vectorised", "bug_normalise_by_sum", "--jobs", "2"]  # fmt: skip
    assert main(command) == 1
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].split() == ["sample", "expected", "got", "difference", "verdict"]
    assert rows[2].split() == ["correct_vectorised", "10", "10", "0", "ok"]
    assert rows[3].split() == ["bug_normalise_by_sum", "7", "6", "-1", "DIFFERS"]
    assert rows[4] == "2 samples: 1 as expected.toml says, 1 not"
    assert expected.read_text(encoding="utf-8") == guessed  # --scores alone writes nothing

    assert main([*command, "--update"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1] == (
        "assignments/vectors/sample_class/expected.toml: wrote the measured score of 1 "
        "sample(s) (bug_normalise_by_sum); review them (git diff) before committing"
    )
    assert expected.read_text(encoding="utf-8") == text  # comments and all
    assert main(command) == 0


def test_samples_needs_out_or_scores(course: Course, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["samples", "--course", str(course.root)]) == 2
    assert "give --out DIR to write the sample class, or --scores" in capsys.readouterr().err
    assert main(["samples", "--only", "nobody", "--out", "x", "--course", str(course.root)]) == 2
    assert capsys.readouterr().err == "autograder: --only: no sample nobody\n"
