"""Tests grouped by the function they are about, and what to fix first in each: how every
student-facing report (`autograder check`, feedback files, Gradescope) orders its tests.

A group is a function of the student's module (TestOutcome.function), in the order its first
test comes; tests about no function form a group per part. A failing group leads with one
cause to fix first: its first failing test's hint, else the advice a failing check gave, else
its first failing message. A cause is printed once; a later test with the same cause says
"(same cause as above)".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

SAME_CAUSE = "(same cause as above)"
FAILING = ("failed", "error", "timeout")


class Graded(Protocol):
    """What grouping reads of a test: a TestOutcome or a TestResult."""

    @property
    def function(self) -> str | None: ...
    @property
    def part(self) -> str | None: ...
    @property
    def status(self) -> str: ...
    @property
    def message(self) -> str | None: ...
    @property
    def hint(self) -> str | None: ...
    @property
    def advice(self) -> str | None: ...


T = TypeVar("T", bound=Graded)


@dataclass
class Group(Generic[T]):
    """The tests about one function (or, for tests about none, of one part)."""

    function: str | None
    part: str | None
    tests: list[T] = field(default_factory=list)

    @property
    def name(self) -> str:
        if self.function is not None:
            return self.function
        return f"part {self.part}" if self.part else "other tests"

    def with_status(self, *statuses: str) -> list[T]:
        return [test for test in self.tests if test.status in statuses]

    @property
    def not_implemented(self) -> bool:
        """Every test of the group says its function is not written yet."""
        return bool(self.tests) and all(t.status == "not_implemented" for t in self.tests)


def grouped(tests: Iterable[T], order: Sequence[str] = ()) -> list[Group[T]]:
    """`tests` by function, each group where its first test stands, or in `order` (the order
    the module defines its functions: the assignment's) for the functions it names; tests of no
    function grouped by part, after them."""
    groups: dict[tuple[str | None, str | None], Group[T]] = {}
    for test in tests:
        key = (test.function, None) if test.function else (None, test.part)
        if key not in groups:
            groups[key] = Group(key[0], test.part if key[0] else key[1])
        groups[key].tests.append(test)
    place = {name: index for index, name in enumerate(order)}
    ranked = sorted(
        enumerate(groups.values()),
        key=lambda item: (place.get(item[1].function or "", len(place)), item[0]),
    )
    return [group for _, group in ranked]


def cause_of(test: Graded) -> str | None:
    """What a failing test says to fix: its hint, else the advice its check gave."""
    return test.hint or test.advice


def fix_first(group: Group[T]) -> str | None:
    """The one thing to fix first in a group with failing tests: its first failing test's
    hint, else the first advice of a failing check, else its first failing message."""
    failing = group.with_status(*FAILING)
    if not failing:
        return None
    if failing[0].hint:
        return within(group, failing[0].hint)
    advice = next((t.advice for t in failing if t.advice), None)
    return advice or failing[0].message


def within(group: Group[T], text: str) -> str:
    """A hint as its function's group prints it: without the function's name that starts it
    (every hint names its function; the group's heading already does)."""
    return text.removeprefix(f"{group.function}: ") if group.function else text


def fix_first_line(group: Group[T], printed: dict[str, str]) -> str | None:
    """What to fix first in `group`, or where it was said already (`printed`, which gets it)."""
    fix = fix_first(group)
    if fix is None:
        return None
    if fix in printed and printed[fix] != group.name:
        return f"the same as for {printed[fix]}, above"
    printed[fix] = group.name
    return fix


def without_advice(message: str | None, advice: str | None) -> str | None:
    """`message` without the advice that ends it (": advice"), when the advice is shown apart."""
    if message and advice and message.endswith(f": {advice}"):
        return message[: -len(advice) - 2]
    return message


@dataclass(frozen=True)
class Shown:
    """One failing test as a report shows it: its message, and the cause to print below it
    (None: printed already, or there is none)."""

    message: str | None
    cause: str | None
    same_cause: bool


def shown_causes(tests: Sequence[T], printed: dict[str, str], where: str) -> list[Shown]:
    """Each of `tests` with the cause to print under it, no cause printed twice: `printed`
    holds the causes printed so far, each with the group it was printed in (and gets the new
    ones, printed in group `where`)."""
    shown = []
    for test in tests:
        cause = cause_of(test)
        if cause is not None and test.function:
            cause = cause.removeprefix(f"{test.function}: ")
        message = without_advice(test.message, test.advice)
        if cause is None:
            shown.append(Shown(message, None, False))
        elif cause in printed:
            shown.append(Shown(message, None, True))
        else:
            printed[cause] = where
            shown.append(Shown(message, cause, False))
    return shown
