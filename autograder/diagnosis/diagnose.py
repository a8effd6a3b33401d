"""Name the mistake: compare a failing test's student outputs with known wrong implementations.

An assignment's `misconceptions.py` holds a CATALOGUE of Misconception entries, each a wrong
version of one function of the student's module (or a wrong value of one constant), the mistake
in a sentence, and the hint a student should read. When a test fails, every call it made to the
student's module is replayed on each catalogued variant of that function, in the trusted
process (the variants are instructor code, run on the reference's module namespace). A variant
whose output matches the student's where the reference's does not names the misconception.
Variants that give the same numbers share a hint that names them all.
"""

from __future__ import annotations

import contextlib
import functools
import types
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import sympy as sp

from autograder.checks.closeness import all_close
from autograder.checks.evaluate import NotEvaluable, evaluate
from autograder.course.catalogue import Misconception as Misconception
from autograder.course.catalogue import Signature as Signature
from autograder.diagnosis import replays
from autograder.diagnosis.mutants import MUTANT_PREFIX
from autograder.diagnosis.replays import copied as copied
from autograder.protocol.calls import Call as Call
from autograder.tolerance import DEFAULT_ATOL, DEFAULT_RTOL


def variant_namespace(misconception: Misconception, reference: types.ModuleType) -> dict[str, Any]:
    """The reference module's namespace with the misconception's one function (or constant)
    put in place, and every other function rebound to it: the reference, made wrong in one
    place, just as `autograder validate` builds it as a submission."""
    namespace = dict(vars(reference))
    for name, value in list(namespace.items()):
        if isinstance(value, types.FunctionType) and value.__globals__ is vars(reference):
            namespace[name] = _rebind(value, namespace, name)
    if misconception.implementation is None:
        namespace[misconception.target] = misconception.value
    else:
        namespace[misconception.target] = _rebind(
            misconception.implementation, namespace, misconception.target
        )
    return namespace


def _rebind(function: Any, namespace: dict[str, Any], name: str) -> types.FunctionType:
    return types.FunctionType(
        function.__code__, namespace, name, function.__defaults__, function.__closure__
    )


def diagnose(
    calls: Sequence[Call],
    catalogue: Sequence[Misconception],
    reference: types.ModuleType,
    *,
    rtol: float = DEFAULT_RTOL,
    atol: float = DEFAULT_ATOL,
    namespaces: dict[str, dict[str, Any]] | None = None,
) -> list[Misconception]:
    """The misconceptions that explain the student's outputs where the reference's do not.

    A replay names a mistake only when it agrees with the student on every call where the
    mistake would show (its output differs from the reference's), wrong calls and right ones
    alike, and at least one such call is wrong: a mistake the student's right answers rule out,
    or one that agrees on one call and not on the next, is not named. Calls the reference
    refuses (it raises: a test of the argument contract) say nothing about a numeric mistake.
    `namespaces` caches each variant's module namespace across calls (one submission's tests).
    """
    namespaces = {} if namespaces is None else namespaces
    checked = _checked(calls, reference, rtol, atol)
    if all(right and not call.mutated for call, _, right in checked):
        return []  # every call answered right (a refused call the student answered is wrong)
    found: list[Misconception] = []
    for misconception in catalogue:
        if misconception.mutates_input:
            if any(c.mutated and c.name == misconception.target for c, _, _ in checked):
                found.append(misconception)
            continue
        if misconception.name not in namespaces:
            namespaces[misconception.name] = variant_namespace(misconception, reference)
        namespace = namespaces[misconception.name]
        consistent, shown_wrong = _agreement(
            misconception, namespace, checked, reference, rtol, atol
        )
        if consistent and shown_wrong:
            found.append(misconception)
    return found


def contradicted(
    misconception: Misconception,
    calls: Sequence[Call],
    reference: types.ModuleType,
    namespace: dict[str, Any],
    *,
    rtol: float = DEFAULT_RTOL,
    atol: float = DEFAULT_ATOL,
) -> bool:
    """Whether any of `calls` (a whole submission's) rules the mistake out: a call where it
    would show, and the student's output is not its output. A test whose own calls happen to
    match it (a degenerate input) then does not name it."""
    if misconception.mutates_input:
        return False
    relevant = [c for c in calls if misconception.target in uses(reference, c.name)]
    checked = _checked(relevant, reference, rtol, atol)
    return not _agreement(misconception, namespace, checked, reference, rtol, atol)[0]


def _checked(
    calls: Sequence[Call], reference: types.ModuleType, rtol: float, atol: float
) -> list[tuple[Call, Any, bool]]:
    """Each call with the reference's answer and whether the student's is right; a call the
    reference refuses (the student returned where it raises) has the answer _REFUSED."""
    checked = []
    for call in calls:
        if call.raised is not None:
            continue  # an exception says nothing of a numeric mistake
        function = getattr(reference, call.name, _MISSING)
        if function is _MISSING:
            continue
        expected = _run(function, call)
        if expected is _MISSING:
            checked.append((call, _REFUSED, False))
        else:
            checked.append((call, expected, _same(call.result, expected, rtol, atol)))
    return checked


