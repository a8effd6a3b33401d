"""The rotary-embeddings assignment without its new ingredient: nothing is rotated.

`autograder validate` grades the reference with each of these in place of its function (and all
of them at once) and fails when a test of that function gives it points: a law the identity
satisfies, or an invariance that attention without positions has anyway, must not earn the
rotation's points. Each is what a student who skipped the rotation would write: the same
computation with every angle 0, checking nothing. They use the module's own names (np, sp).
"""

import numpy as np
import sympy as sp

INGREDIENT = "the rotation"


def angles_all_zero(positions, C, base=10000.0):
    return np.zeros((len(positions), C // 2))


def rope_unrotated(X, positions=None, base=10000.0, layout="interleaved"):
    return np.array(X, dtype=np.float64)


def matrix_unrotated(m, C, base=10000.0, layout="interleaved"):
    return np.eye(C)


def attention_unrotated(X, W_q, W_k, W_v, base=10000.0):
    X = np.asarray(X, dtype=np.float64)
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True) @ V


def decay_bound_unrotated(distances, C, base=10000.0):
    # every exp(i·r·θ_i) is 1: |S_j| = j at every distance
    return np.full(np.shape(distances), (C // 2 + 1) / 2)


def pair_unrotated(x0, x1, angle):
    return sp.Matrix([x0, x1])


def pair_score_unrotated(q0, q1, k0, k1, m, n, theta):
    return q0 * k0 + q1 * k1


TRIVIAL = {
    "rope_angles": angles_all_zero,
    "rope": rope_unrotated,
    "rope_matrix": matrix_unrotated,
    "rope_attention": attention_unrotated,
    "rope_decay_bound": decay_bound_unrotated,
    "rotate_pair_symbolic": pair_unrotated,
    "pair_score_symbolic": pair_score_unrotated,
}
