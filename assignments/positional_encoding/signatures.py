"""Measured signatures: what a wrong result of each function shows, without a catalogue.

Each measurement reads one wrong call (the student's arguments and result, and the reference's
result) and, when the result has a clean shape of its own, says what it is: the frequency and
phase of every column of an encoding, the scale and axis of the attention weights that
reproduce an output, the axis a softmax sums to 1 along, the angle of a rotation. The grader runs
them beside the catalogue's replays (diagnose.observe); they never run student code.
"""

from __future__ import annotations

import math

import numpy as np
from shared.attention import attention_signature, softmax_signature

from autograder.authoring import Call, Signature

LESSONS_BASE = 10000.0
"""The base of the lessons' formula (and the default of `base`)."""
FIT = 1e-3
"""How closely a fitted model must reproduce every entry before it is reported."""
FASTEST = 2.5
"""The fastest frequency (radians per position) a column sampled at whole positions shows."""


def _near(a: float, b: float, rel: float = 2e-3) -> bool:
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-12)


def _number(value: float) -> str:
    return f"{value:.4g}"


# --- the encoding: frequency, phase and layout of every column ------------------------------


def fit_column(y: np.ndarray, eps: float = 2.3e-16) -> tuple[str, float, float] | None:
    """("sin" or "cos", ω, how far off ω may be) when y[p] = sin(ωp) or cos(ωp) for
    p = 0, 1, …, each entry known to `eps` (the student's floating-point type); else None."""
    if y.size < 3 or not np.isfinite(y).all():
        return None
    positions = np.arange(y.size, dtype=np.float64)
    if abs(y[0]) < FIT:
        kind, wave, slope, inverse = "sin", np.sin, np.cos, np.arcsin
        limit = math.pi / 2 - 0.1
    elif abs(y[0] - 1) < FIT:
        kind, wave, slope, inverse = "cos", np.cos, np.sin, np.arccos
        limit = math.pi - 0.1
    else:
        return None
    candidates = [float(inverse(np.clip(y[1], -1, 1)))]
    if kind == "sin":
        candidates.append(math.pi - candidates[0])
    omega = min(candidates, key=lambda w: float(np.max(np.abs(wave(w * positions) - y))))
    if np.max(np.abs(wave(omega * positions) - y)) > FIT:
        return None
    used = 1
    for _ in range(3):  # the furthest position before the angle passes `limit` measures best
        furthest = min(y.size - 1, int(limit / omega)) if omega > 0 else y.size - 1
        if furthest <= used:
            break
        refined = float(inverse(np.clip(y[furthest], -1, 1))) / furthest
        if np.max(np.abs(wave(refined * positions) - y)) > FIT:
            break  # a fast (aliased) frequency: keep the estimate that reproduces the column
        omega, used = refined, furthest
    # an entry off by eps moves the angle by eps / |d wave| (the inverse's steepness there)
    steepness = max(abs(float(slope(omega * used))), math.sqrt(2 * eps))
    return kind, abs(omega), 4 * eps / (steepness * used)


def _precision(value: object) -> float:
    dtype = getattr(value, "dtype", None)
    if dtype is not None and np.issubdtype(dtype, np.floating):
        return float(np.finfo(dtype).eps)
    return float(np.finfo(np.float64).eps)


def _layout(kinds: list[str | None], C: int) -> str | None:
    expected = ["sin" if j % 2 == 0 else "cos" for j in range(C)]
    if kinds == expected or None in kinds or C < 2:
        return None
    if kinds == ["cos" if k == "sin" else "sin" for k in expected]:
        return "your even columns are cosines and your odd columns sines (sin and cos swapped)"
    if all(k == "sin" for k in kinds):
        return "every column of yours is a sine: the odd columns 2i+1 are cosines"
    if all(k == "cos" for k in kinds):
        return "every column of yours is a cosine: the even columns 2i are sines"
    half = (C + 1) // 2
    if kinds == ["sin"] * half + ["cos"] * (C - half):
        return (
            "your sines fill the first half of the columns and your cosines the second half: "
            "interleave them, sin in columns 0, 2, 4, … and cos in 1, 3, 5, …"
        )
    wrong = next(j for j in range(C) if kinds[j] != expected[j])
    return f"your column {wrong} is a {kinds[wrong]} where the formula has a {expected[wrong]}"


