"""Measured signatures of the rotary-embeddings assignment: the angles a student's rope turned
each pair by, read from its output, and the frequencies of a table of angles.

They run in the grader on the student's data (diagnose.observe), never student code. Each
speaks only when its model reproduces the student's output.
"""

from __future__ import annotations

import numpy as np
from shared.attention import attention_signature

from autograder.authoring import Call, Signature


def _wrapped(a: np.ndarray) -> np.ndarray:
    return (a + np.pi) % (2 * np.pi) - np.pi


def _name_angles(measured: np.ndarray, positions: np.ndarray, theta: np.ndarray) -> str | None:
    """What (T, C/2) angles are, against m·θ_i: the sign, positions from 1, i for 2i."""
    models = {
        "every pair turns by −mθ_i: the signs of the sines are swapped": -np.outer(
            positions, theta
        ),
        "position m is turned by (m + 1)·θ_i: positions counted from 1": np.outer(
            positions + 1, theta
        ),
    }
    C = 2 * theta.size
    base = theta[1] ** (-C / 2) if theta.size > 1 else None
    if base is not None:
        half = base ** (-np.arange(theta.size) / C)
        double = base ** (-4 * np.arange(theta.size) / C)
        models[
            "your frequencies are θ_i = base^(−i/C): pair i turns at base^(−i/C) per position, "
            "i where 2i belongs"
        ] = np.outer(positions, half)
        models[
            "your frequencies are θ_i = base^(−4i/C): pair i turns at base^(−4i/C) per "
            "position, 4i where 2i belongs"
        ] = np.outer(positions, double)
    for sentence, model in models.items():
        if np.allclose(_wrapped(measured - model), 0.0, atol=1e-6):
            return sentence
    return _other_frequencies(measured, positions, theta)


def _other_frequencies(
    measured: np.ndarray, positions: np.ndarray, theta: np.ndarray
) -> str | None:
    """Angles that grow with the position at another frequency per pair than θ_i: read from
    position 1 (the angle one step turns), and said when every row agrees with it."""
    ones = np.flatnonzero(positions == 1)
    if ones.size == 0 or positions.size < 3:
        return None
    found = measured[ones[0]]
    if not np.allclose(_wrapped(measured - np.outer(positions, found)), 0.0, atol=1e-6):
        return None  # not m times a frequency: some other angle
    if np.allclose(_wrapped(found - theta), 0.0, atol=1e-9):
        return None
    if np.allclose(found, theta * np.pi / 180, rtol=1e-6, atol=1e-12):
        return (
            "your angles are m·θ_i read as degrees: np.sin and np.cos take radians, so use "
            "m·θ_i itself (no conversion by π/180)"
        )
    pair = int(np.argmax(np.abs(_wrapped(found - theta)) > 1e-9))
    if np.allclose(found, theta, rtol=2e-3, atol=0):
        return (
            f"your angles lose precision: pair {pair} turns {found[pair]:.6g} rad per position "
            f"where θ_{pair} = {theta[pair]:.6g}; compute the angles m·θ_i in float64 (float16 "
            "or float32 rounds them, and far positions drift)"
        )
    return (
        f"your frequencies are not θ_i = base^(−2i/C): pair {pair} turns {found[pair]:.6g} rad "
        f"per position where θ_{pair} = {theta[pair]:.6g}; check the exponent −2i/C (its sign, "
        "i counted from 0, C the full width)"
    )


def _inputs(call: Call) -> tuple[np.ndarray, np.ndarray, float, str] | None:
    X = np.asarray(call.argument(0, "X"), dtype=np.float64)
    positions = call.argument(1, "positions", None)
    base = float(call.argument(2, "base", 10000.0))
    layout = call.argument(3, "layout", "interleaved")
    if X.ndim != 2 or X.shape[1] < 4 or X.shape[1] % 2 or layout not in ("interleaved", "halves"):
        return None
    T = X.shape[0]
    positions = (
        np.arange(T, dtype=np.float64) if positions is None else np.asarray(positions, float)
    )
    return X, positions, base, layout


