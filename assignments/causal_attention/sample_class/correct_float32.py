# Sample submission: correct, in float32 with an additive -inf mask and einsum.
import numpy as np
import sympy as sp

POSITION_SCALE = 0.02


def causal_mask(T):
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 0:
        raise ValueError(f"causal_mask: T must be an integer >= 0, not {T!r}")
    return np.arange(T)[None, :] <= np.arange(T)[:, None]


def masked_softmax(S, mask, axis=-1):
    S = np.asarray(S, dtype=np.float32)
    mask = np.broadcast_to(np.asarray(mask, dtype=bool), S.shape)
    if not mask.any(axis=axis).all():
        raise ValueError("a row of the mask allows nothing")
    additive = np.where(mask, np.float32(0), np.float32(-np.inf))
    shifted = S + additive
    shifted = shifted - shifted.max(axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=axis, keepdims=True)


def causal_self_attention(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X, dtype=np.float32)
    Q = X if W_q is None else X @ np.asarray(W_q, dtype=np.float32)
    K = X if W_k is None else X @ np.asarray(W_k, dtype=np.float32)
    V = X if W_v is None else X @ np.asarray(W_v, dtype=np.float32)
    scores = np.einsum("...td,...sd->...ts", Q, K) / np.float32(np.sqrt(Q.shape[-1]))
    weights = masked_softmax(scores, causal_mask(X.shape[-2]))
    return np.einsum("...ts,...sd->...td", weights, V)


def causal_attention_symbolic(X):
    T, d = X.shape
    rows = []
    for t in range(T):
        scores = [X[t, :].dot(X[s, :]) / sp.sqrt(d) for s in range(t + 1)]
        weights = [sp.exp(score) for score in scores]
        rows.append([sum(w * X[s, j] for s, w in enumerate(weights)) / sum(weights) for j in range(d)])
    return sp.Matrix(rows) if rows else sp.zeros(0, d)


def ravi_in_both_orders():
    X = np.array([[2.0, 0.0], [0.0, 2.0]])
    return np.stack([causal_self_attention(X)[0], causal_self_attention(X[::-1])[1]])


EQUIVARIANCE_COUNTEREXAMPLE = ([[2.0, 0.0], [0.0, 2.0]], [1, 0])


def init_position_table(max_len, C, seed):
    if isinstance(max_len, bool) or not isinstance(max_len, (int, np.integer)) or max_len < 1:
        raise ValueError("max_len must be an integer >= 1")
    if isinstance(C, bool) or not isinstance(C, (int, np.integer)) or C < 1:
        raise ValueError("C must be an integer >= 1")
    return np.random.default_rng(seed).normal(0.0, POSITION_SCALE, (max_len, C))


def add_positions(tok_emb, table):
    tok_emb, table = np.asarray(tok_emb, dtype=np.float32), np.asarray(table, dtype=np.float32)
    T = tok_emb.shape[-2]
    if T > len(table):
        raise ValueError(f"T = {T} exceeds max_len = {len(table)}")
    if tok_emb.shape[-1] != table.shape[-1]:
        raise ValueError("width mismatch")
    return tok_emb + table[:T]


def position_table_grad(grad_out, max_len):
    grad_out = np.asarray(grad_out, dtype=np.float32)
    T = grad_out.shape[-2]
    grad = np.zeros((max_len, grad_out.shape[-1]), dtype=np.float32)
    grad[:T] = grad_out.reshape(-1, *grad_out.shape[-2:]).sum(axis=0)
    return grad