def _agreement(
    misconception: Misconception,
    namespace: dict[str, Any],
    checked: Sequence[tuple[Call, Any, bool]],
    reference: types.ModuleType,
    rtol: float,
    atol: float,
) -> tuple[bool, bool]:
    """(the student agrees with the mistake on every call where it shows, and on every call of
    its own function (a wrong call there that it does not explain makes it a partial model,
    which names nothing), and at least one of those calls is wrong)."""
    shown_wrong = False
    for call, expected, right in checked:
        if misconception.target not in uses(reference, call.name):
            continue
        if expected is _REFUSED and not misconception.refused_inputs:
            continue  # the argument contract says nothing about a numeric mistake
        function = namespace.get(call.name, _MISSING)
        variant = _run(function, call)
        if expected is _REFUSED and variant is _MISSING:
            continue  # this mistake refuses these inputs too: it does not show here
        if not _shows(function, call, variant, expected, rtol, atol):
            if call.name == misconception.target and not right:
                return False, shown_wrong  # a wrong call of its own function it cannot explain
            continue  # this mistake does not show on this call
        if not _same(call.result, variant, rtol, atol):
            return False, shown_wrong  # it would show here, and the student's is not its output
        shown_wrong = shown_wrong or not right
    return True, shown_wrong


def _shows(
    function: Any, call: Call, variant: Any, expected: Any, rtol: float, atol: float
) -> bool:
    """Whether the variant's output on `call` differs from the reference's (decided once per
    variant and arguments: replays.verdict)."""
    if expected is _REFUSED or not callable(function):  # a constant: compared, never kept
        return not _same(variant, expected, rtol, atol)
    return replays.verdict(
        ("shows", function, rtol, atol), call, lambda: not _same(variant, expected, rtol, atol)
    )


def prime_call(
    call: Call,
    catalogue: Sequence[Misconception],
    reference: types.ModuleType,
    namespaces: dict[str, dict[str, Any]],
    *,
    rtol: float = DEFAULT_RTOL,
    atol: float = DEFAULT_ATOL,
) -> int:
    """Work out what a diagnosis of `call` needs that its arguments alone decide: the
    reference's answer, and each variant's answer and whether it shows (under
    replays.priming, the runner keeps them for every child). 1 when primed, else 0."""
    function = getattr(reference, call.name, _MISSING)
    if not callable(function) or not replays.primable(call):
        return 0
    expected = _run(function, call)
    for misconception in catalogue:
        if misconception.mutates_input or misconception.target not in uses(reference, call.name):
            continue
        namespace = namespaces.get(misconception.name)
        variant_function = _MISSING if namespace is None else namespace.get(call.name, _MISSING)
        if not callable(variant_function):
            continue
        variant = _run(variant_function, call)
        if expected is not _MISSING and variant is not _MISSING:
            _shows(variant_function, call, variant, expected, rtol, atol)
    return 1


def observe(
    calls: Sequence[Call],
    signatures: Sequence[Signature],
    reference: types.ModuleType,
    *,
    rtol: float = DEFAULT_RTOL,
    atol: float = DEFAULT_ATOL,
) -> list[str]:
    """What each signature measures on the calls whose results are wrong (distinct sentences,
    in the order found). A measurement that fails on a student's odd value says nothing."""
    observed: list[str] = []
    spoken: set[int] = set()  # one sentence per signature and test: the first wrong call's
    for call in calls:
        if call.raised is not None:
            continue
        relevant = [s for s in signatures if s.target == call.name and id(s) not in spoken]
        if not relevant:
            continue
        expected = _run(getattr(reference, call.name, _MISSING), call)
        if expected is _MISSING or _same(call.result, expected, rtol, atol):
            continue
        for signature in relevant:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                try:
                    text = signature.measure(call, expected)
                except Exception:  # instructor code meeting a value it did not foresee
                    text = None
            if text:
                spoken.add(id(signature))
                text = f"{signature.target}: {text}"  # every hint names its function
                if text not in observed:
                    observed.append(text)
    return observed


def uses(reference: types.ModuleType, name: str) -> frozenset[str]:
    """`name` and every module-level name its reference function reaches, through the functions
    it calls: a mistake elsewhere cannot change its output (worked out once per name)."""
    return _uses(reference, name)


