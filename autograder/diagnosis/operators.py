"""Mutation operators fit for numerical and symbolic code, over Python's own `ast`.

Each operator looks at one node of a reference function and proposes replacements, each with
what it changes said in words (never the reference's code: a student reads it). The standard
library's `ast` is used rather than a mutation-testing package: those (mutmut, cosmic-ray)
rewrite files and drive a test run per mutant, while the kit needs first-order mutants as
functions in memory, compiled once and replayed on recorded calls; `ast.unparse` gives their
source where a file is needed (validate), and comments need not survive.
"""

from __future__ import annotations

import ast
import copy
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

FUNCTION_WORDS = {
    "sin": "the sine", "cos": "the cosine", "tan": "the tangent", "sum": "a sum",
    "mean": "the mean", "max": "the maximum", "min": "the minimum", "maximum": "the maximum",
    "minimum": "the minimum", "argmax": "the index of the maximum",
    "argmin": "the index of the minimum", "tril": "the lower triangle",
    "triu": "the upper triangle", "exp": "the exponential", "log": "the logarithm",
    "sqrt": "the square root", "abs": "the absolute value", "cumsum": "a running sum",
    "prod": "a product", "std": "the standard deviation", "var": "the variance",
    "hstack": "side by side", "vstack": "stacked rows", "outer": "the outer product",
    "asarray": "the conversion to an array", "array": "the conversion to an array",
    "copy": "the copy", "swapaxes": "the transpose", "transpose": "the transpose",
    "simplify": "the simplification", "trigsimp": "the simplification",
    "expand": "the expansion", "float": "the conversion to float", "int": "the conversion to int",
    "isclose": "a comparison", "where": "the choice", "square": "the square",
    "real": "the real part",
}  # fmt: skip
"""How a student reads a library function's name."""

SWAPS = {
    "sin": ("cos",), "cos": ("sin",), "sum": ("mean",), "mean": ("sum",), "max": ("min",),
    "min": ("max",), "maximum": ("minimum",), "minimum": ("maximum",), "argmax": ("argmin",),
    "argmin": ("argmax",), "tril": ("triu",), "triu": ("tril",), "hstack": ("vstack",),
    "vstack": ("hstack",), "std": ("var",), "var": ("std",),
}  # fmt: skip
"""Functions a student confuses with one another."""

UNWRAPPED = ("sqrt", "abs", "asarray", "array", "copy", "swapaxes", "transpose", "simplify",
             "trigsimp", "expand", "float", "int", "exp")  # fmt: skip
"""Calls a student may leave out, the first argument (or the object) standing for the result."""

CONVERSIONS = ("float", "int", "asarray", "array")
"""Calls that leave a quantity what it is to a student (float(c) is c)."""

SIGNED = ("sin", "cos", "tan", "exp", "sqrt", "sum", "mean")
"""Calls whose sign a student may flip."""

COMPLEX_RESULTS = ("exp", "cumsum", "sum", "polar", "fft", "ifft")
"""Calls that may return complex values, of which a student may keep only the real part."""

OPERATOR_WORDS: dict[type[ast.operator], str] = {
    ast.Add: "a sum", ast.Sub: "a difference", ast.Mult: "a product", ast.Div: "a quotient",
    ast.MatMult: "a matrix product", ast.Pow: "a power", ast.FloorDiv: "an integer division",
    ast.Mod: "a remainder",
}  # fmt: skip
OPERATOR_SWAPS: dict[type[ast.operator], tuple[type[ast.operator], ...]] = {
    ast.Add: (ast.Sub,), ast.Sub: (ast.Add,), ast.Mult: (ast.Div,), ast.Div: (ast.Mult,),
    ast.FloorDiv: (ast.Div,), ast.Pow: (ast.Mult,), ast.MatMult: (ast.Mult,),
}  # fmt: skip
VERBS: dict[type[ast.operator], str] = {ast.Mult: "multiplied by", ast.Div: "divided by"}
"""An operator said with its second operand (divided by √d_k), where that operand has words."""
ORDERED = (ast.Sub, ast.Div, ast.Pow, ast.MatMult, ast.FloorDiv)
"""Operators whose operands a student may swap."""
COMPARISON_SWAPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In,
}  # fmt: skip
COMPARISON_WORDS: dict[type[ast.cmpop], str] = {
    ast.Lt: "<", ast.LtE: "≤", ast.Gt: ">", ast.GtE: "≥", ast.Eq: "=", ast.NotEq: "≠",
    ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not",
}  # fmt: skip
DTYPES = ("float16", "float32", "int64")
"""Precisions a student may compute in instead of the reference's."""
AXES = (0, 1, -1, -2)
BOUNDED = ("arange", "range", "linspace")
"""Calls whose arguments are bounds: a student's off-by-one lives there."""


