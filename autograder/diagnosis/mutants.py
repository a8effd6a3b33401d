"""First-order mutants of a reference module: each public function (or module constant) made
wrong in one place by one operator (operators.py), compiled as a function in memory.

A mutant is a model of one mistake that nobody had to write: `validate` grades it to find the
gaps in the tests (a mutant no test catches is a missing test), and the diagnosis names it when
it reproduces a student's calls. Its words come from the operator and from the assignment's
`words.toml` (the docstring's words for the reference's quantities), never from its code.
"""

from __future__ import annotations

import ast
import copy
import types
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from autograder.course.catalogue import Misconception
from autograder.diagnosis.operators import OPERATORS, Proposal, Scope, constants

MUTANT_PREFIX = "mutant: "
"""How a mutant's Misconception is named (catalogue entries never start so)."""
RANKS = {
    name: rank
    for rank, name in enumerate((
        "constant", "function swapped", "sign", "variable", "operator", "operands swapped",
        "off by one", "axis", "transpose", "keyword removed", "real part", "dtype",
        "call removed", "comparison", "raise removed", "operand removed", "statement removed",
    ))
}  # fmt: skip
"""Operators from the simplest change a student makes to the largest."""
MAX_MUTANTS_PER_FUNCTION = 400
"""A bound on one function's mutants, so that a long reference costs the runner a bounded
time; the operators' order puts the likeliest mistakes first."""


@dataclass(frozen=True)
class Mutant:
    """One function (or constant) of the reference, wrong in one place."""

    function: str
    """The public function or module constant it replaces."""
    line: int
    """The line of the reference it changes."""
    operator: str
    before: str
    """The changed node's source, for the instructor (validate, waivers); never for a student."""
    after: str
    quantity: str
    """What the changed line computes, in the assignment's words."""
    change: str
    """The change in words."""
    implementation: Any = field(compare=False, repr=False)
    """The wrong function (None for a constant)."""
    value: Any = field(default=None, compare=False, repr=False)
    """For a constant: the wrong value."""
    source: str = field(default="", compare=False, repr=False)
    """The whole mutated function (or constant assignment), to write it as a submission."""
    rank: int = field(default=0, compare=False)
    """How simple the change is (operators.py's order): of mutants that fit, the simplest is
    named."""

    @property
    def key(self) -> str:
        """What names a mutant across runs, for a waiver: the function, the line's old and new
        source (not its number, which moves whenever the reference does)."""
        return f"{self.function}: {self.before} -> {self.after}"

    @property
    def said(self) -> str:
        """The hint's words: what is wrong, and where."""
        if self.quantity:
            return f"{self.quantity}: {self.change}"
        return self.change

    def as_misconception(self, part: str = "") -> Misconception:
        """The mutant as the diagnosis reads a catalogue entry."""
        return Misconception(
            name=MUTANT_PREFIX + self.key,
            target=self.function,
            part=part,
            summary=self.said,
            hint="",
            implementation=self.implementation,
            value=self.value,
        )


def mutants(
    source: str, namespace: Mapping[str, Any], words: Mapping[str, str] | None = None
) -> list[Mutant]:
    """Every first-order mutant of the public functions and numeric module constants of the
    module whose `source` is given; `namespace` is the module's (the reference, imported) in
    which each mutated function is compiled. Mutants whose source equals another's are one."""
    words = words or {}
    tree = ast.parse(source)
    found: dict[str, Mutant] = {}
    for statement in tree.body:
        if isinstance(statement, ast.FunctionDef) and not statement.name.startswith("_"):
            for mutant in _function_mutants(statement, source, namespace, words):
                found.setdefault(mutant.key, mutant)
        elif isinstance(statement, (ast.Assign, ast.AnnAssign)):
            for mutant in _constant_mutants(statement, words):
                found.setdefault(mutant.key, mutant)
    return sorted(found.values(), key=lambda m: m.rank)


def _function_mutants(
    function: ast.FunctionDef, source: str, namespace: Mapping[str, Any], words: Mapping[str, str]
) -> Iterator[Mutant]:
    scope = Scope(_kinds(function), words)
    sites = list(_sites(function))
    made = 0
    for index, (node, parent, statement) in enumerate(sites):
        for operator in OPERATORS:
            for proposal in operator(node, parent, scope):
                mutated = _replaced(function, index, proposal.node)
                if mutated is None:
                    continue
                implementation = _compiled(mutated, namespace)
                if implementation is None:
                    continue
                yield Mutant(
                    function=function.name,
                    line=getattr(node, "lineno", function.lineno),
                    operator=proposal.operator,
                    before=_source(node),
                    after=_source(proposal.node),
                    quantity=_quantity(statement, scope),
                    change=proposal.change,
                    implementation=implementation,
                    source=ast.unparse(mutated),
                    rank=RANKS.get(proposal.operator, len(RANKS)),
                )
                made += 1
                if made >= MAX_MUTANTS_PER_FUNCTION:
                    return


