"""The causal-attention assignment without its new ingredients: no mask, no learned positions.

`autograder validate` grades the reference with each of these in place of its function (and all
of them at once) and fails when a test of that function gives it points: a property attention
without the mask has anyway, or a table that adds nothing, must not earn the mask's or the
positions' points. Each is what a student who left the ingredient out would write: the same
computation with every key allowed and every position row 0, checking nothing. They use the
module's own names (np, sp).
"""

import numpy as np
import sympy as sp

INGREDIENT = "the mask and the positions"


def mask_allowing_everything(T):
    return np.ones((T, T), dtype=bool)


def softmax_ignoring_the_mask(S, mask, axis=-1):
    scores = np.asarray(S, dtype=np.float64)
    weights = np.exp(scores - scores.max(axis=axis, keepdims=True))
    return weights / weights.sum(axis=axis, keepdims=True)


def attention_without_mask(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X, dtype=np.float64)
    Q = X if W_q is None else X @ W_q
    K = X if W_k is None else X @ W_k
    V = X if W_v is None else X @ W_v
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True) @ V


def symbolic_attention_without_mask(X):
    T, d = X.shape
    rows = []
    for t in range(T):
        weights = [sp.exp((X.row(t) * X.row(s).T)[0, 0] / sp.sqrt(d)) for s in range(T)]
        total = sum(weights)
        rows.append(sum((w * X.row(s) for s, w in enumerate(weights)), sp.zeros(1, d)) / total)
    return sp.Matrix.vstack(*rows) if rows else sp.zeros(0, d)


def ravi_without_mask():
    # attention without the mask is blind to order: Ravi's row is the same in both sentences
    X = np.array([[2.0, 0.0], [0.0, 2.0]])
    scores = X @ X.T / np.sqrt(2)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    out = weights / weights.sum(axis=-1, keepdims=True) @ X
    return np.stack([out[0], out[0]])


def table_of_zeros(max_len, C, seed):
    return np.zeros((max_len, C))


def positions_not_added(tok_emb, table):
    return np.array(tok_emb, dtype=np.float64)


def gradient_of_nothing(grad_out, max_len):
    return np.zeros((max_len, np.shape(grad_out)[-1]))


TRIVIAL = {
    "causal_mask": mask_allowing_everything,
    "masked_softmax": softmax_ignoring_the_mask,
    "causal_self_attention": attention_without_mask,
    "causal_attention_symbolic": symbolic_attention_without_mask,
    "ravi_in_both_orders": ravi_without_mask,
    "init_position_table": table_of_zeros,
    "add_positions": positions_not_added,
    "position_table_grad": gradient_of_nothing,
}
