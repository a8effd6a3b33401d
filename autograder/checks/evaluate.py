"""Evaluate a SymPy expression at a point with mpmath, walking its tree: bounded work, no eval.

`expr.subs(...)` re-evaluates the tree and would compute an unevaluated 10**(10**18) exactly;
this walker only does fixed-precision arithmetic, one step per node, so a hostile expression
from a student costs at most its (codec-limited) size.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import mpmath
import sympy as sp

PRECISION_DIGITS = 30

_FUNCTIONS: dict[type, Any] = {
    sp.sin: mpmath.sin, sp.cos: mpmath.cos, sp.tan: mpmath.tan, sp.exp: mpmath.exp,
    sp.log: mpmath.log, sp.Abs: abs, sp.asin: mpmath.asin, sp.acos: mpmath.acos,
    sp.atan: mpmath.atan, sp.sinh: mpmath.sinh, sp.cosh: mpmath.cosh, sp.tanh: mpmath.tanh,
    sp.sign: mpmath.sign,
}  # fmt: skip


class NotEvaluable(ValueError):
    """The expression holds something the walker does not know how to evaluate."""


def evaluate(expression: Any, point: Mapping[sp.Symbol, Any]) -> complex:
    """The value of `expression` with each symbol replaced by its value in `point`."""
    with mpmath.workdps(PRECISION_DIGITS):
        try:
            value = _walk(expression, point)
        except RecursionError:
            raise NotEvaluable("the expression is nested too deeply") from None
        return complex(mpmath.mpc(value))


def _walk(node: Any, point: Mapping[sp.Symbol, Any]) -> Any:
    if isinstance(node, sp.Symbol):
        if node not in point:
            raise NotEvaluable(f"no value for the symbol {node}")
        return mpmath.mpmathify(point[node])
    if isinstance(node, sp.Integer):
        return mpmath.mpf(int(node))
    if isinstance(node, sp.Rational):
        return mpmath.mpf(int(node.p)) / int(node.q)
    if isinstance(node, sp.Float):
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
        base, exponent = (_walk(a, point) for a in node.args)
        return mpmath.power(base, exponent)
    function = _FUNCTIONS.get(type(node))
    if function is not None and len(node.args) == 1:
        return function(_walk(node.args[0], point))
    raise NotEvaluable(f"cannot evaluate a {type(node).__name__}")