@dataclass(frozen=True)
class Proposal:
    """One replacement of one node: the new node, and the change in words."""

    node: ast.AST
    change: str
    operator: str


@dataclass(frozen=True)
class Scope:
    """What an operator may know of the function around a node."""

    kinds: Mapping[str, str]
    """Each name in the function's scope (parameters and locals) and its kind: a parameter's
    annotation, or "local"; a name is only replaced by another of the same kind."""
    words: Mapping[str, str]
    """The assignment's words for its quantities (words.toml), by the reference's name."""
    functions: frozenset[str] = frozenset()
    """The module's own public functions: a call of one may be left out (a student who does
    not transform one of two inputs leaves out the function that does it)."""

    def say(self, node: ast.AST) -> str:
        """A quantity as a student reads it: the assignment's word (for a name, or for an
        expression written as in the reference, `Q.shape[-1]`), else its name."""
        if isinstance(node, ast.Name):
            return self.words.get(node.id, node.id)
        written = self.words.get(_source_of(node)) if isinstance(node, ast.expr) else None
        if written:
            return written
        if isinstance(node, ast.Call):
            name = called_name(node)
            if name == "sqrt" and node.args:
                return self._square_root(node.args[0])
            if name in CONVERSIONS and len(node.args) == 1:  # float(c) is c to a student
                return self.say(node.args[0])
            return FUNCTION_WORDS.get(name, f"the {name}") if name else "a term"
        if isinstance(node, ast.Attribute) and node.attr == "T":
            return f"the transpose of {self.say(node.value)}"
        if isinstance(node, ast.Constant) and (
            node.value is None or isinstance(node.value, (int, float, str))
        ):
            return repr(node.value)
        return "a term"

    def radicand(self, argument: ast.AST) -> str:
        """What a square root is taken of, in words (a width is d when nothing names it)."""
        inner = self.say(argument)
        return "the width d" if inner == "a term" and _is_width(argument) else inner

    def _square_root(self, argument: ast.AST) -> str:
        """√ of a quantity, with the symbol the docstrings write (√d_k), when its words end in
        one."""
        inner = self.radicand(argument)
        symbol = inner.rsplit(" ", 1)[-1]
        if inner != "a term" and symbol != inner and SYMBOL.fullmatch(symbol):
            return f"the square root √{symbol}"
        return "the square root" if inner == "a term" else f"the square root of {inner}"


SYMBOL = re.compile(r"[A-Za-zα-ωΑ-Ω](_[A-Za-z0-9]+)?")
"""A quantity's symbol as the docstrings write it: d, C, d_k, θ_i."""


def _source_of(node: ast.AST) -> str:
    try:
        return ast.unparse(node)
    except Exception:  # a node the unparser does not know
        return ""


def _is_width(node: ast.AST) -> bool:
    """`X.shape[-1]` (or any axis): an array's width, as a scaling's √d reads it."""
    return (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "shape"
    )


def called_name(call: ast.Call) -> str | None:
    """The last part of a call's function: np.sin(x) and sin(x) are both "sin"."""
    function = call.func
    if isinstance(function, ast.Attribute):
        return function.attr
    if isinstance(function, ast.Name):
        return function.id
    return None


Operator = Callable[[ast.AST, "ast.AST | None", Scope], Iterator[Proposal]]