@functools.lru_cache(maxsize=4096)
def _uses(reference: types.ModuleType, name: str) -> frozenset[str]:
    namespace = vars(reference)
    reached, pending = {name}, [name]
    while pending:
        function = namespace.get(pending.pop())
        code = getattr(function, "__code__", None)
        if code is None:
            continue
        names = set(code.co_names) | {
            n for c in code.co_consts if hasattr(c, "co_names") for n in c.co_names
        }
        for found in names - reached:
            if found in namespace:
                reached.add(found)
                pending.append(found)
    return frozenset(reached)


def describe(found: Sequence[Misconception], observed: Sequence[str] = ()) -> str | None:
    """The hint for what was found: one mistake, or every mistake that gives these numbers,
    then what was measured on the student's output; each names the function it is about."""
    parts = []
    targets = {m.target for m in found}
    if len(found) == 1:
        advice = f": {found[0].hint}" if found[0].hint else ""  # a mutant's words are whole
        parts.append(f"{found[0].target}: {found[0].summary}{advice}")
    elif all(m.name.startswith(MUTANT_PREFIX) for m in found) and len(targets) == 1:
        named = "; or ".join(m.summary for m in found)
        parts.append(
            f"{found[0].target}: each of these changes gives exactly your numbers: {named}"
        )
    elif found:
        one = len(targets) == 1
        named = "; or ".join(
            f"{'' if one else m.target + ': '}{m.summary}" + (f" ({m.hint})" if m.hint else "")
            for m in found
        )
        parts.append(
            f"{found[0].target + ': ' if one else ''}your results match {len(found)} known "
            f"mistakes, which give the same numbers here: {named}"
        )
    if observed:
        parts.append(f"measured on your output: {'; '.join(observed[:3])}")
    return " — ".join(parts) or None


_MISSING = object()
_REFUSED = object()
"""The reference's answer to a call it refuses (it raises)."""


def _run(function: Any, call: Call) -> Any:
    """`function`'s output on `call`'s arguments (worked out once: replays.py), _MISSING when
    it raises; a constant is its own output."""
    if function is _MISSING:
        return _MISSING
    if not callable(function):
        return function
    answered = replays.answer_to(function, call)
    return _MISSING if answered.raised is not None else answered.value


def same(a: Any, b: Any, rtol: float, atol: float) -> bool:
    """Whether two results of a call agree: arrays within the tolerance, expressions at random
    points, texts exactly."""
    return _same(a, b, rtol, atol)


def _same(a: Any, b: Any, rtol: float, atol: float) -> bool:
    if a is _MISSING or b is _MISSING:
        return False
    if isinstance(a, sp.Basic) or isinstance(b, sp.Basic) or _sympy_pair(a) or _sympy_pair(b):
        return _same_symbolic(a, b)
    if (
        isinstance(a, (list, tuple))
        and isinstance(b, (list, tuple))
        and _all_text(a)
        and _all_text(b)
    ):
        return list(map(tuple, a)) == list(map(tuple, b))
    if (type(a) in (list, tuple) and type(b) is np.ndarray) or (
        type(b) in (list, tuple) and type(a) is np.ndarray
    ):
        return False  # a list where an array is expected is a mistake of its own
    with contextlib.suppress(TypeError, ValueError):
        left, right = np.asarray(a), np.asarray(b)
        if (
            left.shape != right.shape
            or left.dtype.kind not in "biufc"
            or right.dtype.kind not in "biufc"
        ):
            return False
        return all_close(left, right, rtol, atol, equal_nan=True)
    return False


def _sympy_pair(value: Any) -> bool:
    return isinstance(value, (tuple, list, sp.MatrixBase)) and any(
        isinstance(v, sp.Basic) for v in value
    )


def _all_text(value: Any) -> bool:
    return all(
        isinstance(step, (list, tuple)) and all(isinstance(s, str) for s in step) for step in value
    )


def _same_symbolic(a: Any, b: Any) -> bool:
    left, right = _entries(a), _entries(b)
    if left is None or right is None or len(left) != len(right):
        return False
    if [e.free_symbols for e in left] != [e.free_symbols for e in right]:
        return False  # equal numbers, different variables: e.g. a pos that should have cancelled
    symbols = sorted(set().union(*(e.free_symbols for e in left + right)), key=str)
    generator = np.random.default_rng(0)
    for _ in range(8):
        point = {s: float(generator.uniform(-3, 3)) for s in symbols}
        try:
            if any(
                abs(evaluate(x, point) - evaluate(y, point)) > 1e-8
                for x, y in zip(left, right, strict=True)
            ):
                return False
        except (NotEvaluable, ZeroDivisionError, ValueError, OverflowError, RecursionError):
            return False
    return True


def _entries(value: Any) -> list[sp.Basic] | None:
    if isinstance(value, sp.MatrixBase):
        return list(value)
    if isinstance(value, (tuple, list, sp.Tuple)):
        items = list(value)
        return items if all(isinstance(v, sp.Basic) for v in items) else None
    return [value] if isinstance(value, sp.Basic) else None
