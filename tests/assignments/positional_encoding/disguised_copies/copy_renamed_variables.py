# Disguised copy of sample_class/correct_loops.py: every local variable renamed, comments
# and the docstring changed. Similarity must flag it with its original.
"""My positional encoding homework (written by me!)."""

import math

import numpy as np
import sympy


def sinusoidal_encoding(T, C, base=10000.0):
    for label, v, lowest in (("T", T, 0), ("C", C, 1)):
        if type(v) is bool or not isinstance(v, (int, np.integer)) or v < lowest:
            raise ValueError(f"{label} must be an integer >= {lowest}, got {v!r}")
    enc = np.zeros((T, C))
    for position in range(T):
        for col in range(C):
            theta = position / base ** (2 * (col // 2) / C)
            enc[position, col] = math.sin(theta) if col % 2 == 0 else math.cos(theta)
    return enc


def softmax(S, axis=-1):
    S = np.array(S, dtype=float)
    arr = np.moveaxis(S, axis, -1)
    result = np.empty_like(arr)
    for idx in np.ndindex(arr.shape[:-1]):
        vec = arr[idx]
        biggest = max(vec)
        exponentials = [math.exp(val - biggest) for val in vec]
        denominator = sum(exponentials)
        result[idx] = [ex / denominator for ex in exponentials]
    return np.moveaxis(result, -1, axis)


def self_attention(X, W_q=None, W_k=None, W_v=None):
    X = np.array(X, dtype=float)
    if X.ndim == 3:
        return np.stack([self_attention(val, W_q, W_k, W_v) for val in X])
    queries = X if W_q is None else X @ W_q
    keys = X if W_k is None else X @ W_k
    values = X if W_v is None else X @ W_v
    T, width = queries.shape
    logits = np.zeros((T, T))
    for a_i in range(T):
        for col in range(T):
            logits[a_i, col] = sum(
                queries[a_i, dim] * keys[col, dim] for dim in range(width)
            ) / math.sqrt(width)
    return softmax(logits) @ values


def rotation_matrix(k, freq):
    cosine, sine = math.cos(k * freq), math.sin(k * freq)
    return np.array([[cosine, sine], [-sine, cosine]])


def shift_matrix(k, C, base=10000.0):
    if C % 2 == 1:
        raise ValueError("C must be even: the last sine has no cosine partner")
    big = np.zeros((C, C))
    for a_i in range(C // 2):
        big[2 * a_i : 2 * a_i + 2, 2 * a_i : 2 * a_i + 2] = rotation_matrix(
            k, 1 / base ** (2 * a_i / C)
        )
    return big


def pe_pair(pos, w):
    return sympy.sin(w * pos), sympy.cos(w * pos)


def rotation_matrix_symbolic(k, w):
    return sympy.Matrix(
        [[sympy.cos(k * w), sympy.sin(k * w)], [-sympy.sin(k * w), sympy.cos(k * w)]]
    )


def relative_dot(pos, k, w):
    lhs, rhs = pe_pair(pos, w), pe_pair(pos + k, w)
    return sympy.simplify(lhs[0] * rhs[0] + lhs[1] * rhs[1])


def permutation_matrix(perm):
    perm = [int(p) if float(p) == int(p) else p for p in perm]
    if sorted(perm) != list(range(len(perm))):
        raise ValueError(f"not a permutation of range({len(perm)}): {perm}")
    onehot = np.zeros((len(perm), len(perm)))
    for a_i, p in enumerate(perm):
        onehot[a_i, p] = 1
    return onehot


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

PERMUTATION_PROOF: list[tuple[str, str]] = [
    ("attention(P @ X)", "statement"),
    ("softmax((P @ X) @ (P @ X).T / sqrt(d)) @ (P @ X)", "definition of attention"),
    ("softmax(P @ X @ X.T @ P.T / sqrt(d)) @ P @ X", "transpose of a product"),
    ("P @ softmax(X @ X.T / sqrt(d)) @ P.T @ P @ X", "softmax commutes with a permutation"),
    ("P @ softmax(X @ X.T / sqrt(d)) @ X", "PᵀP = I"),
    ("P @ attention(X)", "definition of attention"),
]
