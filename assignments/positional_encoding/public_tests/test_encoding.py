"""Public tests for `sinusoidal_encoding`: the lessons' printed numbers and the four properties."""

from itertools import combinations

import numpy as np
import pytest

from autograder.checks import (
    CheckFailure,
    assert_close,
    assert_raises,
    assert_shape,
    format_value,
    printed,
)

pytestmark = pytest.mark.part("encoding")


def sin_cos_swapped(PE: np.ndarray) -> str | None:
    row = np.atleast_2d(PE)[0]
    if np.allclose(row[0::2], 1) and np.allclose(row[1::2], 0):
        return "your even columns start at 1 and your odd columns at 0: are sin and cos swapped?"
    return None


def halves_not_interleaved(PE: np.ndarray) -> str | None:
    row = np.atleast_2d(PE)[0]
    half = row.size // 2
    if half >= 2 and np.allclose(row[:half], 0) and np.allclose(row[half:], 1):
        return (
            "you put every sine first and every cosine after them: interleave them, sin in the "
            "even columns (0, 2, 4, …) and cos in the odd ones (1, 3, 5, …)"
        )
    return None


def exponent_uses_i(PE: np.ndarray) -> str | None:
    C = PE.shape[1]
    if np.isclose(PE[1, 2], np.sin(1 / 10000 ** (1 / C))):
        return "column 2 (pair i = 1) oscillates too fast: the exponent is 2i/C, not i/C"
    return None


def positions_start_at_one(PE: np.ndarray) -> str | None:
    if np.isclose(PE[0, 0], np.sin(1.0)):
        return "row 0 holds position 1: positions start at 0"
    return None


HINTS = (sin_cos_swapped, halves_not_interleaved, exponent_uses_i, positions_start_at_one)


def encoding(student, T: int, C: int) -> np.ndarray:
    return assert_shape(
        student.sinusoidal_encoding(T, C),
        (T, C),
        what=f"sinusoidal_encoding({T}, {C})",
        hints=HINTS,
    )


