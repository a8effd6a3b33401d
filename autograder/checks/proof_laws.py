"""The laws proofs may cite. Each is a normaliser that applies exactly one law, everywhere.

Scalar (trigonometry): "angle sum" expands sin and cos of sums; "algebra" treats sin and cos as
opaque and expands products and powers; "Pythagoras" replaces c·sin²x + c·cos²x by c within one
sum, and expands nothing.
Matrices: "transpose of a product" pushes transposes inward ((AB)ᵀ = BᵀAᵀ, (Aᵀ)ᵀ = A);
"PᵀP = I" cancels PᵀP and PPᵀ for the domain's permutation matrices. Products are
re-associated freely: that is not a law to cite. An assignment adds laws about its own matrix
functions in its proof domain, each a `Law` whose normaliser is `everywhere(domain, rewrite)`
with a rewrite of one node (None where it does not apply).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sympy as sp

from autograder.checks.proof import Law
from autograder.checks.proof_parse import MatrixDomain, MatrixFunction


def scalar_laws() -> tuple[Law, ...]:
    return (
        Law(
            "angle sum",
            _angle_sum,
            "sin(a + b) = sin a cos b + cos a sin b; cos(a + b) = cos a cos b − sin a sin b",
        ),
        Law(
            "algebra",
            sp.expand,
            "multiply out, collect and cancel terms; sin and cos stay as they are",
        ),
        Law("Pythagoras", _pythagoras, "sin(x)**2 + cos(x)**2 = 1", weaker=("algebra",)),
    )


def _angle_sum(expression: Any) -> Any:
    """sin and cos of every sum expanded, and nothing else: the result is left unevaluated."""
    if isinstance(expression, (sp.sin, sp.cos)):
        angle = sp.expand(_angle_sum(expression.args[0]))
        if isinstance(angle, sp.Add):
            first, rest = angle.args[0], sp.Add(*angle.args[1:])
            return _expand_pair(type(expression), first, rest)
        return type(expression)(angle, evaluate=False)
    if isinstance(expression, (sp.Add, sp.Mul, sp.Pow)):
        return type(expression)(*[_angle_sum(a) for a in expression.args], evaluate=False)
    return expression


def _expand_pair(function: Any, a: Any, b: Any) -> Any:
    sin_a, cos_a = _angle_sum(sp.sin(a, evaluate=False)), _angle_sum(sp.cos(a, evaluate=False))
    sin_b, cos_b = _angle_sum(sp.sin(b, evaluate=False)), _angle_sum(sp.cos(b, evaluate=False))

    def times(x: Any, y: Any) -> Any:
        return sp.Mul(x, y, evaluate=False)

    if function is sp.sin:
        return sp.Add(times(sin_a, cos_b), times(cos_a, sin_b), evaluate=False)
    minus = sp.Mul(sp.Integer(-1), times(sin_a, sin_b), evaluate=False)
    return sp.Add(times(cos_a, cos_b), minus, evaluate=False)


def _pythagoras(expression: Any) -> Any:
    """Every sum holding c·sin(x)² and c·cos(x)² with the same c and x has them replaced by c,
    and nothing else: no product is multiplied out, so a step that also expands (or factors
    across terms that do not sit side by side in one sum) needs "algebra" as a step of its own."""
    if not isinstance(expression, sp.Basic) or not expression.args:
        return expression
    rebuilt = expression.func(*[_pythagoras(a) for a in expression.args])
    if not isinstance(rebuilt, sp.Add):
        return rebuilt
    terms = list(rebuilt.args)
    for i, term in enumerate(terms):
        found = _square_of(term, sp.sin)
        if found is None:
            continue
        angle, rest = found
        for j, other in enumerate(terms):
            if j != i and _square_of(other, sp.cos) == (angle, rest):
                kept = [t for n, t in enumerate(terms) if n not in (i, j)]
                return _pythagoras(sp.Add(rest, *kept))
    return rebuilt


def _square_of(term: Any, function: Any) -> tuple[Any, Any] | None:
    """(x, c) when `term` is c·function(x)², else None."""
    factors = list(sp.Mul.make_args(term))
    for n, factor in enumerate(factors):
        if isinstance(factor, sp.Pow) and factor.exp == 2 and isinstance(factor.base, function):
            return factor.base.args[0], sp.Mul(*(factors[:n] + factors[n + 1 :]))
    return None


def transpose_law(domain: MatrixDomain) -> Law:
    """(A @ B).T = B.T @ A.T and (A.T).T = A, applied everywhere."""

    def push_transpose(node: Any) -> Any:
        if isinstance(node, sp.Transpose):
            inner = node.args[0]
            if isinstance(inner, sp.Transpose):
                return inner.args[0]
            if isinstance(inner, sp.MatMul):
                scalars = [a for a in inner.args if not isinstance(a, sp.MatrixExpr)]
                matrices = [a for a in inner.args if isinstance(a, sp.MatrixExpr)]
                return sp.MatMul(*scalars, *[sp.Transpose(m) for m in reversed(matrices)])
        return None

    return Law(
        "transpose of a product", everywhere(domain, push_transpose), "(A @ B).T = B.T @ A.T"
    )


def permutation_inverse_law(domain: MatrixDomain) -> Law:
    """PᵀP = PPᵀ = I for the domain's permutation matrices, applied everywhere."""
    permutations = {domain.symbol(name) for name in domain.permutations}

    def cancel_permutation(node: Any) -> Any:
        if isinstance(node, sp.MatMul):
            args = list(node.args)
            for i in range(len(args) - 1):
                a, b = args[i], args[i + 1]
                if (a in permutations and b == sp.Transpose(a)) or (
                    b in permutations and a == sp.Transpose(b)
                ):
                    rest = args[:i] + args[i + 2 :]
                    if not [r for r in rest if isinstance(r, sp.MatrixExpr)]:
                        rest.append(sp.Identity(a.shape[0] if a in permutations else b.shape[0]))
                    return sp.MatMul(*rest)
        return None

    return Law(
        "PᵀP = I",
        everywhere(domain, cancel_permutation),
        "P.T @ P = P @ P.T = I for a permutation P",
    )


def everywhere(domain: MatrixDomain, rewrite: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """Apply `rewrite` wherever it matches, innermost first, until nothing changes."""

    def once(node: Any) -> Any:
        if isinstance(node, (sp.MatMul, sp.Transpose, MatrixFunction, sp.MatAdd)):
            node = domain.canonical(type(node)(*[once(a) for a in node.args]))
        replaced = rewrite(node)
        return node if replaced is None else domain.canonical(replaced)

    def normalise(expression: Any) -> Any:
        current = domain.canonical(expression)
        for _ in range(50):
            following = once(current)
            if following == current:
                return current
            current = following
        return current

    return normalise
