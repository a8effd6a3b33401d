"""Functions that keep their inputs lose the mutation points whichever call form modified an
argument, through the real grading path; a visible test never learns of a hidden test's call.
(The assignment's independent corpus is graded by `validate`, in the course tests.)
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from autograder.authoring.solutions import solution_source
from autograder.course.assignment import Assignment
from autograder.grading.results import SubmissionResult
from autograder.grading.runners import RunnerPool

OVERWRITES_X_WITHOUT_WEIGHTS = """
def self_attention(X, W_q=None, W_k=None, W_v=None):
    if W_q is None and W_k is None and W_v is None:
        scores = X @ np.swapaxes(X, -1, -2) / np.sqrt(X.shape[-1])
        X[...] = softmax(scores) @ X  # the lessons' call self_attention(X) loses X
        return X
    Q = X if W_q is None else X @ W_q
    K = X if W_k is None else X @ W_k
    V = X if W_v is None else X @ W_v
    return softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])) @ V
"""

OVERWRITES_BATCHES_WITH_WEIGHTS = """
def self_attention(X, W_q=None, W_k=None, W_v=None):
    Q = X if W_q is None else X @ W_q
    K = X if W_k is None else X @ W_k
    V = X if W_v is None else X @ W_v
    out = softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])) @ V
    if X.ndim == 3 and W_v is not None and out.shape == X.shape:
        X[...] = out  # only a batch with weights: only hidden tests make that call
        return X
    return out
"""

SOFTMAX_IN_PLACE = """
def softmax(S, axis=-1):
    S -= np.max(S, axis=axis, keepdims=True)
    np.exp(S, out=S)
    S /= np.sum(S, axis=axis, keepdims=True)
    return S
"""


MUTATION_TESTS = ("test_inputs_are_not_modified", "test_inputs_left_alone")


@pytest.fixture(scope="module")
def graded(
    assignment: Assignment, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, SubmissionResult]]:
    """Each variant that modifies an input, graded once."""
    folder = tmp_path_factory.mktemp("variants")
    solution = solution_source(assignment.reference.read_text(encoding="utf-8"), origin="ref")
    sources = {"overwrites_x_without_weights": OVERWRITES_X_WITHOUT_WEIGHTS}
    sources |= {"softmax_in_place": SOFTMAX_IN_PLACE}
    sources |= {"overwrites_batches_with_weights": OVERWRITES_BATCHES_WITH_WEIGHTS}
    paths: dict[str, Path] = {}
    for name, source in sources.items():
        paths[name] = folder / f"{name}.py"
        paths[name].write_text(f"{solution}\n\n{source}", encoding="utf-8")
    with RunnerPool(assignment, size=2) as runners, ThreadPoolExecutor(2) as pool:
        results = dict(zip(paths, pool.map(runners.grade, paths.values()), strict=True))
    yield results


@pytest.mark.parametrize(
    ("variant", "hint"),
    [
        ("overwrites_x_without_weights", "the caller's X is overwritten"),
        ("softmax_in_place", "softmax normalises the caller's array in place"),
    ],
)
def test_a_modified_input_loses_the_mutation_points_whichever_call_did_it(
    variant: str, hint: str, graded: dict[str, SubmissionResult]
) -> None:
    result = graded[variant]
    lost = {t.nodeid.split("::")[-1]: t for t in result.tests if t.score < t.max_score}
    assert set(lost) == set(MUTATION_TESTS), sorted(lost)
    for test in lost.values():
        assert "modified" in (test.message or "")
        assert test.hint is not None and hint in test.hint


def test_a_visible_test_never_learns_of_a_hidden_tests_call(
    graded: dict[str, SubmissionResult],
) -> None:
    """Only a hidden test's call (a batch with weights) modifies X: the public mutation test,
    run by the worker of the visible tests, knows nothing of it and passes; the hidden mutation
    test, run by the hidden tests' worker, fails on it."""
    tests = {t.nodeid.split("::")[-1]: t for t in graded["overwrites_batches_with_weights"].tests}
    public = tests["test_inputs_are_not_modified"]
    assert public.score == public.max_score and public.status == "passed"
    hidden = tests["test_inputs_left_alone"]
    assert hidden.score == 0 and "self_attention modified the array" in (hidden.message or "")
