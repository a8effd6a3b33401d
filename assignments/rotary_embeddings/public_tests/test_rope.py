"""Public tests for `rope_angles` and `rope`: the angles m·θ_i, both layouts, batches, refusals."""

import numpy as np
import pytest

from autograder.checks import CheckFailure, assert_close, assert_raises, assert_unchanged, printed

pytestmark = pytest.mark.part("rope")

ONES = np.ones((3, 4))
ROW = np.array([[1.0, 2.0, 3.0, 4.0]] * 2)


def rope_by_hand(X, positions, base=10000.0):
    """Interleaved RoPE, one pair at a time: the tests' own oracle."""
    out = np.array(X, dtype=np.float64)
    for t, m in enumerate(positions):
        for i in range(X.shape[1] // 2):
            angle = m * base ** (-2 * i / X.shape[1])
            x0, x1 = X[t, 2 * i], X[t, 2 * i + 1]
            out[t, 2 * i] = x0 * np.cos(angle) - x1 * np.sin(angle)
            out[t, 2 * i + 1] = x0 * np.sin(angle) + x1 * np.cos(angle)
    return out


@pytest.mark.points(2)
def test_rope_angles(student):
    """rope_angles([0, 1, 2], C=4, base=100) is [[0, 0], [1, 0.1], [2, 0.2]]: θ = (1, 0.1)"""
    angles = student.rope_angles(np.array([0, 1, 2]), 4, base=100.0)
    assert_close(angles, [[0, 0], [1, 0.1], [2, 0.2]], what="rope_angles([0, 1, 2], 4, 100)")


@pytest.mark.points(3)
def test_rope_of_ones(student):
    """rope(ones((3, 4)), base=100): row 1 is [-0.301, 1.382, 0.895, 1.095], row 2 [-1.325,
    0.493, 0.781, 1.179]; row 0, at position 0, is unchanged; the same from an integer array
    (the result is a float array)"""
    expected = [[1, 1, 1, 1], [-0.301, 1.382, 0.895, 1.095], [-1.325, 0.493, 0.781, 1.179]]
    out = student.rope(ONES.copy(), base=100.0)
    assert_close(out, expected, what="rope(ones((3, 4)), base=100)", **printed(3))
    whole = student.rope(np.ones((3, 4), dtype=np.int64), base=100.0)
    assert_close(whole, expected, what="rope of an integer ones((3, 4)), base=100", **printed(3))


@pytest.mark.points(3)
def test_halves_layout(student):
    """x = [1, 2, 3, 4] at position 1, base 100: interleaved pairs (1, 2), (3, 4) give
    [-1.143, 1.922, 2.586, 4.28]; halves pairs (1, 3), (2, 4) give [-1.984, 1.591, 2.462, 4.18]"""
    interleaved = student.rope(ROW.copy(), base=100.0)
    assert_close(
        interleaved[1], [-1.143, 1.922, 2.586, 4.28],
        what="rope([1, 2, 3, 4] at position 1, base=100)", **printed(3),
    )  # fmt: skip
    halves = student.rope(ROW.copy(), base=100.0, layout="halves")
    assert_close(
        halves[1], [-1.984, 1.591, 2.462, 4.18],
        what="rope([1, 2, 3, 4] at position 1, base=100, layout='halves')", **printed(3),
    )  # fmt: skip


@pytest.mark.points(2)
def test_random_sequence_matches_the_formula(student):
    """a (5, 6) sequence at positions 3, 1, 4, 1, 5: each pair rotated by m·10000^(−2i/6)"""
    X = np.random.default_rng(11).normal(size=(5, 6))
    positions = np.array([3, 1, 4, 1, 5])
    assert_close(
        student.rope(X.copy(), positions=positions.copy()), rope_by_hand(X, positions),
        what="rope(X, positions=[3, 1, 4, 1, 5])",
    )  # fmt: skip


@pytest.mark.points(2)
def test_batch(student):
    """a (2, 3, 4) batch: each sequence is rotated as it would be alone"""
    X = np.random.default_rng(2).normal(size=(2, 3, 4))
    out = student.rope(X.copy())
    for b in range(2):
        assert_close(out[b], rope_by_hand(X[b], range(3)), what=f"sequence {b} of the batch")


@pytest.mark.points(3)
def test_refused_inputs(student):
    """odd C, base 0 or −1, and 2 or 4 positions for 3 rows raise ValueError"""
    assert_raises(ValueError, student.rope, np.ones((3, 5)), what="rope of a (3, 5) X (C odd)")
    for base in (0.0, -1.0):
        assert_raises(
            ValueError, student.rope, np.ones((3, 4)), None, base, what=f"rope with base={base}"
        )
    for given in ([0, 1], [0, 1, 2, 3]):
        assert_raises(
            ValueError, student.rope, np.ones((3, 4)), np.array(given),
            what=f"rope of 3 rows with {len(given)} positions",
        )  # fmt: skip


@pytest.mark.points(2)
def test_norms_are_preserved(student):
    """every row of rope(X) has the norm of the same row of X: a rotation keeps lengths"""
    X = np.random.default_rng(5).normal(size=(7, 8)) * 3
    out = student.rope(X.copy(), positions=np.arange(100, 107))
    assert_close(
        np.linalg.norm(out, axis=-1), np.linalg.norm(X, axis=-1), what="the norms of rope(X)'s rows"
    )
    if np.allclose(out[1:], X[1:]):
        raise CheckFailure("rope(X) at positions 100 … 106 left X as it was: nothing was rotated")


@pytest.mark.points(2)
def test_layouts_agree_after_permutation(student):
    """with P = [0, 2, 4, 1, 3, 5], rope(X[:, P], layout='halves') = rope(X)[:, P]: channel i of
    the halves layout is channel 2i interleaved, channel i + C/2 is 2i + 1"""
    X = np.random.default_rng(8).normal(size=(4, 6))
    P = [0, 2, 4, 1, 3, 5]
    halves = student.rope(X[:, P].copy(), layout="halves")
    assert_close(halves, rope_by_hand(X, range(4))[:, P], what="rope(X[:, P], layout='halves')")


@pytest.mark.points(1)
@pytest.mark.keeps_inputs("rope", "rope_angles")
def test_input_is_left_alone(student):
    """rope returns a new array, the rotated X, and leaves X unchanged"""
    X = np.random.default_rng(3).normal(size=(3, 4))
    before = X.copy()
    out = student.rope(X)
    assert_unchanged(before, X, what="X after rope(X)")
    assert_close(out, rope_by_hand(before, range(3)), what="rope(X)")