def lesson_formula(T: int, C: int) -> np.ndarray:
    """PE[pos, 2i] = sin(pos / 10000^(2i/C)), PE[pos, 2i+1] = cos(same angle), written out."""
    angles = np.arange(T)[:, None] / 10000 ** (2 * (np.arange(C) // 2) / C)
    return np.where(np.arange(C) % 2 == 0, np.sin(angles), np.cos(angles))


def checked_encoding(student, T: int, C: int) -> np.ndarray:
    """The student's (T, C) encoding, its shape and a few entries checked: a test about a
    property of the matrix credits it only when its values are right too."""
    PE = encoding(student, T, C)
    if T:
        corners = np.ix_([T - 1, T // 2], sorted({0, C // 2, C - 1}))
        assert_close(
            PE[corners], lesson_formula(T, C)[corners],
            what=f"sinusoidal_encoding({T}, {C})", hints=HINTS, index_map=corners,
        )  # fmt: skip
    return PE


@pytest.mark.points(1)
def test_shape(student):
    """returns a (T, C) array of the right values, also when T != C or C is odd"""
    for T, C in [(8, 16), (10, 4), (5, 3), (1, 1)]:
        checked_encoding(student, T, C)


@pytest.mark.points(1)
def test_row_zero(student):
    """row 0 is [0, 1, 0, 1, …] (sin 0 = 0, cos 0 = 1) for any T; row 1 starts [sin 1, cos 1]
    (a table of position 0 on every row has no position)"""
    for T in (1, 5, 12):
        PE = encoding(student, T, 8)
        assert_close(
            PE[0], [0, 1] * 4, what=f"row 0 of sinusoidal_encoding({T}, 8)", hints=HINTS[:2]
        )
        if T > 1:
            assert_close(
                PE[1, :2], [np.sin(1), np.cos(1)], what=f"row 1 of sinusoidal_encoding({T}, 8)"
            )


@pytest.mark.points(2)
def test_lesson_table_8_by_16(student):
    """sinusoidal_encoding(8, 16)[:3, :6] matches lesson 3's printed table"""
    lesson = [
        [0.0, 1.0, 0.0, 1.0, 0.0, 1.0],
        [0.841, 0.54, 0.311, 0.95, 0.1, 0.995],
        [0.909, -0.416, 0.591, 0.807, 0.199, 0.98],
    ]
    PE = encoding(student, 8, 16)
    assert_close(PE[:3, :6], lesson, what="sinusoidal_encoding(8, 16)", **printed(3), hints=HINTS)


@pytest.mark.points(2)
def test_hand_computed_table_d_model_8(student):
    """sinusoidal_encoding(4, 8) is the hand-computed d_model = 8 table (divisors 1 … 1000)"""
    lesson = [
        [0.0000, 1.0000, 0.0000, 1.0000, 0.0000, 1.0000, 0.0000, 1.0000],
        [0.8415, 0.5403, 0.0998, 0.9950, 0.0100, 1.0000, 0.0010, 1.0000],
        [0.9093, -0.4161, 0.1987, 0.9801, 0.0200, 0.9998, 0.0020, 1.0000],
        [0.1411, -0.9900, 0.2955, 0.9553, 0.0300, 0.9996, 0.0030, 1.0000],
    ]
    PE = encoding(student, 4, 8)
    assert_close(PE, lesson, what="sinusoidal_encoding(4, 8)", **printed(4), hints=HINTS)
    PE6 = encoding(student, 6, 8)
    assert_close(PE6[5, :2], [-0.9589, 0.2837], what="[PE(5, 0), PE(5, 1)]", **printed(4))


@pytest.mark.points(1)
def test_positions_are_unique(student):
    """all 28 pairs of rows of sinusoidal_encoding(8, 16) differ; the closest are 1.0147 apart"""
    PE = encoding(student, 8, 16)
    distances = [np.linalg.norm(PE[a] - PE[b]) for a, b in combinations(range(8), 2)]
    assert_close(
        np.asarray(min(distances)),
        1.0147,
        what="the smallest distance between two rows",
        **printed(4),
        hints=(),
    )


@pytest.mark.points(1)
def test_values_are_bounded(student):
    """every entry lies in [-1, 1], at position 999 too; the (8, 16) minimum is -0.99"""
    PE = encoding(student, 1000, 16)
    if PE.min() < -1 or PE.max() > 1:
        raise CheckFailure(
            f"sines and cosines lie in [-1, 1], but sinusoidal_encoding(1000, 16) ranges from "
            f"{format_value(PE.min())} to {format_value(PE.max())}"
        )
    small = encoding(student, 8, 16)
    assert_close(
        np.array([small.min(), small.max()]), [-0.99, 1.0],
        what="[min, max] of sinusoidal_encoding(8, 16)", **printed(4),
    )  # fmt: skip


@pytest.mark.points(1)
def test_dot_products_depend_on_the_offset(student):
    """PE[3] · PE[j] for j = 0…7 is 5.543 6.368 7.485 8.000 7.485 6.368 5.543 5.560 (lesson 3)"""
    PE = encoding(student, 8, 16)
    lesson = [5.543, 6.368, 7.485, 8.000, 7.485, 6.368, 5.543, 5.560]
    assert_close(PE @ PE[3], lesson, what="PE[3] · PE[j] for j = 0…7", **printed(3), hints=HINTS)


@pytest.mark.points(1)
def test_average_dot_product_by_offset(student):
    """the average PE[i] · PE[i + offset] falls 8.000, 7.485, 6.368, 5.543 for offsets 0…3"""
    PE = encoding(student, 8, 16)
    averages = [np.mean([PE[i] @ PE[i + offset] for i in range(8 - offset)]) for offset in range(4)]
    lesson = [8.000, 7.485, 6.368, 5.543]
    assert_close(np.array(averages), lesson, what="the average dot product by offset", **printed(3))


@pytest.mark.points(1)
def test_extrapolates_to_longer_sequences(student):
    """the first 8 rows of sinusoidal_encoding(100, 16) are sinusoidal_encoding(8, 16)"""
    short, long = checked_encoding(student, 8, 16), checked_encoding(student, 100, 16)
    assert_close(long[:8], short, what="sinusoidal_encoding(100, 16)[:8]")


@pytest.mark.points(1)
def test_adding_to_token_embeddings_keeps_the_shape(student):
    """X = tok_emb + PE keeps (T, C); lesson 3 prints X[0, :4] = [0.03, 0.896, 0.075, 1.094];
    X[1, :4] is tok_emb[1, :4] + [sin 1, cos 1, sin 10^(−1/2), cos 10^(−1/2)]"""
    tok_emb = np.random.default_rng(42).normal(0, 1, size=(8, 16)) * 0.1
    X = tok_emb + encoding(student, 8, 16)
    assert_close(X[0, :4], [0.03, 0.896, 0.075, 1.094], what="X[0, :4]", **printed(3))
    angles = np.array([1.0, 1.0, 10**-0.5, 10**-0.5])
    position_1 = np.where(np.arange(4) % 2 == 0, np.sin(angles), np.cos(angles))
    assert_close(X[1, :4], tok_emb[1, :4] + position_1, what="X[1, :4]")


@pytest.mark.points(1)
def test_odd_C_ends_with_a_sine(student):
    """with an odd C the last column is a sine: column 4 of (3, 5) is sin(pos / 10000^(4/5))"""
    PE = encoding(student, 3, 5)
    assert_close(
        PE[:, 4],
        np.sin(np.arange(3) / 10000 ** (4 / 5)),
        what="column 4 of sinusoidal_encoding(3, 5)",
    )


@pytest.mark.points(1)
def test_zero_positions(student):
    """T = 0 gives an empty (0, C) array, and T = 3 its three rows"""
    encoding(student, 0, 6)
    checked_encoding(student, 3, 6)


@pytest.mark.points(0.4)
@pytest.mark.parametrize(
    ("T", "C", "named"), [(-1, 8, "T"), (2.5, 8, "T"), (4, 0, "C"), (4, -2, "C"), (4, 1.5, "C")]
)
def test_invalid_arguments(student, T, C, named):
    """a T or C that is not a valid count raises ValueError naming the argument"""
    assert_raises(
        ValueError, student.sinusoidal_encoding, T, C,
        what=f"sinusoidal_encoding({T!r}, {C!r})", mentions=named,
    )  # fmt: skip