def describe_frequencies(omegas: dict[int, float], C: int, base: float, what: str) -> str | None:
    """Name the law the measured frequencies of pairs i follow, when it is a clean one.

    `omegas` maps a pair (or column) index i, as the exponent numerator 2i, to its measured
    frequency: the right law is ω = base^(−2i/C)."""
    if len(omegas) < 2 or any(w <= 0 for w in omegas.values()):
        return None
    exponents = {n: -C * math.log(w) / math.log(base) for n, w in omegas.items()}
    if all(abs(e - n) < 0.02 for n, e in exponents.items()):
        return None  # the right frequencies: the mistake is elsewhere
    first = omegas.get(0)
    if first is not None and not _near(first, 1.0):
        scale = first
        if _near(scale, math.pi / 180):
            return f"{what} 0 oscillates at π/180 = {_number(scale)} per position, not 1: degrees?"
        return f"{what} 0 oscillates at {_number(scale)} per position; the formula gives 1"
    bases = [w ** (-C / n) for n, w in omegas.items() if n > 0]
    lessons = bases and max(bases) / min(bases) < 1.01 and _near(bases[0], LESSONS_BASE, 0.01)
    if lessons and not _near(base, LESSONS_BASE, 0.01):
        doubled = math.log(LESSONS_BASE) / math.log(base)
        also = (
            f" (they are also base^(−{_number(2 * doubled)}i/C): is the exponent off as well?)"
            if _near(doubled, round(doubled), 1e-3) and round(doubled) != 1
            else ""
        )
        return (
            f"your frequencies follow base {_number(LESSONS_BASE)}, as ω = "
            f"{_number(LESSONS_BASE)}^(−2i/C), but base={_number(base)} was passed: use the "
            f"`base` argument{also}"
        )
    ratios = []
    for n in sorted(k for k in exponents if k > 0):  # the slowest pairs: a frequency above π
        ratio = exponents[n] / n  # aliases when sampled at whole positions
        if ratios and abs(ratio - ratios[0]) >= 0.01:
            break
        ratios.append(ratio)
    if len(ratios) >= 2:  # one pair alone could be an aliased frequency
        ratio = sum(ratios) / len(ratios)
        if abs(ratio) < 0.01:
            return (
                f"every {what} oscillates at frequency 1 (base^0): the exponent 2i/C came out 0 "
                "(an integer division such as 2*i//C?)"
            )
        if ratio < 0:
            return (
                f"your frequencies grow with i, as base^(+{_number(-2 * ratio)}i/C): divide the "
                "position by base^(2i/C) rather than multiply it"
            )
        if not _near(ratio, 1.0, 0.01):
            return (
                f"your {what} i oscillates at base^(−{_number(2 * ratio)}i/C); it should be "
                f"base^(−2i/C) (is the 2 applied to an index that is already even?)"
            )
    return None


