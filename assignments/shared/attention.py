"""Attention, at course level: what a wrong attention or softmax shows, for every assignment.

`attention_signature()` measures a self_attention(X, W_q, W_k, W_v)-shaped function: the scale
s that reproduces the output as softmax(s·Q Kᵀ) V and names it (not scaled, 1/d_k, √d_k, the √ of
X's width), the axis of its softmax, weights applied transposed, symmetric scores; with
`causal=True` also a mask never applied, or applied after the softmax and not renormalised.
`softmax_signature()` measures a softmax(S, axis) (or a masked softmax(S, mask, axis)): the
axis its entries sum to 1 along, and nan from an unstable exp. An assignment maps them to its
own functions in its signatures.py: `Signature("my_attention", attention_signature())`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from autograder.authoring import Call

Measure = Callable[[Call, object], "str | None"]


def _near(a: float, b: float, rel: float = 2e-3) -> bool:
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-12)


def _number(value: float) -> str:
    return f"{value:.4g}"


# --- softmax: which axis sums to 1 ------------------------------------------------------------


def softmax_signature(mask: str | None = None) -> Measure:
    """The measure for a softmax(S, axis=-1), or a masked one softmax(S, MASK, axis=-1) whose
    mask argument is called `mask`."""
    axis_at = 1 if mask is None else 2

    def measure(call: Call, expected: object) -> str | None:
        return _softmax_measure(call, axis_at)

    return measure


def _softmax_measure(call: Call, axis_at: int) -> str | None:
    S = np.asarray(call.argument(0, "S"), dtype=np.float64)
    asked = "axis" in call.kwargs or len(call.args) > axis_at
    axis = int(call.argument(axis_at, "axis", -1))
    W = np.asarray(call.result, dtype=np.float64)
    if W.shape != S.shape or S.ndim == 0:
        return None
    if np.isnan(W).any() and np.isfinite(S).all():
        maxima = np.max(S, axis=axis, keepdims=True)
        broken = np.isnan(W).any(axis=axis, keepdims=True)
        if np.all(maxima[broken] < S.max() - 700):
            return (
                "the slices whose scores all lie far below the array's overall maximum came out "
                "nan (exp underflows to 0, and 0/0 is nan): subtract each slice's own maximum, "
                "np.max(S, axis=axis, keepdims=True)"
            )
        return None
    if np.allclose(W.sum(axis=axis), 1, atol=1e-6) or not np.isfinite(W).all():
        return None
    for other in range(S.ndim):
        if other % S.ndim != axis % S.ndim and np.allclose(W.sum(axis=other), 1, atol=1e-6):
            fix = "use the axis argument" if asked else "its default is the last axis (axis=-1)"
            return (
                f"your softmax's entries sum to 1 along axis {other}, not along axis "
                f"{axis % S.ndim}: {fix}"
            )
    if S.ndim > 1 and np.isclose(W.sum(), 1, atol=1e-6):
        return (
            "your entries sum to 1 over the whole array: divide by the sum along the axis "
            "(np.sum(…, axis=axis, keepdims=True)), not by the total"
        )
    return None


# --- self_attention: the scale, axis and scores that reproduce the output ------------------


def _softmax(S: np.ndarray, axis: int) -> np.ndarray:
    e = np.exp(S - np.max(S, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


ZOOMS = 8
"""Rounds of fit_scale's search after its first grid: they narrow a step of 0.14 in log s to
about 3e-11, as finely as 45 rounds of a golden-section search did, in 8 NumPy calls instead
of 90 (each evaluates all 33 scales of its round at once)."""


def fit_scale(
    scores: np.ndarray,
    V: np.ndarray,
    out: np.ndarray,
    axis: int = -1,
    transposed: bool = False,
    mask: np.ndarray | None = None,
) -> tuple[float, float]:
    """The s > 0 for which softmax(s·scores, axis) @ V (the weights transposed, if asked; the
    scores where `mask` is False left out) comes closest to `out`, and the largest entry of
    the difference there."""

    def errors(log_s: np.ndarray) -> np.ndarray:
        scale = np.exp(log_s).reshape(-1, *([1] * scores.ndim))
        scaled = scale * scores
        if mask is not None:
            scaled = np.where(mask, scaled, -np.inf)
        weights = _softmax(scaled, axis if axis < 0 else axis + 1)
        if transposed:
            weights = np.swapaxes(weights, -1, -2)
        return np.max(np.abs(weights @ V - out), axis=tuple(range(1, scores.ndim + 1)))

    grid = np.linspace(math.log(1e-3), math.log(1e3), 97)
    measured = errors(grid)
    for _ in range(ZOOMS):  # the best point's neighbours, sampled anew: 16 times narrower each
        best = int(np.argmin(measured))
        low, high = grid[max(best - 1, 0)], grid[min(best + 1, len(grid) - 1)]
        grid = np.linspace(low, high, 33)
        measured = errors(grid)
    best = int(np.argmin(measured))
    return math.exp(grid[best]), float(measured[best])


def _name_scale(s: float, d: int, d_k: int) -> str:
    names = [
        (1.0, "1: the scores are not scaled"),
        (1 / d_k, f"1/d_k = 1/{d_k}: divided by d_k instead of √d_k"),
        (math.sqrt(d_k), "√d_k: multiplied by √d_k instead of divided by it"),
    ]
    if d != d_k:
        names.insert(0, (1 / math.sqrt(d), f"1/√{d}: the √ of X's width {d}, not of Q's width"))
    for value, name in names:
        if _near(s, value, 1e-3):
            return name
    return _number(s)


def attention_signature(
    causal: bool = False,
    encode_queries_keys: Callable[[np.ndarray, Call], np.ndarray] | None = None,
) -> Measure:
    """The measure for attention(X, W_q=None, W_k=None, W_v=None): softmax(Q Kᵀ/√d_k) V, with
    query t attending only to keys s ≤ t when `causal`. `encode_queries_keys(M, call)`, when
    given, is what the assignment's attention does to Q and K (and not V) before the scores,
    such as a rotation by position: the scores are then those of the encoded Q and K."""

    def measure(call: Call, expected: object) -> str | None:
        return _attention_measure(call, causal, encode_queries_keys)

    return measure


def _attention_measure(
    call: Call,
    causal: bool,
    encode: Callable[[np.ndarray, Call], np.ndarray] | None = None,
) -> str | None:
    X = np.asarray(call.argument(0, "X"), dtype=np.float64)
    weights = [call.argument(i + 1, n) for i, n in enumerate(("W_q", "W_k", "W_v"))]
    Q, K, V = (X if W is None else X @ np.asarray(W, dtype=np.float64) for W in weights)
    if encode is not None:
        Q, K = encode(Q, call), encode(K, call)
    out = np.asarray(call.result, dtype=np.float64)
    if out.shape != V.shape or X.ndim not in (2, 3) or X.shape[-2] < 2:
        return None
    if not np.isfinite(out).all():
        return None
    S = Q @ np.swapaxes(K, -1, -2)
    d, d_k, right = X.shape[-1], Q.shape[-1], 1 / math.sqrt(Q.shape[-1])
    close = 1e-5 * max(1.0, float(np.max(np.abs(out))))
    T = X.shape[-2]
    mask = np.tril(np.ones((T, T), dtype=bool)) if causal else None
    if causal:
        s, unmasked = fit_scale(S, V, out)
        if unmasked < close:
            return (
                "your attention applies no mask: row t mixes every position's V, later ones "
                "too; the mask must hide keys s > t (set their scores to −inf before the softmax)"
            )
        after = _softmax(S * right, -1) * mask
        if np.max(np.abs(after @ V - out)) < close:
            return (
                "your weights are masked after the softmax and not renormalised: each row of "
                "weights must sum to 1 over the allowed keys; mask the scores before the softmax"
            )
    s, rows = fit_scale(S, V, out, mask=mask)
    if rows < close:
        if _near(s, right, 1e-3):
            return None
        return (
            f"your attention weights are softmax(s·Q Kᵀ) with s = {_name_scale(s, d, d_k)}; "
            f"s should be 1/√d_k = {_number(right)} (d_k = {d_k}, the width of Q)"
        )
    _, columns = fit_scale(S, V, out, axis=-2, mask=mask)
    _, transposed = fit_scale(S, V, out, transposed=True, mask=mask)
    if columns < close and transposed < close:
        return (
            "each column of your attention weights sums to 1, not each row: the softmax "
            "runs over the wrong axis, or the weights are applied transposed (these scores "
            "are symmetric, so they cannot tell which)"
        )
    if transposed < close:
        return (
            "your weights are the right weights transposed: output row i must mix the rows of "
            "V with row i of softmax(Q Kᵀ/√d_k), weights @ V"
        )
    if columns < close and X.ndim == 3:
        return (
            "your softmax normalises each column of Q Kᵀ, not each row: for a batch the scores "
            "are (B, T, T), so axis=1 runs down the columns; use axis=-1"
        )
    if columns < close:
        return "your softmax normalises each column of Q Kᵀ (axis -2), not each row (axis -1)"
    symmetric = Q @ np.swapaxes(Q, -1, -2)
    if not np.allclose(S, symmetric) and fit_scale(symmetric, V, out, mask=mask)[1] < close:
        return (
            "your scores are symmetric, score(i, j) = score(j, i), as Q Qᵀ is; Q Kᵀ is not: "
            "are the keys computed like the queries (K = X W_q)?"
        )
    return None
