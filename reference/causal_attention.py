"""Causal self-attention and learned positions: no peeking at the future, and a table of places.

Your module for the `causal_attention` assignment: implement every function below so that it
does what its docstring says. Notation follows the lessons: T positions (rows), C (or d) the
embedding width, t a query position, s a key position. Check your work with `autograder check`
(or plain `pytest`) in this folder.
"""

# BEGIN SOLUTION
# The reference solution. `autograder release` writes the student's stubs from this file: each
# region between BEGIN SOLUTION and END SOLUTION becomes `raise NotImplementedError()`, and this
# comment disappears with its region.
# END SOLUTION

from __future__ import annotations

import numpy as np
import sympy as sp

# ---------------------------------------------------------------------------------------------
# Part "mask": who may look at whom
# ---------------------------------------------------------------------------------------------


def causal_mask(T: int) -> np.ndarray:
    """Return the (T, T) boolean matrix that is True where query t may attend to key s (s ≤ t).

    Row t is True in columns 0 … t and False after: the lower triangle, diagonal included.
    `T = 0` gives an empty (0, 0) matrix. Raises ValueError, naming T, when T is not an integer
    >= 0 (booleans and floats such as 4.0 are not integers here).

    >>> causal_mask(3).astype(int).tolist()
    [[1, 0, 0], [1, 1, 0], [1, 1, 1]]
    """
    # BEGIN SOLUTION
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)):
        raise ValueError(f"T must be an integer, got {T!r}")
    if T < 0:
        raise ValueError(f"T must be >= 0, got {T}")
    return np.tril(np.ones((T, T), dtype=bool))
    # END SOLUTION


# ---------------------------------------------------------------------------------------------
# Part "masked": attention that never looks ahead
# ---------------------------------------------------------------------------------------------


def masked_softmax(S: np.ndarray, mask: np.ndarray, axis: int = -1) -> np.ndarray:
    """Return softmax(S) along `axis` over the entries where `mask` is True.

    `mask` is boolean and broadcasts against S. Masked entries get weight exactly 0; the allowed
    entries of each slice are positive and sum to 1. Numerically stable: entries of 1e4 give
    finite weights. A slice with no allowed entry has no softmax: raise ValueError naming it
    (never return nan). S and mask are not modified.
    """
    # BEGIN SOLUTION
    scores = np.asarray(S, dtype=np.float64)
    allowed = np.broadcast_to(np.asarray(mask, dtype=bool), scores.shape)
    empty = ~allowed.any(axis=axis)
    if empty.any():
        where = tuple(int(i) for i in np.argwhere(empty)[0])
        raise ValueError(
            f"slice {where} of the mask is fully masked (it allows no entry): it has no softmax"
        )
    filled = np.where(allowed, scores, -np.inf)
    shifted = filled - np.max(filled, axis=axis, keepdims=True)
    weights = np.where(allowed, np.exp(shifted), 0.0)
    return weights / np.sum(weights, axis=axis, keepdims=True)
    # END SOLUTION


def causal_self_attention(
    X: np.ndarray,
    W_q: np.ndarray | None = None,
    W_k: np.ndarray | None = None,
    W_v: np.ndarray | None = None,
) -> np.ndarray:
    """Return masked_softmax(Q Kᵀ / sqrt(d_k), causal_mask(T)) V with Q = X W_q, K = X W_k,
    V = X W_v.

    A weight left as None is the identity. X is (T, d) or batched (B, T, d); the mask is the
    same for every sequence of a batch; d_k is the width of Q. Row t of the output mixes the rows
    0 … t of V only. Neither X nor the weights are modified.
    """
    # BEGIN SOLUTION
    X = np.asarray(X, dtype=np.float64)
    if X.ndim not in (2, 3):
        raise ValueError(f"X must be (T, d) or (B, T, d), got shape {X.shape}")
    Q = X if W_q is None else X @ np.asarray(W_q, dtype=np.float64)
    K = X if W_k is None else X @ np.asarray(W_k, dtype=np.float64)
    V = X if W_v is None else X @ np.asarray(W_v, dtype=np.float64)
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    return masked_softmax(scores, causal_mask(X.shape[-2])) @ V
    # END SOLUTION


# ---------------------------------------------------------------------------------------------
# Part "peeking": the future cannot reach the past, in SymPy too
# ---------------------------------------------------------------------------------------------


