"""One hierarchy: every exception class of the kit is an AutograderError (the CLI's exit code 1,
ConfigError's 2), and everything the student's code causes is a StudentFault with a status."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import autograder
from autograder.checks.failure import CheckFailure, PartialCredit
from autograder.cli import main
from autograder.errors import AutograderError, ConfigError
from autograder.grading.feedback import Verdict, explain
from autograder.protocol.faults import (
    REBUILT,
    BoundaryRefused,
    Location,
    StudentCodeError,
    StudentCrash,
    StudentFault,
    StudentTimeout,
    SubmissionImportError,
    SubmissionTimeExhausted,
)


def _exception_classes() -> list[type[BaseException]]:
    found = []
    for info in pkgutil.walk_packages(autograder.__path__, "autograder."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__.startswith("autograder")
            ):
                found.append(value)
    return found


def test_every_exception_class_of_the_kit_is_an_autograder_error() -> None:
    classes = _exception_classes()
    assert len(classes) > 20
    assert [cls for cls in classes if not issubclass(cls, AutograderError)] == []


def test_student_faults_say_their_status_and_keep_their_builtin_class() -> None:
    assert explain(StudentTimeout("slow"), None, None).status == "timeout"
    assert explain(SubmissionTimeExhausted("spent"), None, None).status == "timeout"
    assert explain(StudentCrash("died"), None, None) == Verdict("error", "died")
    assert explain(SubmissionImportError("no"), None, None).message == "no"
    assert explain(BoundaryRefused("too big"), None, None).status == "failed"
    assert explain(PartialCredit("half", 0.5), None, None).credit == 0.5
    assert explain(CheckFailure(" "), None, None).message == "a check failed"
    raised = REBUILT["ValueError"]("T < 0", kind="ValueError", location=Location("f", "m.py", 3))
    assert isinstance(raised, ValueError) and isinstance(raised, StudentFault)
    assert explain(raised, None, None).message == "`f` raised ValueError: T < 0 (m.py, line 3)"
    own = StudentCodeError("Oops: mine", kind="Oops")
    assert explain(own, None, None).message == "StudentCodeError: Oops: mine"


def test_the_cli_exit_codes_follow_the_hierarchy(monkeypatch: pytest.MonkeyPatch) -> None:
    def run(error: Exception) -> int:
        monkeypatch.setattr("autograder.cli.build_parser", lambda: _Parser(error))
        return main([])

    assert run(ConfigError("bad")) == 2
    assert run(AutograderError("failed")) == 1
    assert run(StudentCrash("a student's fault reaching the CLI is a failure")) == 1


class _Parser:
    def __init__(self, error: Exception) -> None:
        self.error = error

    def parse_args(self, argv: object) -> object:
        error = self.error

        class Args:
            @staticmethod
            def run(args: object) -> int:
                raise error

        return Args()
