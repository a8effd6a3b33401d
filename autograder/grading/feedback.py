"""Turn an exception from a test into a status and a message in the student's terms."""

from __future__ import annotations

import traceback
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from autograder.grading.results import Status


class SubmissionImportError(Exception):
    """The student's module could not be imported; every test that needs it reports this."""


@dataclass(frozen=True)
class Verdict:
    status: Status
    message: str
    credit: float | None = None


def explain(error: BaseException, tb: TracebackType | None, submission: Path | None) -> Verdict:
    """Say what went wrong: not implemented yet, a failed check, or an error in student code."""
    where = _student_frame(tb, submission) or _reported_location(error)
    if type(error).__name__ in TIMEOUT_ERRORS:
        return Verdict("timeout", str(error))
    if type(error).__name__ == "StudentCrash":
        return Verdict("error", str(error))
    if isinstance(error, NotImplementedError):
        if where is None and str(error):  # raised by the test itself, which says what is missing
            return Verdict("not_implemented", str(error))
        name = f"`{where.name}`" if where else "a function this test calls"
        return Verdict("not_implemented", f"{name} is not implemented yet")
    if isinstance(error, SubmissionImportError):
        return Verdict("error", str(error))
    if isinstance(error, AssertionError):
        credit = getattr(error, "credit", None)
        return Verdict("failed", str(error).strip() or "a check failed", credit)
    text = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    if where is None:
        return Verdict("error", text)
    return Verdict(
        "error", f"`{where.name}` raised {text} ({Path(where.filename).name}, line {where.lineno})"
    )


TIMEOUT_ERRORS = {"StudentTimeout", "SubmissionTimeExhausted"}


def _reported_location(error: BaseException) -> traceback.FrameSummary | None:
    """Where a student's exception was raised, as the worker reported it (grading mode)."""
    location = getattr(error, "student_location", None)
    if location is None:
        return None
    function, filename, line = location
    return traceback.FrameSummary(filename, line, function, lookup_line=False)


def describe_import_failure(error: BaseException, submission: Path) -> str:
    """One line on why `submission` would not import, pointing at its own line where possible."""
    if isinstance(error, SyntaxError):
        return f"{submission.name} has a syntax error on line {error.lineno}: {error.msg}"
    if isinstance(error, SystemExit):
        return f"{submission.name} called exit() while being imported; remove that call"
    where = _student_frame(error.__traceback__, submission)
    line = f" (line {where.lineno})" if where else ""
    detail = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    if isinstance(error, ModuleNotFoundError):
        detail += "; only the Python standard library, numpy and sympy are available"
    return f"could not import {submission.name}{line}: {detail}"


def _student_frame(
    tb: TracebackType | None, submission: Path | None
) -> traceback.FrameSummary | None:
    """The innermost traceback frame that runs the student's own file."""
    if tb is None or submission is None:
        return None
    target = str(submission.resolve())
    frames = [f for f in traceback.extract_tb(tb) if _same_file(f.filename, target)]
    return frames[-1] if frames else None


def _same_file(filename: str, target: str) -> bool:
    try:
        return str(Path(filename).resolve()) == target
    except OSError:
        return False