def rope_signature(call: Call, expected) -> str | None:
    """The angle each pair of a rope output was turned by, against m·θ_i."""
    found = _inputs(call)
    if found is None:
        return None
    X, positions, base, layout = found
    raw = np.asarray(call.result)
    given = np.asarray(call.argument(0, "X"))
    if raw.dtype.kind in "iub" and given.dtype.kind in "iub":
        return (
            "your result keeps X's integer dtype, so the rotated values are cut to whole "
            "numbers: compute in float and return a new float array (writing the result into "
            "X, which modifies it, or into np.empty_like(X) keeps X's dtype)"
        )
    out = np.asarray(call.result, dtype=np.float64)
    if out.shape != X.shape or not np.isfinite(out).all():
        return None
    C = X.shape[1]
    theta = base ** (-np.arange(0, C, 2) / C)
    angles = np.outer(positions, theta)
    other = "halves" if layout == "interleaved" else "interleaved"
    if not np.allclose(out, X) and np.allclose(out, _turned(X, angles, other), atol=1e-8):
        return (
            f"your rope rotates the pairs of the {other} layout where layout={layout!r} was "
            f"asked: interleaved pairs channels (2i, 2i+1), halves pairs channel i with "
            f"i + C/2 (rotate_half)"
        )
    if np.allclose(out, _turned(X, angles, layout, swapped=True), atol=1e-8):
        return (
            "your pairs take sin where cos belongs and cos where sin belongs: a pair (x0, x1) "
            "becomes (x0 cos mθ − x1 sin mθ, x0 sin mθ + x1 cos mθ)"
        )
    if layout == "interleaved":
        before, after = X[:, 0::2] + 1j * X[:, 1::2], out[:, 0::2] + 1j * out[:, 1::2]
    else:
        before = X[:, : C // 2] + 1j * X[:, C // 2 :]
        after = out[:, : C // 2] + 1j * out[:, C // 2 :]
    if np.min(np.abs(before)) < 1e-6 or not np.allclose(np.abs(after), np.abs(before)):
        return None  # not a rotation of these pairs: the angle means nothing
    return _name_angles(np.angle(after / before), positions, theta)


def _turned(X: np.ndarray, angles: np.ndarray, layout: str, swapped: bool = False) -> np.ndarray:
    """X (T, C) with each pair of `layout` turned by `angles` (T, C/2); `swapped`: with sin
    and cos exchanged in the formula."""
    C = X.shape[1]
    first, second = (
        (X[:, 0::2], X[:, 1::2]) if layout == "interleaved" else (X[:, : C // 2], X[:, C // 2 :])
    )
    c, s = (np.sin(angles), np.cos(angles)) if swapped else (np.cos(angles), np.sin(angles))
    out = np.empty_like(X)
    new_first, new_second = first * c - second * s, first * s + second * c
    if layout == "interleaved":
        out[:, 0::2], out[:, 1::2] = new_first, new_second
    else:
        out[:, : C // 2], out[:, C // 2 :] = new_first, new_second
    return out


def matrix_signature(call: Call, expected) -> str | None:
    """What a rope_matrix R_m is against the block rotation of its layout: the other layout's
    blocks, blocks that are no rotation (a lost minus sign), or other angles."""
    m = call.argument(0, "m")
    C = call.argument(1, "C")
    base = float(call.argument(2, "base", 10000.0))
    layout = call.argument(3, "layout", "interleaved")
    R = np.asarray(call.result, dtype=np.float64)
    if not isinstance(C, int) or C < 4 or C % 2 or R.shape != (C, C) or base <= 0:
        return None
    if layout not in ("interleaved", "halves") or not np.isfinite(R).all():
        return None
    theta = base ** (-np.arange(0, C, 2) / C)
    angles = np.full((1, C // 2), float(m)) * theta
    other = "halves" if layout == "interleaved" else "interleaved"
    if np.allclose(R, _turned(np.eye(C), np.repeat(angles, C, axis=0), other).T, atol=1e-8):
        return (
            f"your R_m is the block rotation of the {other} layout where layout={layout!r} was "
            "asked: interleaved blocks act on channels (2i, 2i+1), halves blocks on i and i + C/2"
        )
    if not np.allclose(R.T @ R, np.eye(C), atol=1e-6):
        return (
            "your R_m is not a rotation: RᵀR should be I; each 2×2 block must be "
            "[[cos mθ_i, −sin mθ_i], [sin mθ_i, cos mθ_i]] (has a minus sign gone?)"
        )
    pairs = (
        (slice(0, C, 2), slice(1, C, 2)) if layout == "interleaved"
        else (slice(0, C // 2), slice(C // 2, C))
    )  # fmt: skip
    first, second = np.arange(C)[pairs[0]], np.arange(C)[pairs[1]]
    measured = np.arctan2(R[second, first], R[first, first])[None, :]
    return _name_angles(measured, np.array([float(m)]), theta)


def angles_signature(call: Call, expected) -> str | None:
    """A table of angles read as m·θ_i with another θ (or sign, or positions from 1)."""
    positions = np.asarray(call.argument(0, "positions"), dtype=np.float64).reshape(-1)
    C = call.argument(1, "C")
    base = float(call.argument(2, "base", 10000.0))
    table = np.asarray(call.result, dtype=np.float64)
    if not isinstance(C, int) or C < 4 or table.shape != (positions.size, C // 2):
        return None
    theta = base ** (-np.arange(0, C, 2) / C)
    return _name_angles(table, positions, theta)


def rotated_by_position(M: np.ndarray, call: Call) -> np.ndarray:
    """Queries or keys (T, d) or (B, T, d) as rope_attention must rotate them: pair (2i, 2i+1)
    of row m turned by m·θ_i. An odd width is left as it is (the measure then finds no model)."""
    base = float(call.argument(4, "base", 10000.0))
    T, d = M.shape[-2], M.shape[-1]
    if d % 2 or base <= 0:
        return M
    angles = np.outer(np.arange(T, dtype=np.float64), base ** (-np.arange(0, d, 2) / d))
    pairs = M[..., 0::2] + 1j * M[..., 1::2]
    turned = pairs * np.exp(1j * angles)
    out = np.empty_like(M)
    out[..., 0::2], out[..., 1::2] = turned.real, turned.imag
    return out


SIGNATURES = (
    Signature("rope", rope_signature),
    Signature("rope_angles", angles_signature),
    Signature("rope_matrix", matrix_signature),
    # the course's attention diagnoses (scale, axis, transposed weights, K like Q), on the
    # rotated queries and keys
    Signature("rope_attention", attention_signature(encode_queries_keys=rotated_by_position)),
)
