"""Compare a student's SymPy expression with an expected one, by a high-precision numeric screen.

Random points (30 significant digits) expose a wrong answer and give the student a
counterexample: the symbols' values and both sides' values there. An answer that agrees at every
point is accepted, so a correct student never loses points to the limits of symbolic
simplification. An exact proof under a time limit is the next layer on top of this screen.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import sympy as sp

from autograder.checks.evaluate import NotEvaluable, evaluate
from autograder.checks.failure import CheckFailure, format_value

SCREEN_POINTS = 20
SCREEN_TOLERANCE = 1e-9


def as_expression(value: Any, *, what: str) -> sp.Basic:
    """`value` itself if it is a SymPy object; otherwise a failure saying what it was."""
    if isinstance(value, sp.Basic):
        return value
    advice = ""
    if isinstance(value, (int, float)):
        advice = " (use sympy.sin/sympy.cos on the symbols, not math or numpy functions)"
    raise CheckFailure(
        f"{what} should return a SymPy expression; yours returned a {type(value).__name__}{advice}"
    )


def assert_free_of(expression: sp.Basic, symbol: sp.Symbol, *, what: str) -> None:
    """Fail when `symbol` still occurs in `expression`."""
    if symbol in expression.free_symbols:
        raise CheckFailure(
            f"{what} still contains {symbol}: simplify it until {symbol} cancels "
            "(the angle-difference identity cos(A − B) = cos A cos B + sin A sin B does it)"
        )


def assert_equivalent(
    actual: Any, expected: sp.Basic, *, what: str, symbols: Sequence[sp.Symbol], seed: int = 0
) -> None:
    """Fail, with a counterexample, unless `actual` equals `expected` at every point."""
    expression = as_expression(actual, what=what)
    unknown = expression.free_symbols - set(symbols)
    if unknown:
        names = ", ".join(sorted(str(s) for s in unknown))
        raise CheckFailure(f"{what} uses symbols it was not given: {names}")
    generator = random.Random(seed)
    for _ in range(SCREEN_POINTS):
        point = {s: generator.uniform(-3, 3) for s in symbols}
        try:
            yours = evaluate(expression, point)
        except (NotEvaluable, ZeroDivisionError, ValueError, OverflowError) as error:
            raise CheckFailure(f"{what} could not be evaluated: {error}") from None
        should = evaluate(expected, point)
        if abs(yours - should) > SCREEN_TOLERANCE * max(1.0, abs(should)):
            at = ", ".join(f"{s}={format_value(v)}" for s, v in point.items())
            raise CheckFailure(
                f"{what} should equal {expected}; at {at} yours is {_number(yours)} "
                f"but it should be {_number(should)}"
            )


def _number(value: complex) -> str:
    if abs(value.imag) < 1e-12:
        return format_value(value.real)
    return f"{format_value(value.real)}{value.imag:+.4g}j"


def numeric_values(value: Any, point: dict[sp.Symbol, float], *, what: str) -> np.ndarray:
    """A SymPy expression, tuple or Matrix evaluated at `point` (bounded work) as a complex array.

    Matrix laws (MᵀM = I, det M = 1, M·v = w) are checked on these numbers: SymPy's own matrix
    algebra on a student's unevaluated expression could combine powers into a huge exact integer.
    """
    if isinstance(value, sp.MatrixBase):
        entries, shape = list(value), value.shape
    elif isinstance(value, (tuple, list, sp.Tuple)):
        entries, shape = list(value), (len(value),)
    else:
        entries, shape = [as_expression(value, what=what)], ()
    try:
        numbers = [evaluate(as_expression(e, what=what), point) for e in entries]
    except (NotEvaluable, ZeroDivisionError, ValueError, OverflowError) as error:
        raise CheckFailure(f"{what} could not be evaluated: {error}") from None
    values: np.ndarray = np.array(numbers, dtype=complex).reshape(shape)
    return values
