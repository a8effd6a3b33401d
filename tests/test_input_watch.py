"""Functions that keep their inputs: every call of every test is watched, in the grader's
worker and in `autograder check` alike, and the marked test fails whichever call broke it."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from autograder.authoring.solutions import solution_source
from autograder.course.assignment import Assignment
from autograder.diagnosis.diagnose import Call
from autograder.grading.input_watch import argument_names, call_text
from autograder.grading.runners import grade_submission
from autograder.student.local_check import CheckTarget, run_check

MODIFIES_ON_ITS_FIRST_CALL_ONLY = """

_calls = [0]


def normalise(v):
    _calls[0] += 1
    norm = np.linalg.norm(v)
    if norm == 0:
        raise ValueError("the zero vector has no direction")
    if _calls[0] == 1:
        v /= norm  # only the first call (another test's) writes into the caller's array
        return v
    return np.asarray(v, dtype=np.float64) / norm
"""

MARKED = "normalise(v) is v / |v| and leaves v alone"


def write(assignment: Assignment, tmp_path: Path, extra: str) -> Path:
    source = solution_source(assignment.reference.read_text(encoding="utf-8"), origin="ref")
    path = tmp_path / assignment.spec.module
    path.write_text(source + extra, encoding="utf-8")
    return path


def test_the_grader_fails_the_marked_test_for_another_tests_call(
    assignment: Assignment, tmp_path: Path
) -> None:
    result = grade_submission(
        assignment, write(assignment, tmp_path, MODIFIES_ON_ITS_FIRST_CALL_ONLY)
    )
    lost = [t for t in result.tests if t.score < t.max_score]
    assert [t.name for t in lost] == [f"{MARKED}, here and in every other test's call"]
    (marked,) = lost
    assert "modified its argument v in place" in (marked.message or "")
    assert "divides the caller's array in place" in (marked.hint or "")  # the catalogue's


def test_check_watches_the_same_calls_in_the_students_process(
    assignment: Assignment, tmp_path: Path
) -> None:
    path = write(assignment, tmp_path, MODIFIES_ON_ITS_FIRST_CALL_ONLY)
    report = run_check(CheckTarget(submission=path, tests_dir=assignment.public_tests))
    failed = [o for o in report.outcomes if o.status != "passed"]
    assert [o.title.startswith(MARKED) for o in failed] == [True]
    message = failed[0].message or ""
    assert "normalise(<array (2,)>) in 'test_normalise' modified its argument v" in message


def test_the_marked_test_passes_when_no_call_modifies(
    assignment: Assignment, tmp_path: Path
) -> None:
    report = run_check(
        CheckTarget(submission=assignment.reference, tests_dir=assignment.public_tests)
    )
    assert report.all_passed


def test_arguments_are_named_by_the_signature_and_calls_briefly() -> None:
    import inspect

    def f(X, W_q=None, *, axis=-1):  # type: ignore[no-untyped-def]
        return X

    signature = inspect.signature(f)
    assert argument_names(signature, (0, 1, "axis")) == ("X", "W_q", "axis")
    assert argument_names(signature, (5,)) == ("number 6",)
    assert argument_names(None, (0, "x" * 100)) == ("number 1", "x" * 40)
    call = Call("f", (np.zeros((4, 3)),), {"axis": 0}, None, modified=(0,))
    assert call_text(call) == "f(<array (4, 3)>, axis=0)"
