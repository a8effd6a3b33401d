"""Trusted code's answers to a submission's calls, each worked out once per process.

A failed test's diagnosis asks the same question several times: the catalogue's replay, the
signatures, the engine's own models, the blame across tests and the check that rules mistakes
out all need the reference's answer (or a variant's) to the same recorded call. Each answer is
kept here under its function and its call, and the call is kept with it, so that its identity
is never reused while the answer is. Arrays in a kept answer are read-only views: a reader that
would change one fails (and says nothing), never changes what the next reader sees.

The grader's test child is one submission's process, so what it keeps ends with it; `forget`
clears what a runner's rehearsal kept. The store is bounded: beyond MAX_ANSWERS answers, or
MAX_BYTES of arrays, answers are computed again each time instead of kept.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sp

from autograder.protocol.calls import Call
from autograder.safe_text import shorten

MAX_ANSWERS = 50_000
MAX_BYTES = 256 * 2**20


@dataclass(frozen=True)
class Answer:
    """What trusted code did with a call: its value, or the exception it raised."""

    value: Any = None
    raised: str | None = None
    message: str = ""


_kept: dict[tuple[Any, int], tuple[Call, Answer]] = {}
_kept_bytes = 0


def answer(function: Callable[..., Any], args: Any, kwargs: dict[str, Any]) -> Answer:
    """`function`'s answer on copies of `args` and `kwargs` (computed, never kept)."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return Answer(function(*copied(args), **copied(kwargs)))
        except Exception as error:
            return Answer(raised=type(error).__name__, message=shorten(str(error), 200))


def answer_to(function: Callable[..., Any], call: Call) -> Answer:
    """`function`'s answer to `call`'s arguments, computed the first time it is asked."""
    global _kept_bytes
    key = (function, id(call))
    found = _kept.get(key)
    if found is not None and found[0] is call:
        return found[1]
    result = answer(function, call.args, call.kwargs)
    size = _nbytes(result.value)
    if size is not None and len(_kept) < MAX_ANSWERS and _kept_bytes + size <= MAX_BYTES:
        result = Answer(_read_only(result.value), result.raised, result.message)
        _kept[key] = (call, result)
        _kept_bytes += size
    return result


def forget() -> None:
    """Drop every kept answer."""
    global _kept_bytes
    _kept.clear()
    _kept_bytes = 0


def copied(value: Any) -> Any:
    """Arrays copied, inside tuples, lists and dicts too: a replay never changes a call."""
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, tuple):
        return tuple(copied(v) for v in value)
    if isinstance(value, list):
        return [copied(v) for v in value]
    if isinstance(value, dict):
        return {k: copied(v) for k, v in value.items()}
    return value


def _nbytes(value: Any) -> int | None:
    """About the bytes `value` holds, or None when it is not kept: only values no reader can
    change once their arrays are read-only (arrays, numbers, texts, SymPy's immutable
    expressions, and short tuples of them; never a list, which a student's wrong answer or a
    variant may return a million entries long)."""
    if isinstance(value, np.ndarray):
        return int(value.nbytes) if value.dtype != object else None
    if value is None or isinstance(value, (bool, int, float, complex, str, np.generic, sp.Basic)):
        return 64
    if type(value) is tuple and len(value) <= MAX_TUPLE:
        sizes = [_nbytes(v) for v in value]
        return None if None in sizes else 64 + sum(s for s in sizes if s is not None)
    return None


MAX_TUPLE = 16


def _read_only(value: Any) -> Any:
    """`value` with each array seen through a read-only view (the array itself, which the
    function may hold, keeps its flags)."""
    if isinstance(value, np.ndarray):
        view = value.view()
        view.flags.writeable = False
        return view
    if type(value) is tuple:
        return tuple(_read_only(item) for item in value)
    return value
