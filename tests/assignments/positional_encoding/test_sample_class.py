"""Grade the bundled sample class end to end, through the real sandboxed path.

Expected scores come from the rubric: each part's points minus the tests the sample's mistake
breaks (the reasoning is beside each entry). Hostile samples must cost bounded time, earn what
their honest parts earn, leave no process and no trace, and learn nothing of the grader's files.
"""

from __future__ import annotations

import re

import pytest

from autograder.course.assignment import Assignment
from autograder.course.rubric import AssignmentSpec
from autograder.grading.results import SubmissionResult

ALL_PARTS = {"encoding", "attention", "rotation", "symbolic", "permutation"}

EXPECTED: dict[str, tuple[float, set[str]]] = {
    "correct_vectorised": (100, set()),
    "correct_loops": (100, set()),
    "correct_float32": (100, set()),
    "correct_scipy": (100, set()),
    # Every shape, prefix or property test checks values too, so a wrong encoding keeps only
    # what its values really get right.
    # Swapping sin and cos within each pair keeps the bounds, the argument errors, and every
    # distance and dot product (sin·sin + cos·cos is symmetric): 7/30
    "bug_sin_cos_swapped": (77, {"encoding"}),
    # i instead of 2i leaves pair 0 alone (row 0, X[0, :4]) and keeps the bounds and the
    # argument errors: 6/30
    "bug_exponent_i": (76, {"encoding"}),
    # halves instead of interleaving keeps distances and dot products (the columns are only
    # reordered), the bounds and the argument errors: 7/30
    "bug_concatenated_halves": (77, {"encoding"}),
    # without 1/√d: softmax's own tests (6) and the 1e4-magnitude tests (the softmax is one-hot
    # either way, 3) still pass: 9/25; Attention(PX) = P·Attention(X) is credited only with
    # right values (2.5 of permutation lost)
    "bug_no_sqrt_scaling": (81.5, {"attention", "permutation"}),
    # normalising over axis -2: softmax's own tests (6) and the Ravi/Meera example (its scores
    # are symmetric, 2) still pass: 8/25; and the same 2.5 of permutation
    "bug_softmax_wrong_axis": (80.5, {"attention", "permutation"}),
    # the transpose keeps only the refusal of an odd C: 2/15
    "bug_transposed_rotation": (87, {"rotation"}),
    "hostile_infinite_loop": (70, {"encoding"}),  # everything but the encoding is honest
    # self_attention never returns: 19 of attention (softmax stays) and 2.5 of permutation
    "hostile_memory_bomb": (78.5, {"attention", "permutation"}),
    "hostile_exit_at_import": (0, ALL_PARTS),
    "hostile_monkeypatch": (0, ALL_PARTS),  # patching numpy in the worker changes nothing here
    "hostile_eq_trick": (70, {"encoding"}),  # the object cannot cross the boundary
    "hostile_file_hunter": (100, set()),  # correct code; what it finds must be nothing secret
    "hostile_orphan": (100, set()),
    "hostile_socket": (100, set()),
}


def test_every_sample_is_expected(graded: dict[str, SubmissionResult]) -> None:
    assert set(graded) == set(EXPECTED)
    assert len(graded) >= 12


@pytest.mark.parametrize("sample", sorted(EXPECTED))
def test_score_and_parts_lost(
    graded: dict[str, SubmissionResult], sample: str, spec: AssignmentSpec
) -> None:
    result = graded[sample]
    score, parts_lost = EXPECTED[sample]
    assert result.status == "graded"
    assert result.score == pytest.approx(score), [
        t.name for t in result.tests if t.status != "passed"
    ]
    assert {t.part for t in result.tests if t.score < t.max_score} == parts_lost
    assert result.max_score == 100
    assert result.duration_s <= spec.limits.submission_timeout_s + 5


@pytest.mark.parametrize(
    ("sample", "fragment"),
    [
        ("bug_sin_cos_swapped", "are sin and cos swapped?"),
        ("bug_exponent_i", "the exponent is 2i/C, not i/C"),
        ("bug_concatenated_halves", "interleave them"),
        ("bug_no_sqrt_scaling", "not divided by √d"),
        ("bug_transposed_rotation", "your matrix is the transpose"),
        (
            "bug_softmax_wrong_axis",
            "self_attention(X) with entries of 1e4[0, 0] should be 10000; yours is",
        ),
    ],
)
def test_buggy_samples_say_where_expected_and_observed(
    graded: dict[str, SubmissionResult], sample: str, fragment: str
) -> None:
    messages = [t.message or "" for t in graded[sample].tests if t.status == "failed"]
    assert messages and all(
        re.search(r"should (be|have|raise|equal)|modified", m) for m in messages
    ), messages
    assert any("yours" in m for m in messages)
    assert any(fragment in m for m in messages), messages


