"""Known mistakes in the rotary-embeddings assignment, and the hint each deserves.

Each variant is a wrong version of one function of the student's module, written with the
module's own names (np, sp, rope_angles, rope, rotate_pair_symbolic): the grader replays a
failing test's calls on it to name the mistake, and `autograder validate` grades it as a
submission (the reference with this one function replaced) to prove that the tests catch it, in
its own part (and the parts that rightly depend on it), with its own hint.

Each entry says where the mistake is found in public code. One mistake of the issue is not here:
a (C, C) rotation built per position is right and only slow, and a catalogue entry is named by
wrong numbers; the hidden test test_hidden_scale.py catches it by the call's time limit, and the
sample class grades it (sample_class/bug_matrix_per_position.py).
"""

import numpy as np
import sympy as sp

from autograder.authoring import Misconception

# --- the angles and the rotation --------------------------------------------------------------


def angles_i_for_2i(positions, C, base=10000.0):
    # θ_i = base^(−i/C) over i = 0 … C/2 − 1: `1 / base ** (torch.arange(dim // 2) / dim)`,
    # as in from-scratch RoPE posts that drop the 2 of arange(0, dim, 2)
    if isinstance(C, bool) or not isinstance(C, (int, np.integer)) or C < 2 or C % 2:
        raise ValueError(f"C must be an even integer >= 2, got {C!r}")
    if not base > 0:
        raise ValueError(f"base must be > 0, got {base!r}")
    theta = float(base) ** (-np.arange(C // 2, dtype=np.float64) / C)
    return np.outer(np.asarray(positions, dtype=np.float64), theta)


def layouts_mixed(X, positions=None, base=10000.0, layout="interleaved"):
    # the halves layout's table cat(freqs, freqs) (GPT-NeoX, LLaMA's HF port) with interleaved
    # pairs (GPT-J's rotate_every_two): the two channels of a pair get different angles. The
    # permute() of transformers' convert_llama_weights_to_hf.py exists because of this meeting.
    X = np.asarray(X, dtype=np.float64)
    T, C = X.shape[-2:]
    if C % 2:
        raise ValueError(f"C = {C} is odd")
    positions = np.arange(T) if positions is None else np.asarray(positions, dtype=np.float64)
    if positions.shape != (T,):
        raise ValueError("positions must have length T")
    angles = rope_angles(positions, C, base)  # noqa: F821 - the module's
    emb = np.concatenate([angles, angles], axis=-1)  # halves' table, channel j: θ_(j mod C/2)
    cos, sin = np.cos(emb), np.sin(emb)
    if layout == "halves":
        rotated = np.concatenate([-X[..., C // 2 :], X[..., : C // 2]], axis=-1)
    else:
        rotated = np.empty_like(X)
        rotated[..., 0::2], rotated[..., 1::2] = -X[..., 1::2], X[..., 0::2]
    return X * cos + rotated * sin


def positions_from_one(X, positions=None, base=10000.0, layout="interleaved"):
    # `t = torch.arange(1, seq_len + 1)`: the first token is already rotated
    X = np.asarray(X, dtype=np.float64)
    T, C = X.shape[-2:]
    if C % 2:
        raise ValueError(f"C = {C} is odd")
    positions = np.arange(1, T + 1) if positions is None else np.asarray(positions, float)
    if positions.shape != (T,):
        raise ValueError("positions must have length T")
    angles = rope_angles(positions, C, base)  # noqa: F821
    cos, sin = np.cos(angles), np.sin(angles)
    if layout == "halves":
        x0, x1 = X[..., : C // 2], X[..., C // 2 :]
        return np.concatenate([x0 * cos - x1 * sin, x0 * sin + x1 * cos], axis=-1)
    out = np.empty_like(X)
    out[..., 0::2] = X[..., 0::2] * cos - X[..., 1::2] * sin
    out[..., 1::2] = X[..., 0::2] * sin + X[..., 1::2] * cos
    return out


def angle_sign_flipped(X, positions=None, base=10000.0, layout="interleaved"):
    # rotate_half written as cat(x2, -x1) instead of cat(-x2, x1): every pair turns by −mθ_i
    X = np.asarray(X, dtype=np.float64)
    T, C = X.shape[-2:]
    if C % 2:
        raise ValueError(f"C = {C} is odd")
    positions = np.arange(T) if positions is None else np.asarray(positions, float)
    if positions.shape != (T,):
        raise ValueError("positions must have length T")
    angles = rope_angles(positions, C, base)  # noqa: F821
    cos, sin = np.cos(angles), np.sin(angles)
    if layout == "halves":
        x0, x1 = X[..., : C // 2], X[..., C // 2 :]
        return np.concatenate([x0 * cos + x1 * sin, -x0 * sin + x1 * cos], axis=-1)
    out = np.empty_like(X)
    out[..., 0::2] = X[..., 0::2] * cos + X[..., 1::2] * sin
    out[..., 1::2] = -X[..., 0::2] * sin + X[..., 1::2] * cos
    return out


def odd_width_passed_through(X, positions=None, base=10000.0, layout="interleaved"):
    # partial-rotary code (`rotary_dim`) used as if it were the whole: an odd last channel is
    # left as it is instead of refused
    X = np.asarray(X, dtype=np.float64)
    T, C = X.shape[-2:]
    even = C - C % 2
    positions = np.arange(T) if positions is None else np.asarray(positions, float)
    if positions.shape != (T,):
        raise ValueError("positions must have length T")
    out = X.copy()
    if even == 0:
        return out
    angles = rope_angles(positions, even, base)  # noqa: F821
    cos, sin = np.cos(angles), np.sin(angles)
    if layout == "halves":
        x0, x1 = X[..., : even // 2], X[..., even // 2 : even]
        out[..., :even] = np.concatenate([x0 * cos - x1 * sin, x0 * sin + x1 * cos], axis=-1)
        return out
    out[..., 0:even:2] = X[..., 0:even:2] * cos - X[..., 1:even:2] * sin
    out[..., 1:even:2] = X[..., 0:even:2] * sin + X[..., 1:even:2] * cos
    return out


def matrix_transposed(m, C, base=10000.0, layout="interleaved"):
    # the block [[cos, sin], [−sin, cos]]: the row-vector convention x @ R copied into R @ x
    angles = rope_angles(np.array([m]), C, base)[0]  # noqa: F821
    first = np.arange(0, C, 2) if layout == "interleaved" else np.arange(C // 2)
    second = first + 1 if layout == "interleaved" else first + C // 2
    R = np.zeros((C, C))
    R[first, first] = R[second, second] = np.cos(angles)
    R[first, second] = np.sin(angles)
    R[second, first] = -np.sin(angles)
    return R


# --- attention ----------------------------------------------------------------------------------


def values_rotated_too(X, W_q, W_k, W_v, base=10000.0):
    # rope applied to q, k and v alike: position leaks into the values
    X = np.asarray(X, dtype=np.float64)
    Q, K = rope(X @ W_q, base=base), rope(X @ W_k, base=base)  # noqa: F821
    V = rope(X @ W_v, base=base)  # noqa: F821
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True) @ V


def only_queries_rotated(X, W_q, W_k, W_v, base=10000.0):
    # `q = apply_rotary(q)` with the line for k forgotten: the score then holds m, not n − m
    X = np.asarray(X, dtype=np.float64)
    Q, K, V = rope(X @ W_q, base=base), X @ W_k, X @ W_v  # noqa: F821
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True) @ V


def rotated_after_attention(X, W_q, W_k, W_v, base=10000.0):
    # the rotation applied after the scores were taken, to attention's output
    X = np.asarray(X, dtype=np.float64)
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return rope(weights / weights.sum(axis=-1, keepdims=True) @ V, base=base)  # noqa: F821


def decay_abs_of_mean(distances, C, base=10000.0):
    # |mean of S_j| for mean of |S_j|: the partial sums' phases cancel
    r = np.asarray(distances, dtype=np.float64)
    partial_sums = np.cumsum(np.exp(1j * rope_angles(r.reshape(-1), C, base)), axis=-1)  # noqa: F821
    return np.abs(partial_sums.mean(axis=-1)).reshape(r.shape)


# --- SymPy ------------------------------------------------------------------------------------


def score_left_expanded(q0, q1, k0, k1, m, n, theta):
    # the products multiplied out, never combined by the angle-difference law
    q = rotate_pair_symbolic(q0, q1, m * theta)  # noqa: F821
    k = rotate_pair_symbolic(k0, k1, n * theta)  # noqa: F821
    return sp.expand((q.T * k)[0, 0])


PROOF_WITHOUT_ANGLE_SUM = [
    (
        "(q0*cos(w*m) - q1*sin(w*m))*(k0*cos(w*(m+r)) - k1*sin(w*(m+r)))"
        " + (q0*sin(w*m) + q1*cos(w*m))*(k0*sin(w*(m+r)) + k1*cos(w*(m+r)))",
        "statement",
    ),
    (
        "(sin(w*m)**2 + cos(w*m)**2)"
        "*(q0*(k0*cos(w*r) - k1*sin(w*r)) + q1*(k0*sin(w*r) + k1*cos(w*r)))",
        "algebra",
    ),
    ("q0*(k0*cos(w*r) - k1*sin(w*r)) + q1*(k0*sin(w*r) + k1*cos(w*r))", "Pythagoras"),
]
"""The angle-difference step left out: algebra cannot open cos(w*(m+r))."""


# --- the catalogue ---------------------------------------------------------------------------

_USES_ROPE = ("matrix", "attention")
"""rope_attention and the tests of R_m against rope build on rope: its mistakes cost them too."""

CATALOGUE = (
    Misconception("angles_i_for_2i", "rope_angles", "rope",
                  "θ_i = base^(−i/C): i where 2i belongs",
                  "θ_i = base ** (−2i / C) for i = 0 … C/2 − 1: np.arange(0, C, 2) / C",
                  angles_i_for_2i, also_affects=_USES_ROPE),
    Misconception("layouts_mixed", "rope", "rope",
                  "the halves layout's angle table (θ repeated over the two halves) is used "
                  "with interleaved pairs",
                  "interleaved pairs (2i, 2i + 1) share one angle mθ_i: repeat each θ_i twice "
                  "(np.repeat), or pair the halves (i, i + C/2) as rotate_half does",
                  layouts_mixed, also_affects=_USES_ROPE),
    Misconception("positions_from_one", "rope", "rope",
                  "positions start at 1: the first token is rotated too",
                  "the default positions are 0 … T − 1 (np.arange(T)); position 0 is no rotation",
                  positions_from_one, also_affects=_USES_ROPE),
    Misconception("angle_sign_flipped", "rope", "rope",
                  "every pair turns by −mθ_i: the signs of the sines are swapped",
                  "[x0 cos − x1 sin, x0 sin + x1 cos]: in rotate_half, cat(−x2, x1)",
                  angle_sign_flipped, also_affects=_USES_ROPE),
    Misconception("odd_width_passed_through", "rope", "rope",
                  "an odd width is accepted and its last channel left unrotated",
                  "RoPE rotates pairs: raise ValueError when C is odd",
                  odd_width_passed_through, refused_inputs=True),
    Misconception("matrix_transposed", "rope_matrix", "matrix",
                  "the blocks of R_m are transposed: it rotates by −mθ_i",
                  "block i is [[cos mθ_i, −sin mθ_i], [sin mθ_i, cos mθ_i]] so that "
                  "R_m @ x is rope(x)", matrix_transposed),
    Misconception("values_rotated_too", "rope_attention", "attention",
                  "the values are rotated too",
                  "only Q and K carry position: V = X @ W_v, not rotated",
                  values_rotated_too),
    Misconception("only_queries_rotated", "rope_attention", "attention",
                  "only the queries are rotated, not the keys",
                  "rotate both: Q = rope(X @ W_q) and K = rope(X @ W_k), so that scores see "
                  "n − m", only_queries_rotated),
    Misconception("rotated_after_attention", "rope_attention", "attention",
                  "the rotation is applied after attention, to its output",
                  "rotate Q and K before the scores Q Kᵀ; the output is not rotated",
                  rotated_after_attention),
    Misconception("decay_abs_of_mean", "rope_decay_bound", "attention",
                  "the bound takes |the mean of S_j| instead of the mean of |S_j|",
                  "(1/(C/2)) Σ_j |S_j|: the absolute value of each partial sum, then the mean",
                  decay_abs_of_mean),
    Misconception("score_left_expanded", "pair_score_symbolic", "symbolic",
                  "the score is multiplied out but still holds m and n apart",
                  "combine the products with the angle-difference law (sp.trigsimp does it): "
                  "the score holds n − m only", score_left_expanded),
    Misconception("proof_without_angle_sum", "RELATIVE_SCORE_PROOF", "symbolic",
                  "the proof skips the angle-difference step",
                  "open cos(w*(m+r)) and sin(w*(m+r)) by 'angle sum' as a step of its own",
                  value=PROOF_WITHOUT_ANGLE_SUM),
)  # fmt: skip
