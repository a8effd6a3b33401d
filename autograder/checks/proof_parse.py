"""Proof steps from text to SymPy, by a whitelist over Python's `ast`: no eval, no sympify.

Two domains: `ScalarDomain` (named real symbols; + − × ÷ and small integer powers; sin, cos,
sqrt) and `MatrixDomain` (named matrices as MatrixSymbols of symbolic shape; `@`, `.T`,
division by a scalar, sqrt of a scalar, and the matrix functions an assignment declares with
`matrix_function`, e.g. a row-wise normalisation `norm(...)`). An assignment's proof domain
(`assignments/NAME/proof_domain.py`) builds its domains and laws from these parts.
Anything else in the text (a name outside the vocabulary, an attribute other than `.T`, a call
of anything but the allowed functions, a keyword, a large exponent, a long text) is a
ProofSyntaxError that says what is allowed.
"""

from __future__ import annotations

import ast
import itertools
import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import sympy as sp

from autograder.checks.evaluate import NotEvaluable, evaluate
from autograder.checks.failure import distinct_digits, format_value
from autograder.protocol.faults import StudentFault

MAX_NODES = 300
MAX_EXPONENT = 8


class ProofSyntaxError(StudentFault, ValueError):
    """A step's text is not an expression of the proof's vocabulary."""


class Domain(Protocol):
    def parse(self, text: str) -> Any: ...
    def canonical(self, expression: Any) -> Any: ...
    def differs(self, left: Any, right: Any) -> str | None: ...


def _tree(text: str, allowed: str) -> ast.expr:
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as error:
        raise ProofSyntaxError(f"{text!r} is not valid syntax ({error.msg})") from None
    nodes = list(ast.walk(tree))
    if len(nodes) > MAX_NODES:
        raise ProofSyntaxError(f"the expression is too long (more than {MAX_NODES} parts)")
    for node in nodes:
        if isinstance(node, ast.Name) and node.id.startswith("_"):
            raise ProofSyntaxError(f"{node.id!r} is not allowed; use only {allowed}")
        if isinstance(node, ast.Attribute) and node.attr != "T":
            raise ProofSyntaxError(f"'.{node.attr}' is not allowed; the only attribute is .T")
    return tree.body


def _small_integer(node: ast.expr) -> int:
    if (
        isinstance(node, ast.Constant)
        and type(node.value) is int
        and abs(node.value) <= MAX_EXPONENT
    ):
        return node.value
    raise ProofSyntaxError(
        f"exponents must be whole numbers from -{MAX_EXPONENT} to {MAX_EXPONENT}"
    )


def _number(node: ast.Constant) -> sp.Basic:
    if type(node.value) is int and abs(node.value) < 10**6:
        return sp.Integer(node.value)
    if type(node.value) is float and math.isfinite(node.value):
        return (
            sp.nsimplify(node.value, rational=True)
            if node.value.is_integer()
            else sp.Float(node.value)
        )
    raise ProofSyntaxError(f"{node.value!r} is not an allowed number")