def constants(node: ast.AST, parent: ast.AST | None, scope: Scope) -> Iterator[Proposal]:
    """A number changed: ±1, doubled, halved, 0 or 1 (a negative number as one node)."""
    value = _number(node)
    if value is None or (isinstance(node, ast.Constant) and _is_negated(node, parent)):
        return
    candidates: list[float] = [value + 1, value - 1, value * 2, 0, 1]
    candidates.append(value // 2 if isinstance(value, int) else value / 2)
    role = _role(node, parent)
    for new in dict.fromkeys(candidates):
        if new == value:
            continue
        replacement = ast.UnaryOp(ast.USub(), ast.Constant(-new)) if new < 0 else ast.Constant(new)
        yield Proposal(replacement, role.format(after=_say_number(new), before=_say_number(value)),
                       "constant")  # fmt: skip


def bounds(node: ast.AST, parent: ast.AST | None, scope: Scope) -> Iterator[Proposal]:
    """A bound that is not a number (of a range, an arange or a slice) off by one."""
    if _number(node) is not None or not _is_bound(node, parent):
        return
    if not isinstance(node, ast.expr):
        return
    word = scope.say(node)
    role = _role(node, parent).split(" is ", 1)[0]  # the range's stop, a slice's start
    for op, said in ((ast.Add(), "one more than"), (ast.Sub(), "one less than")):
        change = f"a bound off by one: {said} {word}"
        if word == "a term":  # the bound's place says which it is
            change = f"a bound off by one: {role} is {said.removesuffix(' than')}"
        yield Proposal(ast.BinOp(copy.deepcopy(node), op, ast.Constant(1)), change, "off by one")


def operators(node: ast.AST, parent: ast.AST | None, scope: Scope) -> Iterator[Proposal]:
    """An arithmetic operator changed, its operands swapped, or one operand left out."""
    if not isinstance(node, ast.BinOp) or type(node.op) not in OPERATOR_WORDS:
        return
    was = OPERATOR_WORDS[type(node.op)]
    right = scope.say(node.right)
    for new_op in OPERATOR_SWAPS.get(type(node.op), ()):
        change = f"{OPERATOR_WORDS[new_op]} where {was} belongs"
        verbs = (VERBS.get(type(node.op)), VERBS.get(new_op))
        if right != "a term" and verbs[0] and verbs[1]:  # the operand says which step it is
            change = f"{verbs[1]} {right} where {verbs[0]} it belongs"
        yield Proposal(
            ast.BinOp(copy.deepcopy(node.left), new_op(), copy.deepcopy(node.right)),
            change,
            "operator",
        )
    if isinstance(node.op, ORDERED):
        yield Proposal(
            ast.BinOp(copy.deepcopy(node.right), copy.deepcopy(node.op), copy.deepcopy(node.left)),
            f"{was} taken the wrong way round ({scope.say(node.right)} first, "
            f"{scope.say(node.left)} second)",
            "operands swapped",
        )
    sides = ((node.left, node.right, "second"), (node.right, node.left, "first"))
    for kept, dropped, side in sides:
        if isinstance(node.op, ast.Pow) and side == "first":
            continue  # a base left out leaves an exponent that no student writes
        said = scope.say(dropped)
        change = f"{was} without its {side} operand, {said}"
        if side == "second":
            change = {
                ast.Div: f"not divided by {said}: a scaling is missing",
                ast.Sub: f"{said} is not subtracted",
                ast.Add: f"{said} is not added",
                ast.Mult: f"not multiplied by {said}: a factor is missing",
                ast.Pow: "the exponent is left out"
                + ("" if said == "a term" else f": not raised to {said}"),
            }.get(type(node.op), change)
        yield Proposal(copy.deepcopy(kept), change, "operand removed")


def scaled(node: ast.AST, parent: ast.AST | None, scope: Scope) -> Iterator[Proposal]:
    """A quantity of a sum, product or quotient doubled or halved (i where 2i belongs, C/2
    where C belongs)."""
    if not isinstance(node, ast.Name) or not isinstance(parent, ast.BinOp):
        return
    if not isinstance(parent.op, (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)):
        return
    said = scope.say(node)
    for op, words in ((ast.Mult(), f"twice {said}"), (ast.Div(), f"half of {said}")):
        yield Proposal(
            ast.BinOp(ast.Name(node.id, ast.Load()), op, ast.Constant(2)),
            f"{words} where {said} belongs",
            "scaled",
        )


def repeated(node: ast.AST, parent: ast.AST | None, scope: Scope) -> Iterator[Proposal]:
    """A factor or a divisor applied twice (x·c·c, a scaling by √d_k done in two places)."""
    if not isinstance(node, ast.BinOp) or type(node.op) not in VERBS:
        return
    if _number(node.right) is not None:
        return  # a number applied twice is a number changed: the constants say it
    said = scope.say(node.right)
    if said == "a term":
        return
    yield Proposal(
        ast.BinOp(copy.deepcopy(node), type(node.op)(), copy.deepcopy(node.right)),
        f"{VERBS[type(node.op)]} {said} twice",
        "repeated",
    )


def swapped_pair(node: ast.AST, parent: ast.AST | None, scope: Scope) -> Iterator[Proposal]:
    """Two values of a pair given the other way round (cos, sin = sin(a), cos(a))."""
    if not isinstance(node, ast.Tuple) or not isinstance(node.ctx, ast.Load) or len(node.elts) != 2:
        return
    first, second = node.elts
    one, other = scope.say(first), scope.say(second)
    yield Proposal(
        ast.Tuple([copy.deepcopy(second), copy.deepcopy(first)], ast.Load()),
        f"{one} and {other} swapped" if one != other else "the pair's two values swapped",
        "pair swapped",
    )


def signs(node: ast.AST, parent: ast.AST | None, scope: Scope) -> Iterator[Proposal]:
    """A minus sign dropped, or one added in front of a signed call (sin, cos, exp, …)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        if _number(node) is None:
            yield Proposal(
                copy.deepcopy(node.operand),
                f"the sign of {scope.say(node.operand)} is flipped",
                "sign",
            )
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield Proposal(copy.deepcopy(node.operand), "a condition is inverted", "sign")
    elif (
        isinstance(node, ast.Call)
        and called_name(node) in SIGNED
        and not (isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.USub))
    ):
        yield Proposal(
            ast.UnaryOp(ast.USub(), copy.deepcopy(node)),
            f"the sign of {scope.say(node)} is flipped",
            "sign",
        )


def calls(node: ast.AST, parent: ast.AST | None, scope: Scope) -> Iterator[Proposal]:
    """A function confused with its twin (sin for cos, sum for mean, …), a call left out, a
    complex result cut to its real part."""
    if not isinstance(node, ast.Call):
        return
    name = called_name(node)
    if name is None:
        return
    for twin in SWAPS.get(name, ()):
        new = copy.deepcopy(node)
        if isinstance(new.func, ast.Attribute):
            new.func.attr = twin
        else:
            assert isinstance(new.func, ast.Name)
            new.func.id = twin
        yield Proposal(
            new, f"{FUNCTION_WORDS[twin]} where {FUNCTION_WORDS[name]} belongs", "function swapped"
        )
    if name in UNWRAPPED or name in scope.functions:
        inner = _first_operand(node)
        if inner is not None:
            if name == "sqrt":  # "without √d" reads as no division at all: say what is left
                said = f"{scope.radicand(inner)} where {scope.say(node)} belongs"
            else:
                said = f"without {FUNCTION_WORDS.get(name, name)}"
            yield Proposal(copy.deepcopy(inner), said, "call removed")
    if name in COMPLEX_RESULTS:
        yield Proposal(
            ast.Attribute(copy.deepcopy(node), "real", ast.Load()),
            f"only the real part of {scope.say(node)} is kept where the complex value belongs",
            "real part",
        )


ELEMENTWISE = ("abs", "sqrt", "exp", "log", "square", "real")
"""Functions of each entry, which a student may apply before a reduction instead of after it."""
REDUCTIONS = ("sum", "mean", "max", "min", "cumsum", "prod")
"""Reductions along an axis (the absolute value of a mean, or the mean of absolute values)."""


def nesting(node: ast.AST, parent: ast.AST | None, scope: Scope) -> Iterator[Proposal]:
    """An elementwise function and a reduction composed in the other order: |mean(S)| where
    mean(|S|) belongs, or the other way round (each call keeps its own arguments)."""
    if not isinstance(node, ast.Call):
        return
    outer = called_name(node)
    inner_call = _first_operand(node)
    if outer is None or not isinstance(inner_call, ast.Call):
        return
    inner = called_name(inner_call)
    kinds = {outer, inner}
    if (
        inner is None
        or outer == inner
        or not (kinds & set(ELEMENTWISE) and kinds & set(REDUCTIONS))
    ):
        return
    value = _first_operand(inner_call)
    if not isinstance(value, ast.expr):
        return
    swapped_inner = _with_operand(node, value)
    swapped = None if swapped_inner is None else _with_operand(inner_call, swapped_inner)
    if swapped is None:
        return
    yield Proposal(
        swapped,
        f"{_words_of(inner)} of {_words_of(outer)} where {_words_of(outer)} of "
        f"{_words_of(inner)} belongs",
        "nesting",
    )


def _words_of(name: str | None) -> str:
    return FUNCTION_WORDS.get(name or "", f"the {name}")


def _with_operand(call: ast.Call, operand: ast.expr) -> ast.Call | None:
    """A copy of `call` applied to `operand` in place of its first operand (an argument, or the
    object of a method call), its other arguments kept."""
    new = copy.deepcopy(call)
    if isinstance(new.func, ast.Attribute) and not _is_module(new.func.value):
        new.func.value = copy.deepcopy(operand)
        return new
    if not new.args:
        return None
    new.args[0] = copy.deepcopy(operand)
    return new


def _is_module(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id in ("np", "numpy", "sp", "sympy", "math")


def keywords(node: ast.AST, parent: ast.AST | None, scope: Scope) -> Iterator[Proposal]:
    """A call's axis, keepdims or dtype changed or left out."""
    if not isinstance(node, ast.Call):
        return
    for index, keyword in enumerate(node.keywords):
        if keyword.arg not in ("axis", "keepdims", "dtype"):
            continue
        without = copy.deepcopy(node)
        del without.keywords[index]
        left_out = {
            "axis": f"{scope.say(node)} of the whole array, not along one axis (each row's own)",
            "keepdims": f"{scope.say(node)} without keepdims: its axis is dropped, so it does "
            "not broadcast back along the rows",
            "dtype": f"{scope.say(node)} keeps the input's dtype (integers stay integers where "
            "floats belong)",
        }[keyword.arg]
        yield Proposal(without, left_out, "keyword removed")
        if keyword.arg == "axis":
            value = _number(keyword.value)
            for axis in AXES:
                if axis != value:
                    new = copy.deepcopy(node)
                    new.keywords[index].value = ast.Constant(axis)
                    yield Proposal(
                        new,
                        f"{scope.say(node)} over axis {axis} where "
                        + ("the default axis" if value is None else f"axis {_say_number(value)}")
                        + " belongs",
                        "axis",
                    )
        if keyword.arg == "dtype":
            for dtype in DTYPES:
                new = copy.deepcopy(node)
                new.keywords[index].value = ast.Attribute(ast.Name("np", ast.Load()), dtype,
                                                          ast.Load())  # fmt: skip
                yield Proposal(new, f"computed in {dtype} where float64 belongs", "dtype")


def transposes(node: ast.AST, parent: ast.AST | None, scope: Scope) -> Iterator[Proposal]:
    """A transpose (`.T`) left out."""
    if isinstance(node, ast.Attribute) and node.attr == "T" and isinstance(node.ctx, ast.Load):
        yield Proposal(
            copy.deepcopy(node.value), f"{scope.say(node.value)} is not transposed", "transpose"
        )


def variables(node: ast.AST, parent: ast.AST | None, scope: Scope) -> Iterator[Proposal]:
    """A name replaced by a twin of the same kind in scope (m for n, K for Q, W_k for W_q,
    x1 for x0, sin for cos): the names a student confuses are alike."""
    if not isinstance(node, ast.Name) or not isinstance(node.ctx, ast.Load):
        return
    kind = scope.kinds.get(node.id)
    if kind is None:
        return
    for other, other_kind in scope.kinds.items():
        if other != node.id and other_kind == kind and twins(node.id, other):
            yield Proposal(
                ast.Name(other, ast.Load()),
                f"{scope.words.get(other, other)} where {scope.say(node)} belongs",
                "variable",
            )


NAMED_TWINS = ({"first", "second"}, {"rows", "cols"}, {"here", "there"}, {"left", "right"})
"""Names alike in meaning though not in letters."""


def twins(one: str, other: str) -> bool:
    """Whether a student may write one name for the other: two single letters of one case
    (m, n; Q, K), the same name but for one character (x0, x1; W_q, W_k), or twins in
    meaning (sin, cos; first, second)."""
    if len(one) == len(other) == 1:
        return one.isupper() == other.isupper()
    if len(one) == len(other) and sum(a != b for a, b in zip(one, other, strict=True)) == 1:
        return True
    return other in SWAPS.get(one, ()) or {one, other} in NAMED_TWINS


def comparisons(node: ast.AST, parent: ast.AST | None, scope: Scope) -> Iterator[Proposal]:
    """A comparison made strict, or loose, or turned over."""
    if not isinstance(node, ast.Compare) or len(node.ops) != 1:
        return
    swapped = COMPARISON_SWAPS.get(type(node.ops[0]))
    if swapped is not None:
        new = copy.deepcopy(node)
        new.ops = [swapped()]
        now, was = COMPARISON_WORDS[swapped], COMPARISON_WORDS[type(node.ops[0])]
        left, right = scope.say(node.left), scope.say(node.comparators[0])
        change = f"a comparison {now} where {was} belongs"
        if "a term" not in (left, right):  # what is compared says which test it is
            change = f"{left} {now} {right} where {was} belongs"
        yield Proposal(new, change, "comparison")


def conditions(node: ast.AST, parent: ast.AST | None, scope: Scope) -> Iterator[Proposal]:
    """A test that decides a branch always (or never) passed: one case of a choice written for
    every case (every layout taken as halves)."""
    if not isinstance(node, ast.Compare) or len(node.ops) != 1:
        return
    if not isinstance(parent, (ast.If, ast.IfExp, ast.While)) or node is not parent.test:
        return
    if isinstance(parent, ast.If) and all(isinstance(s, ast.Raise) for s in parent.body):
        return  # a refusal: the statements operator leaves it out
    left, right = scope.say(node.left), scope.say(node.comparators[0])
    test = (
        f"{left} {COMPARISON_WORDS[type(node.ops[0])]} {right}"
        if "a term" not in (left, right)
        else "a test"
    )
    for value, said in (
        (False, "never holds: the other branch is always taken"),
        (True, "always holds: its branch is taken in every case"),
    ):
        yield Proposal(ast.Constant(value), f"{test} {said}", "condition")


def statements(node: ast.AST, parent: ast.AST | None, scope: Scope) -> Iterator[Proposal]:
    """A refusal left out (a `raise`, or an `if` that only raises), or a statement that
    writes into an array left out."""
    if isinstance(node, ast.Raise):
        yield Proposal(ast.Pass(), refusal_words(node), "raise removed")
    elif isinstance(node, ast.If) and all(isinstance(s, ast.Raise) for s in node.body):
        if not node.orelse:
            raised = node.body[0]
            assert isinstance(raised, ast.Raise)
            yield Proposal(ast.Pass(), refusal_words(raised), "raise removed")
    elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Subscript) for t in node.targets):
        target = next(t for t in node.targets if isinstance(t, ast.Subscript))
        yield Proposal(
            ast.Pass(), f"a write into {scope.say(target.value)} is left out", "statement removed"
        )
    elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        yield Proposal(ast.Pass(), f"{scope.say(node.value)} is left out", "statement removed")


