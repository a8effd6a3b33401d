"""Evaluate a SymPy expression at a point with mpmath, walking its tree: bounded work, no eval.

`expr.subs(...)` re-evaluates the tree and would compute an unevaluated 10**(10**18) exactly;
this walker only does fixed-precision arithmetic, one step per node, so a hostile expression
from a student costs at most its (codec-limited) size. Fixed precision alone is not enough:
mpmath's cost grows with a number's exponent (exp(exp(347000000)) takes minutes), so every
number the walk reads or makes must stay within 2**MAX_MAGNITUDE_BITS, and a Float may not carry
more than MAX_FLOAT_BITS of mantissa; past either, the expression is refused with a message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import mpmath
import sympy as sp

from autograder.errors import AutograderError

PRECISION_DIGITS = 30
MAX_MAGNITUDE_BITS = 4096
"""|x| < 2**4096 (about 1e1233) for every intermediate value: far beyond any answer's numbers."""
MAX_FLOAT_BITS = 4096

_FUNCTIONS: dict[type, Any] = {
    sp.sin: mpmath.sin, sp.cos: mpmath.cos, sp.tan: mpmath.tan, sp.exp: mpmath.exp,
    sp.log: mpmath.log, sp.Abs: abs, sp.asin: mpmath.asin, sp.acos: mpmath.acos,
    sp.atan: mpmath.atan, sp.sinh: mpmath.sinh, sp.cosh: mpmath.cosh, sp.tanh: mpmath.tanh,
    sp.sign: mpmath.sign,
}  # fmt: skip


class NotEvaluable(AutograderError, ValueError):
    """The expression holds something the walker does not know how to evaluate."""


def evaluate(expression: Any, point: Mapping[sp.Symbol, Any]) -> complex:
    """The value of `expression` with each symbol replaced by its value in `point`."""
    with mpmath.workdps(PRECISION_DIGITS):
        try:
            value = _walk(expression, point)
        except RecursionError:
            raise NotEvaluable("the expression is nested too deeply") from None
        return complex(mpmath.mpc(value))


def _bounded(value: Any) -> Any:
    """`value` itself when its magnitude is within bounds (NaN and infinities pass: the caller
    judges those); otherwise the expression is refused. Checked where mpmath's cost grows with
    a magnitude (a function's argument, a power's operands), not after every sum or product."""
    if mpmath.isfinite(value) and value != 0 and mpmath.mag(value) > MAX_MAGNITUDE_BITS:
        raise NotEvaluable(f"it reaches a number beyond 2**{MAX_MAGNITUDE_BITS}")
    return value


def _walk(node: Any, point: Mapping[sp.Symbol, Any]) -> Any:
    if isinstance(node, sp.Symbol):
        if node not in point:
            raise NotEvaluable(f"no value for the symbol {node}")
        return mpmath.mpmathify(point[node])
    if isinstance(node, sp.Integer):
        return _bounded(mpmath.mpf(int(node)))
    if isinstance(node, sp.Rational):
        return _bounded(mpmath.mpf(int(node.p)) / int(node.q))
    if isinstance(node, sp.Float):
        if node._mpf_[1] and int(node._mpf_[1]).bit_length() > MAX_FLOAT_BITS:
            raise NotEvaluable(f"a Float with more than {MAX_FLOAT_BITS} bits of precision")
        return mpmath.mpf(node._mpf_)
    if node is sp.pi:
        return mpmath.pi
    if node is sp.E:
        return mpmath.e
    if node is sp.I:
        return mpmath.mpc(0, 1)
    if isinstance(node, sp.Add):
        return mpmath.fsum(_walk(a, point) for a in node.args)
    if isinstance(node, sp.Mul):
        product = mpmath.mpf(1)
        for factor in node.args:
            product *= _walk(factor, point)
        return product
    if isinstance(node, sp.Pow):
        base, exponent = (_bounded(_walk(a, point)) for a in node.args)
        if mpmath.isfinite(base) and base != 0 and mpmath.isfinite(exponent):
            _within(mpmath.fabs(exponent) * abs(mpmath.mag(base)))
        return mpmath.power(base, exponent)
    function = _FUNCTIONS.get(type(node))
    if function is not None and len(node.args) == 1:
        argument = _bounded(_walk(node.args[0], point))
        if function in (mpmath.exp, mpmath.sinh, mpmath.cosh) and mpmath.isfinite(argument):
            _within(mpmath.fabs(argument))
        return function(argument)
    raise NotEvaluable(f"cannot evaluate a {type(node).__name__}")


def _within(bits: Any) -> None:
    """Refuse a power or an exponential whose result would have more than MAX_MAGNITUDE_BITS."""
    if bits > MAX_MAGNITUDE_BITS:
        raise NotEvaluable(f"it reaches a number beyond 2**{MAX_MAGNITUDE_BITS}")
