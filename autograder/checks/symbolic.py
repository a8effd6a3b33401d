"""Decide whether a student's SymPy expression equals the expected one, in bounded time.

1. a numeric screen: 50 random points, 30 significant digits, evaluated by a walker whose work is
   bounded by the expression's size; a difference is a failure with a counterexample (the
   symbols' values and both sides' values);
2. an exact proof: `expand`, `expand_trig` + `trigsimp`, `simplify`, and rewriting to
   exponentials, in a forked child killed at the time limit;
3. when SymPy runs out of time, the rubric's policy decides the credit (by default full, since
   the screen passed) and the test's outcome says what happened; when it finishes without a
   proof (or fails), the answer is not shown equal and the check fails.

NaN and infinities never pass: a NaN compares unequal to everything, so every comparison is
written as "within the tolerance", which NaN is not.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import sympy as sp

from autograder.checks import context, memo
from autograder.checks.bounded import run_bounded
from autograder.checks.evaluate import NotEvaluable, evaluate
from autograder.checks.failure import (
    DIGITS,
    CheckFailure,
    distinct_digits,
    format_value,
    hidden_from_students,
    note,
)
from autograder.checks.graded import examines
from autograder.course.rubric import SymbolicPolicy

__tracebackhide__ = hidden_from_students  # a failed check's traceback ends at the test's line

SCREEN_TOLERANCE = 1e-9
MAX_PARTS = 20_000


def configure(policy: SymbolicPolicy) -> None:
    """Set the policy of the active check context (the grader's runner does, from the rubric)."""
    context.active().policy = policy


def _policy() -> SymbolicPolicy:
    return context.active().policy


@examines("value")
def as_expression(value: Any, *, what: str) -> sp.Basic:
    """`value` itself if it is a SymPy object of bounded size; otherwise a failure saying what."""
    if not isinstance(value, sp.Basic):
        advice = ""
        if isinstance(value, (int, float, str)):
            advice = (
                " (build it from the SymPy symbols you were given, with sympy.sin and sympy.cos)"
            )
        kind = type(value).__name__
        raise CheckFailure(
            f"{what} should return a SymPy expression; yours returned a {kind}{advice}"
        )
    try:
        for parts, _ in enumerate(sp.preorder_traversal(value), start=1):
            if parts > MAX_PARTS:
                raise CheckFailure(f"{what} is too large to check: more than {MAX_PARTS} parts")
    except RecursionError:
        raise CheckFailure(f"{what} is nested too deeply to check") from None
    return value


@examines("expression")
def assert_free_of(
    expression: sp.Basic, symbol: sp.Symbol, *, what: str, hint: str | None = None
) -> None:
    """Fail when `symbol` still occurs in `expression`; `hint`, the assignment's own advice on
    the identity that makes it cancel, follows the message."""
    if symbol in expression.free_symbols:
        advice = f" ({hint})" if hint else ""
        raise CheckFailure(
            f"{what} still contains {symbol}: simplify it until {symbol} cancels{advice}"
        )


@examines("actual")
def assert_equivalent(
    actual: Any,
    expected: sp.Basic,
    *,
    what: str,
    symbols: Sequence[sp.Symbol],
    seed: int = 0,
    exact: bool | None = None,
) -> None:
    """Fail, with a counterexample, unless `actual` equals `expected` for all values of `symbols`.

    `exact=True` also refuses floating-point numbers (0.5 where 1/2 is meant); by default the
    rubric's policy decides.
    """
    exact = _policy().exact if exact is None else exact
    expression = as_expression(actual, what=what)
    unknown = expression.free_symbols - set(symbols)
    if unknown:
        names = ", ".join(sorted(str(s) for s in unknown))
        raise CheckFailure(f"{what} uses symbols it was not given: {names}")
    if exact and expression.atoms(sp.Float):
        floats = ", ".join(sorted(str(f) for f in expression.atoms(sp.Float))[:3])
        raise CheckFailure(f"{what} contains floating-point numbers ({floats}): use exact values")
    _screen(expression, expected, what=what, symbols=symbols, seed=seed)
    verdict = prove_equal(expression, expected)
    if verdict == "proved":
        return
    if verdict != "timeout":  # SymPy finished without a proof, or failed: not shown equal
        raise CheckFailure(
            f"{what} equals the expected value at {_policy().screen_points} random points, but "
            "SymPy could not prove it equal in general: simplify it to the expected form"
        )
    remark = (
        f"{what} could not be proved equal within {_policy().proof_timeout_s:g} s; "
        f"numerically equal at {_policy().screen_points} points"
    )
    if _policy().undecided == "none":
        raise CheckFailure(remark)
    note(remark)


def _screen(
    expression: sp.Basic, expected: sp.Basic, *, what: str, symbols: Sequence[sp.Symbol], seed: int
) -> None:
    parts = [
        tree_key(expression),
        tree_key(expected),
        what,
        str(seed),
        str(_policy().screen_points),
    ]
    verdict_key = memo.key("screen", [*parts, *(tree_key(s) for s in symbols)])
    problem = memo.remembered(
        verdict_key,
        lambda: _screen_problem(expression, expected, what=what, symbols=symbols, seed=seed),
    )
    if problem is not None:
        raise CheckFailure(problem)


def _screen_problem(
    expression: sp.Basic, expected: sp.Basic, *, what: str, symbols: Sequence[sp.Symbol], seed: int
) -> str | None:
    """Why `expression` differs from `expected` at one of the screen's points, or None."""
    generator = random.Random(seed)
    for _ in range(_policy().screen_points):
        point = {s: generator.uniform(-3, 3) for s in symbols}
        try:
            yours = evaluate(expression, point)
        except (
            NotEvaluable,
            ZeroDivisionError,
            ValueError,
            OverflowError,
            RecursionError,
        ) as error:
            return f"{what} could not be evaluated: {error}"
        should = evaluate(expected, point)
        if not _finite(yours) and _finite(should):
            at = ", ".join(f"{s}={format_value(v)}" for s, v in point.items())
            return f"{what} is {_number(yours)} at {at}; it should be {_number(should)}"
        if not abs(yours - should) <= SCREEN_TOLERANCE * max(1.0, abs(should)):  # NaN fails
            at = ", ".join(f"{s}={format_value(v)}" for s, v in point.items())
            digits = distinct_digits(should, yours, _number)
            return (
                f"{what} should equal {expected}; at {at} yours is {_number(yours, digits)} "
                f"but it should be {_number(should, digits)}"
            )
    return None


def prove_equal(left: sp.Basic, right: sp.Basic) -> str:
    """ "proved", or why not ("not proved", "timeout", "error: …"), within the policy's limit."""

    def attempt() -> str:
        difference = left - right
        strategies = (
            sp.expand,
            lambda e: sp.trigsimp(sp.expand_trig(sp.expand(e))),
            sp.simplify,
            lambda e: sp.simplify(sp.expand(e.rewrite(sp.exp))),
        )
        for strategy in strategies:
            if strategy(difference) == 0:
                return "proved"
        return "not proved"

    def bounded() -> str:
        outcome = run_bounded(attempt, timeout_s=_policy().proof_timeout_s)
        return str(outcome.value) if outcome.problem is None else outcome.problem

    parts = [tree_key(left), tree_key(right), str(_policy().proof_timeout_s)]
    return memo.remembered(memo.key("prove", parts), bounded, lasting=_decided)


def _decided(verdict: str) -> bool:
    """Whether a proof's verdict is its expressions' own, not this run's time or memory."""
    return verdict in ("proved", "not proved")


def tree_key(expression: Any) -> str:
    """The expression's tree written out node by node, for remembering verdicts: unlike
    `srepr`, it never orders a sum's terms (which evaluates them numerically, without bound:
    exp(exp(347000000)) takes minutes), and it walks without recursion."""
    tokens: list[str] = []
    pending = [expression]
    while pending:
        node = pending.pop()
        if isinstance(node, sp.Symbol):
            tokens.append(f"S{node.name!r}{sorted(node.assumptions0.items())}")
        elif isinstance(node, sp.Float):
            sign, mantissa, exponent, bits = node._mpf_
            tokens.append(f"F{sign},{int(mantissa):x},{exponent},{bits},{node._prec}")
        elif isinstance(node, sp.Rational):
            tokens.append(f"Q{int(node.p):x}/{int(node.q):x}")
        elif isinstance(node, sp.Basic) and node.args:
            tokens.append(f"{type(node).__name__}/{len(node.args)}")
            pending.extend(reversed(node.args))
        else:
            tokens.append(f"{type(node).__name__}:{node if isinstance(node, str) else ''}")
    return " ".join(tokens)


@examines("value")
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
    if _policy().exact:
        assert_exact(entries, what=what)
    try:
        numbers = [evaluate(as_expression(e, what=what), point) for e in entries]
    except (NotEvaluable, ZeroDivisionError, ValueError, OverflowError, RecursionError) as error:
        raise CheckFailure(f"{what} could not be evaluated: {error}") from None
    values: np.ndarray = np.array(numbers, dtype=complex).reshape(shape)
    return values


def assert_exact(entries: Sequence[Any], *, what: str) -> None:
    """Fail when an expression holds a floating-point number: exact answers keep SymPy's
    numbers (sp.sqrt(2), sp.Rational(1, 2)), not math's or NumPy's floats."""
    floats = sorted({str(f) for e in entries if isinstance(e, sp.Basic) for f in e.atoms(sp.Float)})
    if floats:
        raise CheckFailure(
            f"{what} holds the floating-point number {', '.join(f[:12] for f in floats[:3])}: "
            "the answer must be exact: use SymPy's numbers (sp.sqrt(d), sp.Rational(1, 2)), "
            "not math.sqrt or NumPy"
        )


def _finite(value: complex) -> bool:
    return math.isfinite(value.real) and math.isfinite(value.imag)


def _number(value: complex, digits: int = DIGITS) -> str:
    if abs(value.imag) < 1e-12:
        return format_value(value.real, digits)
    return f"{format_value(value.real, digits)}{value.imag:+.{digits}g}j"
