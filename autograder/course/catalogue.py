"""What an assignment's diagnosis files hold: its `misconceptions.py` CATALOGUE of known
mistakes and its `signatures.py` SIGNATURES. Plain course data, read by the grader's diagnosis
(autograder.diagnosis.diagnose, which keeps both names importable) and by `autograder validate`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from autograder.protocol.calls import Call


@dataclass(frozen=True)
class Misconception:
    """One known mistake in one function (or constant) of the student's module."""

    name: str
    target: str
    """The function or constant it replaces, e.g. "normalise"."""
    part: str
    summary: str
    hint: str
    implementation: Callable[..., Any] | None = None
    """A wrong version of `target`, written with the module's own names (np, sp, …)."""
    value: Any = None
    """For a constant: the wrong value."""
    mutates_input: bool = False
    """Recognised by modifying an array argument in place rather than by its output."""
    also_affects: tuple[str, ...] = ()
    """Other parts whose tests rightly depend on this function (validate allows them losses)."""
    refused_inputs: bool = False
    """A mistake in what the function does with inputs the reference refuses (it returns
    instead of raising): replayed on those calls too, which no other mistake is."""


@dataclass(frozen=True)
class Signature:
    """A measurement of one function's wrong output that names what it observes, without
    having catalogued the mistake: a frequency fitted from a table of sines, the axis along
    which a normalisation sums to 1, the angle of a rotation. An assignment's `signatures.py` lists
    them in SIGNATURES; they run in the grader (instructor code reading the student's data)."""

    target: str
    """The function whose calls it reads."""
    measure: Callable[[Call, Any], str | None]
    """(the student's call, the reference's result) -> what it observed, or None."""
