"""Checks about what a function does besides its return value: errors raised, inputs left alone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from autograder.checks.failure import CheckFailure, hidden_from_students
from autograder.checks.graded import examines

__tracebackhide__ = hidden_from_students  # a failed check's traceback ends at the test's line


@examines(calls_made=True)
def assert_raises(
    error: type[Exception],
    function: Callable[..., Any],
    *args: Any,
    what: str,
    mentions: str | None = None,
) -> Exception:
    """Fail unless `function(*args)` raises `error` (whose message names `mentions`, if given).

    Any other exception propagates unchanged, so a stub's NotImplementedError still reads as
    "not implemented yet".
    """
    try:
        returned = function(*args)
    except error as raised:
        if mentions is not None and mentions not in str(raised):
            raise CheckFailure(
                f"{what} raised {error.__name__}({str(raised)!r}); the message should name "
                f"{mentions!r} so the caller knows which argument is wrong"
            ) from None
        return raised
    raise CheckFailure(f"{what} should raise {error.__name__}; it returned {_describe(returned)}")


def assert_unchanged(before: np.ndarray, after: np.ndarray, *, what: str) -> None:
    """Fail when a caller's array was modified by the function under test."""
    if before.shape != after.shape or not np.array_equal(before, after, equal_nan=True):
        raise CheckFailure(
            f"{what} modified the array it was given; work on a copy (or build a new array) "
            "so the caller's data stays as it was"
        )


def _describe(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape}"
    return f"a {type(value).__name__}" if value is not None else "None"
