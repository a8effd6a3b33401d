# Sample submission: correct, in float32 and with exp/log and einsum (float64 is never required).
"""Positional encoding in single precision."""

import numpy as np
import sympy as sp


def sinusoidal_encoding(T, C, base=10000.0):
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 0:
        raise ValueError(f"T must be a non-negative integer, got {T!r}")
    if isinstance(C, bool) or not isinstance(C, (int, np.integer)) or C < 1:
        raise ValueError(f"C must be a positive integer, got {C!r}")
    pair = (np.arange(C) // 2).astype(np.float32)
    frequency = np.exp(-np.log(np.float32(base)) * 2 * pair / C)
    angles = np.arange(T, dtype=np.float32)[:, None] * frequency[None, :]
    is_even = (np.arange(C) % 2 == 0)[None, :]
    return np.where(is_even, np.sin(angles), np.cos(angles)).astype(np.float32)


def softmax(S, axis=-1):
    S = np.asarray(S, dtype=np.float32)
    e = np.exp(S - S.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def self_attention(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X)
    Q = X if W_q is None else X @ W_q
    K = X if W_k is None else X @ W_k
    V = X if W_v is None else X @ W_v
    scores = np.einsum("...id,...jd->...ij", Q, K) / np.sqrt(Q.shape[-1])
    return (softmax(scores.astype(np.float64)) @ V).astype(np.float32)


def rotation_matrix(k, freq):
    theta = np.float32(k * freq)
    return np.array(
        [[np.cos(theta), np.sin(theta)], [-np.sin(theta), np.cos(theta)]], dtype=np.float32
    )


def shift_matrix(k, C, base=10000.0):
    if C % 2:
        raise ValueError(f"C = {C} is odd: the last sine column has no cosine partner")
    blocks = [rotation_matrix(k, base ** (-2 * i / C)) for i in range(C // 2)]
    M = np.zeros((C, C), dtype=np.float32)
    for i, block in enumerate(blocks):
        M[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = block
    return M


def pe_pair(pos, w):
    return (sp.sin(pos * w), sp.cos(pos * w))


def rotation_matrix_symbolic(k, w):
    c, s = sp.cos(k * w), sp.sin(k * w)
    return sp.Matrix([[c, s], [-s, c]])


def relative_dot(pos, k, w):
    (s0, c0), (s1, c1) = pe_pair(pos, w), pe_pair(pos + k, w)
    return sp.trigsimp(sp.expand_trig(sp.expand(s0 * s1 + c0 * c1)))


def permutation_matrix(perm):
    order = np.asarray(perm)
    if order.ndim != 1 or not np.issubdtype(order.dtype, np.integer):
        raise ValueError(f"perm must be a sequence of integers, got {perm!r}")
    if not np.array_equal(np.sort(order), np.arange(len(order))):
        raise ValueError(f"perm must order range({len(order)}), got {list(perm)}")
    return np.eye(len(order), dtype=np.float32)[order]
