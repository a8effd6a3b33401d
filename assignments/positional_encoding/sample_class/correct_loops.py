# Sample submission: correct, written with explicit Python loops and math.
"""Positional encoding, the long way round: loops and the math module."""

import math

import numpy as np
import sympy


def sinusoidal_encoding(T, C, base=10000.0):
    for name, value, smallest in (("T", T, 0), ("C", C, 1)):
        if type(value) is bool or not isinstance(value, (int, np.integer)) or value < smallest:
            raise ValueError(f"{name} must be an integer >= {smallest}, got {value!r}")
    table = np.zeros((T, C))
    for pos in range(T):
        for j in range(C):
            angle = pos / base ** (2 * (j // 2) / C)
            table[pos, j] = math.sin(angle) if j % 2 == 0 else math.cos(angle)
    return table


def softmax(S, axis=-1):
    S = np.array(S, dtype=float)
    moved = np.moveaxis(S, axis, -1)
    out = np.empty_like(moved)
    for index in np.ndindex(moved.shape[:-1]):
        row = moved[index]
        top = max(row)
        exps = [math.exp(x - top) for x in row]
        total = sum(exps)
        out[index] = [e / total for e in exps]
    return np.moveaxis(out, -1, axis)


def self_attention(X, W_q=None, W_k=None, W_v=None):
    X = np.array(X, dtype=float)
    if X.ndim == 3:
        return np.stack([self_attention(x, W_q, W_k, W_v) for x in X])
    Q = X if W_q is None else X @ W_q
    K = X if W_k is None else X @ W_k
    V = X if W_v is None else X @ W_v
    T, d_k = Q.shape
    scores = np.zeros((T, T))
    for i in range(T):
        for j in range(T):
            scores[i, j] = sum(Q[i, m] * K[j, m] for m in range(d_k)) / math.sqrt(d_k)
    return softmax(scores) @ V


def rotation_matrix(k, freq):
    c, s = math.cos(k * freq), math.sin(k * freq)
    return np.array([[c, s], [-s, c]])


def shift_matrix(k, C, base=10000.0):
    if C % 2 == 1:
        raise ValueError("C must be even: the last sine has no cosine partner")
    M = np.zeros((C, C))
    for i in range(C // 2):
        M[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = rotation_matrix(k, 1 / base ** (2 * i / C))
    return M


def pe_pair(pos, w):
    return sympy.sin(w * pos), sympy.cos(w * pos)


def rotation_matrix_symbolic(k, w):
    return sympy.Matrix(
        [[sympy.cos(k * w), sympy.sin(k * w)], [-sympy.sin(k * w), sympy.cos(k * w)]]
    )


def relative_dot(pos, k, w):
    a, b = pe_pair(pos, w), pe_pair(pos + k, w)
    return sympy.simplify(a[0] * b[0] + a[1] * b[1])


def permutation_matrix(perm):
    perm = [int(p) if float(p) == int(p) else p for p in perm]
    if sorted(perm) != list(range(len(perm))):
        raise ValueError(f"not a permutation of range({len(perm)}): {perm}")
    P = np.zeros((len(perm), len(perm)))
    for i, p in enumerate(perm):
        P[i, p] = 1
    return P