OPERATORS: tuple[Operator, ...] = (
    constants, bounds, operators, scaled, repeated, signs, calls, keywords, transposes,
    variables, comparisons, conditions, statements, swapped_pair, nesting,
)  # fmt: skip
THROUGHOUT = (
    "constant", "function swapped", "dtype", "axis", "keyword removed", "sign", "condition",
)  # fmt: skip
"""Operators whose change a student makes at every place alike (every axis=-1, every
float64): applied to all equal nodes of a function at once, as one more mutant."""


def swapped_throughout(function: ast.FunctionDef) -> Iterator[tuple[ast.FunctionDef, str]]:
    """The function with every call of one twin renamed to the other and back (every sin a
    cos and every cos a sin), with the change in words: a mistake made in two places at once."""
    names = {called_name(n) for n in ast.walk(function) if isinstance(n, ast.Call)}
    done: set[frozenset[str]] = set()
    for name in sorted(n for n in names if n):
        for twin in SWAPS.get(name, ()):
            pair = frozenset((name, twin))
            if twin not in names or pair in done:
                continue
            done.add(pair)
            mutated = copy.deepcopy(function)
            for node in ast.walk(mutated):
                if isinstance(node, ast.Call) and called_name(node) in pair:
                    new = twin if called_name(node) == name else name
                    if isinstance(node.func, ast.Attribute):
                        node.func.attr = new
                    elif isinstance(node.func, ast.Name):
                        node.func.id = new
            said = f"{FUNCTION_WORDS[name]} and {FUNCTION_WORDS[twin]} are swapped everywhere"
            yield mutated, said


