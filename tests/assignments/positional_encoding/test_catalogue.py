"""The assignment's catalogue: diagnosis names its mistakes, validate proves each is caught."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
import sympy as sp

from autograder.authoring.validate import validate
from autograder.course.assignment import Assignment
from autograder.course.course import Course
from autograder.diagnosis.diagnose import Call, Misconception, describe, diagnose


@pytest.fixture(scope="module")
def catalogue(assignment: Assignment) -> tuple[Misconception, ...]:
    return assignment.load_catalogue()


def by_name(catalogue: tuple[Misconception, ...], *names: str) -> list[Misconception]:
    return [m for m in catalogue if m.name in names]


def test_a_matching_variant_is_named(
    catalogue: tuple[Misconception, ...], reference: ModuleType
) -> None:
    swapped = reference.sinusoidal_encoding(4, 6)[:, [1, 0, 3, 2, 5, 4]]
    found = diagnose([Call("sinusoidal_encoding", (4, 6), {}, swapped)], catalogue, reference)
    assert [m.name for m in found] == ["sin_cos_swapped"]
    assert describe(found) == f"{found[0].target}: {found[0].summary}: {found[0].hint}"


def test_a_correct_answer_is_never_diagnosed(
    catalogue: tuple[Misconception, ...], reference: ModuleType
) -> None:
    calls = [
        Call("sinusoidal_encoding", (5, 8), {}, reference.sinusoidal_encoding(5, 8)),
        Call("rotation_matrix", (3, 0.1), {}, reference.rotation_matrix(3, 0.1)),
    ]
    assert diagnose(calls, catalogue, reference) == []


def test_variants_with_the_same_numbers_share_a_hint(
    catalogue: tuple[Misconception, ...], reference: ModuleType
) -> None:
    transposed = reference.rotation_matrix(3, 0.1).T
    found = diagnose([Call("rotation_matrix", (3, 0.1), {}, transposed)], catalogue, reference)
    assert {m.name for m in found} == {"transposed_rotation", "cos_sin_order"}
    hint = describe(found) or ""
    assert hint.startswith(f"{found[0].target}: your results match 2 known mistakes")


def test_a_mistake_shows_through_the_functions_that_use_it(
    catalogue: tuple[Misconception, ...], reference: ModuleType
) -> None:
    M = reference.shift_matrix(2, 6)
    wrong = np.where(np.eye(6, k=1) + np.eye(6, k=-1) > 0, -M, M)  # every block transposed
    found = diagnose([Call("shift_matrix", (2, 6), {}, wrong)], catalogue, reference)
    assert {m.name for m in found} == {"transposed_rotation", "cos_sin_order"}


def test_mutation_constants_and_symbols(
    catalogue: tuple[Misconception, ...], reference: ModuleType
) -> None:
    X = np.eye(3)
    mutated = Call("self_attention", (X,), {}, reference.self_attention(X), modified=(0,))
    assert [m.name for m in diagnose([mutated], catalogue, reference)] == ["overwrites_input"]
    (forgot,) = by_name(catalogue, "forgot_pt_p")
    constant = Call("PERMUTATION_PROOF", (), {}, [tuple(step) for step in forgot.value])
    assert [m.name for m in diagnose([constant], catalogue, reference)] == ["forgot_pt_p"]
    pos, k, w = sp.symbols("pos k w", real=True)
    unsimplified = Call(
        "relative_dot",
        (pos, k, w),
        {},
        sp.sin(w * pos) * sp.sin(w * (pos + k)) + sp.cos(w * pos) * sp.cos(w * (pos + k)),
    )
    assert [m.name for m in diagnose([unsimplified], catalogue, reference)] == [
        "dot_not_simplified"
    ]


def test_validate_names_a_variant_no_test_catches_any_more(
    assignment: Assignment, tmp_path: Path, course_copier: Callable[[Path, Path], Course]
) -> None:
    """Neuter the only two tests that catch an overwritten input (keeping their points)."""
    copied = course_copier(tmp_path, assignment.course.root).assignment(assignment.name)
    for folder, name in (
        ("public_tests", "test_attention.py"),
        ("hidden_tests", "test_hidden_attention.py"),
    ):
        path = copied.folder / folder / name
        marker = '@pytest.mark.keeps_inputs("self_attention", "softmax")\n'
        text = path.read_text().replace(marker, "")
        for test in ("test_inputs_are_not_modified", "test_inputs_left_alone"):
            neutered = f"def {test}(student, *_, **__):\n    student.softmax(np.zeros((1, 1)))\n"
            text = text.replace(f"def {test}(", f"{neutered}\n\ndef _old_{test}(")
        path.write_text(text)
    rubric = copied.course.rubric.path  # and let both modify their inputs elsewhere
    text, count = re.subn(
        r"^may_modify_inputs = \[\]", 'may_modify_inputs = ["self_attention", "softmax"]',
        rubric.read_text(), count=1, flags=re.M,
    )  # fmt: skip
    assert count == 1
    rubric.write_text(text)
    copied = Course.load(copied.course.root).assignment(assignment.name)
    (verdict,) = validate(copied, only=["overwrites_input"])
    assert verdict.name == "variant: overwrites_input"
    assert not verdict.ok and verdict.problem == "lost nothing in attention: no test catches it"
    assert verdict.score == 100


def test_symmetric_scores_cannot_tell_the_axis_from_transposed_weights(
    catalogue: tuple[Misconception, ...], reference: ModuleType
) -> None:
    """With W_q = W_k the scores are symmetric: weights applied transposed give exactly the
    numbers of a softmax over the wrong axis, so the hint names both; a call with W_q ≠ W_k,
    anywhere in the submission, rules the wrong axis out."""
    from autograder.diagnosis.diagnose import contradicted, variant_namespace

    rng = np.random.default_rng(3)
    X, W, W_k = rng.normal(size=(5, 3)), rng.normal(size=(3, 3)), rng.normal(size=(3, 3))

    def transposed(*args: np.ndarray) -> np.ndarray:
        Q, K, V = (X @ w for w in args)
        weights = reference.softmax(Q @ K.T / np.sqrt(Q.shape[-1]))
        return weights.T @ V

    symmetric = Call("self_attention", (X, W, W, W), {}, transposed(W, W, W))
    found = diagnose([symmetric], catalogue, reference)
    assert {m.name for m in found} == {"softmax_wrong_axis", "weights_transposed"}
    hint = describe(found) or ""
    assert hint.startswith(f"{found[0].target}: your results match 2 known mistakes")
    telling = Call("self_attention", (X, W, W_k, W), {}, transposed(W, W_k, W))
    (wrong_axis,) = by_name(catalogue, "softmax_wrong_axis")
    (weights_transposed,) = by_name(catalogue, "weights_transposed")
    history = [symmetric, telling]
    assert contradicted(wrong_axis, history, reference, variant_namespace(wrong_axis, reference))
    assert not contradicted(
        weights_transposed, history, reference, variant_namespace(weights_transposed, reference)
    )
