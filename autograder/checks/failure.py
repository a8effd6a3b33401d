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
    report can print it once as what to fix first. `function`: the student's function whose
    returned value the failing check examined (checks/graded.py), when it is known."""

    status = "failed"

    def __init__(self, *args: object, advice: str | None = None) -> None:
        super().__init__(*args)
        self.advice = advice
        self.function: str | None = None

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


DIGITS = 4
"""The digits a number is written with (decimals between 0.001 and a million, significant
digits outside), unless more are needed to tell two numbers apart."""
MAX_DIGITS = 17
"""Enough for any two different float64 numbers to be written differently."""


def format_value(value: Any, digits: int = DIGITS) -> str:
    """A number as a student would write it: 0, 1, 0.8415, -0.99, 1.0147, 6.3e-05, nan (with
    `digits` decimals, or significant digits below 0.001 and from a million)."""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (complex, np.complexfloating)):
        number = complex(value)
        if abs(number.imag) <= 1e-12 * max(1.0, abs(number.real)):
            return format_value(number.real, digits)
        return f"{number.real:.{digits + 1}g}{number.imag:+.{digits + 1}g}j"
    if isinstance(value, (float, np.floating)):
        number = float(value)
        if number.is_integer() and abs(number) < 1e6:
            return str(int(number))
        if 1e-3 <= abs(number) < 1e6:
            return f"{number:.{digits}f}".rstrip("0").rstrip(".")  # as printed: 0.8415, 1.0147
        return f"{number:.{digits}g}"
    return short_repr(value)


def distinct_digits(
    expected: Any, observed: Any, written: Callable[[Any, int], str] = format_value
) -> int:
    """The fewest digits (at least DIGITS) at which `written` (format_value) writes the two
    numbers differently (MAX_DIGITS when none does: two NaNs, or equal numbers)."""
    for digits in range(DIGITS, MAX_DIGITS + 1):
        if written(expected, digits) != written(observed, digits):
            return digits
    return MAX_DIGITS


def format_pair(expected: Any, observed: Any) -> tuple[str, str]:
    """Two numbers a message sets side by side ("should be X; yours is Y"), with as many digits
    as it takes for them to read differently: 0.52921 and 0.52919, never 0.5292 twice."""
    digits = distinct_digits(expected, observed)
    return format_value(expected, digits), format_value(observed, digits)


def format_values(values: Any, limit: int = 4, digits: int = DIGITS) -> str:
    """The first `limit` entries of a 1-D sequence: `[0, 1, 0, 1, …]`."""
    flat = list(np.ravel(np.asarray(values)))
    shown = ", ".join(format_value(v, digits) for v in flat[:limit])
    return f"[{shown}, …]" if len(flat) > limit else f"[{shown}]"


def hidden_from_students(excinfo: Any) -> bool:
    """pytest's `__tracebackhide__` for the checks' frames: a failure the student's code caused
    (a failed check) is shown from the test's line, not from inside the kit; any other error
    (a bug of the kit's own) keeps every frame."""
    return excinfo is None or isinstance(getattr(excinfo, "value", None), StudentFault)


def note(text: str) -> None:
    """Attach a remark to the running test's outcome even when it passes (e.g. "not proved")."""
    context.active().notes.append(text)


def take_notes() -> list[str]:
    """The remarks made since the last call, which clears them."""
    return context.active().take_notes()
