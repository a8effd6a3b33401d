"""Rotary position embeddings: position as a rotation of each pair of a query's and key's channels.

Your module for the `rotary_embeddings` assignment: implement every function below so that it
does what its docstring says. Notation follows the lessons and RoFormer (Su et al., 2021): T
positions (rows), C the width (even), m and n positions, θ_i = base^(−2i/C) the frequency of pair
i, the sinusoidal encoding's own. Check your work with `autograder check` (or plain `pytest`) in
this folder.
"""

# BEGIN SOLUTION
# The reference solution. `autograder release` writes the student's stubs from this file: each
# region between BEGIN SOLUTION and END SOLUTION becomes `raise NotImplementedError()`, and this
# comment disappears with its region.
# END SOLUTION

from __future__ import annotations

import numpy as np
import sympy as sp

LAYOUTS = ("interleaved", "halves")
"""interleaved: pair i is channels (2i, 2i + 1), as RoFormer and GPT-J; halves: pair i is
channels (i, i + C/2), the `rotate_half` of GPT-NeoX and LLaMA."""

# ---------------------------------------------------------------------------------------------
# Part "rope": rotate every pair by its angle, in O(T·C)
# ---------------------------------------------------------------------------------------------


def rope_angles(positions: np.ndarray, C: int, base: float = 10000.0) -> np.ndarray:
    """Return the (len(positions), C/2) array of angles m·θ_i, θ_i = base^(−2i/C), i = 0 … C/2 − 1.

    Row r holds the angles of position positions[r]. Raises ValueError when C is not an even
    integer >= 2 or base is not > 0.

    >>> rope_angles(np.array([0, 1, 2]), 4, base=100.0).tolist()
    [[0.0, 0.0], [1.0, 0.1], [2.0, 0.2]]
    """
    # BEGIN SOLUTION
    if isinstance(C, bool) or not isinstance(C, (int, np.integer)) or C < 2 or C % 2:
        raise ValueError(f"C must be an even integer >= 2, got {C!r}")
    if not base > 0:
        raise ValueError(f"base must be > 0, got {base!r}")
    theta = float(base) ** (-np.arange(0, C, 2, dtype=np.float64) / C)
    return np.outer(np.asarray(positions, dtype=np.float64), theta)
    # END SOLUTION


