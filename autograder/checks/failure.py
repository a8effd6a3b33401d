"""The failure a check raises, and how values are written in its message."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import numpy as np

from autograder.checks import context
from autograder.protocol.faults import StudentFault
from autograder.safe_text import short_repr as short_repr

T = TypeVar("T")
Hint = Callable[[T], "str | None"]
"""Looks at a student's wrong answer; returns advice when it recognises the mistake, else None."""


class CheckFailure(StudentFault, AssertionError):
    """A failed check, phrased for the student: what is wrong, where, expected vs observed, and
    (when a hint recognises the mistake) what to try.

    `advice`: that advice alone (its text already ends the message, after ": "), or None; a
    report can print it once as what to fix first."""

    status = "failed"

    def __init__(self, *args: object, advice: str | None = None) -> None:
        super().__init__(*args)
        self.advice = advice

    def __reduce__(self) -> Any:  # keep the advice through pickling (a worker's failure)
        return (_rebuilt, (type(self), self.args, self.__dict__))


def _rebuilt(kind: type[CheckFailure], args: tuple[Any, ...], state: dict[str, Any]) -> Any:
    failure = kind.__new__(kind)
    failure.args = args
    failure.__dict__.update(state)
    return failure


class PartialCredit(CheckFailure):
    """A failed check that still earns `credit` (0 to 1) of the test's points."""

    def __init__(self, message: str, credit: float, *, advice: str | None = None) -> None:
        super().__init__(message, advice=advice)
        self.credit = max(0.0, min(1.0, credit))


def fail(message: str, *, observed: T | None = None, hints: Iterable[Hint[T]] = ()) -> CheckFailure:
    """A CheckFailure for `message`, with the first hint that recognises `observed` appended."""
    advice = first_hint(observed, hints) if observed is not None else None
    return CheckFailure(f"{message}: {advice}" if advice else message, advice=advice or None)


def first_hint(observed: T, hints: Iterable[Hint[T]]) -> str | None:
    for hint in hints:
        try:
            advice = hint(observed)
        except Exception:  # a hint that cannot read this answer simply does not apply
            continue
        if advice:
            return advice
    return None


def format_value(value: Any) -> str:
    """A number as a student would write it: 0, 1, 0.8415, -0.99, 1.0147, 6.3e-05, nan."""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (complex, np.complexfloating)):
        number = complex(value)
        if abs(number.imag) <= 1e-12 * max(1.0, abs(number.real)):
            return format_value(number.real)
        return f"{number.real:.5g}{number.imag:+.5g}j"
    if isinstance(value, (float, np.floating)):
        number = float(value)
        if number.is_integer() and abs(number) < 1e6:
            return str(int(number))
        if 1e-3 <= abs(number) < 1e6:
            return f"{number:.4f}".rstrip("0").rstrip(".")  # as printed: 0.8415, 1.0147
        return f"{number:.4g}"
    return short_repr(value)


def format_values(values: Any, limit: int = 4) -> str:
    """The first `limit` entries of a 1-D sequence: `[0, 1, 0, 1, …]`."""
    flat = list(np.ravel(np.asarray(values)))
    shown = ", ".join(format_value(v) for v in flat[:limit])
    return f"[{shown}, …]" if len(flat) > limit else f"[{shown}]"


def note(text: str) -> None:
    """Attach a remark to the running test's outcome even when it passes (e.g. "not proved")."""
    context.active().notes.append(text)


def take_notes() -> list[str]:
    """The remarks made since the last call, which clears them."""
    return context.active().take_notes()
