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


WALL_FACTOR = 10.0
"""The wall-clock backstop, as a multiple of the CPU deadline (a model that waits, not works)."""


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise ModelTooLong in this (main) thread once the process has spent `seconds` of CPU
    time (so that a busy machine, which stretches wall time, does not change what a model is
    judged to be), or ten times as long on the wall clock."""

    def stop(signum: int, frame: Any) -> None:
        raise ModelTooLong

    previous = {number: signal.signal(number, stop) for number in (signal.SIGPROF, signal.SIGALRM)}
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.setitimer(signal.ITIMER_REAL, seconds * WALL_FACTOR)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        for number, handler in previous.items():
            signal.signal(number, handler)
