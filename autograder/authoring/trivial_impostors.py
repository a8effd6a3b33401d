"""Trivial impostors: submissions that do nothing, or leave out what the assignment is about.

`autograder validate` grades them to prove that no test credits a function for an answer that
takes no work: a law the identity satisfies (AᵀB = C holds with every matrix the identity), an
invariance that the computation without the assignment's new ingredient has anyway. Three
kinds, each applied to one public function at a time and to all of them at once:

- "returns its input": the function returns the first of its arguments that has the type and
  shape of the right answer (a copy, with the answer's dtype), e.g. X for f(X);
- "identity": a function whose answer is a square matrix (a stack of them) returns the
  identity of that shape and dtype (sympy.eye for a SymPy matrix);
- "without INGREDIENT": the assignment's own trivial implementations, from its folder's
  impostors.py (TRIVIAL: function name → a function written with the module's own names, as a
  catalogue entry is; INGREDIENT: what they leave out).

The first two are derived from the reference alone: each impostor calls the reference (in the
pristine namespace of impostor.ORACLE) for the right answer's shape, and raises
NotImplementedError, as an unwritten function does, where it cannot fake that answer. The third
replaces the function's name in the module: what it calls is the module's, so it calls the other
impostors when all are replaced at once and the reference otherwise. The module's other functions
call the impostors too, as a student's own functions call each other.
"""

from __future__ import annotations

import inspect
import re
import textwrap
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from autograder.authoring.impostor import ORACLE, graded_functions
from autograder.course.assignment import IMPOSTORS_FILE, Assignment, import_instructor_module
from autograder.errors import ConfigError

RETURNS_INPUT = "returns its input"
IDENTITY = "identity"
EVERY_FUNCTION = "every function"

_RUNTIME = """

# autograder validate: trivial impostors
import numpy as _impostor_np
import sympy as _impostor_sp


class _ImpostorCannot(NotImplementedError):
    pass


def _impostor_as_answer(argument, answer):
    if isinstance(answer, _impostor_np.ndarray):
        if isinstance(argument, (_impostor_np.ndarray, list, tuple)):
            try:
                array = _impostor_np.array(argument, dtype=answer.dtype)
            except (TypeError, ValueError):
                return None
            return array if array.shape == answer.shape else None
        return None
    if isinstance(answer, _impostor_sp.MatrixBase):
        if isinstance(argument, _impostor_sp.MatrixBase) and argument.shape == answer.shape:
            return argument.copy()
        return None
    if isinstance(answer, _impostor_sp.Basic):
        return argument if isinstance(argument, _impostor_sp.Expr) else None
    return None


def _impostor_returns_input(answer, arguments):
    for argument in arguments:
        faked = _impostor_as_answer(argument, answer)
        if faked is not None:
            return faked
    raise _ImpostorCannot("the impostor has no argument of the answer's type and shape")


def _impostor_first_array(arguments):
    for argument in arguments:
        if isinstance(argument, _impostor_np.ndarray):
            return argument.copy()
        if isinstance(argument, _impostor_sp.MatrixBase):
            return argument.copy()
    raise _ImpostorCannot("the impostor has no array argument to return")


def _impostor_identity(answer, arguments):
    if isinstance(answer, _impostor_np.ndarray) and answer.ndim >= 2:
        if answer.shape[-1] == answer.shape[-2]:
            eye = _impostor_np.eye(answer.shape[-1], dtype=answer.dtype)
            return _impostor_np.broadcast_to(eye, answer.shape).copy()
    if isinstance(answer, _impostor_sp.MatrixBase) and answer.rows == answer.cols:
        return _impostor_sp.eye(answer.rows)
    raise _ImpostorCannot("the right answer is not a square matrix")


def _impostor_refused(arguments):
    raise _ImpostorCannot("the reference refuses this call: the impostor has no shape")


_IMPOSTOR_KINDS = {
    "returns its input": (_impostor_returns_input, _impostor_first_array),
    "identity": (_impostor_identity, _impostor_refused),
}


def _impostor(name, kind):
    function = _impostor_pristine[name]
    fake, fallback = _IMPOSTOR_KINDS[kind]

    def impostor(*args, **kwargs):
        arguments = [*args, *kwargs.values()]
        try:
            answer = function(*args, **kwargs)
        except Exception:
            return fallback(arguments)  # a trivial function checks nothing either
        return fake(answer, arguments)

    impostor.__name__ = impostor.__qualname__ = function.__name__
    return impostor
"""
"""Source appended (after ORACLE) for the derived kinds."""


