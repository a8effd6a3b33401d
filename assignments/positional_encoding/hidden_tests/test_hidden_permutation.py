"""Hidden tests for `permutation_matrix` and equivariance with weights."""

import numpy as np
import pytest

from autograder.checks import assert_close, assert_raises, assert_shape

pytestmark = pytest.mark.part("permutation")


@pytest.mark.points(1)
def test_random_permutations(student, reference, tolerance, rng):
    """random orderings of many items"""
    for _ in range(4):
        perm = [int(p) for p in rng.permutation(int(rng.integers(2, 13)))]
        assert_close(
            student.permutation_matrix(perm),
            reference.permutation_matrix(perm),
            what=f"permutation_matrix({perm})",
            **tolerance,
        )


@pytest.mark.points(1)
def test_identity_and_single_item(student, tolerance):
    """the identity ordering gives I; a single item, the unit matrix; a swap, the rows swapped"""
    assert_close(
        student.permutation_matrix([0, 1, 2, 3]),
        np.eye(4),
        what="permutation_matrix([0, 1, 2, 3])",
        **tolerance,
    )
    assert_close(
        student.permutation_matrix([0]), np.eye(1), what="permutation_matrix([0])", **tolerance
    )
    assert_close(
        student.permutation_matrix([1, 0]),
        [[0.0, 1.0], [1.0, 0.0]],
        what="permutation_matrix([1, 0])",
        **tolerance,
    )


@pytest.mark.points(1)
def test_rejects_more_non_permutations(student):
    """repeats, gaps, negatives, too-large entries and entries that are not integers raise
    ValueError"""
    for perm in ([1, 1], [0, 1, 3], [-1, 0], [2, 0, 5], [0, 1, 1, 2], [0.5, 1.5]):
        assert_raises(
            ValueError, student.permutation_matrix, perm, what=f"permutation_matrix({perm})"
        )


@pytest.mark.points(1)
def test_equivariance_with_weights(student, reference, tolerance, rng):
    """Attention(P X) = P · Attention(X), also with W_q, W_k, W_v (both sides right)"""
    X = rng.normal(size=(7, 4))
    W_q, W_k, W_v = (rng.normal(size=(4, 4)) for _ in range(3))
    perm = [int(p) for p in rng.permutation(7)]
    P = assert_shape(student.permutation_matrix(perm), (7, 7), what=f"permutation_matrix({perm})")
    assert_close(P, reference.permutation_matrix(perm), what=f"permutation_matrix({perm})")
    plain = student.self_attention(X.copy(), W_q.copy(), W_k.copy(), W_v.copy())
    expected = reference.self_attention(X, W_q, W_k, W_v)
    assert_close(plain, expected, what="self_attention(X, W…)", **tolerance)
    permuted = student.self_attention(P @ X, W_q.copy(), W_k.copy(), W_v.copy())
    assert_close(permuted, P @ plain, what="self_attention(P @ X, W…)", **tolerance)


@pytest.mark.points(1)
def test_accepts_tuples_and_arrays(student, tolerance):
    """a tuple or a NumPy array of integers is a permutation too"""
    expected = np.eye(3)[[2, 0, 1]]
    assert_close(
        student.permutation_matrix((2, 0, 1)),
        expected,
        what="permutation_matrix((2, 0, 1))",
        **tolerance,
    )
    assert_close(
        student.permutation_matrix(np.array([2, 0, 1])),
        expected,
        what="permutation_matrix(np.array([2, 0, 1]))",
        **tolerance,
    )