NEGATED_KINDS = ("float", "Expr", "Symbol", "Basic")
"""Annotations of a parameter a student may turn the other way everywhere (an angle, an
offset, a frequency): a count or a layout is never negated."""


def negated_throughout(
    function: ast.FunctionDef, scope: Scope
) -> Iterator[tuple[ast.FunctionDef, str, str, str]]:
    """The function with one scalar or symbolic parameter negated wherever it is read (a turn
    the other way, an offset reversed), with the old and new code (for the instructor) and
    the change in words."""
    ordered = [*function.args.posonlyargs, *function.args.args]
    required = ordered[: len(ordered) - len(function.args.defaults)]
    for argument in required:  # one with a default is a setting (a base), not a quantity
        annotation = ast.unparse(argument.annotation) if argument.annotation else ""
        if not any(kind in annotation for kind in NEGATED_KINDS):
            continue
        name = argument.arg
        mutated = copy.deepcopy(function)
        reads = 0
        for holder in ast.walk(mutated):
            for field_name, value in ast.iter_fields(holder):
                if isinstance(value, list):
                    for position, item in enumerate(value):
                        if _is_read(item, name):
                            value[position] = _negated(name)
                            reads += 1
                elif _is_read(value, name):
                    setattr(holder, field_name, _negated(name))
                    reads += 1
        if reads:
            ast.fix_missing_locations(mutated)
            said = f"{scope.say(ast.Name(name))} with its sign flipped everywhere"
            yield mutated, name, f"-{name} everywhere", said