def test_hostile_samples_get_clear_messages(graded: dict[str, SubmissionResult]) -> None:
    loop = [t.message for t in graded["hostile_infinite_loop"].tests if t.status == "timeout"]
    assert loop[0] is not None and re.search(
        r"sinusoidal_encoding\(.*\) did not return within 5 s", loop[0]
    )
    assert all("not called again" in m for m in loop[1:] if m), loop
    bomb = {t.message for t in graded["hostile_memory_bomb"].tests if t.status == "error"}
    assert any("MemoryError" in (m or "") for m in bomb), bomb
    exit_messages = {t.message for t in graded["hostile_exit_at_import"].tests}
    assert (
        len(exit_messages) == 1 and "while importing positional_encoding.py" in exit_messages.pop()
    )
    eq = [t.message or "" for t in graded["hostile_eq_trick"].tests if t.part == "encoding"]
    assert any("EqualToEverything object" in m and "cannot accept" in m for m in eq), eq


def test_isolation_layers_with_bubblewrap(graded: dict[str, SubmissionResult]) -> None:
    """CI installs bubblewrap; without it the secrecy and network tests below mean nothing."""
    layers = graded["correct_vectorised"].isolation
    assert "bwrap" in layers, "install bubblewrap (apt-get install bubblewrap) to run these tests"
    assert layers[:2] == ("process", "rlimits")


def test_file_hunter_finds_nothing_secret(
    graded: dict[str, SubmissionResult], assignment: Assignment, spec: AssignmentSpec
) -> None:
    result = graded["hostile_file_hunter"]
    assert "LOOT FILES:" in result.output  # it did run and look
    text = result.output  # everything the student's code printed, hence everything it found
    reference_lines = [
        line.strip()
        for line in assignment.reference.read_text(encoding="utf-8").splitlines()
        if len(line.strip()) > 40 and "def " not in line and '"""' not in line
    ]
    hidden = assignment.hidden_tests
    hidden_names = re.findall(
        r"def (test_\w+)", "".join(p.read_text() for p in hidden.glob("*.py"))
    )
    assert reference_lines and hidden_names
    leaked = [
        s
        for s in [*reference_lines, *hidden_names, f"seed = {spec.seed}", str(spec.seed)]
        if s in text
    ]
    assert leaked == []


def test_socket_cannot_reach_the_grader(graded: dict[str, SubmissionResult]) -> None:
    assert "SOCKET: failed" in graded["hostile_socket"].output


def test_printed_output_is_capped(
    graded: dict[str, SubmissionResult], spec: AssignmentSpec
) -> None:
    output = graded["hostile_file_hunter"].output
    assert len(output.encode()) <= spec.limits.output_kb * 1024 + 200


HINTED = {
    "bug_sin_cos_swapped": "sin and cos are swapped",
    "bug_exponent_i": "the exponent uses i instead of 2i",
    "bug_concatenated_halves": "all sines come first and all cosines after them",
    "bug_no_sqrt_scaling": "the scores are not scaled",
    "bug_softmax_wrong_axis": "the softmax runs over the wrong axis",
    "bug_transposed_rotation": "the rotation matrix is transposed",
}


@pytest.mark.parametrize("sample", sorted(HINTED))
def test_every_failure_names_the_misconception(
    graded: dict[str, SubmissionResult], sample: str
) -> None:
    failures = [t for t in graded[sample].tests if t.status == "failed"]
    assert failures
    unnamed = [t.name for t in failures if HINTED[sample] not in (t.hint or "")]
    assert unnamed == []


def test_correct_and_hostile_samples_get_no_misconception(
    graded: dict[str, SubmissionResult],
) -> None:
    for name in ("correct_loops", "correct_float32", "correct_scipy", "hostile_eq_trick"):
        assert [t.hint for t in graded[name].tests if t.hint] == [], name
