"""Hidden tests for `rope_attention` and `rope_decay_bound`: random sizes, batches, 1e4."""

import numpy as np
import pytest

from autograder.checks import assert_close

pytestmark = pytest.mark.part("attention")


@pytest.mark.points(4)
def test_random_sequences(student, reference, tolerance, rng):
    """rope_attention at random (T, C), widths d_k and weights"""
    for _ in range(3):
        T, C, d = int(rng.integers(1, 8)), int(rng.integers(2, 6)), 2 * int(rng.integers(1, 4))
        X = rng.normal(size=(T, C))
        W_q, W_k, W_v = (rng.normal(size=(C, d)) for _ in range(3))
        assert_close(
            student.rope_attention(X.copy(), W_q.copy(), W_k.copy(), W_v.copy()),
            reference.rope_attention(X, W_q, W_k, W_v),
            what="rope_attention(X, W_q, W_k, W_v)", **tolerance,
        )  # fmt: skip


@pytest.mark.points(3)
def test_random_batch_and_base(student, reference, tolerance, rng):
    """rope_attention of a random (B, T, C) batch with another base"""
    X = rng.normal(size=(2, 5, 4))
    W_q, W_k, W_v = (rng.normal(size=(4, 4)) for _ in range(3))
    assert_close(
        student.rope_attention(X.copy(), W_q, W_k, W_v, base=100.0),
        reference.rope_attention(X, W_q, W_k, W_v, base=100.0),
        what="rope_attention(batch, W_q, W_k, W_v, base)", **tolerance,
    )  # fmt: skip


@pytest.mark.points(2)
def test_large_scores(student, reference, tolerance, rng):
    """scores far beyond exp's range give the reference's finite weights"""
    X = rng.normal(size=(4, 4)) * 60
    eye = np.eye(4)
    with np.errstate(all="ignore"):
        out = student.rope_attention(X.copy(), eye, eye, eye)
    assert_close(
        out, reference.rope_attention(X, eye, eye, eye), what="rope_attention", **tolerance
    )


@pytest.mark.points(2)
def test_random_decay_bounds(student, reference, tolerance, rng):
    """rope_decay_bound at random distances, widths and bases"""
    distances = rng.integers(0, 500, size=6)
    for C, base in ((64, 10000.0), (32, 500.0)):
        assert_close(
            student.rope_decay_bound(distances.copy(), C, base=base),
            reference.rope_decay_bound(distances, C, base=base),
            what="rope_decay_bound(distances, C, base)", **tolerance,
        )  # fmt: skip
