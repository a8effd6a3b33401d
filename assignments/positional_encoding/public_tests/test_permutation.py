"""Public tests for `permutation_matrix`, and attention's equivariance under permutations."""

import numpy as np
import pytest
from shared.attention_by_hand import attention_by_hand

from autograder.checks import CheckFailure, assert_close, assert_raises, assert_shape

pytestmark = pytest.mark.part("permutation")


@pytest.mark.points(2)
def test_permutation_matrix_reorders_rows(student):
    """(P @ X)[i] = X[perm[i]] for perm = [2, 0, 3, 1]"""
    P = assert_shape(
        student.permutation_matrix([2, 0, 3, 1]), (4, 4), what="permutation_matrix([2, 0, 3, 1])"
    )
    X = np.arange(8.0).reshape(4, 2)

    def transposed(_: np.ndarray) -> str | None:
        if np.allclose(P.T @ X, X[[2, 0, 3, 1]]):
            return "your P is the transpose: row i of P needs its single 1 in column perm[i]"
        return None

    assert_close(
        P @ X, X[[2, 0, 3, 1]], what="permutation_matrix([2, 0, 3, 1]) @ X", hints=(transposed,)
    )


@pytest.mark.points(0.5)
@pytest.mark.parametrize("perm", [[0, 0, 1], [1, 2, 3], [0, 2]], ids=str)
def test_rejects_non_permutations(student, perm):
    """a sequence that is not an ordering of range(n) raises ValueError"""
    assert_raises(ValueError, student.permutation_matrix, perm, what=f"permutation_matrix({perm})")


@pytest.mark.points(1)
def test_attention_is_permutation_equivariant(student):
    """Attention(P X) = P · Attention(X) for a random X and permutation (both sides right)"""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(6, 4))
    perm = [int(p) for p in rng.permutation(6)]
    P = assert_shape(student.permutation_matrix(perm), (6, 6), what=f"permutation_matrix({perm})")
    assert_close(P @ X, X[perm], what=f"permutation_matrix({perm}) @ X")
    plain = student.self_attention(X.copy())
    assert_close(plain, attention_by_hand(X), what="self_attention(X)")
    assert_close(student.self_attention(P @ X), P @ plain, what="self_attention(P @ X)")


@pytest.mark.points(0.5)
def test_positional_encoding_breaks_the_symmetry(student):
    """with PE added, reversing the tokens no longer just reverses the outputs (episode 04.04)"""
    X = np.random.default_rng(1).normal(size=(3, 8))
    P = student.permutation_matrix([2, 1, 0])
    angles = np.arange(3)[:, None] / 10000 ** (2 * (np.arange(8) // 2) / 8)
    PE = np.where(np.arange(8) % 2 == 0, np.sin(angles), np.cos(angles))  # the lessons' formula
    assert_close(P, np.eye(3)[[2, 1, 0]], what="permutation_matrix([2, 1, 0])")
    with_positions = student.self_attention(X + PE)
    assert_close(with_positions, attention_by_hand(X + PE), what="self_attention(X + PE)")
    plain = np.allclose(
        student.self_attention(P @ X), P @ student.self_attention(X.copy()), atol=1e-5
    )
    encoded = np.allclose(student.self_attention(P @ X + PE), P @ with_positions, atol=1e-5)
    if not plain:
        raise CheckFailure(
            "without positional encoding, reversing the tokens should just reverse the outputs"
        )
    if encoded:
        raise CheckFailure(
            "with positional encoding added, reversing the tokens still only reversed the outputs: "
            "self_attention(P @ X + PE) should differ from P @ self_attention(X + PE)"
        )
