"""Hidden tests for `softmax` and `self_attention`: random inputs, weights, batches, 1e4."""

import numpy as np
import pytest

from autograder.checks import assert_close, assert_unchanged

pytestmark = pytest.mark.part("attention")


@pytest.mark.points(3)
def test_random_inputs(student, reference, tolerance, rng):
    """softmax(X Xᵀ / √d) X at random (T, d)"""
    for _ in range(4):
        X = rng.normal(size=(int(rng.integers(1, 9)), int(rng.integers(1, 7))))
        assert_close(
            student.self_attention(X.copy()),
            reference.self_attention(X),
            what=f"self_attention(X {X.shape})",
            **tolerance,
        )


@pytest.mark.points(3)
def test_random_weights(student, reference, tolerance, rng):
    """with W_q, W_k, W_v of another width: d_k is the width of Q, V may be wider"""
    X = rng.normal(size=(6, 5))
    W_q, W_k, W_v = rng.normal(size=(5, 3)), rng.normal(size=(5, 3)), rng.normal(size=(5, 7))
    expected = reference.self_attention(X, W_q, W_k, W_v)
    assert_close(
        student.self_attention(X.copy(), W_q.copy(), W_k.copy(), W_v.copy()),
        expected,
        what="self_attention(X, W_q, W_k, W_v)",
        **tolerance,
    )
    only_v = reference.self_attention(X, None, None, W_v)
    assert_close(
        student.self_attention(X.copy(), W_v=W_v.copy()),
        only_v,
        what="self_attention(X, W_v=W_v)",
        **tolerance,
    )


@pytest.mark.points(2)
def test_random_batches(student, reference, tolerance, rng):
    """a batch (B, T, d), with and without weights"""
    batch = rng.normal(size=(4, 5, 3))
    W = rng.normal(size=(3, 3))
    assert_close(
        student.self_attention(batch.copy()),
        reference.self_attention(batch),
        what="self_attention(batch)",
        **tolerance,
    )
    assert_close(
        student.self_attention(batch.copy(), W.copy(), W.copy(), W.copy()),
        reference.self_attention(batch, W, W, W),
        what="self_attention(batch, W, W, W)",
        **tolerance,
    )


@pytest.mark.points(2)
def test_large_magnitudes(student, reference, tolerance, rng):
    """entries of large magnitude give finite, correct outputs"""
    X = rng.normal(size=(5, 4)) * 1e4
    with np.errstate(all="ignore"):
        actual = student.self_attention(X.copy())
    assert_close(actual, reference.self_attention(X), what="self_attention(X * 1e4)", **tolerance)


@pytest.mark.points(2)
def test_softmax_axes(student, reference, tolerance, rng):
    """softmax along the last axis by default, along the first when asked, on cubes of scores too"""
    S = rng.normal(size=(3, 4, 5)) * 3
    assert_close(
        student.softmax(S.copy()),
        reference.softmax(S),
        what="softmax(S) for S (3, 4, 5)",
        **tolerance,
    )
    assert_close(
        student.softmax(S.copy(), axis=0),
        reference.softmax(S, axis=0),
        what="softmax(S, axis=0)",
        **tolerance,
    )


@pytest.mark.points(1)
def test_softmax_large_scores(student, reference, tolerance, rng):
    """large scores of either sign in random places"""
    S = rng.choice([-1e4, 0.0, 1e4], size=(4, 6))
    with np.errstate(all="ignore"):
        actual = student.softmax(S.copy())
    assert_close(actual, reference.softmax(S), what="softmax(S) with ±1e4 scores", **tolerance)


@pytest.mark.points(1)
@pytest.mark.keeps_inputs("self_attention", "softmax")
def test_inputs_left_alone(student, reference, tolerance, rng):
    """a batched call with weights is right; no call of any test modified X, weights or S"""
    X, W = rng.normal(size=(2, 3, 4)), rng.normal(size=(4, 4))
    X_sent, W_sent = X.copy(), W.copy()
    out = student.self_attention(X, W, W, W)
    assert_unchanged(X_sent, X, what="self_attention")
    assert_unchanged(W_sent, W, what="self_attention")
    expected = reference.self_attention(X_sent, W_sent, W_sent, W_sent)
    assert_close(out, expected, what="self_attention(batch, W, W, W)", **tolerance)


@pytest.mark.points(1)
def test_single_token(student, reference, tolerance, rng):
    """a single token attends only to itself: the output is X (and two tokens mix rightly)"""
    X = rng.normal(size=(1, 6))
    assert_close(
        student.self_attention(X.copy()), X, what="self_attention(X) for one token", **tolerance
    )
    pair = rng.normal(size=(2, 6))
    assert_close(
        student.self_attention(pair.copy()),
        reference.self_attention(pair),
        what="self_attention(X) for two tokens",
        **tolerance,
    )