@dataclass(frozen=True)
class ScalarDomain:
    """Real-valued expressions in the named symbols, with sin, cos and sqrt."""

    symbols: tuple[str, ...]
    functions: tuple[str, ...] = ("sin", "cos", "sqrt")
    seed: int = 0

    @property
    def _allowed(self) -> str:
        return f"the symbols {', '.join(self.symbols)} and {', '.join(self.functions)}(...)"

    def symbol(self, name: str) -> sp.Symbol:
        return sp.Symbol(name, real=True)

    def parse(self, text: str) -> Any:
        return self._build(_tree(text, self._allowed))

    def _build(self, node: ast.expr) -> Any:
        if isinstance(node, ast.BinOp):
            left, right = self._build(node.left), node.right
            if isinstance(node.op, ast.Pow):
                return sp.Pow(left, _small_integer(right), evaluate=False)
            operations: dict[type, Any] = {
                ast.Add: lambda a, b: sp.Add(a, b, evaluate=False),
                ast.Sub: lambda a, b: sp.Add(a, _negative(b), evaluate=False),
                ast.Mult: lambda a, b: sp.Mul(a, b, evaluate=False),
                ast.Div: lambda a, b: sp.Mul(a, sp.Pow(b, -1, evaluate=False), evaluate=False),
            }  # fmt: skip
            if type(node.op) in operations:
                return operations[type(node.op)](left, self._build(right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            value = self._build(node.operand)
            return _negative(value) if isinstance(node.op, ast.USub) else value
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id not in self.functions or node.keywords or len(node.args) != 1:
                raise ProofSyntaxError(
                    f"{node.func.id}(...) is not allowed; use only {self._allowed}"
                )
            return getattr(sp, node.func.id)(self._build(node.args[0]), evaluate=False)
        if isinstance(node, ast.Name):
            if node.id not in self.symbols:
                raise ProofSyntaxError(f"{node.id!r} is not allowed; use only {self._allowed}")
            return self.symbol(node.id)
        if isinstance(node, ast.Constant):
            return _number(node)
        raise ProofSyntaxError(f"{type(node).__name__} is not allowed; use only {self._allowed}")

    def canonical(self, expression: Any) -> Any:
        return scalar_canonical(expression)

    def differs(self, left: Any, right: Any) -> str | None:
        generator = random.Random(self.seed)
        for _ in range(20):
            point = {self.symbol(s): generator.uniform(-3, 3) for s in self.symbols}
            try:
                a, b = evaluate(left, point), evaluate(right, point)
            except (NotEvaluable, ZeroDivisionError, ValueError, OverflowError):
                continue
            if abs(a - b) > 1e-9 * max(1.0, abs(a)):
                at = ", ".join(f"{k}={format_value(v)}" for k, v in point.items())
                digits = distinct_digits(a.real, b.real)
                values = (
                    f"{format_value(a.real, digits)} and this one {format_value(b.real, digits)}"
                )
                return f"at {at} the previous step is {values}"
        return None


class MatrixFunction(sp.MatrixExpr):  # type: ignore[misc]
    """A function of one matrix with the shape of its argument, kept unevaluated; subclasses
    made by `matrix_function` say its name in proofs and how to compute it."""

    name: str = ""
    numeric: Any = None
    """(the argument as a NumPy array, the scalars' values by name) → the value, a NumPy array."""

    def __new__(cls, argument: Any) -> Any:
        return sp.Basic.__new__(cls, argument)

    @property
    def shape(self) -> Any:
        return self.args[0].shape


def matrix_function(
    name: str, numeric: Callable[[Any, Mapping[str, float]], Any], doc: str = ""
) -> type[MatrixFunction]:
    """A matrix function for a MatrixDomain: written `name(...)` in proofs, computed by
    `numeric(array, scalars)` when two steps are compared on random matrices."""
    if not name.isidentifier() or name.startswith("_") or name in ("sqrt", "T"):
        raise ValueError(f"{name!r} cannot name a matrix function")
    attributes = {"name": name, "numeric": staticmethod(numeric), "__doc__": doc or name}
    return type(f"MatrixFunction_{name}", (MatrixFunction,), attributes)


@dataclass(frozen=True)
class MatrixDomain:
    """Matrix expressions: named matrices, `@`, `.T`, scalar factors and declared functions."""

    matrices: dict[str, tuple[str, str]]
    """name → (rows, columns), as names of symbolic sizes, e.g. {"X": ("n", "m")}."""
    permutations: tuple[str, ...] = ()
    """Matrices that stand for permutation matrices (PᵀP = I; numeric checks try every one)."""
    functions: tuple[type[MatrixFunction], ...] = ()
    """The matrix functions proofs may call (made by `matrix_function`)."""
    scalars: tuple[str, ...] = ()
    sizes: tuple[int, ...] = (3, 4)
    seed: int = 0
    _cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def _allowed(self) -> str:
        names = ", ".join([*self.matrices, *self.scalars])
        calls = "".join(f", {function.name}(...)" for function in self.functions)
        scalar = f", / sqrt({self.scalars[0]})" if self.scalars else ""
        return f"the names {names}, @, .T{scalar}{calls}"

    def symbol(self, name: str) -> Any:
        if name not in self._cache:
            if name in self.matrices:
                rows, columns = self.matrices[name]
                shape = (
                    sp.Symbol(rows, positive=True, integer=True),
                    sp.Symbol(columns, positive=True, integer=True),
                )
                self._cache[name] = sp.MatrixSymbol(name, *shape)
            else:
                self._cache[name] = sp.Symbol(name, positive=True)
        return self._cache[name]

    def function(self, name: str) -> type[MatrixFunction] | None:
        return next((f for f in self.functions if f.name == name), None)

    def parse(self, text: str) -> Any:
        return self._build(_tree(text, self._allowed))

    def _build(self, node: ast.expr) -> Any:
        if isinstance(node, ast.BinOp):
            left, right = self._build(node.left), self._build(node.right)
            if isinstance(node.op, ast.MatMult):
                return self._product(left, right)
            if isinstance(node.op, ast.Div) and not _is_matrix(right):
                return sp.MatMul(1 / right, left) if _is_matrix(left) else left / right
            if isinstance(node.op, ast.Mult) and not (_is_matrix(left) and _is_matrix(right)):
                return (
                    sp.MatMul(left, right)
                    if _is_matrix(left) or _is_matrix(right)
                    else left * right
                )
            raise ProofSyntaxError(
                f"{type(node.op).__name__} is not allowed here; use @ for matrix products"
            )
        if isinstance(node, ast.Attribute):  # only .T passes _tree
            return sp.Transpose(self._matrix(self._build(node.value), ".T"))
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and not node.keywords
            and len(node.args) == 1
        ):
            argument = self._build(node.args[0])
            function = self.function(node.func.id)
            if function is not None:
                return function(self._matrix(argument, node.func.id))
            if node.func.id == "sqrt" and not _is_matrix(argument):
                return sp.sqrt(argument)
        if isinstance(node, ast.Name) and (node.id in self.matrices or node.id in self.scalars):
            return self.symbol(node.id)
        if isinstance(node, ast.Constant):
            return _number(node)
        shown = (
            node.func.id
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            else (node.id if isinstance(node, ast.Name) else type(node).__name__)
        )
        raise ProofSyntaxError(f"{shown!r} is not allowed; use only {self._allowed}")

    @staticmethod
    def _matrix(value: Any, where: str) -> Any:
        if not _is_matrix(value):
            raise ProofSyntaxError(f"{where} needs a matrix, not {value}")
        return value

    @staticmethod
    def _product(left: Any, right: Any) -> Any:
        for side in (left, right):
            MatrixDomain._matrix(side, "@")
        if left.shape[1] != right.shape[0]:
            raise ProofSyntaxError(
                f"the shapes do not match in {left} @ {right}: {left.shape} and {right.shape}"
            )
        return sp.MatMul(left, right)

    def canonical(self, expression: Any) -> Any:
        """Products flattened with their scalar factor in front; nothing else is changed."""
        if isinstance(expression, sp.MatMul):
            scalar, factors = sp.Integer(1), []
            for argument in expression.args:
                part = self.canonical(argument)
                if isinstance(part, sp.MatMul):
                    inner = [a for a in part.args if _is_matrix(a)]
                    scalar *= sp.Mul(*[a for a in part.args if not _is_matrix(a)])
                    factors += inner
                elif _is_matrix(part):
                    factors.append(part)
                else:
                    scalar *= part
            if not factors:
                return scalar
            if scalar == 1 and len(factors) == 1:
                return factors[0]
            return sp.MatMul(*([scalar] if scalar != 1 else []), *factors)
        if isinstance(expression, (sp.Transpose, MatrixFunction)):
            return type(expression)(self.canonical(expression.args[0]))
        return expression

    def differs(self, left: Any, right: Any) -> str | None:
        generator = np.random.default_rng(self.seed)
        d_value = 2.0
        for size in self.sizes:
            for order in itertools.permutations(range(size)):
                values: dict[str, Any] = {name: d_value for name in self.scalars}
                dims = {"n": size, "m": 2}
                for name, (rows, columns) in self.matrices.items():
                    shape = (dims.get(rows, size), dims.get(columns, 2))
                    values[name] = generator.normal(size=shape)
                for name in self.permutations:
                    values[name] = np.eye(size)[list(order)]
                a, b = self.value(left, values), self.value(right, values)
                if a.shape != b.shape or not np.allclose(a, b, atol=1e-9):
                    where = f"a {size}×{size} permutation {list(order)} and random matrices"
                    return f"with {where} the two sides differ"
        return None

    def value(self, expression: Any, values: dict[str, Any]) -> Any:
        """The numeric value of an expression (NumPy arrays for matrices)."""
        if isinstance(expression, (sp.MatrixSymbol, sp.Symbol)):
            return values[expression.name]
        if isinstance(expression, sp.MatMul):
            result: Any = 1.0
            for argument in expression.args:
                part = self.value(argument, values)
                result = result @ part if _is_array(result) and _is_array(part) else result * part
            return result
        if isinstance(expression, sp.Transpose):
            return self.value(expression.args[0], values).T
        if isinstance(expression, MatrixFunction):
            scalars = {name: values[name] for name in self.scalars}
            return expression.numeric(self.value(expression.args[0], values), scalars)
        if isinstance(expression, sp.Identity):
            return np.eye(next(iter(v.shape[0] for v in values.values() if _is_array(v))))
        if isinstance(expression, sp.MatAdd):
            return sum(self.value(a, values) for a in expression.args)
        if isinstance(expression, sp.Basic) and not _is_matrix(expression):
            point = {s: values[s.name] for s in expression.free_symbols}
            return evaluate(expression, point).real
        raise NotEvaluable(f"cannot evaluate {expression}")


def _negative(value: Any) -> Any:
    return sp.Mul(sp.Integer(-1), value, evaluate=False)


def scalar_canonical(expression: Any) -> Any:
    """Sums and products flattened and put in a fixed order, nothing combined or cancelled:
    the form in which two steps count as the same expression (regrouping and reordering are
    free; every other change needs a law)."""
    if isinstance(expression, (sp.Add, sp.Mul)):
        kind = type(expression)
        parts: list[Any] = []
        for argument in expression.args:
            part = scalar_canonical(argument)
            parts.extend(part.args if isinstance(part, kind) else [part])
        numbers = [p for p in parts if p.is_Number]
        rest = sorted((p for p in parts if not p.is_Number), key=sp.default_sort_key)
        if kind is sp.Mul:
            coefficient = sp.Mul(*numbers)
            numbers = [] if coefficient == 1 and rest else [coefficient]
        else:
            total = sp.Add(*numbers)
            numbers = [] if total == 0 and rest else [total]
        terms = numbers + rest
        return terms[0] if len(terms) == 1 else kind(*terms, evaluate=False)
    if isinstance(expression, sp.Pow):
        base, exponent = (scalar_canonical(a) for a in expression.args)
        return base if exponent == 1 else sp.Pow(base, exponent, evaluate=False)
    if isinstance(expression, sp.Function):
        return type(expression)(*[scalar_canonical(a) for a in expression.args], evaluate=False)
    return expression


def _is_matrix(value: Any) -> bool:
    return isinstance(value, sp.MatrixExpr)


def _is_array(value: Any) -> bool:
    return isinstance(value, np.ndarray)