def rope(
    X: np.ndarray,
    positions: np.ndarray | None = None,
    base: float = 10000.0,
    layout: str = "interleaved",
) -> np.ndarray:
    """Return X with every pair of channels at position m rotated by the angle m·θ_i.

    X is (T, C) or batched (B, T, C), C even; positions (length T) default to 0 … T − 1 and are
    the same for every sequence of a batch. With layout="interleaved" pair i is (x[2i],
    x[2i + 1]); with layout="halves" it is (x[i], x[i + C/2]); either way it becomes
    [x0 cos(mθ_i) − x1 sin(mθ_i), x0 sin(mθ_i) + x1 cos(mθ_i)]. Work in O(T·C) with cos and sin
    broadcast over the channels: never build a (C, C) matrix. Raises ValueError when C is odd,
    base is not > 0, the positions' length is not T or layout is unknown. Returns a new float
    array; X is not modified.
    """
    # BEGIN SOLUTION
    X = np.asarray(X, dtype=np.float64)
    if X.ndim not in (2, 3):
        raise ValueError(f"X must be (T, C) or (B, T, C), got shape {X.shape}")
    T, C = X.shape[-2:]
    if C % 2:
        raise ValueError(f"C = {C} is odd: RoPE rotates pairs of channels, so C must be even")
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {LAYOUTS}, got {layout!r}")
    positions = np.arange(T) if positions is None else np.asarray(positions, dtype=np.float64)
    if positions.shape != (T,):
        raise ValueError(f"positions must have length T = {T}, got shape {positions.shape}")
    if C == 0:
        return X.copy()
    angles = rope_angles(positions, C, base)
    cos, sin = np.cos(angles), np.sin(angles)
    if layout == "interleaved":
        x0, x1 = X[..., 0::2], X[..., 1::2]
        out = np.empty_like(X)
        out[..., 0::2] = x0 * cos - x1 * sin
        out[..., 1::2] = x0 * sin + x1 * cos
        return out
    x0, x1 = X[..., : C // 2], X[..., C // 2 :]
    return np.concatenate([x0 * cos - x1 * sin, x0 * sin + x1 * cos], axis=-1)
    # END SOLUTION


# ---------------------------------------------------------------------------------------------
# Part "matrix": the rotation R_m, orthogonal, and R_mᵀ R_n = R_{n−m}
# ---------------------------------------------------------------------------------------------


def rope_matrix(m: float, C: int, base: float = 10000.0, layout: str = "interleaved") -> np.ndarray:
    """Return the (C, C) rotation R_m with rope(x[None], positions=[m], …)[0] == R_m @ x.

    Interleaved: block-diagonal, block i = [[cos mθ_i, −sin mθ_i], [sin mθ_i, cos mθ_i]] on
    channels 2i, 2i + 1; halves: the same entries on channels i and i + C/2. Raises ValueError
    as rope does (odd C, base not > 0, unknown layout).
    """
    # BEGIN SOLUTION
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {LAYOUTS}, got {layout!r}")
    angles = rope_angles(np.array([m]), C, base)[0]
    first = np.arange(0, C, 2) if layout == "interleaved" else np.arange(C // 2)
    second = first + 1 if layout == "interleaved" else first + C // 2
    R = np.zeros((C, C))
    R[first, first] = R[second, second] = np.cos(angles)
    R[first, second] = -np.sin(angles)
    R[second, first] = np.sin(angles)
    return R
    # END SOLUTION


# ---------------------------------------------------------------------------------------------
# Part "attention": RoPE inside attention, and what it keeps
# ---------------------------------------------------------------------------------------------


def rope_attention(
    X: np.ndarray,
    W_q: np.ndarray,
    W_k: np.ndarray,
    W_v: np.ndarray,
    base: float = 10000.0,
) -> np.ndarray:
    """Return softmax(Q Kᵀ / sqrt(d_k)) V with Q = rope(X W_q), K = rope(X W_k), V = X W_v.

    Queries and keys are rotated (interleaved layout) before the scores; the values are not.
    X is (T, C) or (B, T, C); d_k = W_q.shape[1], even. The softmax is stable (scores of 1e4
    stay finite). Nothing passed in is modified.
    """
    # BEGIN SOLUTION
    X = np.asarray(X, dtype=np.float64)
    Q = rope(X @ np.asarray(W_q, dtype=np.float64), base=base)
    K = rope(X @ np.asarray(W_k, dtype=np.float64), base=base)
    V = X @ np.asarray(W_v, dtype=np.float64)
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True) @ V
    # END SOLUTION


def rope_decay_bound(distances: np.ndarray, C: int, base: float = 10000.0) -> np.ndarray:
    """Return RoFormer's relative upper bound (§3.4.3) at each relative distance r = n − m:

    (1 / (C/2)) · Σ_{j=1}^{C/2} |S_j|,  S_j = Σ_{i=0}^{j−1} exp(i·r·θ_i)  (i·r·θ_i: imaginary).

    The score of a query and key bounded by 1 per pair is at most this times max |h_{i+1} − h_i|
    (Abel summation); it falls as |r| grows. Returns an array of the distances' shape.
    """
    # BEGIN SOLUTION
    r = np.asarray(distances, dtype=np.float64)
    angles = rope_angles(r.reshape(-1), C, base)
    partial_sums = np.cumsum(np.exp(1j * angles), axis=-1)
    return np.abs(partial_sums).mean(axis=-1).reshape(r.shape)
    # END SOLUTION


# ---------------------------------------------------------------------------------------------
# Part "symbolic": one pair in SymPy, and a proof that only n − m counts
# ---------------------------------------------------------------------------------------------


def rotate_pair_symbolic(x0: sp.Expr, x1: sp.Expr, angle: sp.Expr) -> sp.Matrix:
    """Return the 2×1 sympy.Matrix [x0 cos(angle) − x1 sin(angle), x0 sin(angle) + x1 cos(angle)]
    (the pair turned by the angle)."""
    # BEGIN SOLUTION
    return sp.Matrix(
        [x0 * sp.cos(angle) - x1 * sp.sin(angle), x0 * sp.sin(angle) + x1 * sp.cos(angle)]
    )
    # END SOLUTION


def pair_score_symbolic(
    q0: sp.Expr, q1: sp.Expr, k0: sp.Expr, k1: sp.Expr, m: sp.Expr, n: sp.Expr, theta: sp.Expr
) -> sp.Expr:
    """Return (R_m q)·(R_n k) for one pair: q = (q0, q1) rotated by m·theta, k = (k0, k1) by
    n·theta, their dot product, as a SymPy expression (simplify it so that it shows it depends on
    m and n only through n − m)."""
    # BEGIN SOLUTION
    q = rotate_pair_symbolic(q0, q1, m * theta)
    k = rotate_pair_symbolic(k0, k1, n * theta)
    return sp.trigsimp(sp.expand((q.T * k)[0, 0]))
    # END SOLUTION


# The proof, in the kit's step format: a list of (expression, law) pairs from the statement's
# left side to its right (proof_domain.py: RELATIVE_SCORE), one law per step. It says that the
# score of one pair at positions m and m + r is q·(R_r k): only r = n − m counts. The laws:
# "angle sum" (R_{m+r} = R_m R_r), "algebra", "Pythagoras" (cos² + sin² = 1: R_mᵀ R_m = I).
# BEGIN SOLUTION
RELATIVE_SCORE_PROOF: list[tuple[str, str]] = [
    (
        "(q0*cos(w*m) - q1*sin(w*m))*(k0*cos(w*(m+r)) - k1*sin(w*(m+r)))"
        " + (q0*sin(w*m) + q1*cos(w*m))*(k0*sin(w*(m+r)) + k1*cos(w*(m+r)))",
        "statement",
    ),
    (
        "(q0*cos(w*m) - q1*sin(w*m))"
        "*(k0*(cos(w*m)*cos(w*r) - sin(w*m)*sin(w*r))"
        " - k1*(sin(w*m)*cos(w*r) + cos(w*m)*sin(w*r)))"
        " + (q0*sin(w*m) + q1*cos(w*m))"
        "*(k0*(sin(w*m)*cos(w*r) + cos(w*m)*sin(w*r))"
        " + k1*(cos(w*m)*cos(w*r) - sin(w*m)*sin(w*r)))",
        "angle sum",
    ),
    (
        "(sin(w*m)**2 + cos(w*m)**2)"
        "*(q0*(k0*cos(w*r) - k1*sin(w*r)) + q1*(k0*sin(w*r) + k1*cos(w*r)))",
        "algebra",
    ),
    ("q0*(k0*cos(w*r) - k1*sin(w*r)) + q1*(k0*sin(w*r) + k1*cos(w*r))", "Pythagoras"),
]
# END SOLUTION
