"""Hidden tests for `rope_angles` and `rope`: random widths, positions, bases and layouts."""

import numpy as np
import pytest

from autograder.checks import assert_close, assert_raises

pytestmark = pytest.mark.part("rope")


@pytest.mark.points(2)
def test_random_angles(student, reference, tolerance, rng):
    """rope_angles at random positions, even widths and bases"""
    for _ in range(3):
        C = 2 * int(rng.integers(1, 9))
        positions = rng.integers(0, 200, size=int(rng.integers(1, 7)))
        base = float(rng.choice([100.0, 500.0, 10000.0]))
        assert_close(
            student.rope_angles(positions.copy(), C, base=base),
            reference.rope_angles(positions, C, base=base),
            what="rope_angles(positions, C, base)", **tolerance,
        )  # fmt: skip


@pytest.mark.points(5)
def test_random_sequences_both_layouts(student, reference, tolerance, rng):
    """rope at random (T, C), positions, bases, in both layouts"""
    for layout in ("interleaved", "halves"):
        for _ in range(3):
            T, C = int(rng.integers(1, 9)), 2 * int(rng.integers(1, 7))
            X = rng.normal(size=(T, C))
            positions = rng.integers(0, 5000, size=T)
            base = float(rng.choice([10.0, 1000.0, 10000.0]))
            assert_close(
                student.rope(X.copy(), positions=positions.copy(), base=base, layout=layout),
                reference.rope(X, positions=positions, base=base, layout=layout),
                what="rope(X, positions, base, layout)", **tolerance,
            )  # fmt: skip


@pytest.mark.points(3)
def test_random_batches_and_default_positions(student, reference, tolerance, rng):
    """rope of a random (B, T, C) batch at the default positions, both layouts"""
    X = rng.normal(size=(3, 5, 8))
    for layout in ("interleaved", "halves"):
        assert_close(
            student.rope(X.copy(), layout=layout), reference.rope(X, layout=layout),
            what="rope(batch, layout)", **tolerance,
        )  # fmt: skip


@pytest.mark.points(1)
def test_more_refusals(student):
    """a width of one, a batch with an odd width, a negative base, an unknown layout and an odd C
    for rope_angles are refused"""
    assert_raises(ValueError, student.rope, np.ones((2, 1)), what="rope of a width-one X")
    assert_raises(ValueError, student.rope, np.ones((2, 3, 7)), what="rope of an odd-width batch")
    assert_raises(ValueError, student.rope, np.ones((2, 6)), None, -5.0, what="a negative base")
    assert_raises(
        ValueError, student.rope, np.ones((2, 4)), None, 10000.0, "half",
        what="rope with layout='half'",
    )  # fmt: skip
    assert_raises(ValueError, student.rope_angles, np.arange(3.0), 5, what="rope_angles with C = 5")
