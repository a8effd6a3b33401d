# Sample submission: correct, written with Python loops and math, as a student new to NumPy would.
import math

import numpy as np
import sympy as sp

POSITION_SCALE = 0.02


def causal_mask(T):
    if type(T) is bool or not isinstance(T, (int, np.integer)) or T < 0:
        raise ValueError("T must be a whole number of positions, >= 0")
    mask = np.zeros((T, T), dtype=bool)
    for t in range(T):
        for s in range(t + 1):
            mask[t, s] = True
    return mask


def masked_softmax(S, mask, axis=-1):
    S = np.array(S, dtype=float)
    M = np.moveaxis(np.broadcast_to(np.array(mask, dtype=bool), S.shape), axis, -1)
    S = np.moveaxis(S, axis, -1)
    out = np.zeros_like(S)
    for index in np.ndindex(S.shape[:-1]):
        allowed = [j for j in range(S.shape[-1]) if M[index][j]]
        if not allowed:
            raise ValueError(f"row {index} has no allowed entry")
        top = max(S[index][j] for j in allowed)
        total = sum(math.exp(S[index][j] - top) for j in allowed)
        for j in allowed:
            out[index][j] = math.exp(S[index][j] - top) / total
    return np.moveaxis(out, -1, axis)


def _one_sequence(X, W_q, W_k, W_v):
    Q = X if W_q is None else X @ W_q
    K = X if W_k is None else X @ W_k
    V = X if W_v is None else X @ W_v
    T = X.shape[0]
    out = np.zeros((T, V.shape[1]))
    for t in range(T):
        scores = [float(Q[t] @ K[s]) / math.sqrt(Q.shape[1]) for s in range(t + 1)]
        top = max(scores)
        weights = [math.exp(x - top) for x in scores]
        total = sum(weights)
        for s in range(t + 1):
            out[t] += weights[s] / total * V[s]
    return out


def causal_self_attention(X, W_q=None, W_k=None, W_v=None):
    X = np.array(X, dtype=float)
    if X.ndim == 2:
        return _one_sequence(X, W_q, W_k, W_v)
    return np.stack([_one_sequence(x, W_q, W_k, W_v) for x in X])


def causal_attention_symbolic(X):
    T, d = X.shape
    out = sp.zeros(T, d)
    for t in range(T):
        weights = [sp.exp(sum(X[t, j] * X[s, j] for j in range(d)) / sp.sqrt(d)) for s in range(t + 1)]
        for j in range(d):
            out[t, j] = sum(w * X[s, j] for s, w in enumerate(weights)) / sum(weights)
    return out


def ravi_in_both_orders():
    ravi, meera = [2.0, 0.0], [0.0, 2.0]
    first = causal_self_attention(np.array([ravi, meera]))[0]
    second = causal_self_attention(np.array([meera, ravi]))[1]
    return np.array([first, second])


EQUIVARIANCE_COUNTEREXAMPLE = ([[1.0, 0.0], [0.0, 3.0], [2.0, 2.0]], [2, 1, 0])


def init_position_table(max_len, C, seed):
    for name, value in (("max_len", max_len), ("C", C)):
        if type(value) is bool or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be a positive integer")
    return np.random.default_rng(seed).normal(0, POSITION_SCALE, size=(max_len, C))


def add_positions(tok_emb, table):
    tok_emb, table = np.array(tok_emb, dtype=float), np.array(table, dtype=float)
    T = tok_emb.shape[-2]
    if table.shape[1] != tok_emb.shape[-1]:
        raise ValueError("the embedding widths differ")
    if T > table.shape[0]:
        raise ValueError(f"T={T} but the table only has max_len={table.shape[0]} positions")
    out = tok_emb.copy()
    for t in range(T):
        out[..., t, :] += table[t]
    return out


def position_table_grad(grad_out, max_len):
    grad_out = np.array(grad_out, dtype=float)
    T, C = grad_out.shape[-2:]
    grad = np.zeros((max_len, C))
    for sequence in grad_out.reshape(-1, T, C):
        for t in range(T):
            grad[t] += sequence[t]
    return grad
