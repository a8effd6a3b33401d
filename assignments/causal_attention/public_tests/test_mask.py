"""Public tests for `causal_mask`: the lower triangle, diagonal included."""

import numpy as np
import pytest

from autograder.checks import CheckFailure, assert_close, assert_raises, assert_shape

pytestmark = pytest.mark.part("mask")


def mask(student, T: int) -> np.ndarray:
    M = assert_shape(student.causal_mask(T), (T, T), what=f"causal_mask({T})")
    if M.dtype != bool:
        raise CheckFailure(f"causal_mask({T}) should be a boolean array; yours has dtype {M.dtype}")
    return M


@pytest.mark.points(3)
def test_three_tokens(student):
    """causal_mask(3) is [[1, 0, 0], [1, 1, 0], [1, 1, 1]]: row t allows keys 0 … t"""
    M = mask(student, 3)
    assert_close(M.astype(float), [[1, 0, 0], [1, 1, 0], [1, 1, 1]], what="causal_mask(3)")


@pytest.mark.points(3)
def test_every_query_sees_itself_and_the_past(student):
    """for T = 6: row t has exactly t + 1 allowed keys, the first t + 1"""
    M = mask(student, 6)
    assert_close(M.sum(axis=1).astype(float), np.arange(1, 7.0), what="allowed keys per row")
    assert_close(M.astype(float), np.tril(np.ones((6, 6))), what="causal_mask(6)")


@pytest.mark.points(2)
def test_one_and_zero_tokens(student):
    """causal_mask(1) is [[True]]; causal_mask(0) is an empty (0, 0) array; (4, 4) is right"""
    assert_close(mask(student, 1).astype(float), [[1.0]], what="causal_mask(1)")
    mask(student, 0)
    assert_close(mask(student, 4).astype(float), np.tril(np.ones((4, 4))), what="causal_mask(4)")


@pytest.mark.points(0.5)
@pytest.mark.parametrize("T", [-1, 2.5, True, "4"], ids=repr)
def test_invalid_counts(student, T):
    """a T that is not an integer >= 0 raises ValueError naming T"""
    assert_raises(ValueError, student.causal_mask, T, what=f"causal_mask({T!r})", mentions="T")
