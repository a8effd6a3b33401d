"""Verdicts of the grader's costly symbolic work, remembered from one submission to the next.

Proving two expressions equal, screening them at random points and judging a proof are pure
functions of data (expression trees, proof text) and the rubric's policy, and a class hands in
the same expressions over and over. The grader's runner keeps every verdict it has learnt: each
submission is graded in a child forked from it, the child reports what it learnt with its
results, and the runner adds that, so the next child starts knowing it. Only verdicts the
grader's own trusted code computed are kept, never anything the student's code sent.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

T = TypeVar("T")
MAX_VERDICTS = 50_000
"""Beyond this many the oldest are forgotten: memory stays bounded however large the class."""

_known: dict[str, Any] = {}
_learnt: dict[str, Any] = {}


def key(kind: str, parts: Iterable[str]) -> str:
    digest = hashlib.sha256(kind.encode())
    for part in parts:
        digest.update(b"\0" + part.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def remembered(verdict_key: str, compute: Callable[[], T]) -> T:
    """The verdict stored under `verdict_key`, computing and storing it the first time.

    Verdicts must be JSON values: they travel from the child that learnt them to the runner."""
    if verdict_key in _known:
        return _known[verdict_key]  # type: ignore[no-any-return]
    value = compute()
    _known[verdict_key] = value
    _learnt[verdict_key] = value
    return value


def learnt() -> dict[str, Any]:
    """What this process computed itself (since it was forked): the child's report."""
    return dict(_learnt)


def add(verdicts: Mapping[str, Any]) -> None:
    """Keep verdicts a child learnt, forgetting the oldest past MAX_VERDICTS."""
    _known.update(verdicts)
    while len(_known) > MAX_VERDICTS:
        del _known[next(iter(_known))]
    _learnt.clear()


def forget() -> None:
    _known.clear()
    _learnt.clear()
