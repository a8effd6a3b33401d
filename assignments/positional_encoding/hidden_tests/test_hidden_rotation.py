"""Hidden tests for `rotation_matrix` and `shift_matrix`: other offsets, frequencies and widths."""

import numpy as np
import pytest

from autograder.checks import assert_close, assert_raises, assert_shape

pytestmark = pytest.mark.part("rotation")


@pytest.mark.points(2)
def test_random_offsets_and_frequencies(student, reference, tolerance, rng):
    """negative, fractional and large k; other frequencies"""
    for k, freq in [
        (-2, 0.3),
        (2.5, 1.7),
        (40, 0.01),
        (float(rng.uniform(-9, 9)), float(rng.uniform(0.05, 3))),
    ]:
        assert_close(
            student.rotation_matrix(k, freq),
            reference.rotation_matrix(k, freq),
            what=f"rotation_matrix({k:g}, {freq:g})",
            **tolerance,
        )


@pytest.mark.points(2)
def test_rotation_shifts_any_pair(student, tolerance, rng):
    """R @ [sin(p f), cos(p f)] = [sin((p + k) f), cos((p + k) f)] at random p, k, f"""
    for _ in range(4):
        k, f, p = int(rng.integers(-20, 20)), float(rng.uniform(0.01, 2)), float(rng.uniform(0, 50))
        R = assert_shape(
            student.rotation_matrix(k, f), (2, 2), what=f"rotation_matrix({k}, {f:.3g})"
        )
        shifted = [np.sin((p + k) * f), np.cos((p + k) * f)]
        assert_close(
            R @ [np.sin(p * f), np.cos(p * f)],
            shifted,
            what=f"rotation_matrix({k}, {f:.3g}) @ PE",
            **tolerance,
        )


@pytest.mark.points(2)
def test_shift_matrix_random_widths(student, reference, tolerance, rng):
    """shift_matrix(k, C) for random even C and k"""
    for _ in range(3):
        k, C = int(rng.integers(-10, 30)), int(rng.integers(1, 20)) * 2
        assert_close(
            student.shift_matrix(k, C),
            reference.shift_matrix(k, C),
            what=f"shift_matrix({k}, {C})",
            **tolerance,
        )


@pytest.mark.points(1)
def test_shift_matrix_other_base(student, reference, tolerance):
    """the base is a parameter of shift_matrix too"""
    assert_close(
        student.shift_matrix(3, 6, base=100.0),
        reference.shift_matrix(3, 6, base=100.0),
        what="shift_matrix(3, 6, base=100.0)",
        **tolerance,
    )


@pytest.mark.points(1)
def test_shift_matrix_odd_widths(student, rng):
    """every odd C raises ValueError"""
    C = int(rng.integers(1, 30)) * 2 + 1
    assert_raises(ValueError, student.shift_matrix, 2, C, what=f"shift_matrix(2, {C})")
