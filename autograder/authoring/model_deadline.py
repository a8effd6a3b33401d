"""A bound on how long a model of a mistake (a mutant, a catalogue entry) may run on one call,
in the authoring tools that replay them in their own process (the survey, the hint table's
builder): a mutant that loops or allocates without end is stopped, not waited for."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from typing import Any

from autograder.errors import AutograderError


class ModelTooLong(AutograderError):
    """A model ran past its deadline."""


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise ModelTooLong in this (main) thread once `seconds` have passed."""

    def stop(signum: int, frame: Any) -> None:
        raise ModelTooLong

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
