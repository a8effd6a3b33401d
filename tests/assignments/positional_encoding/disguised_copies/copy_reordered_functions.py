# Disguised copy of sample_class/correct_scipy.py: the same functions in another order, the
# proofs first, comments dropped. Similarity must flag it with its original.
"""Assignment 1."""

import numpy as np
import sympy as sp
from scipy.special import softmax as scipy_softmax

PERMUTATION_PROOF: list[tuple[str, str]] = [
    ("attention(P @ X)", "statement"),
    ("softmax((P @ X) @ (P @ X).T / sqrt(d)) @ (P @ X)", "definition of attention"),
    ("softmax(P @ X @ X.T @ P.T / sqrt(d)) @ P @ X", "transpose of a product"),
    ("P @ softmax(X @ X.T / sqrt(d)) @ P.T @ P @ X", "softmax commutes with a permutation"),
    ("P @ softmax(X @ X.T / sqrt(d)) @ X", "PᵀP = I"),
    ("P @ attention(X)", "definition of attention"),
]


RELATIVE_POSITION_PROOF: list[tuple[str, str]] = [
    ("sin(w*p)*sin(w*(p+k)) + cos(w*p)*cos(w*(p+k))", "statement"),
    (
        "sin(w*p)*(sin(w*p)*cos(w*k) + cos(w*p)*sin(w*k))"
        " + cos(w*p)*(cos(w*p)*cos(w*k) - sin(w*p)*sin(w*k))",
        "angle sum",
    ),
    ("sin(w*p)**2*cos(w*k) + cos(w*p)**2*cos(w*k)", "algebra"),
    ("(sin(w*p)**2 + cos(w*p)**2)*cos(w*k)", "algebra"),
    ("cos(w*k)", "Pythagoras"),
]


def relative_dot(pos, k, w):
    a, b = pe_pair(pos, w), pe_pair(pos + k, w)
    return sp.simplify(sp.expand_trig(a[0] * b[0] + a[1] * b[1]))


def rotation_matrix(k, freq):
    c, s = np.cos(k * freq), np.sin(k * freq)
    return np.array([[c, s], [-s, c]])


def permutation_matrix(perm):
    perm = list(perm)
    if sorted(perm) != list(range(len(perm))) or any(isinstance(p, bool) for p in perm):
        raise ValueError(f"{perm} is not a permutation of range({len(perm)})")
    return np.eye(len(perm))[perm]


def sinusoidal_encoding(T, C, base=10000.0):
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 0:
        raise ValueError(f"T must be a non-negative integer, got {T!r}")
    if isinstance(C, bool) or not isinstance(C, (int, np.integer)) or C < 1:
        raise ValueError(f"C must be a positive integer, got {C!r}")
    pairs = (C + 1) // 2
    angles = np.outer(np.arange(T), base ** (-2.0 * np.arange(pairs) / C))
    stacked = np.stack([np.sin(angles), np.cos(angles)], axis=-1)
    return stacked.reshape(T, 2 * pairs)[:, :C]


def pe_pair(pos, w):
    return sp.sin(w * pos), sp.cos(w * pos)


def self_attention(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X, dtype=float)
    Q, K, V = (X if W is None else X @ W for W in (W_q, W_k, W_v))
    return softmax(np.matmul(Q, np.swapaxes(K, -1, -2)) / np.sqrt(Q.shape[-1])) @ V


def rotation_matrix_symbolic(k, w):
    return sp.Matrix([[sp.cos(k * w), sp.sin(k * w)], [-sp.sin(k * w), sp.cos(k * w)]])


def softmax(S, axis=-1):
    return scipy_softmax(np.asarray(S, dtype=float), axis=axis)


def shift_matrix(k, C, base=10000.0):
    if C % 2:
        raise ValueError("C must be even: an odd C leaves a sine without its cosine")
    from scipy.linalg import block_diag

    return block_diag(*[rotation_matrix(k, base ** (-2 * i / C)) for i in range(C // 2)])
