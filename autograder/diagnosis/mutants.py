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
import dataclasses
import types
import warnings
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from autograder.course.catalogue import Misconception
from autograder.diagnosis.operators import (
    OPERATORS,
    THROUGHOUT,
    Proposal,
    Scope,
    axis_throughout,
    constants,
    negated_throughout,
    swapped_throughout,
    wrapped_like_twins,
)

MUTANT_PREFIX = "mutant: "
"""How a mutant's Misconception is named (catalogue entries never start so)."""
RANKS = {
    name: rank
    for rank, name in enumerate((
        "constant", "function swapped", "sign", "variable", "operator", "operands swapped",
        "off by one", "scaled", "repeated", "pair swapped", "swapped throughout",
        "negated throughout", "nesting", "axis",
        "transpose", "axis throughout", "keyword removed", "real part", "dtype", "call removed",
        "call added", "comparison", "condition", "raise removed", "operand removed",
        "statement removed",
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
    occurrence: int = 1
    """Which of the function's changes of `before` into `after` this is, in the source's
    order (the same change at two places is two mutants)."""
    rank: int = field(default=0, compare=False)
    """How simple the change is (operators.py's order): of mutants that fit, the simplest is
    named."""

    @property
    def key(self) -> str:
        """What names a mutant across runs, for a waiver: the function, the line's old and new
        source (not its number, which moves whenever the reference does), and which
        occurrence of that change it is when there are several."""
        where = f" (#{self.occurrence})" if self.occurrence > 1 else ""
        return f"{self.function}: {self.before} -> {self.after}{where}"

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
            refused_inputs=self.operator == "raise removed",
        )


def mutants(
    source: str, namespace: Mapping[str, Any], words: Mapping[str, str] | None = None
) -> list[Mutant]:
    """Every first-order mutant of the public functions and numeric module constants of the
    module whose `source` is given; `namespace` is the module's (the reference, imported) in
    which each mutated function is compiled. Mutants whose source equals another's are one."""
    words = words or {}
    tree = ast.parse(source)
    found: dict[tuple[str, str], Mutant] = {}  # by function and mutated source: one of each
    functions = frozenset(
        s.name for s in tree.body if isinstance(s, ast.FunctionDef) and not s.name.startswith("_")
    )
    for statement in tree.body:
        if isinstance(statement, ast.FunctionDef) and not statement.name.startswith("_"):
            for mutant in _function_mutants(statement, source, namespace, words, functions):
                _keep_simplest(found, mutant)
        elif isinstance(statement, (ast.Assign, ast.AnnAssign)):
            for mutant in _constant_mutants(statement, words):
                _keep_simplest(found, mutant)
    numbered: list[Mutant] = []
    seen: dict[str, int] = {}
    for mutant in found.values():  # in the source's order: the occurrences count from the top
        change = f"{mutant.function}: {mutant.before} -> {mutant.after}"
        seen[change] = seen.get(change, 0) + 1
        numbered.append(dataclasses.replace(mutant, occurrence=seen[change]))
    return sorted(numbered, key=lambda m: m.rank)


GENERIC = ("constant", "swapped throughout", "operand removed", "statement removed")
"""Operators whose words say less than another's about the same code (0 where -1 belongs,
rather than the sum over axis 0)."""


OMISSIONS = ("operand removed", "call removed", "keyword removed", "statement removed")
"""Operators that leave something out: of changes that give the same numbers everywhere, the
likeliest account of a student's code (a step forgotten rather than another one written)."""


def naming_order(mutant: Mutant) -> tuple[bool, bool, int]:
    """Of mutants that answer every call and probe alike (one mistake, several accounts), the
    one to name sorts first: an omission, then words that say most (not GENERIC), then the
    simpler change."""
    return (mutant.operator not in OMISSIONS, mutant.operator in GENERIC, mutant.rank)


def _keep_simplest(found: dict[tuple[str, str], Mutant], mutant: Mutant) -> None:
    """One mutant for each mutated source: of two changes that write the same code, the one
    whose words say most (an axis rather than a number; a pair swapped rather than two
    functions swapped everywhere), else the simpler."""
    key = (mutant.function, mutant.source)
    known = found.get(key)

    def order(m: Mutant) -> tuple[bool, int]:
        return (m.operator in GENERIC, m.rank)

    if known is None or order(mutant) < order(known):
        found[key] = mutant


def _function_mutants(
    function: ast.FunctionDef,
    source: str,
    namespace: Mapping[str, Any],
    words: Mapping[str, str],
    functions: frozenset[str] = frozenset(),
) -> Iterator[Mutant]:
    scope = Scope(_kinds(function), words, functions - {function.name})
    sites = list(_sites(function))
    alike: dict[str, list[int]] = {}
    for index, (node, _, _) in enumerate(sites):
        alike.setdefault(ast.dump(node), []).append(index)
    made = 0
    for mutated, said in swapped_throughout(function):
        implementation = _compiled(mutated, namespace)
        if implementation is not None:
            yield Mutant(
                function=function.name, line=function.lineno, operator="swapped throughout",
                before="(every call of the pair)", after=said, quantity="", change=said,
                implementation=implementation, source=ast.unparse(mutated),
                rank=RANKS["swapped throughout"],
            )  # fmt: skip
    for mutated, before, after, said in negated_throughout(function, scope):
        implementation = _compiled(mutated, namespace)
        if implementation is not None:
            yield Mutant(
                function=function.name, line=function.lineno, operator="negated throughout",
                before=before, after=after, quantity="", change=said,
                implementation=implementation, source=ast.unparse(mutated),
                rank=RANKS["negated throughout"],
            )  # fmt: skip
    for mutated, before, after, said in axis_throughout(function):
        implementation = _compiled(mutated, namespace)
        if implementation is not None:
            yield Mutant(
                function=function.name, line=function.lineno, operator="axis throughout",
                before=before, after=after, quantity="", change=said,
                implementation=implementation, source=ast.unparse(mutated),
                rank=RANKS["axis throughout"],
            )  # fmt: skip
    for mutated, before, after, quantity, said in wrapped_like_twins(function, scope):
        implementation = _compiled(mutated, namespace)
        if implementation is not None:
            yield Mutant(
                function=function.name, line=function.lineno, operator="call added",
                before=before, after=after, quantity=quantity, change=said,
                implementation=implementation, source=ast.unparse(mutated),
                rank=RANKS["call added"],
            )  # fmt: skip
    for index, (node, parent, _) in enumerate(sites):
        same = alike[ast.dump(node)]
        for operator in OPERATORS:
            for proposal in operator(node, parent, scope):
                everywhere = (
                    [None, same] if proposal.operator in THROUGHOUT and len(same) > 1
                    and same[0] == index else [None]
                )  # fmt: skip
                for indices in everywhere:
                    found = _mutant_at(function, namespace, scope, sites, index, proposal, indices)
                    if found is None:
                        continue
                    yield found
                    made += 1
                    if made >= MAX_MUTANTS_PER_FUNCTION:
                        return


def _mutant_at(
    function: ast.FunctionDef,
    namespace: Mapping[str, Any],
    scope: Scope,
    sites: list[tuple[ast.AST, ast.AST | None, ast.stmt]],
    index: int,
    proposal: Proposal,
    indices: list[int] | None,
) -> Mutant | None:
    """The mutant of one proposal: at its own site, or at every site equal to it (`indices`)."""
    node, _, statement = sites[index]
    mutated: ast.FunctionDef | None = function
    for at in indices or [index]:
        assert mutated is not None
        mutated = _replaced(mutated, at, copy.deepcopy(proposal.node))
        if mutated is None:
            return None
    assert mutated is not None
    implementation = _compiled(mutated, namespace)
    if implementation is None:
        return None
    everywhere = f" (at all {len(indices)} places alike)" if indices else ""
    return Mutant(
        function=function.name,
        line=getattr(node, "lineno", function.lineno),
        operator=proposal.operator,
        before=_source(node) + (" everywhere" if indices else ""),
        after=_source(proposal.node),
        quantity=""
        if indices
        else _enclosing_words(statement, node, scope) or _quantity(statement, scope),
        change=proposal.change + everywhere,
        implementation=implementation,
        source=ast.unparse(mutated),
        rank=RANKS.get(proposal.operator, len(RANKS)),
    )


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
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a mutant's `1(x)` is a SyntaxWarning, not news
            code = compile(module, f"<mutant of {function.name}>", "exec")
            exec(code, scope)  # trusted: the instructor's reference, mutated
    except (SyntaxError, ValueError, TypeError):
        return None
    compiled = scope.get(function.name)
    return compiled if isinstance(compiled, types.FunctionType) else None


def _kinds(function: ast.FunctionDef) -> dict[str, str]:
    """Each name of the function's scope and its kind: its arrays (array parameters and
    locals) one kind, every other parameter by its annotation (a student mixes up X and Q, or
    m and n, not a count and a layout)."""
    kinds: dict[str, str] = {}
    arguments = [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]
    for argument in arguments:
        annotation = ast.unparse(argument.annotation) if argument.annotation else "any"
        kinds[argument.arg] = "value" if "ndarray" in annotation else f"parameter: {annotation}"
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            kinds.setdefault(node.id, "value")
    return kinds


def _enclosing_words(statement: ast.stmt, node: ast.AST, scope: Scope) -> str:
    """The words.toml words of the innermost expression around `node` written there as in the
    reference (`Q.shape[-1]` = "the key width d_k"): a change inside it is said of it."""
    path = _path_to(statement, node)
    for ancestor in reversed(path[:-1]):
        if isinstance(ancestor, ast.expr) and not isinstance(ancestor, ast.Name):
            words = scope.words.get(_source(ancestor))
            if words:
                return words
    return ""


def _path_to(root: ast.AST, node: ast.AST) -> list[ast.AST]:
    """The nodes from `root` down to `node`, both included (empty when it is not there)."""
    if root is node:
        return [root]
    for child in ast.iter_child_nodes(root):
        below = _path_to(child, node)
        if below:
            return [root, *below]
    return []


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
        while isinstance(target, (ast.Subscript, ast.Attribute, ast.Starred)):
            target = target.value  # what is written into, not where
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
