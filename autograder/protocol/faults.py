"""What the student's code caused, as the trusted side raises it: each carries the status the
test gets and, when known, where in the student's file it happened.

`autograder.grading.feedback.explain` reads these fields instead of guessing from class names.
The worker's report of an exception the student's code raised becomes a StudentRaised: an
instance of the builtin class the student raised (so a test's `pytest.raises(ValueError)`
still matches), or StudentCodeError for a class of the student's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from autograder.errors import AutograderError
from autograder.protocol.results import Status


@dataclass(frozen=True)
class Location:
    """Where the student's code raised: its function, file name and line."""

    function: str
    filename: str
    line: int


class StudentFault(AutograderError):
    """Something the student's code caused, not the kit: a test it makes fail or err."""

    status: ClassVar[Status] = "error"
    """The status of the test it ends."""

    def __init__(self, *args: object, location: Location | None = None) -> None:
        super().__init__(*args)
        self.location = location
        """Where in the student's file it happened, when the worker reported it."""


class SubmissionImportError(StudentFault):
    """The student's module could not be imported; every test that needs it reports this."""


class StudentTimeout(StudentFault):
    """The student's function did not return in time."""

    status = "timeout"


class SubmissionTimeExhausted(StudentTimeout):
    """The submission's whole time budget is spent; no more calls are made."""


class StudentCrash(StudentFault):
    """The worker process died, or sent something that is not a message."""


class BoundaryRefused(StudentFault, AssertionError):
    """The student's function returned a value that may not cross to the grader (a failed
    check: it is an AssertionError, as every check's failure is)."""

    status = "failed"


class StudentRaised(StudentFault):
    """An exception the student's code raised in the worker, rebuilt from the worker's report:
    the test's verdict is made from its class and message as for any exception."""

    kind: str = ""
    """The class name the student's exception had."""

    def __init__(self, message: str = "", *, kind: str, location: Location | None = None) -> None:
        super().__init__(message, location=location)
        self.kind = kind


class StudentCodeError(StudentRaised):
    """An exception of the student's own class (only builtin exception classes are rebuilt)."""


_BUILTINS: tuple[type[Exception], ...] = (
    ValueError, TypeError, NotImplementedError, ZeroDivisionError, IndexError, KeyError,
    AttributeError, NameError, RuntimeError, ArithmeticError, OverflowError, MemoryError,
    RecursionError, LookupError, UnboundLocalError, FloatingPointError,
)  # fmt: skip

REBUILT: dict[str, type[StudentRaised]] = {
    cls.__name__: type(cls.__name__, (StudentRaised, cls), {"__qualname__": cls.__name__})
    for cls in _BUILTINS
}
"""The builtin exception classes a student's exception is rebuilt as, by name: each is a
subclass of the builtin (and named as it is, so messages read as before) and a StudentRaised."""
