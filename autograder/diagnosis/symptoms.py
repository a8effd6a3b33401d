"""Where a wrong array differs from the expected one, said as a symptom, not a cause.

When no model reproduces a student's calls, the honest hint is what the output shows: the
entries that are wrong lie only on the diagonal, only in the last row, only in the second half
of the columns; or every row is the expected row times a factor of its own. Each sentence is
measured on the call it speaks of (the generic measures' honesty rule then asks every other
wrong value of the function to be said the same way), names no argument (a hidden test's
reader may hear it) and no cause.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

DIAGONAL = "your entries differ from the expected only on the diagonal; the others are right"
MIN_RIGHT_LINES = 2
"""Right rows a range of wrong ones must leave: the first row alone is often right by the
formula's own shape (position 0, a query that sees only itself), and says nothing."""
Close = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""Elementwise agreement of two arrays of one shape, within the rubric's tolerance."""


def where_differs(actual: np.ndarray, expected: np.ndarray, agree: Close) -> str | None:
    """The region the wrong entries are confined to, when it is one a reader can look at (the
    last two axes of a stack, taken over the whole stack); None when they are everywhere or
    scattered."""
    if actual.shape != expected.shape or expected.size == 0:
        return None
    wrong = ~agree(actual, expected)
    if not wrong.any():
        return None
    if expected.ndim == 1:
        return None if wrong.all() else _in_vector(wrong)
    plane = np.asarray(wrong.reshape((-1, *wrong.shape[-2:])).any(axis=0))
    if plane.shape[0] == plane.shape[1] and not (plane & ~np.eye(len(plane), dtype=bool)).any():
        return DIAGONAL  # a 1×1 matrix too: nothing off its diagonal to contradict it
    if plane.all():
        return None
    return _in_matrix(plane)


def row_factors(actual: np.ndarray, expected: np.ndarray, agree: Close) -> str | None:
    """Every row (along the last axis) the expected one times a factor of its own, not one
    factor for all: what each row is scaled or normalised by is off."""
    if expected.ndim < 2 or expected.shape[-1] < 2 or not np.isfinite(actual).all():
        return None
    rows = expected.reshape(-1, expected.shape[-1])
    mine = actual.reshape(rows.shape)
    if rows.shape[0] < 2:
        return None
    energy = np.einsum("ij,ij->i", rows, rows)
    if np.any(energy < 1e-24):
        return None
    factors = np.einsum("ij,ij->i", rows, mine) / energy
    if not agree(mine, factors[:, None] * rows).all():
        return None
    spread = float(np.ptp(factors))
    if spread < 1e-6 * max(1.0, float(np.max(np.abs(factors)))):
        return None  # one factor for every row: the generic measure of a factor says it
    return (
        "each row of yours is the expected row times a factor of its own (not one factor for "
        "all rows): what each row is scaled or divided by differs from the expected"
    )


def _in_vector(wrong: np.ndarray) -> str | None:
    n = wrong.size
    where = np.flatnonzero(wrong)
    if len(where) == 1:
        which = "first" if where[0] == 0 else "last" if where[0] == n - 1 else None
        if which:
            return f"only your {which} entry differs from the expected; the others are right"
        return f"only your entry {int(where[0])} differs from the expected; the others are right"
    return _in_half(wrong, "entries") or _in_parity(wrong, "entries")


def _in_matrix(wrong: np.ndarray) -> str | None:
    rows, columns = wrong.shape
    if rows == columns and rows >= 2:
        diagonal = np.eye(rows, dtype=bool)
        for region, words in (
            (np.triu(np.ones_like(diagonal), 1), "above the diagonal"),
            (np.tril(np.ones_like(diagonal), -1), "below the diagonal"),
        ):
            if not (wrong & ~region).any():
                return f"your entries differ from the expected only {words}; the others are right"
    for axis, noun in ((0, "row"), (1, "column")):
        lines = np.flatnonzero(wrong.any(axis=1 - axis))
        count = wrong.shape[axis]
        if count >= 2 and len(lines) == 1:
            which = "first" if lines[0] == 0 else "last" if lines[0] == count - 1 else None
            if which:
                return f"only your {which} {noun} differs from the expected; the others are right"
            return (
                f"only your {noun} {int(lines[0])} differs from the expected; the others are right"
            )
    columns_wrong = np.asarray(wrong.any(axis=0))
    halves = _in_half(columns_wrong, "columns") or _in_parity(columns_wrong, "columns")
    if halves:
        return halves
    for axis, noun in ((0, "row"), (1, "column")):
        said = _in_range(wrong if axis == 0 else wrong.T, noun)
        if said:
            return said
    return None


def _in_range(wrong: np.ndarray, noun: str) -> str | None:
    """The wrong rows (of `wrong`) are the last ones from some row on, or the first ones up to
    some row, each wrong in at least half its entries (a few scattered entries are no range)."""
    count = wrong.shape[0]
    lines = np.flatnonzero(wrong.any(axis=1))
    if count < 4 or len(lines) < 2 or not np.array_equal(lines, np.arange(lines[0], lines[-1] + 1)):
        return None
    if np.any(wrong[lines].mean(axis=1) < 0.5):
        return None
    if lines[0] >= MIN_RIGHT_LINES and lines[-1] == count - 1:
        return (
            f"your {noun}s differ from the expected only from {noun} {int(lines[0])} on; "
            f"the {noun}s before it are right"
        )
    if lines[0] == 0 and lines[-1] < count - MIN_RIGHT_LINES:
        return (
            f"your {noun}s differ from the expected only up to {noun} {int(lines[-1])}; "
            f"the {noun}s after it are right"
        )
    return None


def _in_half(wrong: np.ndarray, noun: str) -> str | None:
    n = wrong.size
    if n < 4 or n % 2:
        return None
    if not wrong[: n // 2].any():
        return f"only the second half of your {noun} differs from the expected; the first is right"
    if not wrong[n // 2 :].any():
        return f"only the first half of your {noun} differs from the expected; the second is right"
    return None


def _in_parity(wrong: np.ndarray, noun: str) -> str | None:
    if wrong.size < 4:
        return None
    if not wrong[0::2].any():
        return f"only your odd {noun} (1, 3, …) differ from the expected; the even ones are right"
    if not wrong[1::2].any():
        return f"only your even {noun} (0, 2, …) differ from the expected; the odd ones are right"
    return None
