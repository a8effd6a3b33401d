"""Scaled dot-product self-attention written out by hand: the public tests' independent oracle.

Every assignment whose tests check an attention against the formula uses this one copy. It is
released with the public tests that import it (`from shared.attention_by_hand import …`), so it
holds nothing secret: Python loops over the queries, one softmax per row made stable by
subtracting its maximum, and (causal) keys 0 … t only for query t.
"""

from __future__ import annotations

import numpy as np


def attention_by_hand(
    X: np.ndarray,
    W_q: np.ndarray | None = None,
    W_k: np.ndarray | None = None,
    W_v: np.ndarray | None = None,
    *,
    causal: bool = False,
) -> np.ndarray:
    """softmax(Q Kᵀ / √d_k) V for one sequence X of shape (T, C), row by row; Q = X W_q (X
    itself without W_q), likewise K and V. With `causal`, row t mixes rows 0 … t only."""
    X = np.asarray(X, dtype=np.float64)
    Q = X if W_q is None else X @ W_q
    K = X if W_k is None else X @ W_k
    V = X if W_v is None else X @ W_v
    d_k = Q.shape[-1]
    out = np.zeros((X.shape[0], V.shape[1]))
    for t in range(X.shape[0]):
        keys = range(t + 1) if causal else range(X.shape[0])
        scores = np.array([float(Q[t] @ K[s]) / d_k**0.5 for s in keys])
        weights = np.exp(scores - scores.max())
        out[t] = (weights / weights.sum()) @ V[: len(scores)]
    return out
