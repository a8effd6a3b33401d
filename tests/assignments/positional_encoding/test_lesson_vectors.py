"""Every number the three lessons print, reproduced by the reference at the printed precision.

The expected values are typed from the lesson texts in shared/seeds (named in each docstring),
never computed by the code under test.
"""

from __future__ import annotations

import math
from itertools import combinations
from types import ModuleType

import numpy as np
import sympy as sp


def rounded(values: object, decimals: int) -> list[object]:
    return np.round(np.asarray(values, dtype=float), decimals).tolist()  # type: ignore[no-any-return]


def test_lesson3_first_rows_of_the_8_by_16_encoding(reference: ModuleType) -> None:
    """Lesson 3, "Implementing It in NumPy": PE shape (8, 16) and PE[:3, :6] at precision 3."""
    PE = reference.sinusoidal_encoding(8, 16)
    assert PE.shape == (8, 16)
    assert rounded(PE[:3, :6], 3) == [
        [0.0, 1.0, 0.0, 1.0, 0.0, 1.0],
        [0.841, 0.54, 0.311, 0.95, 0.1, 0.995],
        [0.909, -0.416, 0.591, 0.807, 0.199, 0.98],
    ]


def test_lesson3_column_wavelengths(reference: ModuleType) -> None:
    """Lesson 3: column 0 climbs 0.000, 0.841, 0.909; column 4 barely stirs: 0.000, 0.100, 0.199."""
    PE = reference.sinusoidal_encoding(8, 16)
    assert rounded(PE[:3, 0], 3) == [0.0, 0.841, 0.909]
    assert rounded(PE[:3, 4], 3) == [0.0, 0.1, 0.199]


def test_lesson3_property_1_unique(reference: ModuleType) -> None:
    """Lesson 3, Property 1: 28 pairs, smallest pairwise distance 1.0147, all unique."""
    PE = reference.sinusoidal_encoding(8, 16)
    distances = [np.linalg.norm(PE[a] - PE[b]) for a, b in combinations(range(8), 2)]
    assert len(distances) == 28
    assert round(float(min(distances)), 4) == 1.0147
    assert all(d > 0 for d in distances)


def test_lesson3_property_2_bounded(reference: ModuleType) -> None:
    """Lesson 3, Property 2: min value -0.99, max value 1.0, all in [-1, 1]."""
    PE = reference.sinusoidal_encoding(8, 16)
    assert round(float(PE.min()), 4) == -0.99
    assert round(float(PE.max()), 4) == 1.0
    assert np.all(PE >= -1.0) and np.all(PE <= 1.0)


def test_lesson3_property_3_dot_products_from_position_3(reference: ModuleType) -> None:
    """Lesson 3, Property 3: PE[3] · PE[j] for j = 0..7."""
    PE = reference.sinusoidal_encoding(8, 16)
    dots = [f"{float(PE[3] @ PE[j]):.3f}" for j in range(8)]
    assert dots == ["5.543", "6.368", "7.485", "8.000", "7.485", "6.368", "5.543", "5.560"]


def test_lesson3_property_3_average_by_offset(reference: ModuleType) -> None:
    """Lesson 3, Property 3: average PE[i] · PE[i + offset] for offsets 0..3."""
    PE = reference.sinusoidal_encoding(8, 16)
    averages = [
        f"{np.mean([float(PE[i] @ PE[i + off]) for i in range(8 - off)]):.3f}" for off in range(4)
    ]
    assert averages == ["8.000", "7.485", "6.368", "5.543"]


def test_lesson3_property_4_extrapolates(reference: ModuleType) -> None:
    """Lesson 3, Property 4: the shared prefix matches; row 99 exists and is in range."""
    short, long = reference.sinusoidal_encoding(8, 16), reference.sinusoidal_encoding(100, 16)
    assert np.allclose(short, long[:8])
    assert long.shape == (100, 16)
    assert np.all(long[99] >= -1) and np.all(long[99] <= 1)


def test_lesson3_adding_to_token_embeddings(reference: ModuleType) -> None:
    """Lesson 3, "Adding It to Token Embeddings": X[0, :4] = [0.03 0.896 0.075 1.094]."""
    tok_emb = np.random.default_rng(42).normal(0, 1, size=(8, 16)) * 0.1
    X = tok_emb + reference.sinusoidal_encoding(8, 16)
    assert X.shape == (8, 16)
    assert rounded(X[0, :4], 3) == [0.03, 0.896, 0.075, 1.094]


def test_lesson3_exercises(reference: ModuleType) -> None:
    """Lesson 3, exercises 1-3: row 0 alternates; column 0 outpaces 14; dots are symmetric."""
    for T in (1, 3, 10):
        assert reference.sinusoidal_encoding(T, 8)[0].tolist() == [0.0, 1.0] * 4
    PE = reference.sinusoidal_encoding(40, 16)
    assert abs(PE[1, 0] - PE[0, 0]) > 1000 * abs(PE[1, 14] - PE[0, 14])
    PE9 = reference.sinusoidal_encoding(9, 16)
    for k in (1, 2, 3):
        assert math.isclose(PE9[4] @ PE9[4 - k], PE9[4] @ PE9[4 + k], rel_tol=1e-12)


