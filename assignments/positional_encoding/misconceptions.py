"""Known mistakes in the positional-encoding assignment, and the hint each deserves.

Each variant is a wrong version of one function (or a wrong value of one constant) of the
student's module, written with the module's own names (np, sp, softmax, rotation_matrix,
pe_pair): the grader replays a failing test's calls on it to name the mistake, and `autograder
validate` grades it as a submission (the reference with this one function replaced) to prove
that the hidden tests catch it, in its own part only, with its own hint.
"""

import numpy as np
import sympy as sp

from autograder.authoring import Misconception

# --- encoding --------------------------------------------------------------------------------


def sin_cos_swapped(T, C, base=10000.0):
    angles = np.arange(T)[:, None] / np.power(base, 2 * (np.arange(C) // 2) / C)
    return np.where(np.arange(C) % 2 == 0, np.cos(angles), np.sin(angles))


def exponent_i(T, C, base=10000.0):
    angles = np.arange(T)[:, None] / np.power(base, (np.arange(C) // 2) / C)
    return np.where(np.arange(C) % 2 == 0, np.sin(angles), np.cos(angles))


def exponent_per_column(T, C, base=10000.0):
    angles = np.arange(T)[:, None] / np.power(base, 2 * np.arange(C) / C)
    return np.where(np.arange(C) % 2 == 0, np.sin(angles), np.cos(angles))


def halves_not_interleaved(T, C, base=10000.0):
    half = (C + 1) // 2
    angles = np.arange(T)[:, None] / np.power(base, 2 * np.arange(half) / C)
    return np.concatenate([np.sin(angles), np.cos(angles)[:, : C - half]], axis=1)


def denominator_half_minus_one(T, C, base=10000.0):
    steps = max(C // 2 - 1, 1)
    angles = np.arange(T)[:, None] / np.power(base, (np.arange(C) // 2) / steps)
    return np.where(np.arange(C) % 2 == 0, np.sin(angles), np.cos(angles))


def base_1000(T, C, base=10000.0):
    angles = np.arange(T)[:, None] / np.power(1000.0, 2 * (np.arange(C) // 2) / C)
    return np.where(np.arange(C) % 2 == 0, np.sin(angles), np.cos(angles))


def degrees(T, C, base=10000.0):
    angles = np.arange(T)[:, None] / np.power(base, 2 * (np.arange(C) // 2) / C)
    return np.where(np.arange(C) % 2 == 0, np.sin(np.radians(angles)), np.cos(np.radians(angles)))


def integer_division(T, C, base=10000.0):
    angles = np.arange(T)[:, None] // np.power(base, 2 * (np.arange(C) // 2) / C)
    return np.where(np.arange(C) % 2 == 0, np.sin(angles), np.cos(angles))


def transposed_encoding(T, C, base=10000.0):
    angles = np.arange(T)[:, None] / np.power(base, 2 * (np.arange(C) // 2) / C)
    return np.where(np.arange(C) % 2 == 0, np.sin(angles), np.cos(angles)).T


def positions_from_one(T, C, base=10000.0):
    angles = np.arange(1, T + 1)[:, None] / np.power(base, 2 * (np.arange(C) // 2) / C)
    return np.where(np.arange(C) % 2 == 0, np.sin(angles), np.cos(angles))


def python_list(T, C, base=10000.0):
    angles = np.arange(T)[:, None] / np.power(base, 2 * (np.arange(C) // 2) / C)
    return np.where(np.arange(C) % 2 == 0, np.sin(angles), np.cos(angles)).tolist()


# --- attention -------------------------------------------------------------------------------


def no_scaling(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X, dtype=np.float64)
    Q = X if W_q is None else X @ W_q
    K = X if W_k is None else X @ W_k
    V = X if W_v is None else X @ W_v
    return softmax(Q @ np.swapaxes(K, -1, -2)) @ V  # noqa: F821 - the module's softmax


def scaled_by_d(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X, dtype=np.float64)
    Q = X if W_q is None else X @ W_q
    K = X if W_k is None else X @ W_k
    V = X if W_v is None else X @ W_v
    return softmax(Q @ np.swapaxes(K, -1, -2) / Q.shape[-1]) @ V  # noqa: F821


def softmax_wrong_axis(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X, dtype=np.float64)
    Q = X if W_q is None else X @ W_q
    K = X if W_k is None else X @ W_k
    V = X if W_v is None else X @ W_v
    return softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1]), axis=-2) @ V  # noqa: F821


def overflowing_softmax(S, axis=-1):
    weights = np.exp(np.asarray(S, dtype=np.float64))
    return weights / np.sum(weights, axis=axis, keepdims=True)


def weights_transposed(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X, dtype=np.float64)
    Q = X if W_q is None else X @ W_q
    K = X if W_k is None else X @ W_k
    V = X if W_v is None else X @ W_v
    weights = softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1]))  # noqa: F821
    return np.swapaxes(weights, -1, -2) @ V


def softmax_in_place(S, axis=-1):
    S -= np.max(S, axis=axis, keepdims=True)  # normalises the caller's array itself
    np.exp(S, out=S)
    S /= np.sum(S, axis=axis, keepdims=True)
    return S


def weights_not_output(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X, dtype=np.float64)
    Q = X if W_q is None else X @ W_q
    K = X if W_k is None else X @ W_k
    return softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1]))  # noqa: F821


def elementwise_product(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X, dtype=np.float64)
    Q = X if W_q is None else X @ W_q
    K = X if W_k is None else X @ W_k
    V = X if W_v is None else X @ W_v
    return softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])) * V  # noqa: F821


def overwrites_input(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X, dtype=np.float64)
    Q = X if W_q is None else X @ W_q
    K = X if W_k is None else X @ W_k
    V = X if W_v is None else X @ W_v
    out = softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])) @ V  # noqa: F821
    if out.shape == X.shape:
        X[...] = out  # reuses the caller's array as the output buffer
        return X
    return out


# --- rotation --------------------------------------------------------------------------------


def transposed_rotation(k, freq):
    theta = k * freq
    return np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])


