"""Public tests for `softmax` and `self_attention`: the Ravi/Meera example and the basic laws."""

import numpy as np
import pytest
from shared.attention_by_hand import attention_by_hand

from autograder.checks import CheckFailure, assert_close, assert_shape, assert_unchanged, printed

pytestmark = pytest.mark.part("attention")

RAVI_MEERA = np.array([[2.0, 0.0], [0.0, 2.0]])


def no_scaling(out: np.ndarray) -> str | None:
    if out.shape == (2, 2) and np.isclose(out[0, 0], 2 * np.exp(4) / (np.exp(4) + 1)):
        return "the scores were not divided by √d = √2 before the softmax"
    return None


def weights_not_values(out: np.ndarray) -> str | None:
    if out.shape == (2, 2) and np.allclose(out.sum(axis=-1), 1):
        return "each row sums to 1: you returned the attention weights; multiply them by V"
    return None


def overflowed(weights: np.ndarray) -> str | None:
    if np.isnan(weights).any():
        return "exp(1e4) overflows to inf and inf / inf is nan: subtract each row's maximum first"
    return None


@pytest.mark.points(1)
def test_ravi_meera_weights(student):
    """softmax of the scaled scores [[2.828, 0], [0, 2.828]] is [[0.944, 0.056], [0.056, 0.944]]"""
    scores = RAVI_MEERA @ RAVI_MEERA.T / np.sqrt(2)
    weights = student.softmax(scores)
    assert_close(weights, [[0.944, 0.056], [0.056, 0.944]], what="softmax(scores)", **printed(3))


@pytest.mark.points(2)
def test_ravi_meera_output(student):
    """self_attention([[2, 0], [0, 2]]) is [[1.888, 0.112], [0.112, 1.888]], as computed by hand"""
    out = student.self_attention(RAVI_MEERA.copy())
    assert_close(
        out, [[1.888, 0.112], [0.112, 1.888]], what="self_attention(X) for Ravi and Meera",
        **printed(3), hints=(no_scaling, weights_not_values),
    )  # fmt: skip


@pytest.mark.points(1)
def test_reversing_the_sentence_only_swaps_the_rows(student):
    """Meera first, Ravi second: each token's output vector is unchanged, only its row moves"""
    forward = assert_shape(
        student.self_attention(RAVI_MEERA.copy()), (2, 2), what="self_attention(X)"
    )
    reverse = student.self_attention(RAVI_MEERA[::-1].copy())
    assert_close(reverse, forward[::-1], what="self_attention(reversed X)")
    sentence = np.array([[1.0, 0.5], [-0.5, 2.0]])  # not symmetric: a value check of its own
    forward = student.self_attention(sentence.copy())
    assert_close(forward, attention_by_hand(sentence), what="self_attention(X)")
    reverse = student.self_attention(sentence[::-1].copy())
    assert_close(reverse, forward[::-1], what="self_attention(reversed X)")


@pytest.mark.points(1)
def test_softmax_rows_are_probabilities(student):
    """softmax(S) is exp(S) / sum(exp(S)) along the last axis: positive, each row sums to 1"""
    S = np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0], [-1.0, 5.0, 2.5]])
    expected = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)
    assert_close(student.softmax(S.copy()), expected, what="softmax(S)")
    assert_close(
        student.softmax(S.copy(), axis=0),
        np.exp(S) / np.exp(S).sum(axis=0),
        what="softmax(S, axis=0)",
    )


@pytest.mark.points(1)
def test_softmax_is_numerically_stable(student):
    """softmax([[1e4, 0], [0, -1e4]]) is finite: subtract each row's maximum before exp"""
    with np.errstate(over="ignore", invalid="ignore"):
        weights = student.softmax(np.array([[1e4, 0.0], [0.0, -1e4]]))
    assert_close(
        weights, [[1.0, 0.0], [1.0, 0.0]], what="softmax([[1e4, 0], [0, -1e4]])",
        hints=(overflowed,),
    )  # fmt: skip


@pytest.mark.points(1)
def test_attention_on_large_inputs_is_finite(student):
    """self_attention on entries of magnitude 1e4 gives finite values: X = [[1e4, 0], [0, 1e4],
    [1e4, 1e4]] gives [[1e4, 5e3], [5e3, 1e4], [1e4, 1e4]] (ties share their weight)"""
    X = np.array([[1e4, 0.0], [0.0, 1e4], [1e4, 1e4]])
    with np.errstate(over="ignore", invalid="ignore"):
        out = assert_shape(
            student.self_attention(X.copy()), (3, 2), what="self_attention(X) with entries of 1e4"
        )
    if not np.isfinite(out).all():
        raise CheckFailure(
            "self_attention(X) with entries of 1e4 contains inf or nan: the scores reach about "
            "1.4e8, so exp overflows; subtract each row's maximum score before exp"
        )
    assert_close(out, attention_by_hand(X), what="self_attention(X) with entries of 1e4")


@pytest.mark.points(1)
def test_weights_and_shapes(student):
    """with W_q, W_k, W_v: softmax(Q Kᵀ / √d_k) V, where d_k is the width of Q"""
    rng = np.random.default_rng(7)
    X = rng.normal(size=(5, 4))
    W_q, W_k, W_v = rng.normal(size=(4, 3)), rng.normal(size=(4, 3)), rng.normal(size=(4, 6))
    out = student.self_attention(X.copy(), W_q.copy(), W_k.copy(), W_v.copy())
    assert_close(out, attention_by_hand(X, W_q, W_k, W_v), what="self_attention(X, W_q, W_k, W_v)")


@pytest.mark.points(1)
def test_batched_input(student):
    """a batch (B, T, d) gives each sequence's own attention, stacked"""
    batch = np.random.default_rng(3).normal(size=(3, 4, 2))
    out = student.self_attention(batch.copy())
    assert_close(out, np.stack([attention_by_hand(x) for x in batch]), what="self_attention(batch)")


@pytest.mark.points(1)
@pytest.mark.keeps_inputs("self_attention", "softmax")
def test_inputs_are_not_modified(student):
    """self_attention and softmax are right and leave the caller's arrays alone, in every call"""
    X = np.random.default_rng(11).normal(size=(4, 3))
    W = np.eye(3) * 2.0
    X_before, W_before = X.copy(), W.copy()
    out = student.self_attention(X, W, W, W)
    assert_unchanged(X_before, X, what="self_attention(X, W_q, W_k, W_v)")
    assert_unchanged(W_before, W, what="self_attention(X, W_q, W_k, W_v)")
    S = np.array([[3.0, 1.0], [0.5, 2.0]])
    S_before = S.copy()
    weights = student.softmax(S)
    assert_unchanged(S_before, S, what="softmax(S)")
    assert_close(
        out,
        attention_by_hand(X_before, W_before, W_before, W_before),
        what="self_attention(X, W, W, W)",
    )
    assert_close(
        weights, np.exp(S_before) / np.exp(S_before).sum(axis=1, keepdims=True), what="softmax(S)"
    )
