"""Public tests for `rope_attention` and `rope_decay_bound`: what rotating Q and K keeps."""

import numpy as np
import pytest
from shared.attention_by_hand import attention_by_hand

from autograder.checks import CheckFailure, assert_close, printed

pytestmark = pytest.mark.part("attention")

SHIFTS = (7, 1000)


def weights(seed, C=4, d=4):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(C, d)), rng.normal(size=(C, d)), rng.normal(size=(C, d))


def sinusoidal(positions, C):
    """The first assignment's absolute encoding, for the comparison."""
    i = np.arange(C // 2)
    angles = np.outer(positions, 10000.0 ** (-2 * i / C))
    table = np.empty((len(positions), C))
    table[:, 0::2], table[:, 1::2] = np.sin(angles), np.cos(angles)
    return table


@pytest.mark.points(3)
def test_small_example(student):
    """rope_attention(X, I, I, I) on X = [[1, 0, 0, 1], [0, 1, 1, 0], [1, 1, 0, 0]] is
    [[0.831, 0.302, 0.169, 0.698], [0.494, 0.877, 0.506, 0.123], [0.618, 0.901, 0.382, 0.099]]"""
    X = np.array([[1.0, 0, 0, 1], [0, 1, 1, 0], [1, 1, 0, 0]])
    eye = np.eye(4)
    assert_close(
        student.rope_attention(X.copy(), eye.copy(), eye.copy(), eye.copy()),
        [[0.831, 0.302, 0.169, 0.698], [0.494, 0.877, 0.506, 0.123],
         [0.618, 0.901, 0.382, 0.099]],
        what="rope_attention(X, I, I, I)", **printed(3),
    )  # fmt: skip


@pytest.mark.points(3)
def test_values_are_not_rotated(student):
    """rope_attention(X, W_q, W_k, W_v) = attention of rope(X W_q), rope(X W_k) with V = X W_v,
    for a (5, 4) X: the values keep no position; with a W_v of width 3 too (d_k is the width
    of Q and K, 4)"""
    X = np.random.default_rng(1).normal(size=(5, 4))
    W_q, W_k, W_v = weights(2)
    Q, K = student.rope(X @ W_q), student.rope(X @ W_k)
    scores = Q @ K.T / 2.0
    weighting = np.exp(scores - scores.max(axis=1, keepdims=True))
    weighting = weighting / weighting.sum(axis=1, keepdims=True)
    assert_close(
        student.rope_attention(X.copy(), W_q, W_k, W_v), weighting @ (X @ W_v),
        what="rope_attention(X, W_q, W_k, W_v) against softmax(rope(Q) rope(K)ᵀ/√4) X W_v",
    )  # fmt: skip
    narrow = np.random.default_rng(4).normal(size=(4, 3))
    assert_close(
        student.rope_attention(X.copy(), W_q, W_k, narrow), weighting @ (X @ narrow),
        what="rope_attention(X, W_q, W_k, W_v) with a (4, 3) W_v: still softmax(…/√4)",
    )  # fmt: skip


@pytest.mark.points(4)
def test_shifting_every_position_changes_nothing(student):
    """positions 0 … 5 shifted by 7 and by 1000 give rope_attention's output again; the absolute
    sinusoidal encoding (X + PE) changes its output under the same shifts"""
    X = np.random.default_rng(3).normal(size=(6, 4))
    W_q, W_k, W_v = weights(4)
    out = student.rope_attention(X.copy(), W_q, W_k, W_v)
    for s in SHIFTS:
        shifted = np.arange(6) + s
        Q = student.rope(X @ W_q, positions=shifted.copy())
        K = student.rope(X @ W_k, positions=shifted.copy())
        scores = Q @ K.T / 2.0
        moved = np.exp(scores - scores.max(axis=1, keepdims=True))
        moved = moved / moved.sum(axis=1, keepdims=True) @ (X @ W_v)
        assert_close(moved, out, what=f"attention with every position shifted by {s}")
        absolute = [
            attention_by_hand(X + sinusoidal(p, 4), W_q, W_k, W_v) for p in (shifted - s, shifted)
        ]
        if np.allclose(*absolute):
            raise CheckFailure("the sinusoidal comparison did not move: the test is wrong")


@pytest.mark.points(1)
def test_large_scores_stay_finite(student):
    """X = 100·[[1, 0], [0, 1]] with I, I, I: scores of about 7e3 give finite weights, output ≈ X"""
    X = 100 * np.eye(2)
    with np.errstate(all="ignore"):
        out = student.rope_attention(X.copy(), np.eye(2), np.eye(2), np.eye(2))
    assert_close(out, X, what="rope_attention(100·I, I, I, I)", **printed(3))


@pytest.mark.points(3)
def test_long_range_decay(student):
    """RoFormer §3.4.3, C = 128: the relative upper bound at distances 0, 1, 10, 100, 250 is
    32.5, 31.538, 17.954, 10.227, 6.548"""
    assert_close(
        student.rope_decay_bound(np.array([0, 1, 10, 100, 250]), 128),
        [32.5, 31.538, 17.954, 10.227, 6.548],
        what="rope_decay_bound([0, 1, 10, 100, 250], 128)", **printed(3),
    )  # fmt: skip