def _constant_mutants(
    statement: ast.Assign | ast.AnnAssign, words: Mapping[str, str]
) -> Iterator[Mutant]:
    targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
    if len(targets) != 1 or not isinstance(targets[0], ast.Name) or statement.value is None:
        return
    name = targets[0].id
    if name.startswith("_"):
        return
    scope = Scope({}, words)
    for proposal in constants(statement.value, None, scope):
        try:
            value = ast.literal_eval(proposal.node)
        except ValueError:
            continue
        yield Mutant(
            function=name, line=statement.lineno, operator=proposal.operator,
            before=_source(statement.value), after=_source(proposal.node),
            quantity=words.get(name, name), change=proposal.change, implementation=None,
            value=value, source=f"{name} = {_source(proposal.node)}\n",
        )  # fmt: skip


def _sites(function: ast.FunctionDef) -> Iterator[tuple[ast.AST, ast.AST | None, ast.stmt]]:
    """Every node a mutation may change, in a fixed order, with its parent and the statement
    it belongs to: the body (its docstring and exception messages left alone) and the defaults."""
    for default in function.args.defaults:
        yield from _walk(default, function.args, function)
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    for statement in body:
        yield from _walk(statement, None, statement)


def _walk(
    node: ast.AST, parent: ast.AST | None, statement: ast.stmt
) -> Iterator[tuple[ast.AST, ast.AST | None, ast.stmt]]:
    if isinstance(node, (ast.JoinedStr, ast.expr_context)):
        return
    if isinstance(node, ast.stmt):
        statement = node
    yield node, parent, statement
    if isinstance(node, ast.Raise):
        return  # a message's parts are no mistake a test can see
    for child in ast.iter_child_nodes(node):
        if isinstance(node, ast.FunctionDef) and child in node.args.defaults:
            continue
        if isinstance(child, (ast.arguments, ast.arg)) or _is_annotation(node, child):
            continue
        yield from _walk(child, node, statement)


def _is_annotation(node: ast.AST, child: ast.AST) -> bool:
    return isinstance(node, ast.AnnAssign) and child is node.annotation


def _replaced(function: ast.FunctionDef, index: int, new: ast.AST) -> ast.FunctionDef | None:
    """A copy of `function` with its `index`-th site replaced by `new`."""
    mutated = copy.deepcopy(function)
    sites = list(_sites(mutated))
    old, parent, _ = sites[index]
    holder = parent if parent is not None else _statement_holder(mutated, old)
    if holder is None:
        return None
    for name, value in ast.iter_fields(holder):
        if value is old:
            setattr(holder, name, new)
            break
        if isinstance(value, list) and any(item is old for item in value):
            setattr(holder, name, [new if item is old else item for item in value])
            break
    else:
        return None
    ast.fix_missing_locations(mutated)
    return mutated


def _statement_holder(function: ast.FunctionDef, node: ast.AST) -> ast.AST | None:
    """The node whose field holds a top-level site (a statement of the body, or a default)."""
    if any(node is d for d in function.args.defaults):
        return function.args
    if any(node is s for s in function.body):
        return function
    return None


def _compiled(function: ast.FunctionDef, namespace: Mapping[str, Any]) -> Any:
    """The mutated function, compiled in a copy of the module's namespace (so that it calls
    the module's other functions); None if it is not valid Python."""
    module = ast.Module(body=[function], type_ignores=[])
    ast.fix_missing_locations(module)
    scope = dict(namespace)
    try:
        exec(compile(module, f"<mutant of {function.name}>", "exec"), scope)
    except (SyntaxError, ValueError, TypeError):
        return None
    compiled = scope.get(function.name)
    return compiled if isinstance(compiled, types.FunctionType) else None


def _kinds(function: ast.FunctionDef) -> dict[str, str]:
    """Each name of the function's scope and its kind: parameters by annotation, locals as
    one kind (a student mixes up two of the function's own quantities, not a module's)."""
    kinds: dict[str, str] = {}
    arguments = [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]
    for argument in arguments:
        annotation = ast.unparse(argument.annotation) if argument.annotation else "any"
        kinds[argument.arg] = f"parameter: {annotation}"
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            kinds.setdefault(node.id, "local")
    return kinds


def _quantity(statement: ast.stmt, scope: Scope) -> str:
    """What the changed statement computes, in the assignment's words."""
    targets: list[ast.AST] = []
    if isinstance(statement, ast.Assign):
        targets = list(statement.targets)
    elif isinstance(statement, (ast.AugAssign, ast.AnnAssign)):
        targets = [statement.target]
    elif isinstance(statement, ast.Return):
        return "the result"
    elif isinstance(statement, (ast.If, ast.Raise)):
        return ""
    names: list[str] = []
    for target in targets:
        for node in ast.walk(target):
            if isinstance(node, ast.Name) and node.id not in names:
                names.append(node.id)
    return ", ".join(scope.words.get(name, name) for name in names[:3])


def _source(node: ast.AST) -> str:
    if isinstance(node, ast.Pass):
        return "pass"
    try:
        return ast.unparse(node)
    except Exception:  # an operator's node the unparser does not know
        return type(node).__name__


__all__ = ["MUTANT_PREFIX", "Mutant", "Proposal", "mutants"]