def causal_attention_symbolic(X: sp.Matrix) -> sp.Matrix:
    """Return causal self-attention of the SymPy (T, d) matrix X, without weights, exactly.

    Row t is sum over s ≤ t of exp(x_t·x_s / √d) x_s, divided by sum over s ≤ t of
    exp(x_t·x_s / √d): the formula with SymPy's exp and sqrt, no numbers rounded.
    """
    # BEGIN SOLUTION
    T, d = X.shape
    rows = []
    for t in range(T):
        weights = [sp.exp((X.row(t) * X.row(s).T)[0, 0] / sp.sqrt(d)) for s in range(t + 1)]
        total = sum(weights)
        rows.append(sum((w * X.row(s) for s, w in enumerate(weights)), sp.zeros(1, d)) / total)
    return sp.Matrix.vstack(*rows) if rows else sp.zeros(0, d)
    # END SOLUTION


# ---------------------------------------------------------------------------------------------
# Part "order": the mask lets order leak into attention
# ---------------------------------------------------------------------------------------------


def ravi_in_both_orders() -> np.ndarray:
    """Return the (2, 2) array [Ravi's output in "Ravi saw Meera", Ravi's output in "Meera saw
    Ravi"], computed with causal_self_attention on Ravi = [2, 0] and Meera = [0, 2]."""
    # BEGIN SOLUTION
    ravi, meera = np.array([2.0, 0.0]), np.array([0.0, 2.0])
    ravi_first = causal_self_attention(np.stack([ravi, meera]))[0]
    ravi_second = causal_self_attention(np.stack([meera, ravi]))[1]
    return np.stack([ravi_first, ravi_second])
    # END SOLUTION


# A counterexample to CausalAttention(P X) = P · CausalAttention(X): (X as a list of rows,
# perm as the new order of the rows, so that (P X)[i] = X[perm[i]]).
# BEGIN SOLUTION
EQUIVARIANCE_COUNTEREXAMPLE: tuple[list[list[float]], list[int]] = (
    [[2.0, 0.0], [0.0, 2.0]],
    [1, 0],
)
# END SOLUTION


# ---------------------------------------------------------------------------------------------
# Part "learned": a trainable table of positions
# ---------------------------------------------------------------------------------------------

POSITION_SCALE = 0.02
"""The standard deviation of a fresh position table (GPT-2's initialisation)."""


def init_position_table(max_len: int, C: int, seed: int) -> np.ndarray:
    """Return a (max_len, C) table of independent normal values with mean 0 and standard
    deviation POSITION_SCALE, drawn as np.random.default_rng(seed).normal(0, POSITION_SCALE,
    size=(max_len, C)). Raises ValueError, naming the argument, when max_len or C is not an
    integer >= 1."""
    # BEGIN SOLUTION
    for name, value in (("max_len", max_len), ("C", C)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    return np.random.default_rng(seed).normal(0.0, POSITION_SCALE, size=(max_len, C))
    # END SOLUTION


def add_positions(tok_emb: np.ndarray, table: np.ndarray) -> np.ndarray:
    """Return tok_emb + table[:T]: row t of each sequence gets the table's row t.

    tok_emb is (T, C) or batched (B, T, C); table is (max_len, C). A learned table cannot
    extrapolate: raise ValueError naming T and max_len when T > max_len (never wrap around or
    clip), and ValueError when the widths differ. Neither input is modified.
    """
    # BEGIN SOLUTION
    tok_emb = np.asarray(tok_emb, dtype=np.float64)
    table = np.asarray(table, dtype=np.float64)
    T, C = tok_emb.shape[-2:]
    if table.shape[1] != C:
        raise ValueError(f"the table's width {table.shape[1]} is not the embeddings' width {C}")
    if table.shape[0] < T:
        raise ValueError(
            f"T = {T} positions but the table has max_len = {table.shape[0]} rows: a learned "
            "table has no row for a position it was never given"
        )
    return tok_emb + table[:T]
    # END SOLUTION


def position_table_grad(grad_out: np.ndarray, max_len: int) -> np.ndarray:
    """Return the gradient of a loss with respect to the (max_len, C) table, given grad_out,
    its gradient with respect to add_positions' output ((T, C) or (B, T, C)).

    Row t (t < T) is the sum over the batch of grad_out[..., t, :]; rows T … max_len − 1 are
    exactly 0: a position no sequence reached receives no gradient, so it never learns.
    """
    # BEGIN SOLUTION
    grad_out = np.asarray(grad_out, dtype=np.float64)
    T, C = grad_out.shape[-2:]
    if max_len < T:
        raise ValueError(f"T = {T} positions but max_len = {max_len}")
    grad = np.zeros((max_len, C))
    grad[:T] = grad_out.reshape(-1, T, C).sum(axis=0)
    return grad
    # END SOLUTION