def _is_read(node: object, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load)


def _negated(name: str) -> ast.expr:
    return ast.UnaryOp(ast.USub(), ast.Name(name, ast.Load()))


def axis_throughout(
    function: ast.FunctionDef,
) -> Iterator[tuple[ast.FunctionDef, str, str, str]]:
    """The function with every `axis=` of one value set to another (a normalisation over
    the wrong axis: its maximum and its sum both taken there), with the old and new code (for
    the instructor) and the change in words."""
    values = [
        _number(k.value)
        for node in ast.walk(function)
        if isinstance(node, ast.Call)
        for k in node.keywords
        if k.arg == "axis"
    ]
    for value in sorted({v for v in values if v is not None}, key=repr):
        if values.count(value) < 2:
            continue  # one place alone is the axis operator's
        for axis in AXES:
            if axis == value:
                continue
            mutated = copy.deepcopy(function)
            for node in ast.walk(mutated):
                if isinstance(node, ast.Call):
                    for keyword in node.keywords:
                        if keyword.arg == "axis" and _number(keyword.value) == value:
                            keyword.value = ast.Constant(axis)
            said = f"every reduction over axis {axis} where axis {_say_number(value)} belongs"
            yield mutated, f"axis={value} everywhere", f"axis={axis} everywhere", said


