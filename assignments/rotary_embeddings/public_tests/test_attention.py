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


def rope_by_hand(X, positions):
    """Interleaved RoPE with base 10000, each pair of row t turned by positions[t]·θ_i: the
    tests' own oracle (attention without any rotation has the invariances too: each test
    checks a value)."""
    angles = np.outer(positions, 10000.0 ** (-np.arange(0, X.shape[-1], 2) / X.shape[-1]))
    out = np.empty_like(X, dtype=np.float64)
    out[:, 0::2] = X[:, 0::2] * np.cos(angles) - X[:, 1::2] * np.sin(angles)
    out[:, 1::2] = X[:, 0::2] * np.sin(angles) + X[:, 1::2] * np.cos(angles)
    return out


def attention_of(Q, K, V):
    scores = Q @ K.T / np.sqrt(Q.shape[-1])
    weighting = np.exp(scores - scores.max(axis=1, keepdims=True))
    return weighting / weighting.sum(axis=1, keepdims=True) @ V


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
    for a (5, 4) X at positions 0 … 4: the values keep no position; with a W_v of width 3 too
    (d_k is the width of Q and K, 4)"""
    X = np.random.default_rng(1).normal(size=(5, 4))
    W_q, W_k, W_v = weights(2)
    Q, K = rope_by_hand(X @ W_q, range(5)), rope_by_hand(X @ W_k, range(5))
    assert_close(
        student.rope_attention(X.copy(), W_q, W_k, W_v), attention_of(Q, K, X @ W_v),
        what="rope_attention(X, W_q, W_k, W_v) against softmax(rope(Q) rope(K)ᵀ/√4) X W_v",
    )  # fmt: skip
    narrow = np.random.default_rng(4).normal(size=(4, 3))
    assert_close(
        student.rope_attention(X.copy(), W_q, W_k, narrow), attention_of(Q, K, X @ narrow),
        what="rope_attention(X, W_q, W_k, W_v) with a (4, 3) W_v: still softmax(…/√4)",
    )  # fmt: skip


@pytest.mark.points(4)
def test_shifting_every_position_changes_nothing(student):
    """positions 0 … 5 shifted by 7 and by 1000 give rope_attention's output again (attention
    of Q and K rotated at the shifted positions, by hand); the absolute sinusoidal encoding
    (X + PE) changes its output under the same shifts"""
    X = np.random.default_rng(3).normal(size=(6, 4))
    W_q, W_k, W_v = weights(4)
    out = student.rope_attention(X.copy(), W_q, W_k, W_v)
    for s in SHIFTS:
        shifted = np.arange(6) + s
        Q, K = rope_by_hand(X @ W_q, shifted), rope_by_hand(X @ W_k, shifted)
        moved = attention_of(Q, K, X @ W_v)
        assert_close(out, moved, what=f"rope_attention against attention at positions + {s}")
        absolute = [
            attention_by_hand(X + sinusoidal(p, 4), W_q, W_k, W_v) for p in (shifted - s, shifted)
        ]
        if np.allclose(*absolute):
            raise CheckFailure("the sinusoidal comparison did not move: the test is wrong")


@pytest.mark.points(1)
def test_large_scores_stay_finite(student):
    """X = 100·[[1, 0], [0, 1], [1, 0]] with W_q = I, W_k = −I, W_v = I: scores of about 7e3
    give finite weights, one-hot: the output is [[0, 100], [100, 0], [100, 0]] (without the
    rotation the last row would be [0, 100])"""
    X = 100 * np.array([[1.0, 0], [0, 1], [1, 0]])
    with np.errstate(all="ignore"):
        out = student.rope_attention(X.copy(), np.eye(2), -np.eye(2), np.eye(2))
    assert_close(
        out, [[0, 100], [100, 0], [100, 0]], what="rope_attention(X, I, −I, I)", **printed(3)
    )


@pytest.mark.points(3)
def test_long_range_decay(student):
    """RoFormer §3.4.3, C = 128: the relative upper bound at distances 0, 1, 10, 100, 250 is
    32.5, 31.538, 17.954, 10.227, 6.548"""
    assert_close(
        student.rope_decay_bound(np.array([0, 1, 10, 100, 250]), 128),
        [32.5, 31.538, 17.954, 10.227, 6.548],
        what="rope_decay_bound([0, 1, 10, 100, 250], 128)", **printed(3),
    )  # fmt: skip
