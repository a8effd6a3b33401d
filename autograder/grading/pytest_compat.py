"""The kit's uses of pytest beyond its documented plugin API, in one place.

The runner (serve.py) collects the tests once and then runs them again and again, in forked
children, one submission each: pytest's public API has no way to do that, so it relies on the
first three things below. Plain `pytest` in a released folder tells a failed check in one line
(report/pytest_terminal.py): a report's `longrepr` may be a `TerminalRepr`, which pytest
documents as a type of that field but does not export, hence the fourth. Each is checked
against the pytest versions pyproject.toml allows (`pytest>=7.4,<10`: 7.4.4, 8.0.2, 8.3.5 and
9.2 were tried, with tests/test_shared_runner.py, and 9.2 with the whole suite); a new major
version of pytest is to be tried here first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import pytest
from _pytest._code.code import TerminalRepr


def tear_down_fixtures(session: pytest.Session) -> None:
    """Finish every fixture the session set up, as pytest does after its last test.

    Needed after the runner's rehearsal (a run on the reference solution before serving any
    student): a child forked later must start with no fixture of the reference's run alive.
    pytest offers no public call; `SetupState.teardown_exact(None)` is what its own runner
    calls after the last item (`_pytest.runner.pytest_runtest_teardown`), present since 7.0."""
    session._setupstate.teardown_exact(None)


def forget_failures(session: pytest.Session) -> None:
    """Zero the session's count of failed tests (a rehearsal's failures are not a child's).

    `Session.testsfailed` is a plain attribute pytest reads for `--maxfail` and `-x` and for
    its exit status; it is documented nowhere, though it has been so since pytest 3."""
    session.testsfailed = 0


def bare_report(
    item: pytest.Item,
    call: pytest.CallInfo[None],
    outcome: Literal["passed", "failed", "skipped"],
    longrepr: Any,
) -> pytest.TestReport:
    """A TestReport without pytest's rendered traceback (the runner makes outcomes from the
    exception itself, and rendering one reads source files and resolves paths).

    `TestReport` is public but its constructor is not: its arguments are named here, by
    keyword, so that a reordering in pytest fails loudly instead of filling the wrong field."""
    return pytest.TestReport(
        nodeid=item.nodeid,
        location=item.location,
        keywords={},
        outcome=outcome,
        longrepr=longrepr,
        when=call.when,  # type: ignore[arg-type]  # never "collect": checked by the caller
        sections=[],
        duration=call.duration,
        start=call.start,
        stop=call.stop,
    )


@dataclass(frozen=True)
class CrashLine:
    """Where a test failed and why, as pytest reads a failure's `reprcrash`: `message` for the
    short summary's line, the whole (`path:lineno: message`) for `--tb=line`."""

    path: str
    lineno: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.lineno}: {self.message}"


@dataclass(eq=False)
class OneLineFailure(TerminalRepr):
    """A failure pytest prints as `path:lineno: message` (a report's `longrepr`): a
    TerminalRepr, whose `__str__` (pytest-xdist's serialisation) is that text too."""

    reprcrash: CrashLine

    def toterminal(self, tw: Any) -> None:
        tw.line(str(self.reprcrash), red=True)