def wrapped_like_twins(
    function: ast.FunctionDef, scope: Scope
) -> Iterator[tuple[ast.FunctionDef, str, str, str, str]]:
    """The function with one assignment passed through the module function its twin's is
    (V = f(X W_v) beside Q = f(X W_q)), with the old and new code (for the instructor),
    what it computes and the change in words: a step applied to one quantity too many."""
    assigned = [
        (index, s)
        for index, s in enumerate(function.body)
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
    ]
    for index, statement in assigned:
        name = statement.targets[0].id  # type: ignore[attr-defined]
        for _, twin in assigned:
            other = twin.targets[0].id  # type: ignore[attr-defined]
            call = twin.value
            if other == name or not twins(name, other) or not isinstance(call, ast.Call):
                continue
            callee = called_name(call)
            if callee not in scope.functions or not call.args:
                continue
            if type(call.args[0]) is not type(statement.value):
                continue  # what the twin passes through it is computed alike
            mutated = copy.deepcopy(function)
            wrapped = copy.deepcopy(call)
            wrapped.args[0] = copy.deepcopy(statement.value)
            target = mutated.body[index]
            assert isinstance(target, ast.Assign)
            target.value = wrapped
            ast.fix_missing_locations(mutated)
            said = f"passed through {callee} too, as for {scope.say(twin.targets[0])}"
            yield (
                mutated,
                ast.unparse(statement),
                ast.unparse(target),
                scope.say(statement.targets[0]),
                said,
            )
            break