def cos_sin_order(k, freq):
    theta = k * freq  # the rotation written for (cos, sin) pairs instead of (sin, cos)
    return np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])


def angle_without_frequency(k, freq):
    theta = k
    return np.array([[np.cos(theta), np.sin(theta)], [-np.sin(theta), np.cos(theta)]])


def angle_divided_by_frequency(k, freq):
    theta = k / freq
    return np.array([[np.cos(theta), np.sin(theta)], [-np.sin(theta), np.cos(theta)]])


# --- symbolic --------------------------------------------------------------------------------


def pair_swapped(pos, w):
    return (sp.cos(w * pos), sp.sin(w * pos))


def dot_not_simplified(pos, k, w):
    return sp.sin(w * pos) * sp.sin(w * (pos + k)) + sp.cos(w * pos) * sp.cos(w * (pos + k))


def dot_is_sine(pos, k, w):
    return sp.sin(w * k)


def dot_keeps_position(pos, k, w):
    return sp.cos(w * k + pos)


SKIPPED_ANGLE_SUM = [
    ("sin(w*p)*sin(w*(p+k)) + cos(w*p)*cos(w*(p+k))", "statement"),
    ("sin(w*p)**2*cos(w*k) + cos(w*p)**2*cos(w*k)", "algebra"),
    ("(sin(w*p)**2 + cos(w*p)**2)*cos(w*k)", "algebra"),
    ("cos(w*k)", "Pythagoras"),
]
FORGOT_PT_P = [
    ("attention(P @ X)", "statement"),
    ("softmax((P @ X) @ (P @ X).T / sqrt(d)) @ (P @ X)", "definition of attention"),
    ("softmax(P @ X @ X.T @ P.T / sqrt(d)) @ P @ X", "transpose of a product"),
    ("P @ softmax(X @ X.T / sqrt(d)) @ X", "softmax commutes with a permutation"),
    ("P @ attention(X)", "definition of attention"),
]

# --- the catalogue ---------------------------------------------------------------------------

