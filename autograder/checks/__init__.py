"""Assertions for tests that explain themselves: what is wrong, where, and what to try."""

from autograder.checks.behaviour import assert_raises, assert_unchanged
from autograder.checks.failure import (
    CheckFailure,
    PartialCredit,
    format_pair,
    format_value,
    format_values,
    short_repr,
)
from autograder.checks.numeric import as_array, assert_close, assert_shape, printed
from autograder.checks.symbolic import (
    as_expression,
    assert_equivalent,
    assert_free_of,
    numeric_values,
)

__all__ = [
    "CheckFailure",
    "PartialCredit",
    "as_array",
    "as_expression",
    "assert_close",
    "assert_equivalent",
    "assert_free_of",
    "assert_raises",
    "assert_shape",
    "assert_unchanged",
    "format_pair",
    "format_value",
    "format_values",
    "numeric_values",
    "printed",
    "short_repr",
]