def refusal_words(node: ast.Raise) -> str:
    """What a left-out `raise` no longer refuses, from its message's own words: the phrase
    "must refuse" marks it as the argument contract (never misleading, corpus.py)."""
    exception = node.exc
    kind = "an exception"
    message = ""
    if isinstance(exception, ast.Call):
        kind = called_name(exception) or kind
        if exception.args:
            message = _message_words(exception.args[0])
    elif isinstance(exception, ast.Name):
        kind = exception.id
    said = f" («{message}»)" if message else ""
    return f"accepts an input it must refuse: no {kind}{said}"


def _message_words(node: ast.AST) -> str:
    """An exception message's literal text, each formatted field said by its name."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
            elif isinstance(value, ast.FormattedValue):
                inner = value.value
                parts.append(inner.id if isinstance(inner, ast.Name) else "…")
        return "".join(parts)
    return ""


def _number(node: ast.AST) -> int | float | None:
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value  # type: ignore[return-value]
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
        and isinstance(node.operand, ast.Constant)
        and type(node.operand.value) in (int, float)
    ):
        return -node.operand.value  # type: ignore[operator,return-value]
    return None


def _is_negated(node: ast.AST, parent: ast.AST | None) -> bool:
    return isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.USub)


def _say_number(value: float | int | None) -> str:
    if value is None:
        return "the default"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return f"{value:g}"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _is_bound(node: ast.AST, parent: ast.AST | None) -> bool:
    if isinstance(parent, ast.Call) and called_name(parent) in BOUNDED:
        return any(argument is node for argument in parent.args)
    if isinstance(parent, ast.Slice):
        return node is parent.lower or node is parent.upper
    return False


def _role(node: ast.AST, parent: ast.AST | None) -> str:
    """How a changed number reads where it stands (a range's start, a power, …)."""
    if isinstance(parent, ast.arguments):
        ordered = [*parent.posonlyargs, *parent.args]
        defaulted = ordered[len(ordered) - len(parent.defaults) :]
        pairs = zip(defaulted, parent.defaults, strict=True)
        name = next((a.arg for a, d in pairs if d is node), None)
        if name is not None:
            return (  # calls that never pass it cannot tell a default from a value written in
                f"without {name} passed, {{after}} is used where {{before}} belongs (the default "
                f"{name} changed, or {{after}} written where {name} is read)"
            )
    if isinstance(parent, ast.Call) and called_name(parent) in BOUNDED:
        position = next((i for i, a in enumerate(parent.args) if a is node), None)
        if position is not None:
            names = ("stop",) if len(parent.args) == 1 else ("start", "stop", "step")
            role = names[position] if position < len(names) else "bound"
            return f"the range's {role} is {{after}} where {{before}} belongs"
    if isinstance(parent, ast.Slice):
        role = "start" if node is parent.lower else "stop" if node is parent.upper else "step"
        return f"a slice's {role} is {{after}} where {{before}} belongs"
    if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Pow) and node is parent.right:
        return "the power {after} where {before} belongs"
    if isinstance(parent, ast.Subscript):
        return "index {after} where {before} belongs"
    return "{after} where {before} belongs"


def _first_operand(call: ast.Call) -> ast.AST | None:
    """What a left-out call leaves: its first argument, or the object of a method."""
    if call.args and not isinstance(call.args[0], ast.Starred):
        return call.args[0]
    if isinstance(call.func, ast.Attribute) and not isinstance(call.func.value, ast.Name):
        return call.func.value
    if isinstance(call.func, ast.Attribute) and call.func.attr == "copy":
        return call.func.value
    return None
