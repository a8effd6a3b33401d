"""Trusted code's answers to a submission's calls, each worked out once.

A failed test's diagnosis asks the same question several times: the catalogue's replay, the
signatures, the engine's own models, the blame across tests and the check that rules mistakes
out all need the reference's answer (or a variant's) to the same recorded call. Each answer is
kept here under its function and what the call was asked: its arguments' fingerprint (types,
shapes and bytes; a SymPy expression's tree), so that two calls with equal arguments share one
answer; or, for arguments that have none (objects, Dummy symbols), the call itself, kept with
the answer so that its identity is never reused while the answer is. Arrays in a kept answer
are read-only views: a reader that would change one fails (and says nothing), never changes
what the next reader sees.

Two stores: a submission's, which `forget` clears (the grader's test child is one submission's
process, so what it keeps ends with it), and the runner's, filled from its rehearsal
(`priming`) before any child is forked: the tests' own inputs are fixed by the rubric's seed, so
the reference's and every variant's answers to them are the same for every submission, and each
child inherits them instead of working them out again; so too the verdicts that depend on the
arguments alone (`verdict`: whether a mistake shows on them). Both are bounded: beyond MAX_ANSWERS
answers, or MAX_BYTES (PRIMED_BYTES) of arrays, answers are computed again each time instead.
"""

from __future__ import annotations

import contextlib
import hashlib
import warnings
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sp
from sympy.core.function import AppliedUndef

from autograder.checks.symbolic import tree_key
from autograder.protocol.calls import Call
from autograder.safe_text import shorten

MAX_ANSWERS = 50_000
MAX_BYTES = 256 * 2**20
PRIMED_BYTES = 64 * 2**20
"""What the runner keeps of its rehearsal's answers; each child shares these pages."""
PRIMED_VALUE_BYTES = 4 * 2**20
"""The largest answer the runner keeps (a scale test's is worked out again when needed)."""
FINGERPRINT_PARTS = 1_000
FINGERPRINT_BYTES = 64 * 2**20
"""Arguments with more parts or bytes than these get no fingerprint (their call is the key)."""
_INLINE_BYTES = 256
"""An array this small is its own fingerprint; a larger one is fingerprinted by its digest."""


@dataclass(frozen=True)
class Answer:
    """What trusted code did with a call: its value, or the exception it raised."""

    value: Any = None
    raised: str | None = None
    message: str = ""


_kept: dict[Hashable, tuple[Call | None, Answer]] = {}
_kept_bytes = 0
_primed: dict[Hashable, Answer] = {}
_primed_bytes = 0
_fingerprints: dict[int, tuple[Call, Hashable | None]] = {}
_verdicts: dict[Hashable, bool] = {}
_primed_verdicts: dict[Hashable, bool] = {}
_priming = False


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
    if _priming:
        return _prime(function, call)
    printed = fingerprint_of(call)
    if printed is not None:
        key: Hashable = (function, printed)
        primed = _primed.get(key)
        if primed is not None:
            return primed
        found = _kept.get(key)
        if found is not None:
            return found[1]
    else:
        key = (function, id(call))
        found = _kept.get(key)
        if found is not None and found[0] is call:
            return found[1]
    result = answer(function, call.args, call.kwargs)
    size = _nbytes(result.value)
    if size is not None and len(_kept) < MAX_ANSWERS and _kept_bytes + size <= MAX_BYTES:
        result = Answer(_read_only(result.value), result.raised, result.message)
        _kept[key] = (None if printed is not None else call, result)
        _kept_bytes += size
    return result


@contextlib.contextmanager
def priming() -> Iterator[None]:
    """While open, answers and verdicts are kept in the runner's store, which `forget` keeps
    (within PRIMED_BYTES, and only for arguments of at most PRIMED_VALUE_BYTES)."""
    global _priming
    _priming = True
    try:
        yield
    finally:
        _priming = False


def verdict(key: Hashable, call: Call, decide: Callable[[], bool]) -> bool:
    """`decide()` about `call`, kept under `key` and the call's fingerprint: for a question
    whose answer depends on the call's arguments alone (does a mistake show on them)."""
    printed = fingerprint_of(call)
    try:
        full = (key, printed)
        hash(full)
    except TypeError:  # a key that cannot be kept
        printed = None
    if printed is None:
        return decide()
    known = _primed_verdicts.get(full, _verdicts.get(full))
    if known is None:
        known = decide()
        store = _primed_verdicts if _priming else _verdicts
        if len(store) < MAX_ANSWERS:
            store[full] = known
    return known


def primable(call: Call) -> bool:
    """Whether the runner keeps answers to `call`: arguments with a fingerprint, of at most
    PRIMED_VALUE_BYTES (a scale test's are worked out when a diagnosis needs them)."""
    return _primed_fingerprint(call) is not None


