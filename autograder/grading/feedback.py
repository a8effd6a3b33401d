"""Turn an exception from a test into a status and a message in the student's terms."""

from __future__ import annotations

import traceback
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from autograder.protocol.faults import StudentFault, StudentRaised
from autograder.protocol.faults import SubmissionImportError as SubmissionImportError
from autograder.protocol.results import Status
from autograder.sandbox.tracebacks import describe_import_failure as describe_import_failure
from autograder.sandbox.tracebacks import student_frame


@dataclass(frozen=True)
class Verdict:
    status: Status
    message: str
    credit: float | None = None


def explain(error: BaseException, tb: TracebackType | None, submission: Path | None) -> Verdict:
    """Say what went wrong: not implemented yet, a failed check, or an error in student code.

    A StudentFault the grader raised (a failed check, a timeout, a crash, an import failure,
    a refused value) says its own status and message (and a partial credit's share); an
    exception the student's code raised (rebuilt from the worker's report, or raised in this
    process) is described by its class and location."""
    where = student_frame(tb, submission) or _reported_location(error)
    if isinstance(error, StudentFault) and not isinstance(error, StudentRaised):
        message = str(error)
        if error.status == "failed":
            message = message.strip() or "a check failed"
        return Verdict(error.status, message, getattr(error, "credit", None))
    if isinstance(error, NotImplementedError):
        if where is None and str(error):  # raised by the test itself, which says what is missing
            return Verdict("not_implemented", str(error))
        name = f"`{where.name}`" if where else "a function this test calls"
        return Verdict("not_implemented", f"{name} is not implemented yet")
    if isinstance(error, AssertionError):
        credit = getattr(error, "credit", None)
        return Verdict("failed", str(error).strip() or "a check failed", credit)
    text = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    if where is None:
        return Verdict("error", text)
    return Verdict(
        "error", f"`{where.name}` raised {text} ({Path(where.filename).name}, line {where.lineno})"
    )


def _reported_location(error: BaseException) -> traceback.FrameSummary | None:
    """Where a student's exception was raised, as the worker reported it (grading mode)."""
    location = error.location if isinstance(error, StudentFault) else None
    if location is None:
        return None
    return traceback.FrameSummary(
        location.filename, location.line, location.function, lookup_line=False
    )
