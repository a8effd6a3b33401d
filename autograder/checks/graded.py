"""Which function of the student's module a check grades: the one that returned what it examined.

A test may call several of the student's functions (one to set up, another to compare with)
and hands some results, or values made from them, to the checks. It is about the function whose
returned value its checks examine: that one is what `check FUNCTION` shows and where a report
files the test, not the first function it calls nor the first its message names. The checks
know values, not calls; the kit's pytest plugin lends the active CheckContext the running
test's calls, and a check looks the values it examines up among their results (the same object,
a view of it, or an item of a returned tuple). A value made anew from a result (`2 * out`) is
found in no call: the report then falls back on the test's message and calls.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import Any, ParamSpec, TypeVar

import numpy as np

from autograder.checks import context
from autograder.checks.context import CallIndex
from autograder.checks.failure import CheckFailure, hidden_from_students
from autograder.protocol.calls import Call

__tracebackhide__ = hidden_from_students  # a failed check's traceback ends at the test's line

P = ParamSpec("P")
R = TypeVar("R")
MAX_ITEMS = 16
"""How many items of a returned tuple or list are looked at (`Q, K = f(X)`)."""
_UNTRACEABLE = (type(None), bool, int, float, complex, str, bytes, np.generic)
"""Values that may be one object in unrelated places (cached small numbers, interned text):
never traced to a call."""


def returned_by(value: Any, calls: Sequence[Call]) -> str | None:
    """The function among `calls` (the latest, when several) whose result `value` is, is a view
    of (an array sharing its memory's owner), or is an item of; None when it is none of them."""
    if isinstance(value, _UNTRACEABLE):
        return None
    index = _index(calls)
    found = index.by_object.get(id(value))
    if found is None and isinstance(value, np.ndarray) and value.base is not None:
        found = index.by_owner.get(id(_owner(value)))
    return found


def _index(calls: Sequence[Call]) -> CallIndex:
    """The active context's index of `calls`, brought up to date (a new one for a new list)."""
    active = context.active()
    index = active.call_index
    if not calls or calls[0] is not index.first or len(calls) < index.seen:
        index = active.call_index = CallIndex(calls[0] if calls else None)
    for call in calls[index.seen :]:
        if call.raised is None:
            result = call.result
            items = result[:MAX_ITEMS] if type(result) in (tuple, list) else ()
            for returned in (result, *items):
                if not isinstance(returned, _UNTRACEABLE):
                    index.by_object[id(returned)] = call.name
                    if type(returned) is np.ndarray:
                        index.by_owner[id(_owner(returned))] = call.name
    index.seen = len(calls)
    return index


def _owner(array: np.ndarray) -> Any:
    """The object that owns `array`'s memory (itself, when it owns it)."""
    found: Any = array
    while isinstance(found, np.ndarray) and found.base is not None:
        found = found.base
    return found


def examines(
    *parameters: str, calls_made: bool = False
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorate a check: `parameters` name the arguments it examines (the student's value
    first). Each call records, in the active context, the function that returned the first of
    them found among the test's calls (with `calls_made`, else the first function the check
    itself called: `assert_raises(E, student.f, …)`), and a CheckFailure it raises carries
    that function as its `function`."""

    def decorate(check: Callable[P, R]) -> Callable[P, R]:
        names = list(inspect.signature(check).parameters)
        places = [names.index(p) for p in parameters]

        @functools.wraps(check)
        def graded(*args: P.args, **kwargs: P.kwargs) -> R:
            active = context.active()
            before = len(active.calls())
            function = None
            for place, name in zip(places, parameters, strict=True):
                value = args[place] if place < len(args) else kwargs.get(name)
                if (function := returned_by(value, active.calls())) is not None:
                    active.examined.append(function)
                    break
            try:
                result = check(*args, **kwargs)
            except CheckFailure as failure:
                if function is None and calls_made:
                    function = _first_called(active.calls(), before)
                failure.function = failure.function or function
                raise
            called = _first_called(active.calls(), before) if calls_made else None
            if function is None and called is not None:
                active.examined.append(called)
            return result

        return graded

    return decorate


def _first_called(calls: Sequence[Call], since: int) -> str | None:
    """The function of the first call made after the first `since` calls."""
    return calls[since].name if len(calls) > since else None
