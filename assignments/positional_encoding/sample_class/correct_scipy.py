# Sample submission: correct, with scipy.special.softmax and reshaping instead of strided slices.
"""Positional encoding, leaning on SciPy."""

import numpy as np
import sympy as sp
from scipy.special import softmax as scipy_softmax


def sinusoidal_encoding(T, C, base=10000.0):
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 0:
        raise ValueError(f"T must be a non-negative integer, got {T!r}")
    if isinstance(C, bool) or not isinstance(C, (int, np.integer)) or C < 1:
        raise ValueError(f"C must be a positive integer, got {C!r}")
    pairs = (C + 1) // 2
    angles = np.outer(np.arange(T), base ** (-2.0 * np.arange(pairs) / C))  # (T, pairs)
    stacked = np.stack([np.sin(angles), np.cos(angles)], axis=-1)  # (T, pairs, 2)
    return stacked.reshape(T, 2 * pairs)[:, :C]


def softmax(S, axis=-1):
    return scipy_softmax(np.asarray(S, dtype=float), axis=axis)


def self_attention(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X, dtype=float)
    Q, K, V = (X if W is None else X @ W for W in (W_q, W_k, W_v))
    return softmax(np.matmul(Q, np.swapaxes(K, -1, -2)) / np.sqrt(Q.shape[-1])) @ V


def rotation_matrix(k, freq):
    c, s = np.cos(k * freq), np.sin(k * freq)
    return np.array([[c, s], [-s, c]])


def shift_matrix(k, C, base=10000.0):
    if C % 2:
        raise ValueError("C must be even: an odd C leaves a sine without its cosine")
    from scipy.linalg import block_diag

    return block_diag(*[rotation_matrix(k, base ** (-2 * i / C)) for i in range(C // 2)])


def pe_pair(pos, w):
    return sp.sin(w * pos), sp.cos(w * pos)


def rotation_matrix_symbolic(k, w):
    return sp.Matrix([[sp.cos(k * w), sp.sin(k * w)], [-sp.sin(k * w), sp.cos(k * w)]])


def relative_dot(pos, k, w):
    a, b = pe_pair(pos, w), pe_pair(pos + k, w)
    return sp.simplify(sp.expand_trig(a[0] * b[0] + a[1] * b[1]))


def permutation_matrix(perm):
    perm = list(perm)
    if sorted(perm) != list(range(len(perm))) or any(isinstance(p, bool) for p in perm):
        raise ValueError(f"{perm} is not a permutation of range({len(perm)})")
    return np.eye(len(perm))[perm]
