"""The state the checks keep while a process grades: the rubric's symbolic policy, the remarks
made on the running test, and the verdicts of costly symbolic work it remembers.

It was three module-level variables (checks/failure's notes, checks/symbolic.POLICY and
checks/memo's dicts); it is one CheckContext now. The checks are called by assignments' tests
with no handle on pytest, so they reach it as the active context (a context variable): the
grader's runner activates one made from the rubric before its pytest run (serve.py), the plugin
keeps that run's context in its config's stash, and a process that activates none (a
student's own check, the kit's tests) gets a default one on first use. A child forked to
grade one submission, or to do bounded work, inherits its parent's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar

from autograder.course.rubric import SymbolicPolicy
from autograder.protocol.calls import Call

T = TypeVar("T")
MAX_VERDICTS = 50_000
"""Beyond this many the oldest are forgotten: memory stays bounded however large the class."""


@dataclass
class Verdicts:
    """Verdicts remembered by key (checks/memo.py says which and why)."""

    known: dict[str, Any] = field(default_factory=dict)
    learnt: dict[str, Any] = field(default_factory=dict)
    """What this process computed itself (since it was forked): the child's report."""
    fleeting: set[str] = field(default_factory=set)
    """Verdicts that hold for this run alone (a proof that ran out of time on this machine):
    shared with this run's children, never kept beyond it (student/verdict_cache.py)."""

    def remembered(
        self, key: str, compute: Callable[[], T], lasting: Callable[[T], bool] | None = None
    ) -> T:
        if key in self.known:
            return self.known[key]  # type: ignore[no-any-return]
        value = compute()
        self.known[key] = value
        self.learnt[key] = value
        if lasting is not None and not lasting(value):
            self.fleeting.add(key)
        return value

    def lasting(self, verdicts: Mapping[str, Any]) -> dict[str, Any]:
        """`verdicts` without the fleeting ones."""
        return {key: value for key, value in verdicts.items() if key not in self.fleeting}

    def add(self, verdicts: Mapping[str, Any]) -> None:
        """Keep verdicts a child learnt, forgetting the oldest past MAX_VERDICTS."""
        self.known.update(verdicts)
        while len(self.known) > MAX_VERDICTS:
            del self.known[next(iter(self.known))]
        self.learnt.clear()

    def forget(self) -> None:
        self.known.clear()
        self.learnt.clear()
        self.fleeting.clear()


@dataclass
class CallIndex:
    """The results of the running test's calls by identity (checks/graded.py), built as the
    calls come: a check asks once per value, however many calls the test made. The ids stay
    valid: the calls hold their results alive."""

    first: Call | None = None
    """The first call of the list indexed: another one means another test's list."""
    seen: int = 0
    by_object: dict[int, str] = field(default_factory=dict)
    """A returned object (or an item of a returned tuple) → the function that returned it."""
    by_owner: dict[int, str] = field(default_factory=dict)
    """The owner of a returned array's memory → that function (a view of it is its result)."""


@dataclass
class CheckContext:
    policy: SymbolicPolicy = field(default_factory=SymbolicPolicy)
    notes: list[str] = field(default_factory=list)
    """Remarks on the running test's outcome, even when it passes (e.g. "not proved")."""
    verdicts: Verdicts = field(default_factory=Verdicts)
    calls: Callable[[], Sequence[Call]] = field(default=lambda: ())
    """The calls of the student's module the running test made so far (the kit's pytest plugin
    lends them; none elsewhere): checks/graded.py looks the values it examines up in them."""
    examined: list[str] = field(default_factory=list)
    """The functions whose returned values the running test's checks examined, in order."""
    call_index: CallIndex = field(default_factory=CallIndex)

    def take_notes(self) -> list[str]:
        """The remarks made since the last call, which clears them."""
        notes = list(self.notes)
        self.notes.clear()
        return notes

    def take_examined(self) -> list[str]:
        """The functions examined since the last call, in order; clears them."""
        examined = list(self.examined)
        self.examined.clear()
        return examined


_ACTIVE: ContextVar[CheckContext] = ContextVar("autograder_check_context")


def active() -> CheckContext:
    """The context the checks run in (a default one, made now, where none was activated)."""
    try:
        return _ACTIVE.get()
    except LookupError:
        context = CheckContext()
        _ACTIVE.set(context)
        return context


def activate(context: CheckContext) -> CheckContext:
    """Make `context` the one the checks of this process run in; returns it."""
    _ACTIVE.set(context)
    return context