def _primed_fingerprint(call: Call) -> Hashable | None:
    return _bounded_fingerprint(call, PRIMED_VALUE_BYTES)


def _prime(function: Callable[..., Any], call: Call) -> Answer:
    global _primed_bytes
    printed = _primed_fingerprint(call)
    if printed is None:
        return answer(function, call.args, call.kwargs)
    found = _primed.get((function, printed))
    if found is not None:
        return found
    result = answer(function, call.args, call.kwargs)
    size = _nbytes(result.value)
    if size is None or size > PRIMED_VALUE_BYTES or _primed_bytes + size > PRIMED_BYTES:
        return result
    if len(_primed) < MAX_ANSWERS:
        result = Answer(_read_only(result.value), result.raised, result.message)
        _primed[(function, printed)] = result
        _primed_bytes += size
    return result


def fingerprint_of(call: Call) -> Hashable | None:
    """What `call` was asked, as a key equal for equal arguments alone (worked out once per
    call); None for arguments that have no fingerprint."""
    found = _fingerprints.get(id(call))
    if found is not None and found[0] is call:
        return found[1]
    printed = _bounded_fingerprint(call, FINGERPRINT_BYTES)
    if len(_fingerprints) < MAX_ANSWERS:
        _fingerprints[id(call)] = (call, printed)
    return printed


def _bounded_fingerprint(call: Call, array_bytes: int) -> Hashable | None:
    """`call`'s arguments' fingerprint within FINGERPRINT_PARTS parts and `array_bytes` bytes
    of arrays; None beyond them, or for a value nested too deep to walk (a diagnosis goes on,
    computing its answers each time)."""
    try:
        return _fingerprint((call.args, call.kwargs), [FINGERPRINT_PARTS, array_bytes])
    except (RecursionError, ValueError, TypeError, OverflowError):
        return None


def _fingerprint(value: Any, budget: list[int]) -> Hashable | None:
    """Types, shapes and contents of `value`, exactly (an array's bytes or their 32-byte
    digest); None for a value of any other type, or beyond the budget."""
    budget[0] -= 1
    if budget[0] < 0:
        return None
    kind = type(value)
    if value is None or kind in (bool, int, str, bytes):
        return (kind.__name__, value)
    if kind is float:
        return ("float", value.hex())
    if kind is complex:
        return ("complex", value.real.hex(), value.imag.hex())
    if kind is np.ndarray or (isinstance(value, np.generic) and kind.__module__ == "numpy"):
        array = np.asarray(value)
        if array.dtype.hasobject or array.dtype.kind not in "biufcSU":
            return None
        budget[1] -= array.nbytes
        if budget[1] < 0:
            return None
        raw = np.ascontiguousarray(array).tobytes()
        contents = raw if len(raw) <= _INLINE_BYTES else hashlib.blake2b(raw).digest()
        return (kind.__name__, array.dtype.str, array.shape, contents)
    if kind in (tuple, list):
        items = tuple(_fingerprint(item, budget) for item in value)
        return None if None in items else (kind.__name__, items)
    if kind is dict:
        pairs = tuple((_fingerprint(k, budget), _fingerprint(v, budget)) for k, v in value.items())
        return None if any(None in pair for pair in pairs) else ("dict", pairs)
    if isinstance(value, sp.Basic):
        return _sympy_fingerprint(value, budget)
    return None


def _sympy_fingerprint(value: sp.Basic, budget: list[int]) -> Hashable | None:
    """A SymPy expression's tree, node by node (tree_key: names, assumptions, exact numbers),
    when every node is SymPy's own and carries nothing its tree does not show: no Dummy or
    Wild (two of one name differ), no undefined function, no subclass of Symbol."""
    for node in sp.preorder_traversal(value):
        budget[0] -= 1
        kind = type(node)
        if (
            budget[0] < 0
            or not str(getattr(kind, "__module__", None) or "").startswith("sympy.")
            or isinstance(node, (sp.Dummy, sp.Wild, AppliedUndef))
            or (isinstance(node, sp.Symbol) and kind is not sp.Symbol)
        ):
            return None
    return ("sympy", tree_key(value))


def forget() -> None:
    """Drop every answer kept for a submission (the runner's primed ones stay)."""
    global _kept_bytes
    _kept.clear()
    _fingerprints.clear()
    _verdicts.clear()
    _kept_bytes = 0


def forget_primed() -> None:
    """Drop the runner's primed answers too."""
    global _primed_bytes
    forget()
    _primed.clear()
    _primed_verdicts.clear()
    _primed_bytes = 0


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
