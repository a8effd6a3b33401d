"""Public tests for `masked_softmax` and `causal_self_attention`: the lessons' pair, masked."""

import numpy as np
import pytest
from shared.attention_by_hand import attention_by_hand

from autograder.checks import assert_close, assert_raises, assert_shape, assert_unchanged, printed

pytestmark = pytest.mark.part("masked")

RAVI_MEERA = np.array([[2.0, 0.0], [0.0, 2.0]])
LOWER = np.tril(np.ones((3, 3), dtype=bool))


@pytest.mark.points(2)
def test_masked_entries_get_weight_zero(student):
    """masked_softmax([[1, 2, 3]] * 3, lower triangle) is [[1, 0, 0], [0.269, 0.731, 0], …]"""
    S = np.array([[1.0, 2.0, 3.0]] * 3)
    weights = student.masked_softmax(S.copy(), LOWER.copy())
    assert_close(
        weights, [[1, 0, 0], [0.269, 0.731, 0], [0.09, 0.245, 0.665]],
        what="masked_softmax(S, lower triangle)", **printed(3),
    )  # fmt: skip
    assert_close(weights[LOWER == 0], np.zeros(3), what="the masked weights", rtol=0, atol=0)


@pytest.mark.points(2)
def test_large_scores_stay_finite(student):
    """scores of 1e4 give finite weights [[1, 0], [0.5, 0.5]]: the allowed maximum goes first
    (the masked 2e4 of row 0 counts for nothing)"""
    S = np.array([[1e4, 2e4], [1e4, 1e4]])
    with np.errstate(all="ignore"):
        weights = student.masked_softmax(S, np.tril(np.ones((2, 2), dtype=bool)))
    assert_close(weights, [[1.0, 0.0], [0.5, 0.5]], what="masked_softmax of 1e4 scores")


@pytest.mark.points(1)
def test_a_row_with_nothing_allowed_is_refused(student):
    """a row whose mask is all False raises ValueError: it has no softmax, never nan (whatever
    its scores: the mask alone decides)"""
    empty = np.array([[True, False], [False, False]])
    assert_raises(
        ValueError, student.masked_softmax, np.array([[0.5, -1.0], [2.0, 1.0]]), empty,
        what="masked_softmax with an empty row",
    )  # fmt: skip


@pytest.mark.points(3)
def test_ravi_meera_masked(student):
    """causal attention on Ravi, Meera: weights [[1, 0], [0.056, 0.944]]; Ravi keeps [2, 0];
    Meera is [0.112, 1.888]"""
    scores = RAVI_MEERA @ RAVI_MEERA.T / np.sqrt(2)
    weights = student.masked_softmax(scores, np.tril(np.ones((2, 2), dtype=bool)))
    assert_close(weights, [[1, 0], [0.056, 0.944]], what="the masked weights", **printed(3))
    out = student.causal_self_attention(RAVI_MEERA.copy())
    assert_close(out, [[2.0, 0.0], [0.112, 1.888]], what="causal_self_attention(X)", **printed(3))


@pytest.mark.points(2)
def test_random_sequence_matches_the_formula(student):
    """a (6, 4) sequence: row t is softmax over keys 0 … t of x_t·x_s/√d, times those rows"""
    X = np.random.default_rng(4).normal(size=(6, 4))
    assert_close(
        student.causal_self_attention(X.copy()),
        attention_by_hand(X, causal=True),
        what="causal_self_attention",
    )


@pytest.mark.points(2)
def test_batches_and_weights(student):
    """a batch (3, 5, 4) with W_q, W_k of width 2 and W_v of width 3: each sequence masked"""
    rng = np.random.default_rng(8)
    X = rng.normal(size=(3, 5, 4))
    W_q, W_k, W_v = rng.normal(size=(4, 2)), rng.normal(size=(4, 2)), rng.normal(size=(4, 3))
    out = assert_shape(
        student.causal_self_attention(X.copy(), W_q.copy(), W_k.copy(), W_v.copy()),
        (3, 5, 3), what="causal_self_attention(batch, W_q, W_k, W_v)",
    )  # fmt: skip
    for b in range(3):
        Q, K, V = X[b] @ W_q, X[b] @ W_k, X[b] @ W_v
        scores = Q @ K.T / np.sqrt(2) + np.where(np.tril(np.ones((5, 5))) > 0, 0, -np.inf)
        weights = np.exp(scores - scores.max(axis=1, keepdims=True))
        expected = weights / weights.sum(axis=1, keepdims=True) @ V
        assert_close(out[b], expected, what=f"sequence {b} of the batch")


@pytest.mark.points(1)
@pytest.mark.keeps_inputs("masked_softmax", "causal_self_attention")
def test_inputs_are_not_modified(student):
    """causal_self_attention and masked_softmax are right and leave their arguments alone"""
    X = np.random.default_rng(2).normal(size=(4, 3))
    X_before = X.copy()
    out = student.causal_self_attention(X)
    assert_unchanged(X_before, X, what="causal_self_attention(X)")
    assert_close(out, attention_by_hand(X_before, causal=True), what="causal_self_attention(X)")
    S, M = np.array([[3.0, 1.0], [0.5, 2.0]]), np.tril(np.ones((2, 2), dtype=bool))
    weights = student.masked_softmax(S, M)
    assert_unchanged(np.array([[3.0, 1.0], [0.5, 2.0]]), S, what="masked_softmax(S, mask)")
    assert_close(weights[1], np.exp([0.5, 2.0]) / np.exp([0.5, 2.0]).sum(), what="row 1")
