"""Hidden tests for `causal_mask`."""

import numpy as np
import pytest

from autograder.checks import assert_close, assert_raises

pytestmark = pytest.mark.part("mask")


@pytest.mark.points(3)
def test_random_lengths(student, rng):
    """the lower triangle, diagonal included, at random lengths"""
    for _ in range(3):
        T = int(rng.integers(1, 41))
        mask = student.causal_mask(T)
        assert_close(
            np.asarray(mask, dtype=float), np.tril(np.ones((T, T))), what=f"causal_mask({T})"
        )


@pytest.mark.points(1)
def test_numpy_integers(student):
    """a NumPy integer is a count too"""
    assert_close(
        np.asarray(student.causal_mask(np.int64(4)), dtype=float), np.tril(np.ones((4, 4))),
        what="causal_mask(np.int64(4))",
    )  # fmt: skip


@pytest.mark.points(1)
def test_more_invalid_counts(student):
    """negative, fractional and missing counts are not counts: ValueError naming T"""
    for T in (-3, 4.0, None):
        assert_raises(ValueError, student.causal_mask, T, what=f"causal_mask({T!r})", mentions="T")