def encoding_signature(call: Call, expected) -> str | None:
    PE = np.asarray(call.result, dtype=np.float64)
    T, C = int(call.argument(0, "T")), int(call.argument(1, "C"))
    base = float(call.argument(2, "base", 10000.0))
    if PE.shape != (T, C) or T < 3:
        return None
    eps = _precision(call.result)
    fits = [fit_column(PE[:, j], eps) for j in range(C)]
    kinds = [f[0] if f else None for f in fits]
    if None in kinds:
        for shift in (1, 2, -1):  # column 0 is sin(pos): shifted, it names the first position
            if np.allclose(PE[:, 0], np.sin(np.arange(T) + shift), atol=FIT):
                return f"your row 0 holds position {shift}: the first position is 0"
        return None
    layout = _layout(kinds, C)
    if layout:
        return layout
    # sampled at whole positions, a frequency near π or above aliases: it is not measured
    omegas = [f[1] if f and f[1] <= FASTEST else None for f in fits]
    for i in range(C // 2):
        a, b = omegas[2 * i], omegas[2 * i + 1]
        if a is None or b is None:
            continue
        uncertain = 3 * (fits[2 * i][2] + fits[2 * i + 1][2])  # type: ignore[index]
        if abs(a - b) > max(1e-3 * max(a, b), uncertain):
            exponents = [-C * math.log(w) / math.log(base) if w else -1.0 for w in omegas]
            law = (
                " (your column j oscillates at base^(−j/C): the exponent uses the column index)"
                if all(abs(e - j) < 0.02 for j, e in enumerate(exponents))
                else ""
            )
            return (
                f"the two columns of pair {i} have different frequencies ({_number(a)} and "
                f"{_number(b)}): both columns 2i and 2i+1 use the pair's frequency "
                f"base^(−2i/C), with i = j // 2{law}"
            )
    pairs = {2 * i: w for i in range((C + 1) // 2) if (w := omegas[2 * i]) is not None}
    return describe_frequencies(pairs, C, base, "pair")


# --- rotations: the angle and orientation of each 2×2 block ----------------------------------


def rotation_angle(R: np.ndarray) -> float | None:
    """θ when R = [[cos θ, sin θ], [−sin θ, cos θ]] (the lessons' orientation); else None."""
    if R.shape != (2, 2) or not np.isfinite(R).all():
        return None
    a, b = R[0, 0], R[0, 1]
    if not (np.isclose(R[1, 1], a, atol=FIT) and np.isclose(R[1, 0], -b, atol=FIT)):
        return None
    if not np.isclose(a * a + b * b, 1, atol=FIT):
        return None
    return math.atan2(b, a)


def _same_angle(a: float, b: float) -> bool:
    return abs(math.remainder(a - b, 2 * math.pi)) < 1e-4


def rotation_signature(call: Call, expected) -> str | None:
    R = np.asarray(call.result, dtype=np.float64)
    k, freq = float(call.argument(0, "k")), float(call.argument(1, "freq"))
    theta, right = rotation_angle(R), k * freq
    if R.shape != (2, 2):
        return None
    if theta is None:
        if np.allclose(R, R.T, atol=FIT) and not np.isclose(R[0, 1], 0, atol=FIT):
            return (
                "your matrix is symmetric, so it is not a rotation: the bottom-left entry is "
                "−sin(k·freq), the negative of the top-right one"
            )
        return "your matrix is not a rotation: RᵀR = I and det R = 1 fail for it"
    if _same_angle(theta, -right):
        return "your matrix rotates by −k·freq: it is the transpose, a shift by −k"
    if _same_angle(theta, k) and not _near(freq, 1.0):
        return f"your matrix rotates by k = {_number(k)}: the angle is k·freq"
    if _same_angle(theta, right * math.pi / 180):
        return "your matrix rotates by k·freq degrees: np.cos and np.sin take radians"
    if _same_angle(theta, 0.0):
        return f"your matrix does not rotate at all; it should rotate by k·freq = {_number(right)}"
    also = " (π/2 − k·freq: are sin and cos exchanged in the entries?)"
    return (
        f"your matrix rotates the (sin, cos) pair by {_number(theta)} rad"
        f"{also if _same_angle(theta, math.pi / 2 - right) else ''}; rotation_matrix"
        f"({_number(k)}, {_number(freq)}) rotates by k·freq = {_number(right)} rad"
    )


def shift_signature(call: Call, expected) -> str | None:
    M = np.asarray(call.result, dtype=np.float64)
    k, C = float(call.argument(0, "k")), int(call.argument(1, "C"))
    base = float(call.argument(2, "base", 10000.0))
    if M.shape != (C, C) or C < 4 or k == 0:
        return None
    blocks = np.kron(np.eye(C // 2), np.ones((2, 2))).astype(bool)
    if not np.allclose(M[~blocks], 0, atol=FIT):
        return "entries outside the 2×2 blocks on the diagonal are not 0"
    angles = [rotation_angle(M[2 * i : 2 * i + 2, 2 * i : 2 * i + 2]) for i in range(C // 2)]
    if None in angles:
        i = angles.index(None)
        return f"your block {i} (rows {2 * i}, {2 * i + 1}) is not a rotation"
    if all(_same_angle(a, 0.0) for a in angles):
        return "your blocks do not rotate at all: block i rotates by k·w_i, w_i = base^(−2i/C)"
    if max(angles) - min(angles) < 1e-9 and not _same_angle(angles[1], k / base ** (2 / C)):
        return (
            f"every block of yours rotates by the same angle {_number(angles[0])}: block i "
            "rotates by k·w_i with its own pair's frequency w_i = base^(−2i/C)"
        )
    if abs(k) * 1 < math.pi:  # the angles are not wrapped: they measure the frequencies
        frequencies = {2 * i: a / k for i, a in enumerate(angles)}
        law = describe_frequencies(frequencies, C, base, "block")
        if law:
            return law
    return None


# --- permutations ------------------------------------------------------------------------------


def permutation_signature(call: Call, expected) -> str | None:
    P = np.asarray(call.result, dtype=np.float64)
    perm = [int(p) for p in call.argument(0, "perm")]
    n = len(perm)
    if P.shape != (n, n):
        return None
    binary = np.all(np.isclose(P, 0) | np.isclose(P, 1))
    if not (binary and np.allclose(P.sum(axis=0), 1) and np.allclose(P.sum(axis=1), 1)):
        return "your matrix is not a permutation matrix (one 1 in every row and column, else 0)"
    order = [int(np.argmax(row)) for row in P]
    if order == list(np.argsort(perm)):
        return (
            "your P is the transpose of the right one (the inverse ordering): row i needs "
            "its 1 in column perm[i]"
        )
    if order == list(range(n)):
        return "your P is the identity: it does not reorder the rows"
    return None


SIGNATURES = (
    Signature("sinusoidal_encoding", encoding_signature),
    Signature("softmax", softmax_signature()),
    Signature("self_attention", attention_signature()),
    Signature("rotation_matrix", rotation_signature),
    Signature("shift_matrix", shift_signature),
    Signature("permutation_matrix", permutation_signature),
)
