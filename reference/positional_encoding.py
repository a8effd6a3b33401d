"""Positional encoding: sinusoids, attention's blindness to order, and the rotation behind it.

Your module for the `positional_encoding` assignment: implement every function below so that it
does what its docstring says. Notation follows the lessons: T positions, C (or d_model) embedding
dimensions, pos a position, i a dimension-pair index, w (omega) a frequency. Check your work with
`autograder check` (or plain `pytest`) in this folder.
"""

# BEGIN SOLUTION
# The reference solution. `autograder release` writes the student's stubs from this file: each
# region between BEGIN SOLUTION and END SOLUTION becomes `raise NotImplementedError()`, and this
# comment disappears with its region.
# END SOLUTION

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import sympy as sp

# ---------------------------------------------------------------------------------------------
# Part "encoding": the sinusoidal formula
# ---------------------------------------------------------------------------------------------


def sinusoidal_encoding(T: int, C: int, base: float = 10000.0) -> np.ndarray:
    """Return the (T, C) sinusoidal positional-encoding matrix as float64.

    Row `pos`, columns `2i` and `2i + 1` hold

        PE[pos, 2i]     = sin(pos / base**(2i / C))
        PE[pos, 2i + 1] = cos(pos / base**(2i / C))

    so both columns of a pair share one frequency. Positions start at 0. With an odd C the last
    column is a sine whose cosine partner would fall outside the matrix. `T = 0` gives an empty
    (0, C) matrix.

    Raises ValueError, naming the argument, when T is not an integer >= 0 or C is not an
    integer >= 1 (booleans and floats such as 8.0 are not integers here).

    >>> sinusoidal_encoding(2, 4).round(3).tolist()
    [[0.0, 1.0, 0.0, 1.0], [0.841, 0.54, 0.01, 1.0]]
    """
    # BEGIN SOLUTION
    for name, value, smallest in (("T", T, 0), ("C", C, 1)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise ValueError(f"{name} must be an integer, got {value!r}")
        if value < smallest:
            raise ValueError(f"{name} must be >= {smallest}, got {value}")
    positions = np.arange(T, dtype=np.float64)[:, None]  # (T, 1)
    pair_index = np.arange(C) // 2  # column j belongs to pair i = j // 2
    angles = positions / np.power(float(base), 2 * pair_index / C)  # (T, C)
    encoding = np.empty((T, C), dtype=np.float64)
    encoding[:, 0::2] = np.sin(angles[:, 0::2])
    encoding[:, 1::2] = np.cos(angles[:, 1::2])
    return encoding
    # END SOLUTION


# ---------------------------------------------------------------------------------------------
# Part "attention": scaled dot-product self-attention
# ---------------------------------------------------------------------------------------------


def softmax(S: np.ndarray, axis: int = -1) -> np.ndarray:
    """Return softmax(S) along `axis`: exp(S) divided by its sum along that axis.

    Numerically stable: subtracting each slice's maximum first leaves the result unchanged and
    keeps exp() from overflowing, so entries of 1e4 give finite weights. S is not modified.
    """
    # BEGIN SOLUTION
    scores = np.asarray(S, dtype=np.float64)
    shifted = scores - np.max(scores, axis=axis, keepdims=True)
    weights = np.exp(shifted)
    return weights / np.sum(weights, axis=axis, keepdims=True)
    # END SOLUTION


def self_attention(
    X: np.ndarray,
    W_q: np.ndarray | None = None,
    W_k: np.ndarray | None = None,
    W_v: np.ndarray | None = None,
) -> np.ndarray:
    """Return softmax(Q Kᵀ / sqrt(d_k)) V with Q = X W_q, K = X W_k, V = X W_v.

    A weight matrix left as None is the identity, so `self_attention(X)` is
    softmax(X Xᵀ / sqrt(d)) X, the lessons' parameter-free attention. X is (T, d) or batched
    (B, T, d); the softmax runs over each row of scores (the last axis), and d_k is the width of
    Q. Neither X nor the weights are modified.
    """
    # BEGIN SOLUTION
    X = np.asarray(X, dtype=np.float64)
    if X.ndim not in (2, 3):
        raise ValueError(f"X must be (T, d) or (B, T, d), got shape {X.shape}")
    Q = X if W_q is None else X @ np.asarray(W_q, dtype=np.float64)
    K = X if W_k is None else X @ np.asarray(W_k, dtype=np.float64)
    V = X if W_v is None else X @ np.asarray(W_v, dtype=np.float64)
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    return softmax(scores, axis=-1) @ V
    # END SOLUTION


# ---------------------------------------------------------------------------------------------
# Part "rotation": a shift by k positions is a fixed rotation
# ---------------------------------------------------------------------------------------------


def rotation_matrix(k: float, freq: float) -> np.ndarray:
    """Return the 2×2 matrix [[cos(k·freq), sin(k·freq)], [−sin(k·freq), cos(k·freq)]].

    It carries one (sin, cos) pair k positions forward, whatever the starting position:
    R @ [sin(pos·freq), cos(pos·freq)] = [sin((pos + k)·freq), cos((pos + k)·freq)].
    """
    # BEGIN SOLUTION
    theta = k * freq
    return np.array([[np.cos(theta), np.sin(theta)], [-np.sin(theta), np.cos(theta)]])
    # END SOLUTION


def shift_matrix(k: float, C: int, base: float = 10000.0) -> np.ndarray:
    """Return the (C, C) block-diagonal matrix M with PE[pos + k] = M @ PE[pos] for every pos.

    Block i (rows and columns 2i, 2i + 1) is rotation_matrix(k, w_i) with the pair's frequency
    w_i = 1 / base**(2i / C); every other entry is 0. Raises ValueError for an odd C: the last
    column is then a sine with no cosine partner, and no 2×2 rotation can shift it.
    """
    # BEGIN SOLUTION
    if isinstance(C, bool) or not isinstance(C, (int, np.integer)) or C < 1:
        raise ValueError(f"C must be an integer >= 1, got {C!r}")
    if C % 2:
        raise ValueError(
            f"C must be even, got {C}: the last column is a sine with no cosine partner, "
            "so no rotation shifts it"
        )
    matrix = np.zeros((C, C), dtype=np.float64)
    for i in range(C // 2):
        freq = 1.0 / float(base) ** (2 * i / C)
        matrix[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = rotation_matrix(k, freq)
    return matrix
    # END SOLUTION


# ---------------------------------------------------------------------------------------------
# Part "symbolic": the same facts as exact SymPy expressions
# ---------------------------------------------------------------------------------------------


def pe_pair(pos: sp.Expr, w: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """Return the SymPy pair (sin(w·pos), cos(w·pos)) for SymPy symbols or expressions."""
    # BEGIN SOLUTION
    return (sp.sin(w * pos), sp.cos(w * pos))
    # END SOLUTION


def rotation_matrix_symbolic(k: sp.Expr, w: sp.Expr) -> sp.Matrix:
    """Return the SymPy 2×2 Matrix [[cos(k·w), sin(k·w)], [−sin(k·w), cos(k·w)]]."""
    # BEGIN SOLUTION
    return sp.Matrix([[sp.cos(k * w), sp.sin(k * w)], [-sp.sin(k * w), sp.cos(k * w)]])
    # END SOLUTION


def relative_dot(pos: sp.Expr, k: sp.Expr, w: sp.Expr) -> sp.Expr:
    """Return pe_pair(pos, w) · pe_pair(pos + k, w), simplified until `pos` no longer appears.

    The lessons show this dot product equals cos(w·k): it depends on the offset k alone.
    """
    # BEGIN SOLUTION
    here, there = pe_pair(pos, w), pe_pair(pos + k, w)
    dot = here[0] * there[0] + here[1] * there[1]
    return sp.trigsimp(sp.expand_trig(sp.expand(dot)))
    # END SOLUTION


# ---------------------------------------------------------------------------------------------
# Part "permutation": reordering tokens
# ---------------------------------------------------------------------------------------------


def permutation_matrix(perm: Sequence[int]) -> np.ndarray:
    """Return the (n, n) matrix P with (P @ X)[i] = X[perm[i]] for every row i.

    Raises ValueError when perm is not an ordering of range(n), such as [0, 0, 1] or [1, 2, 3].
    """
    # BEGIN SOLUTION
    order = list(perm)
    if any(isinstance(p, bool) or not isinstance(p, (int, np.integer)) for p in order):
        raise ValueError(f"perm must hold integers, got {order!r}")
    if sorted(int(p) for p in order) != list(range(len(order))):
        raise ValueError(f"perm must be an ordering of range({len(order)}), got {order!r}")
    matrix = np.zeros((len(order), len(order)), dtype=np.float64)
    matrix[np.arange(len(order)), order] = 1.0
    return matrix
    # END SOLUTION


# ---------------------------------------------------------------------------------------------
# Proofs, checked step by step: each step is (expression, law); see the assignment's README
# ---------------------------------------------------------------------------------------------

# PE(p)·PE(p + k) for one frequency w reduces to cos(w·k): the offset alone. Laws: "angle sum",
# "algebra", "Pythagoras". Symbols: w, p, k.
# BEGIN SOLUTION
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
# END SOLUTION

# Attention(P X) = P · Attention(X) for a permutation matrix P. Laws: "definition of attention",
# "transpose of a product", "softmax commutes with a permutation", "PᵀP = I". Names: X, P, d.
# BEGIN SOLUTION
PERMUTATION_PROOF: list[tuple[str, str]] = [
    ("attention(P @ X)", "statement"),
    ("softmax((P @ X) @ (P @ X).T / sqrt(d)) @ (P @ X)", "definition of attention"),
    ("softmax(P @ X @ X.T @ P.T / sqrt(d)) @ P @ X", "transpose of a product"),
    ("P @ softmax(X @ X.T / sqrt(d)) @ P.T @ P @ X", "softmax commutes with a permutation"),
    ("P @ softmax(X @ X.T / sqrt(d)) @ X", "PᵀP = I"),
    ("P @ attention(X)", "definition of attention"),
]
# END SOLUTION
