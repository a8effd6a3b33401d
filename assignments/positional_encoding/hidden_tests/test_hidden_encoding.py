"""Hidden tests for `sinusoidal_encoding`: the reference at shapes no lesson prints."""

import numpy as np
import pytest

from autograder.checks import CheckFailure, assert_close, assert_raises, assert_shape

pytestmark = pytest.mark.part("encoding")


def compare(student, reference, tolerance, *args, **kwargs):
    call = ", ".join([*map(repr, args), *(f"{k}={v!r}" for k, v in kwargs.items())])
    what = f"sinusoidal_encoding({call})"
    expected = reference.sinusoidal_encoding(*args, **kwargs)
    actual = assert_shape(student.sinusoidal_encoding(*args, **kwargs), expected.shape, what=what)
    assert_close(actual, expected, what=what, **tolerance)


@pytest.mark.points(3)
def test_random_shapes(student, reference, tolerance, rng):
    """matches the formula at five random (T, C)"""
    for _ in range(5):
        compare(student, reference, tolerance, int(rng.integers(1, 60)), int(rng.integers(2, 65)))


@pytest.mark.points(2)
def test_random_odd_widths(student, reference, tolerance, rng):
    """odd C: the last column is a lone sine"""
    for _ in range(3):
        compare(
            student,
            reference,
            tolerance,
            int(rng.integers(2, 30)),
            int(rng.integers(1, 40)) * 2 + 1,
        )


@pytest.mark.points(2)
def test_long_sequence(student, reference, tolerance):
    """a long sequence at a wide model width"""
    # a float32 angle near 1000 carries ~1e-4 of rounding error: float64 is never required
    compare(student, reference, {**tolerance, "atol": max(tolerance["atol"], 2e-4)}, 1000, 128)


@pytest.mark.points(2)
def test_other_bases(student, reference, tolerance):
    """the base is a parameter: smaller and larger bases"""
    compare(student, reference, tolerance, 12, 10, base=100.0)
    compare(student, reference, tolerance, 9, 6, base=1e5)


@pytest.mark.points(1)
def test_more_positions_than_dimensions(student, reference, tolerance):
    """T != C: more positions than dimensions, and fewer"""
    compare(student, reference, tolerance, 7, 12)
    compare(student, reference, tolerance, 12, 7)


@pytest.mark.points(1)
def test_numpy_integer_arguments(student, reference, tolerance):
    """NumPy integers are integers too"""
    compare(student, reference, tolerance, np.int64(5), np.int64(6))


@pytest.mark.points(1)
def test_more_invalid_arguments(student):
    """booleans, fractions, strings and negatives are not counts: ValueError naming it"""
    cases = [(True, 8, "T"), (3.5, 8, "T"), (4, "8", "C"), (-3, 4, "T"), (4.0, 8, "T")]
    for T, C, named in cases:  # 4.0: a float is not a count, even a whole one
        assert_raises(
            ValueError, student.sinusoidal_encoding, T, C,
            what=f"sinusoidal_encoding({T!r}, {C!r})", mentions=named,
        )  # fmt: skip


@pytest.mark.points(1)
def test_first_row_for_any_width(student, reference, tolerance, rng):
    """the first row alternates zeros and ones at a random width; the rows after it are right"""
    C = int(rng.integers(3, 50))
    PE = assert_shape(
        student.sinusoidal_encoding(3, C), (3, C), what=f"sinusoidal_encoding(3, {C})"
    )
    assert_close(PE[0], ([0.0, 1.0] * C)[:C], what=f"row 0 of sinusoidal_encoding(3, {C})")
    assert_close(
        PE, reference.sinusoidal_encoding(3, C), what=f"sinusoidal_encoding(3, {C})", **tolerance
    )


@pytest.mark.points(1)
def test_fastest_column_is_sin_pos(student, reference, tolerance):
    """the first column is sin(pos) over many positions (wavelength 2π); slower columns are right"""
    PE = assert_shape(
        student.sinusoidal_encoding(100, 4), (100, 4), what="sinusoidal_encoding(100, 4)"
    )
    assert_close(PE[:, 0], np.sin(np.arange(100.0)), what="column 0 of sinusoidal_encoding(100, 4)")
    assert_close(
        PE, reference.sinusoidal_encoding(100, 4), what="sinusoidal_encoding(100, 4)", **tolerance
    )
    if not np.issubdtype(PE.dtype, np.floating):
        raise CheckFailure(f"sinusoidal_encoding should return floats; yours has dtype {PE.dtype}")