_ENCODING = "sinusoidal_encoding"
_EQUIVARIANCE = ("permutation",)
"""Attention(PX) = P·Attention(X) is credited only when self_attention's values are right."""
CATALOGUE = (
    Misconception("sin_cos_swapped", _ENCODING, "encoding", "sin and cos are swapped",
                  "your even columns hold cosines and your odd columns sines: put sin in "
                  "columns 0, 2, 4, … and cos in 1, 3, 5, …", sin_cos_swapped),
    Misconception("exponent_i", _ENCODING, "encoding", "the exponent uses i instead of 2i",
                  "the divisor is base**(2i/C) with i the pair index: your frequencies fall "
                  "too slowly", exponent_i),
    Misconception("exponent_per_column", _ENCODING, "encoding",
                  "the exponent uses the column index (2j/C), so the two columns of a pair "
                  "get different frequencies",
                  "both columns 2i and 2i+1 share one frequency: use the pair index j // 2",
                  exponent_per_column),
    Misconception("halves_not_interleaved", _ENCODING, "encoding",
                  "all sines come first and all cosines after them",
                  "interleave them, sin in the even columns and cos in the odd ones (some "
                  "libraries concatenate the halves; the lessons' formula does not)",
                  halves_not_interleaved),
    Misconception("denominator_half_minus_one", _ENCODING, "encoding",
                  "the exponent divides by C/2 − 1 instead of C",
                  "the exponent is 2i/C exactly, as in the paper", denominator_half_minus_one),
    Misconception("base_1000", _ENCODING, "encoding", "the base is 1000",
                  "the lessons' base is 10000, and `base` is a parameter: use it", base_1000),
    Misconception("degrees", _ENCODING, "encoding", "the angles are taken in degrees",
                  "np.sin and np.cos expect radians: pos / base**(2i/C) is already an angle "
                  "in radians", degrees),
    Misconception("integer_division", _ENCODING, "encoding",
                  "positions are divided with // (integer division)",
                  "use / so that pos / base**(2i/C) keeps its fractional part",
                  integer_division),
    Misconception("transposed_encoding", _ENCODING, "encoding", "the matrix is transposed",
                  "rows are positions (T) and columns dimensions (C): return shape (T, C)",
                  transposed_encoding),
    Misconception("positions_from_one", _ENCODING, "encoding", "positions start at 1",
                  "the first position is 0, whose row is [0, 1, 0, 1, …]", positions_from_one),
    Misconception("python_list", _ENCODING, "encoding", "the result is a Python list",
                  "return a NumPy array, e.g. np.array(rows) or build it with NumPy", python_list),
    Misconception("no_scaling", "self_attention", "attention", "the scores are not scaled",
                  "divide Q Kᵀ by √d_k before the softmax", no_scaling, also_affects=_EQUIVARIANCE),
    Misconception("scaled_by_d", "self_attention", "attention",
                  "the scores are divided by d_k instead of √d_k",
                  "the scale is 1/√d_k: np.sqrt(Q.shape[-1])", scaled_by_d,
                  also_affects=_EQUIVARIANCE),
    Misconception("softmax_wrong_axis", "self_attention", "attention",
                  "the softmax runs over the wrong axis",
                  "each row of scores (one query against every key) must sum to 1: "
                  "softmax over the last axis", softmax_wrong_axis, also_affects=_EQUIVARIANCE),
    Misconception("weights_transposed", "self_attention", "attention",
                  "the attention weights are applied transposed",
                  "row i of the output mixes the rows of V with row i of the weights: "
                  "weights @ V, not weightsᵀ @ V", weights_transposed,
                  also_affects=_EQUIVARIANCE),
    Misconception("softmax_in_place", "softmax", "attention",
                  "softmax normalises the caller's array in place",
                  "S -= …, np.exp(S, out=S) and S /= … write into the caller's scores: compute "
                  "new arrays (shifted = S - S.max(…))", softmax_in_place, mutates_input=True),
    Misconception("overflowing_softmax", "softmax", "attention",
                  "the softmax overflows for large scores",
                  "exp(1e4) is inf: subtract each row's maximum before exp (the result is the "
                  "same, and finite)", overflowing_softmax),
    Misconception("weights_not_output", "self_attention", "attention",
                  "the attention weights are returned instead of the output",
                  "multiply the weights by V: softmax(Q Kᵀ / √d_k) @ V", weights_not_output,
                  # the weights permute as P W Pᵀ, so Attention(PX) = P·Attention(X) fails too
                  also_affects=("permutation",)),
    Misconception("elementwise_product", "self_attention", "attention",
                  "the weights are multiplied with * instead of @",
                  "* multiplies entry by entry; a weighted sum of the rows of V is weights @ V",
                  elementwise_product, also_affects=("permutation",)),  # not equivariant either
    Misconception("overwrites_input", "self_attention", "attention",
                  "the caller's X is overwritten", "work on new arrays; never write into X",
                  overwrites_input, mutates_input=True),
    Misconception("transposed_rotation", "rotation_matrix", "rotation",
                  "the rotation matrix is transposed (it shifts by −k)",
                  "sin(kf) sits top right and −sin(kf) bottom left", transposed_rotation),
    Misconception("cos_sin_order", "rotation_matrix", "rotation",
                  "the rotation is written for (cos, sin) pairs",
                  "the pairs are (sin, cos): [[cos, sin], [−sin, cos]] acts on [sin, cos]",
                  cos_sin_order),
    Misconception("angle_without_frequency", "rotation_matrix", "rotation",
                  "the angle is k, without the frequency",
                  "the angle of the rotation is k · freq", angle_without_frequency),
    Misconception("angle_divided_by_frequency", "rotation_matrix", "rotation",
                  "the angle is k / freq", "the angle of the rotation is k · freq (times, "
                  "not divided by)", angle_divided_by_frequency),
    Misconception("pair_swapped", "pe_pair", "symbolic", "the pair is (cos, sin)",
                  "pe_pair is (sin(w·pos), cos(w·pos)): sine first", pair_swapped),
    Misconception("dot_not_simplified", "relative_dot", "symbolic",
                  "the dot product is returned unsimplified, with pos still in it",
                  "expand_trig, expand and trigsimp reduce it to cos(w·k)", dot_not_simplified),
    Misconception("dot_is_sine", "relative_dot", "symbolic", "the result is sin(w·k)",
                  "the cosine-difference identity gives cos(w·k)", dot_is_sine),
    Misconception("dot_keeps_position", "relative_dot", "symbolic",
                  "the result still depends on pos",
                  "pos cancels: cos(A − B) with A = w(pos + k), B = w·pos is cos(w·k)",
                  dot_keeps_position),
    Misconception("skipped_angle_sum", "RELATIVE_POSITION_PROOF", "symbolic",
                  "the proof expands the angle sum and multiplies out in one step",
                  "apply one law per step: 'angle sum' first, then 'algebra'",
                  value=SKIPPED_ANGLE_SUM),
    Misconception("forgot_pt_p", "PERMUTATION_PROOF", "permutation",
                  "the proof drops PᵀP without citing 'PᵀP = I'",
                  "after 'softmax commutes with a permutation' you have … P.T @ P @ X: cancel "
                  "P.T @ P in a step of its own", value=FORGOT_PT_P),
)  # fmt: skip
