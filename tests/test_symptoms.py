"""Where a wrong array differs, said as a symptom: only where the wrong entries really lie, and
nothing when they are everywhere."""

from __future__ import annotations

import numpy as np
import pytest

from autograder.diagnosis.symptoms import row_factors, where_differs


def agree(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.asarray(np.isclose(a, b, rtol=1e-7, atol=1e-9))


EXPECTED = np.arange(1.0, 17.0).reshape(4, 4)


def changed(where: tuple[slice | int | np.ndarray, ...] | np.ndarray) -> np.ndarray:
    wrong = EXPECTED.copy()
    wrong[where] += 0.5
    return wrong


@pytest.mark.parametrize(
    ("actual", "words"),
    [
        (changed(np.eye(4, dtype=bool)), "only on the diagonal"),
        (changed(np.triu(np.ones((4, 4), dtype=bool), 1)), "only above the diagonal"),
        (changed(np.tril(np.ones((4, 4), dtype=bool), -1)), "only below the diagonal"),
        (changed((0, slice(None))), "only your first row differs"),
        (changed((slice(None), 3)), "only your last column differs"),
        (changed((slice(2, None), slice(None))), "only from row 2 on"),
        (changed((slice(0, 2), slice(None))), "only up to row 1"),
        (changed((slice(None), slice(0, 2))), "only the first half of your columns"),
    ],
)
def test_the_region_of_the_wrong_entries_is_said(actual: np.ndarray, words: str) -> None:
    assert words in (where_differs(actual, EXPECTED, agree) or "")


def test_halves_and_parities_of_the_columns() -> None:
    expected = np.arange(1.0, 25.0).reshape(3, 8)
    second_half, odd = expected.copy(), expected.copy()
    second_half[:, 4:] *= -1
    odd[:, 1::2] *= -1
    assert "second half of your columns" in (where_differs(second_half, expected, agree) or "")
    assert "odd columns" in (where_differs(odd, expected, agree) or "")


def test_a_range_leaves_at_least_two_right_rows() -> None:
    """Position 0's row is right in most mistakes of a formula: one right row says nothing."""
    assert where_differs(changed((slice(1, None), slice(None))), EXPECTED, agree) is None


def test_a_stack_is_read_over_its_last_two_axes() -> None:
    expected = np.arange(1.0, 33.0).reshape(2, 4, 4)
    actual = expected.copy()
    actual[1, 3, :] = 0.0
    assert "only your last row differs" in (where_differs(actual, expected, agree) or "")


def test_booleans_and_a_single_entry() -> None:
    mask = np.tril(np.ones((3, 3), dtype=bool))
    strict = np.tril(np.ones((3, 3), dtype=bool), -1)
    assert "only on the diagonal" in (where_differs(strict, mask, np.equal) or "")
    one = np.array([[True]])
    assert "only on the diagonal" in (where_differs(~one, one, np.equal) or "")


@pytest.mark.parametrize(
    "actual",
    [
        EXPECTED + 1.0,  # everywhere
        changed((np.array([0, 1, 3]), np.array([2, 0, 1]))),  # scattered
        EXPECTED.copy(),  # right
    ],
)
def test_nothing_is_said_when_no_region_holds_the_wrong_entries(actual: np.ndarray) -> None:
    assert where_differs(actual, EXPECTED, agree) is None


def test_a_factor_of_its_own_for_each_row() -> None:
    factors = np.array([1.0, 0.5, 2.0, 1.0])[:, None]
    said = row_factors(EXPECTED * factors, EXPECTED, agree) or ""
    assert "each row of yours is the expected row times a factor of its own" in said
    assert row_factors(EXPECTED * 3.0, EXPECTED, agree) is None  # one factor for all
    assert row_factors(EXPECTED + factors, EXPECTED, agree) is None  # not a factor
