"""Turns at the machine: submissions graded side by side, or one graded alone.

A call that timed out because the machine gave it no processor (cpu_time.py's "starved") is
not the student's fault; its submission is graded again alone before that timeout counts. The
runners of a pool share one `Turns`: a grade takes a shared turn; a grade again alone waits
until every other grade under way has ended, and no other starts until it has.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class Turns:
    """Shared turns for grading side by side, and a turn alone for a grade again."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._sharing = 0
        self._waiting_alone = 0
        self._alone = False

    @contextmanager
    def shared(self) -> Iterator[None]:
        """A turn beside the others; it waits while a grade alone waits or runs."""
        with self._changed:
            self._changed.wait_for(lambda: not self._alone and not self._waiting_alone)
            self._sharing += 1
        try:
            yield
        finally:
            with self._changed:
                self._sharing -= 1
                self._changed.notify_all()

    @contextmanager
    def alone(self) -> Iterator[None]:
        """A turn with nothing else graded: it waits for the grades under way to end."""
        with self._changed:
            self._waiting_alone += 1
            self._changed.notify_all()  # a shared turn asked for now waits behind this one
            self._changed.wait_for(lambda: not self._alone and not self._sharing)
            self._waiting_alone -= 1
            self._alone = True
        try:
            yield
        finally:
            with self._changed:
                self._alone = False
                self._changed.notify_all()
