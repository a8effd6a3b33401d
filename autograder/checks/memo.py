"""Verdicts of the grader's costly symbolic work, remembered from one submission to the next.

Proving two expressions equal, screening them at random points and judging a proof are pure
functions of data (expression trees, proof text) and the rubric's policy, and a class hands in
the same expressions over and over. The grader's runner keeps every verdict it has learnt: each
submission is graded in a child forked from it, the child reports what it learnt with its
results, and the runner adds that, so the next child starts knowing it. Only verdicts the
grader's own trusted code computed are kept, never anything the student's code sent. They are
kept in the active CheckContext (checks/context.py).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from autograder.checks import context

T = TypeVar("T")
MAX_VERDICTS = context.MAX_VERDICTS


def key(kind: str, parts: Iterable[str]) -> str:
    digest = hashlib.sha256(kind.encode())
    for part in parts:
        digest.update(b"\0" + part.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def remembered(
    verdict_key: str, compute: Callable[[], T], lasting: Callable[[T], bool] | None = None
) -> T:
    """The verdict stored under `verdict_key`, computing and storing it the first time.

    Verdicts must be JSON values: they travel from the child that learnt them to the runner.
    `lasting`: whether a verdict holds beyond this run (one that says the machine ran out of
    time does not); by default every verdict does."""
    return context.active().verdicts.remembered(verdict_key, compute, lasting)


def learnt() -> dict[str, Any]:
    """What this process computed itself (since it was forked): the child's report."""
    return dict(context.active().verdicts.learnt)


def add(verdicts: Mapping[str, Any]) -> None:
    """Keep verdicts a child learnt, forgetting the oldest past MAX_VERDICTS."""
    context.active().verdicts.add(verdicts)


def forget() -> None:
    context.active().verdicts.forget()
