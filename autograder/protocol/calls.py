"""One call the grader made to the student's module: what the worker's answers become on the
trusted side, and what diagnosis (autograder.diagnosis.diagnose) and an assignment's signatures
read. Its values were decoded by the codec (bounded data: numbers, arrays, SymPy expressions);
the text fields were cut by the client to the limits in protocol/messages.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Call:
    """One call a test made to the student's module, as the grader saw it."""

    name: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    result: Any
    modified: tuple[str | int, ...] = ()
    """The array arguments it modified in place: positions, or keyword names."""
    raised: str | None = None
    """The class name of the exception the student's code raised (then `result` is None)."""
    error: str | None = None
    """That exception's message, cut short."""

    @property
    def mutated(self) -> bool:
        return bool(self.modified)

    def argument(self, index: int, name: str, default: Any = None) -> Any:
        """The argument at position `index` or passed as `name` (else `default`)."""
        if len(self.args) > index:
            return self.args[index]
        return self.kwargs.get(name, default)
