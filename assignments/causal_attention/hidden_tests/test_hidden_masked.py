"""Hidden tests for `masked_softmax` and `causal_self_attention`: random inputs, weights, 1e4."""

import numpy as np
import pytest

from autograder.checks import assert_close, assert_raises

pytestmark = pytest.mark.part("masked")


@pytest.mark.points(3)
def test_random_masks(student, reference, tolerance, rng):
    """random scores and random masks with at least one allowed key per row, both axes"""
    S = rng.normal(size=(5, 6)) * 3
    mask = rng.random((5, 6)) < 0.5
    mask[np.arange(5), rng.integers(0, 6, size=5)] = True
    assert_close(
        student.masked_softmax(S.copy(), mask.copy()), reference.masked_softmax(S, mask),
        what="masked_softmax(S, random mask)", **tolerance,
    )  # fmt: skip
    far_below = np.array([[-3e4, 5.0, -2e4]])  # every allowed score far below a -1e4 fill
    assert_close(
        student.masked_softmax(far_below.copy(), np.array([[True, False, True]])),
        [[0.0, 0.0, 1.0]], what="masked_softmax([[-3e4, 5, -2e4]], [[1, 0, 1]])", **tolerance,
    )  # fmt: skip
    mask_t = mask.T.copy()
    assert_close(
        student.masked_softmax(S.T.copy(), mask_t, axis=0),
        reference.masked_softmax(S.T, mask_t, axis=0),
        what="masked_softmax(S, mask, axis=0)", **tolerance,
    )  # fmt: skip


@pytest.mark.points(3)
def test_random_sequences(student, reference, tolerance, rng):
    """causal attention at random (T, d)"""
    for _ in range(3):
        X = rng.normal(size=(int(rng.integers(1, 9)), int(rng.integers(1, 6))))
        assert_close(
            student.causal_self_attention(X.copy()), reference.causal_self_attention(X),
            what=f"causal_self_attention(X {X.shape})", **tolerance,
        )  # fmt: skip


@pytest.mark.points(3)
def test_random_batches_with_weights(student, reference, tolerance, rng):
    """a batch, with weights of other widths; W_v alone"""
    X = rng.normal(size=(4, 6, 5))
    W_q, W_k, W_v = rng.normal(size=(5, 3)), rng.normal(size=(5, 3)), rng.normal(size=(5, 2))
    assert_close(
        student.causal_self_attention(X.copy(), W_q.copy(), W_k.copy(), W_v.copy()),
        reference.causal_self_attention(X, W_q, W_k, W_v), what="causal_self_attention(batch, W…)",
        **tolerance,
    )  # fmt: skip
    assert_close(
        student.causal_self_attention(X.copy(), W_v=W_v.copy()),
        reference.causal_self_attention(X, None, None, W_v),
        what="causal_self_attention(batch, W_v=…)",
        **tolerance,
    )  # fmt: skip


@pytest.mark.points(2)
def test_large_scores(student, reference, tolerance, rng):
    """entries of large magnitude give finite, right outputs (a token half as long as an
    earlier one in its direction attends to that one, not to itself; a later token twice as
    long as the first would draw the first one's attention, were it not masked)"""
    X = rng.normal(size=(5, 3)) * 1e4
    X[1], X[2] = X[0] / 2, X[0] * 2
    with np.errstate(all="ignore"):
        actual = student.causal_self_attention(X.copy())
    assert_close(
        actual,
        reference.causal_self_attention(X),
        what="causal_self_attention(X * 1e4)",
        **tolerance,
    )


@pytest.mark.points(1)
@pytest.mark.keeps_inputs("masked_softmax", "causal_self_attention")
def test_inputs_left_alone(student, reference, tolerance, rng):
    """a batched call with weights is right; no call of any test modified its arguments"""
    X, W = rng.normal(size=(2, 4, 3)), rng.normal(size=(3, 3))
    out = student.causal_self_attention(X, W, W, W)
    assert_close(
        out, reference.causal_self_attention(X, W, W, W), what="causal_self_attention", **tolerance
    )
    empty = np.zeros((2, 3), dtype=bool)
    assert_raises(
        ValueError,
        student.masked_softmax,
        np.zeros((2, 3)),
        empty,
        what="masked_softmax, no key allowed",
    )
