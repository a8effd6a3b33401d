"""Plain `pytest` in a released folder, read as `autograder check` reads.

Loaded with `-p autograder.report.pytest_terminal` (the released pytest.ini names it after the
kit's plugin). A failed check is one line where the test failed, `tests/test_x.py:52: what is
wrong`, not a traceback through the kit's source; an error in the student's code keeps its
traceback (the kit's frames hidden: checks/failure.hidden_from_students); and the session ends
with the lines `check` prints: the tests grouped by function, what to fix first, the hints.
`--tb=long` (or any other style asked for) and `--fulltrace` keep pytest's own tracebacks.
"""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from autograder.grading.pytest_compat import CrashLine, OneLineFailure
from autograder.grading.pytest_plugin import recorder
from autograder.protocol.faults import StudentFault, StudentRaised
from autograder.report.terminal import check_lines
from autograder.safe_text import printable
from autograder.student.local_check import CheckReport, CheckTarget, definition_order

SECTION = "autograder check"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    error = call.excinfo.value if call.excinfo is not None else None
    if (
        report.failed
        and isinstance(error, StudentFault)
        and not isinstance(error, StudentRaised)  # the student's own exception: its traceback
        and _default_traceback(item.config)
    ):
        path, lineno = _test_line(item, call)
        message = printable(str(error).strip())  # a student's text, on the student's terminal
        report.longrepr = OneLineFailure(CrashLine(path, lineno, message))
    return report


def _default_traceback(config: pytest.Config) -> bool:
    """No traceback style was asked for: the failure may be told in one line."""
    return config.getoption("tbstyle", "auto") == "auto" and not config.getoption(
        "fulltrace", False
    )


def _test_line(item: pytest.Item, call: pytest.CallInfo[None]) -> tuple[str, int]:
    """The test file (as pytest names it) and the line of it where the failure happened (else
    where the test starts)."""
    path, line, _ = item.location
    here = Path(item.path)
    if call.excinfo is not None:
        lines = [e.lineno for e in call.excinfo.traceback if Path(e.path) == here]
        if lines:
            return path, lines[-1] + 1
    return path, (line or 0) + 1


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """The lines `autograder check` prints, after pytest's own report."""
    outcomes = recorder(config).final_outcomes()
    submission = recorder(config).submission
    if not outcomes or submission is None:
        return
    report = CheckReport(
        CheckTarget(submission, config.rootpath),
        tuple(outcomes),
        order=definition_order(submission),
    )
    terminalreporter.write_sep("=", SECTION)
    for line in check_lines(report, verbose=config.getoption("verbose", 0) > 0):
        terminalreporter.write_line(printable(line))
