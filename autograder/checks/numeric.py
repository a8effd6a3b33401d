"""Compare a student's array with an expected one and say where, and how, they differ."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from autograder.checks.closeness import all_close
from autograder.checks.failure import (
    Hint,
    distinct_digits,
    fail,
    format_pair,
    format_value,
    format_values,
    hidden_from_students,
)
from autograder.checks.graded import examines
from autograder.tolerance import DEFAULT_ATOL, DEFAULT_RTOL

"""float32 answers pass: float64 is never required."""

__tracebackhide__ = hidden_from_students  # a failed check's traceback ends at the test's line


@examines("value")
def as_array(value: Any, *, what: str, hints: Iterable[Hint[Any]] = ()) -> np.ndarray:
    """`value` itself if it is a numeric NumPy array; otherwise a failure saying what it was."""
    if not isinstance(value, np.ndarray):
        advice = " (wrap the result in np.array(...))" if isinstance(value, (list, tuple)) else ""
        raise fail(
            f"{what} should return a NumPy array; yours returned a {type(value).__name__}{advice}",
            observed=value,
            hints=hints,
        )
    if not (np.issubdtype(value.dtype, np.number) or value.dtype == np.bool_):
        raise fail(f"{what} should hold numbers; yours holds dtype {value.dtype}")
    return value


@examines("value")
def assert_shape(
    value: Any, shape: tuple[int, ...], *, what: str, hints: Iterable[Hint[Any]] = ()
) -> np.ndarray:
    """`value` itself if it is a numeric array of exactly `shape`; else a failure saying how."""
    hints = tuple(hints)
    array = as_array(value, what=what, hints=hints)
    if array.shape != tuple(shape):
        message = f"{what} should have shape {tuple(shape)}; yours has shape {array.shape}"
        if array.shape == tuple(reversed(shape)) and len(shape) == 2:
            message += " (rows and columns swapped: is it transposed?)"
        raise fail(message, observed=array, hints=hints)
    return array


@examines("actual", "expected")
def assert_close(
    actual: Any,
    expected: Any,
    *,
    what: str,
    rtol: float = DEFAULT_RTOL,
    atol: float = DEFAULT_ATOL,
    hints: Iterable[Hint[np.ndarray]] = (),
    index_map: tuple[Any, ...] | None = None,
) -> np.ndarray:
    """Fail unless `actual` is an array of `expected`'s shape whose entries all match.

    `index_map`: when `actual` was picked out of a larger array (`PE[np.ix_(rows, cols)]`), one
    1-D sequence of indices per axis (`(rows, cols)`) saying where each of its entries sits in
    that array; the message then names the entry by its index there (`what, entry [7, 8]`),
    `what` naming the whole array.

    NaN and infinities match nothing (not even a NaN expected from the student's own output).
    The message names the first differing entry by its index, after `what` and apart from it
    (`what, entry [0, 2]`), the expected and the observed value, with as many digits as it takes
    for them to read differently, and how many others differ; it never prints the whole expected
    array. A short 1-D expectation is described whole (`row 0 should be [0, 1, 0, 1, …]; yours
    starts [1, 0, …]`).
    """
    hints = tuple(hints)
    target = np.asarray(expected, dtype=np.float64)
    array = assert_shape(actual, target.shape, what=what, hints=hints)
    if np.isfinite(array).all() and all_close(array, target, rtol, atol):
        return array  # the common case, answered without np.isclose's work in Python
    with np.errstate(over="ignore", invalid="ignore"):  # a difference too large to hold
        wrong = ~np.isclose(array, target, rtol=rtol, atol=atol)  # NaN matches not even NaN
    wrong |= ~np.isfinite(array)  # nor does an infinity, even where one was expected
    if not wrong.any():
        return array
    if target.ndim == 1 and index_map is None:
        first = int(np.argmax(wrong))
        digits = distinct_digits(target[first], array[first])
        message = (
            f"{what} should be {format_values(target, digits=digits)}; "
            f"yours {'starts' if target.size > 4 else 'is'} {format_values(array, digits=digits)}"
        )
        if first >= 4:
            message += (
                f" and entry {first} is {format_value(array[first], digits)} "
                f"where {format_value(target[first], digits)} was expected"
            )
    else:
        index = tuple(int(i) for i in np.argwhere(wrong)[0])
        where = f"{what}, {entry(_mapped(index, index_map))}" if index else what
        expected_value, observed = format_pair(target[index], array[index])
        message = f"{where} should be {expected_value}; yours is {observed}"
        if wrong.sum() > 1:
            message += f" ({int(wrong.sum()) - 1} more of its {wrong.size} entries differ)"
    if np.isnan(array).any():
        message += " (your result contains nan)"
    raise fail(message, observed=array, hints=hints)


def entry(index: tuple[int, ...]) -> str:
    """An entry's index as a message writes it after a label: `entry [7, 8]`."""
    return f"entry [{', '.join(map(str, index))}]"


def _mapped(index: tuple[int, ...], index_map: tuple[Any, ...] | None) -> tuple[int, ...]:
    """`index` in the picked-out array as the index of the same entry in the whole one."""
    if index_map is None:
        return index
    if len(index_map) != len(index):
        raise ValueError(f"index_map has {len(index_map)} axes; the array has {len(index)}")
    return tuple(int(np.ravel(axis)[i]) for axis, i in zip(index_map, index, strict=True))


def printed(decimals: int) -> dict[str, float]:
    """Tolerance for comparing with a value printed rounded to `decimals` places.

    Half a unit in the last printed place, plus 1e-5 so that a float32 answer a hair past the
    rounding edge still passes.
    """
    return {"atol": 0.5 * 10.0**-decimals + 1e-5, "rtol": 0.0}