def test_teaching_order_d_model_8_table(reference: ModuleType) -> None:
    """Teaching order, "worked example with d_model = 8": the four rows at precision 4."""
    assert rounded(reference.sinusoidal_encoding(4, 8), 4) == [
        [0.0000, 1.0000, 0.0000, 1.0000, 0.0000, 1.0000, 0.0000, 1.0000],
        [0.8415, 0.5403, 0.0998, 0.9950, 0.0100, 1.0000, 0.0010, 1.0000],
        [0.9093, -0.4161, 0.1987, 0.9801, 0.0200, 0.9998, 0.0020, 1.0000],
        [0.1411, -0.9900, 0.2955, 0.9553, 0.0300, 0.9996, 0.0030, 1.0000],
    ]


def test_teaching_order_active_recall_position_5(reference: ModuleType) -> None:
    """Teaching order, active recall 1: PE(5, 0) ≈ -0.9589, PE(5, 1) ≈ 0.2837."""
    assert rounded(reference.sinusoidal_encoding(6, 8)[5, :2], 4) == [-0.9589, 0.2837]


def test_teaching_order_wavelengths() -> None:
    """Teaching order: wavelength 2π ≈ 6.28 at i = 0, approaching 2π · 10000 ≈ 62,832.

    The text's "about 63,000" for d_model = 512 rounds the limit; the largest pair there,
    i = 255, has 2π · 10000^(510/512) ≈ 60,611 (documented in the assignment README).
    """
    assert round(2 * math.pi, 2) == 6.28
    assert round(2 * math.pi * 10000) == 62832
    assert round(2 * math.pi * 10000 ** (510 / 512)) == 60611


def test_teaching_order_ravi_meera(reference: ModuleType) -> None:
    """Teaching order, Ravi/Meera: scores, scaled scores, weights 0.944/0.056, output 1.888."""
    X = np.array([[2.0, 0.0], [0.0, 2.0]])
    assert (X @ X.T).tolist() == [[4.0, 0.0], [0.0, 4.0]]
    scaled = X @ X.T / math.sqrt(2)
    assert rounded(scaled, 3) == [[2.828, 0.0], [0.0, 2.828]]
    assert round(math.exp(2.828), 1) == 16.9
    assert rounded(reference.softmax(scaled), 3) == [[0.944, 0.056], [0.056, 0.944]]
    assert rounded(reference.self_attention(X), 3) == [[1.888, 0.112], [0.112, 1.888]]
    reversed_output = reference.self_attention(X[::-1])
    assert rounded(reversed_output, 3) == [[0.112, 1.888], [1.888, 0.112]]


def test_episode_rotation_check(reference: ModuleType) -> None:
    """Episode 04.04 §4.3: d_model 8, i = 1, k = 3; actual = R @ PE(pos) for pos 0, 2, 5, 7."""
    freq = 1 / (10000 ** (2 * 1 / 8))
    R = reference.rotation_matrix(3, freq)
    printed = {0: [0.2955, 0.9553], 2: [0.4794, 0.8776], 5: [0.7174, 0.6967], 7: [0.8415, 0.5403]}
    for pos, values in printed.items():
        actual = np.array([np.sin((pos + 3) * freq), np.cos((pos + 3) * freq)])
        predicted = R @ np.array([np.sin(pos * freq), np.cos(pos * freq)])
        assert rounded(actual, 4) == values
        assert rounded(predicted, 4) == values
        assert np.allclose(actual, predicted)


def test_episode_reversal_with_and_without_encoding(reference: ModuleType) -> None:
    """Episode 04.04 §4.1-4.2: reversed input gives reversed output (True); with PE added, False."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(3, 8))
    W_q, W_k, W_v = (rng.normal(size=(8, 8)) for _ in range(3))
    forward = reference.self_attention(X, W_q, W_k, W_v)
    backward = reference.self_attention(X[::-1], W_q, W_k, W_v)
    assert np.allclose(backward, forward[::-1], atol=1e-5)
    PE = reference.sinusoidal_encoding(3, 8)
    forward_pe = reference.self_attention(X + PE, W_q, W_k, W_v)
    backward_pe = reference.self_attention(X[::-1] + PE, W_q, W_k, W_v)
    assert not np.allclose(backward_pe, forward_pe[::-1], atol=1e-5)


def test_teaching_order_relative_dot_is_cos_wk(reference: ModuleType) -> None:
    """Teaching order: PE(pos) · PE(pos + k) = cos(w · k); pos cancels."""
    pos, k, w = sp.symbols("pos k w")
    result = reference.relative_dot(pos, k, w)
    assert pos not in result.free_symbols
    assert sp.simplify(result - sp.cos(w * k)) == 0


def test_teaching_order_rotation_is_orthogonal_with_determinant_1(reference: ModuleType) -> None:
    """Teaching order: M_k is orthogonal with determinant 1, and depends only on the offset."""
    k, w = sp.symbols("k w")
    M = reference.rotation_matrix_symbolic(k, w)
    assert sp.simplify(M.T * M) == sp.eye(2)
    assert sp.simplify(M.det()) == 1