@dataclass(frozen=True)
class TrivialImpostor:
    """One trivial impostor: the reference with `faked` replaced by impostors of `kind`."""

    kind: str
    faked: tuple[str, ...]
    source: str

    @property
    def name(self) -> str:
        """The validation row's name: the kind, then the function (or every function)."""
        what = self.faked[0] if len(self.faked) == 1 else EVERY_FUNCTION
        return f"impostor: {self.kind}: {what}"

    @property
    def file_stem(self) -> str:
        return re.sub(r"\W+", "_", self.name.removeprefix("impostor: "))


@dataclass(frozen=True)
class Declaration:
    """An assignment's own trivial implementations (impostors.py), as source per function."""

    ingredient: str
    trivial: Mapping[str, str]

    @property
    def kind(self) -> str:
        return f"without {self.ingredient}"


def load_declaration(assignment: Assignment) -> Declaration | None:
    """The assignment's impostors.py, or None when it has none."""
    path = assignment.folder / IMPOSTORS_FILE
    if not path.is_file():
        return None
    module = import_instructor_module(path, assignment.name, assignment.course.root / "assignments")
    trivial = getattr(module, "TRIVIAL", None)
    ingredient = getattr(module, "INGREDIENT", None)
    if not isinstance(trivial, dict) or not all(callable(f) for f in trivial.values()):
        raise ConfigError(f"{path}: TRIVIAL must be a dict of function name → function")
    if not isinstance(ingredient, str) or not ingredient:
        raise ConfigError(f"{path}: INGREDIENT must name what the trivial functions leave out")
    reference = assignment.load_reference()
    unknown = sorted(set(trivial) - set(graded_functions(reference)))
    if unknown:
        raise ConfigError(f"{path}: TRIVIAL names no public function of the reference: {unknown}")
    return Declaration(ingredient, {name: _renamed(f, name) for name, f in trivial.items()})


def trivial_impostors(
    solution: str, reference: types.ModuleType, declaration: Declaration | None
) -> list[TrivialImpostor]:
    """Every trivial impostor of the reference: each kind one function at a time, then all at
    once (when there are several)."""
    functions = graded_functions(reference)
    impostors: list[TrivialImpostor] = []
    for kind in (RETURNS_INPUT, IDENTITY):
        groups = [[name] for name in functions] + ([functions] if len(functions) > 1 else [])
        impostors += [TrivialImpostor(kind, tuple(g), _derived(solution, kind, g)) for g in groups]
    if declaration is not None:
        names = sorted(declaration.trivial)
        groups = [[name] for name in names] + ([names] if len(names) > 1 else [])
        impostors += [
            TrivialImpostor(declaration.kind, tuple(g), _declared(solution, declaration, g))
            for g in groups
        ]
    return impostors


def _derived(solution: str, kind: str, faked: Sequence[str]) -> str:
    replace = "".join(f"{name} = _impostor({name!r}, {kind!r})\n" for name in faked)
    return solution + ORACLE + _RUNTIME + "\n\n" + replace


def _declared(solution: str, declaration: Declaration, faked: Sequence[str]) -> str:
    header = f"\n\n# autograder validate: {', '.join(faked)} {declaration.kind}\n"
    return solution + header + "".join(declaration.trivial[name] for name in faked)


def _renamed(function: Callable[..., object], target: str) -> str:
    """`function`'s source as a definition of `target` (its body keeps the module's names)."""
    source = textwrap.dedent(inspect.getsource(function))
    renamed = re.sub(r"^def \w+\(", f"def {target}(", source, count=1, flags=re.M)
    return f"\n\n{renamed}"
