"""Where in the student's file an exception came from, and why a submission would not import:
read in the worker (which reports the import failure as text) and by the grader's feedback."""

from __future__ import annotations

import traceback
from pathlib import Path
from types import TracebackType


def describe_import_failure(error: BaseException, submission: Path) -> str:
    """One line on why `submission` would not import, pointing at its own line where possible."""
    if isinstance(error, SyntaxError):
        return f"{submission.name} has a syntax error on line {error.lineno}: {error.msg}"
    if isinstance(error, SystemExit):
        return f"{submission.name} called exit() while being imported; remove that call"
    where = student_frame(error.__traceback__, submission)
    line = f" (line {where.lineno})" if where else ""
    detail = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    if isinstance(error, ModuleNotFoundError):
        detail += "; only the Python standard library, numpy and sympy are available"
    return f"could not import {submission.name}{line}: {detail}"


def student_frame(
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
