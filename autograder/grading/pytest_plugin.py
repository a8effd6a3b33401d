"""The kit's pytest plugin: the `student` fixture, the `part`/`points` markers, outcome records.

Loaded with `-p autograder.grading.pytest_plugin` (the student template's pytest.ini and `autograder
check` both do). Each test's outcome is classified by `feedback.explain` from the exception
pytest caught, never by parsing printed output, and `--autograder-results FILE` writes them all
as JSON when the session ends.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import inspect
import json
import re
import sys
import time
from collections.abc import Generator, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest

from autograder.checks.context import CheckContext
from autograder.checks.context import active as active_checks
from autograder.checks.failure import short_repr
from autograder.course.course import MAY_MODIFY_INI, SUBMISSION_INI
from autograder.diagnosis import hint_table
from autograder.grading import replays
from autograder.grading.diagnose import (
    Call,
    Misconception,
    Signature,
    contradicted,
    describe,
    diagnose,
    observe,
    prime_call,
    uses,
    variant_namespace,
)
from autograder.grading.disclosure import (
    NEVER_SHOWN,
    SHOWN_AT_ONCE,
    disclosure,
    without_arguments,
    without_values,
)
from autograder.grading.feedback import SubmissionImportError, describe_import_failure, explain
from autograder.grading.generic import (
    deepest_cause,
    non_finite_symptom,
    observe_generic,
    wrong_functions,
)
from autograder.grading.input_watch import MARKER, InputWatch, WatchedModule
from autograder.protocol.results import TestOutcome
from autograder.student import verdict_cache
from autograder.tolerance import DEFAULT_TOLERANCE

if TYPE_CHECKING:
    from autograder.grading.mutant_match import MutantModels


class OutcomeRecorder:
    """Per-session plugin: classifies each test's outcome and, on request, writes them as JSON."""

    def __init__(self, submission: Path | None, results_file: Path | None) -> None:
        self.submission = submission
        self.results_file = results_file
        self.message_limit = DEFAULT_MESSAGE_LIMIT
        """Characters kept of a message or hint (the runner sets the rubric's output_kb): a
        message may quote a student's value, and the result must stay small."""
        self.outcomes: dict[str, TestOutcome] = {}
        self.durations: dict[str, float] = {}
        self.grading: GradingContext | None = None
        """The grader's context, once a test was diagnosed: its final hints replace the
        provisional ones when the records are read."""
        self.module: ModuleType | None = None
        """The student's module, when it runs in this process (`autograder check`)."""
        self.order: dict[str, int] = {}
        """Where each test stands in the results, when they run in another order."""
        self.advice: dict[str, str] = {}
        """The advice each failed check carried (CheckFailure.advice), kept for the tests whose
        final hint is None."""
        self._functions: frozenset[str] = frozenset()
        self.own_calls: list[Call] = []
        """Every call the student's module answered in this process (check), for the hints
        the release's table gives (diagnosis/hint_table.py)."""
        self.called_by_test: dict[str, list[str]] = {}
        self.calls_by_test: dict[str, list[Call]] = {}
        self.table_folder: Path | None = None

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        verdict = None
        if call.excinfo is not None and not report.skipped:
            verdict = explain(call.excinfo.value, call.excinfo.tb, self.submission)
            if verdict.status == "not_implemented":
                report.longrepr = verdict.message  # a stub is a to-do, not a crash: no traceback
        previous = self.outcomes.get(item.nodeid)
        notes = check_context(item.config).take_notes() if call.when == "call" else []
        if call.when == "call" and _grading(item.config) is None:
            self._remember_own_calls(item)
        self.durations[item.nodeid] = self.durations.get(item.nodeid, 0.0) + report.duration
        if verdict is not None and (previous is None or previous.status == "passed"):
            grading = _grading(item.config)
            hint = grading.hint(item.nodeid) if grading and call.when == "call" else None
            if grading is not None:
                self.grading = grading
            advice = getattr(call.excinfo.value, "advice", None) if call.excinfo else None
            advice = cut(advice, self.message_limit) if isinstance(advice, str) else None
            if advice is not None and verdict.status == "failed":
                self.advice[item.nodeid] = advice
            else:
                self.advice.pop(item.nodeid, None)
            self.outcomes[item.nodeid] = _outcome(
                item,
                verdict.status,
                cut(verdict.message, self.message_limit),
                verdict.credit,
                cut(hint, self.message_limit),
                advice=None if hint else self.advice.get(item.nodeid),
                function=self.function_of(item, verdict.message),
            )
        elif call.when == "call" and report.passed and previous is None:
            passed = cut("; ".join(notes) or None, self.message_limit)
            self.outcomes[item.nodeid] = _outcome(
                item, "passed", passed, function=self.function_of(item, None)
            )
        return report

    def _remember_own_calls(self, item: pytest.Item) -> None:
        """Keep the test's calls (check: the module runs here) for the table's hints."""
        made = input_watch(item.config).own_calls
        self.called_by_test[item.nodeid] = list(dict.fromkeys(c.name for c in made))
        room = max(MAX_OWN_CALLS - len(self.own_calls), 0)
        self.own_calls.extend(made[:room])
        self.calls_by_test[item.nodeid] = list(made[:room])
        self.table_folder = item.config.rootpath

    def _table_hints(self) -> dict[str, str]:
        """Hints from the release's table for the failed tests that have none (check), by the
        grader's rule (diagnosis/hint_table.py)."""
        table = None
        if self.table_folder is not None:
            for folder in (self.table_folder, self.table_folder / "tests"):
                table = hint_table.read(folder / hint_table.FILE_NAME)
                if table is not None:
                    break
        if table is None:
            return {}

        def student(call: Call) -> hint_table.StudentCall:
            return hint_table.StudentCall(
                call.name, call.args, call.kwargs, call.result, call.raised, call.mutated
            )

        calls = {id(c): student(c) for c in self.own_calls}
        failed = {
            nodeid: [calls[id(c)] for c in self.calls_by_test.get(nodeid, []) if id(c) in calls]
            for nodeid, outcome in self.outcomes.items()
            if outcome.status == "failed"
        }
        try:
            judged = hint_table.TableJudgement(table, list(calls.values()))
            hints = judged.hints(failed, self.called_by_test)
        except Exception:  # a table meeting what it did not foresee names nothing
            return {}
        return {n: h for n, h in hints.items() if not self.outcomes[n].hint}

    def function_of(self, item: pytest.Item, message: str | None) -> str | None:
        """The public function (or constant) of the student's module that `item` is about: the
        one its failure's message starts with, else the last of the functions it called first
        (a test sets up with helpers, then calls the function it tests), else the first its
        title names."""
        known = self.public_functions(item.config)
        named = _leading_function(message, known)
        if named is not None:
            return named
        called = _called_names(item.config)
        if known:
            called = [name for name in called if name in known]
        if called:
            return called[-1]
        return _leading_function(_title(item), known, anywhere=True) if known else None

    def public_functions(self, config: pytest.Config) -> frozenset[str]:
        """The names of the public functions of the student's module (the reference's when
        grading), once one is loaded; empty before."""
        if self._functions:
            return self._functions
        grading = _grading(config)
        modules = [self.module]
        if grading is not None:
            modules = [grading.reference, grading.student, *modules]
        for module in modules:
            if isinstance(module, ModuleType):
                self._functions = _public_functions(module)
                if self._functions:
                    break
        return self._functions

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        """A test file that does not even load is an error of its own (never silently no test)."""
        if report.failed:
            self.outcomes[report.nodeid] = TestOutcome(
                nodeid=report.nodeid,
                name=report.nodeid,
                title=f"load {report.nodeid}",
                part=None,
                status="error",
                message=str(report.longrepr).strip().splitlines()[-1],
            )

    def records(self) -> list[dict[str, Any]]:
        """Every outcome so far, with its duration, as JSON-able dicts."""
        return [outcome.to_dict() for outcome in self.final_outcomes()]

    def final_outcomes(self) -> list[TestOutcome]:
        """Every outcome so far, in the tests' order, with its final hint and its duration."""
        if self.grading is not None:
            for nodeid, hint in self.grading.final_hints().items():
                if nodeid in self.outcomes:
                    self.outcomes[nodeid] = dataclasses.replace(
                        self.outcomes[nodeid],
                        hint=cut(hint, self.message_limit),
                        advice=None if hint else self.advice.get(nodeid),
                    )
        elif self.own_calls and any(
            o.status == "failed" and not o.hint for o in self.outcomes.values()
        ):
            for nodeid, hint in self._table_hints().items():
                self.outcomes[nodeid] = dataclasses.replace(
                    self.outcomes[nodeid], hint=cut(hint, self.message_limit), advice=None
                )
        last = len(self.order)
        ordered = sorted(self.outcomes.items(), key=lambda item: self.order.get(item[0], last))
        return [
            dataclasses.replace(outcome, duration_s=round(self.durations.get(nodeid, 0.0), 4))
            for nodeid, outcome in ordered
        ]

    def pytest_sessionfinish(self) -> None:
        if self.results_file is not None:
            self.results_file.write_text(
                json.dumps({"schema": 1, "tests": self.records()}, indent=1), encoding="utf-8"
            )


DEFAULT_MESSAGE_LIMIT = 64 * 1024
MAX_OWN_CALLS = 20_000
"""Calls of a check kept for the table's hints (the public tests make a few hundred)."""


def cut(text: str | None, limit: int) -> str | None:
    """`text` kept to `limit` characters, saying how many more there were."""
    if text is None or len(text) <= limit:
        return text
    return f"{text[:limit]} [… {len(text) - limit} more characters]"


_RECORDER = pytest.StashKey[OutcomeRecorder]()


def recorder(config: pytest.Config) -> OutcomeRecorder:
    """The session's outcome recorder (registered when the plugin is configured)."""
    return config.stash[_RECORDER]


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("autograder")
    group.addoption(
        "--submission", help="the student's module (.py) that the `student` fixture loads"
    )
    group.addoption("--autograder-results", help="write every test's outcome to this JSON file")
    group.addoption(
        "--autograder-verdicts",
        metavar="TESTS",
        help="keep the symbolic verdicts learnt between runs, in a cache named by TESTS' files",
    )
    parser.addini(SUBMISSION_INI, "the student's module, relative to this ini file", default="")
    parser.addini(MAY_MODIFY_INI, "functions allowed to modify their array arguments", default="")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "part(name): the rubric part (grading.toml) this test grades"
    )
    config.addinivalue_line("markers", "points(n): the points this test is worth within its part")
    config.addinivalue_line(
        "markers", "visibility(name): visible, hidden or after_due_date (Gradescope's meanings)"
    )
    results = config.getoption("autograder_results")
    recorder = OutcomeRecorder(_submission_path(config), Path(results) if results else None)
    config.addinivalue_line(
        "markers",
        f"{MARKER}(*functions): these functions never modify their inputs; this test grades it",
    )
    config.stash[_CHECKS] = active_checks()  # the runner's, made from the rubric; else a default
    kept = config.getoption("autograder_verdicts")
    if kept:
        cache = verdict_cache.cache_file(Path(kept))
        if cache is not None:
            known = verdict_cache.load(cache)
            config.stash[_VERDICT_CACHE] = (cache, known)
            config.stash[_CHECKS].verdicts.add(known)
    config.stash[_RECORDER] = recorder
    config.pluginmanager.register(recorder, "autograder-outcomes")
    watch = InputWatch(
        grading_calls=lambda: _watched_calls(config),
        signature_of=lambda name: _signature(config, name),
        is_hidden=_is_hidden,
        may_modify=lambda: _may_modify(config),
    )
    config.stash[_WATCH] = watch
    config.pluginmanager.register(watch, "autograder-input-watch")


def pytest_unconfigure(config: pytest.Config) -> None:
    """Keep what this run learnt for the next (only with --autograder-verdicts)."""
    kept = config.stash.get(_VERDICT_CACHE, None)
    verdicts = config.stash[_CHECKS].verdicts if _CHECKS in config.stash else None
    if kept is not None and verdicts is not None and verdicts.learnt:
        verdict_cache.save(kept[0], kept[1], verdicts.lasting(verdicts.learnt))


_WATCH = pytest.StashKey[InputWatch]()
_VERDICT_CACHE = pytest.StashKey[tuple[Path, dict[str, Any]]]()
_CHECKS = pytest.StashKey[CheckContext]()


def check_context(config: pytest.Config) -> CheckContext:
    """The state the checks of this run keep: its symbolic policy, notes and verdicts."""
    return config.stash[_CHECKS]


def input_watch(config: pytest.Config) -> InputWatch:
    """The session's watch over functions that keep their inputs (input_watch.py)."""
    return config.stash[_WATCH]


def _watched_calls(config: pytest.Config) -> list[Call] | None:
    grading = _grading(config)
    return None if grading is None else grading.calls


def _may_modify(config: pytest.Config) -> frozenset[str]:
    grading = _grading(config)
    if grading is not None:
        return grading.may_modify_inputs
    return frozenset(str(config.getini(MAY_MODIFY_INI) or "").split())


def _signature(config: pytest.Config, name: str) -> inspect.Signature | None:
    grading = _grading(config)
    module = grading.reference if grading is not None else config.stash[_RECORDER].module
    try:
        return inspect.signature(getattr(module, name))
    except (TypeError, ValueError, AttributeError):
        return None


def _submission_path(config: pytest.Config) -> Path | None:
    option = config.getoption("submission")
    if option:
        return Path(option).resolve()
    configured = config.getini(SUBMISSION_INI)
    if configured and config.inipath is not None:
        return (config.inipath.parent / str(configured)).resolve()
    return None


PRIME_SECONDS = 10.0
"""How long a runner may spend on its rehearsal's answers (the sample course's: half a second)."""


class GradingContext:
    """Registered by the grader's runner: what the fixtures hand to hidden and public tests,
    and the diagnosis of a failed test from the calls it made."""

    def __init__(
        self,
        *,
        student: Any,
        reference: ModuleType | None,
        tolerance: dict[str, float],
        seed: int,
        calls: list[Call] | None = None,
        catalogue: Sequence[Misconception] = (),
        signatures: Sequence[Signature] = (),
        hidden_tests: Path | None = None,
        default_visibility: tuple[str, str] = ("visible", "after_due_date"),
        may_modify_inputs: frozenset[str] = frozenset(),
        mutant_models: MutantModels | None = None,
        table: hint_table.HintTable | None = None,
    ) -> None:
        """`hidden_tests`: the folder of the hidden tests; a test collected from it is hidden.
        `mutant_models`: the reference's mutants, which name what the catalogue does not.
        `table`: without the reference (a student's notebook), the release's hint table, which
        names the same causes on the public tests (diagnosis/hint_table.py).
        `default_visibility`: the rubric's for public and for hidden tests without a marker."""
        self.student = student
        self.hidden_tests = None if hidden_tests is None else hidden_tests.resolve()
        self.default_visibility = default_visibility
        self.may_modify_inputs = may_modify_inputs
        """Functions the rubric allows to modify their array arguments (every other keeps them)."""
        self.reference = reference
        self.tolerance = tolerance
        self.seed = seed
        self.calls = calls if calls is not None else []
        self.history: list[tuple[int, Call]] = []
        """The submission's calls so far, each with the disclosure of the test that made it."""
        self._history_bytes = 0
        self._disclosure = SHOWN_AT_ONCE
        """The disclosure of the test running now."""
        self.diagnosed: dict[str, tuple[list[Misconception], list[str], int]] = {}
        self.catalogue = catalogue
        self.signatures = signatures
        self.called_by_test: dict[str, list[str]] = {}
        """The functions each diagnosed test called, first call first."""
        self.generic: dict[str, list[str]] = {}
        """What the engine's own models (generic.py) say of each diagnosed test's calls."""
        self._test_calls: dict[str, list[Call]] = {}
        """Each diagnosed test's own calls, as far as the history keeps them."""
        self._diagnosing: str | None = None
        """The failed test whose calls are being made, until they join the history."""
        self.symptoms: dict[str, list[str]] = {}
        """What each diagnosed test's results show that a cause leaves unsaid (nan or inf)."""
        self.unwritten: set[str] = set()
        """Diagnosed tests that called a function not written yet: nothing to blame."""
        self._variants: dict[str, dict[str, Any]] = {}
        self.mutant_models = mutant_models
        self.table = table
        self._failed_calls: dict[str, list[Call]] = {}
        """Each failed test's own calls, for the table's judgement (no reference here)."""
        self._mutant_causes: dict[tuple[str, int], list[Misconception]] = {}
        """Each function's mutant cause, on the calls its readers may know of."""

    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        self._remember()
        self._disclosure = self.disclosure(item)

    def disclosure(self, item: pytest.Item) -> int:
        """When a student may read `item`'s message: at once, later, or never (worked out once
        per item, as its folder and markers do not change)."""
        known = item.stash.get(_DISCLOSURE, None)
        if known is None:
            hidden = _is_hidden(item)
            marker = item.get_closest_marker("visibility")
            visibility = (
                str(marker.args[0])
                if marker and marker.args
                else self.default_visibility[1 if hidden else 0]
            )
            known = item.stash[_DISCLOSURE] = disclosure(hidden=hidden, visibility=visibility)
        return known

    def in_disclosure_order(self, items: Sequence[pytest.Item]) -> list[pytest.Item]:
        """`items` with the tests read at once first, then those read later, then those never
        read (each group in its own order): a worker serves one group, and none that came
        before it has seen an input of a later group."""
        return sorted(items, key=self.disclosure)

    def reset(self) -> None:
        """A new submission: nothing of the last one's calls or diagnoses is kept."""
        replays.forget()
        self.calls.clear()
        self.history.clear()
        self.diagnosed.clear()
        self.called_by_test.clear()
        self.generic.clear()
        self.symptoms.clear()
        self._test_calls.clear()
        self._diagnosing = None
        self.unwritten.clear()
        self._mutant_causes.clear()
        self._failed_calls.clear()
        self._history_bytes = 0

    def prime_answers(self, seconds: float = PRIME_SECONDS) -> int:
        """Work out, once in the runner, the reference's and every catalogued variant's answers
        to the calls the rehearsal made (the tests' own inputs, which the rubric's seed fixes):
        every child forked afterwards inherits them, and a failed test's diagnosis compares
        instead of replaying. Stops after `seconds` (what is left is worked out when needed).
        Returns how many calls were primed."""
        if self.reference is None:
            return 0
        self._remember()
        stop = time.monotonic() + seconds
        for misconception in self.catalogue:
            if not misconception.mutates_input and misconception.name not in self._variants:
                self._variants[misconception.name] = variant_namespace(
                    misconception, self.reference
                )
        primed = 0
        with replays.priming():
            for _, call in self.history:
                if time.monotonic() > stop:
                    break
                primed += prime_call(call, self.catalogue, self.reference, self._variants,
                                     **self.tolerance)  # fmt: skip
            if self.mutant_models is not None and time.monotonic() < stop:
                primed += self.mutant_models.prime([call for _, call in self.history])
        return primed

    def _remember(self) -> None:
        """Move the last test's calls to the submission's history (up to HISTORY_BYTES of
        arrays: beyond it, later calls are not kept as evidence), and start a new test."""
        kept = []
        for call in self.calls:
            size = _size(call)
            if self._history_bytes + size <= HISTORY_BYTES:
                self.history.append((self._disclosure, call))
                self._history_bytes += size
                kept.append(call)
        if self._diagnosing is not None:  # a failed test's own calls, as far as they are kept
            self._test_calls[self._diagnosing] = kept
            self._diagnosing = None
        self.calls.clear()

    def hint(self, nodeid: str) -> str | None:
        """The catalogued misconception(s) the current test's calls match, and what the
        signatures measure on its wrong results, as a hint (final_hints may narrow it)."""
        if self.reference is None:
            if self.table is not None:
                self._failed_calls[nodeid] = list(self.calls)
                self.called_by_test[nodeid] = list(dict.fromkeys(c.name for c in self.calls))
            return None
        found = diagnose(
            self.calls, self.catalogue, self.reference, namespaces=self._variants, **self.tolerance
        )
        observed = observe(self.calls, self.signatures, self.reference, **self.tolerance)
        hidden = self._disclosure == NEVER_SHOWN
        self.generic[nodeid] = observe_generic(
            self.calls, self.reference, hidden=hidden, evidence=None, **self.tolerance
        )
        self.symptoms[nodeid] = non_finite_symptom(self.calls, self.reference, hidden=hidden)
        if any(call.raised == "NotImplementedError" for call in self.calls):
            self.unwritten.add(nodeid)
        self._diagnosing = nodeid
        self.diagnosed[nodeid] = (found, observed, self._disclosure)
        self.called_by_test[nodeid] = list(dict.fromkeys(c.name for c in self.calls))
        if not found and not observed:  # what no catalogue foresaw: the engine's own models
            observed = self.generic[nodeid]
        return _phrased(found, observed, self._disclosure)

    def final_hints(self) -> dict[str, str | None]:
        """Every diagnosed test's hint, once the whole submission has run: a mistake that
        some other call of the submission rules out is not named (its test's own inputs could
        not tell it from the student's real mistake). Only calls a test's own reader may know
        of rule out: those of its group of disclosure and of the groups before it, so that no
        hint read at once changes with what a hidden test passed."""
        self._remember()
        if self.reference is None:
            return self._table_hints()
        hints: dict[str, str | None] = {}
        for level in sorted({level for _, _, level in self.diagnosed.values()}):
            diagnosed = {n: d for n, d in self.diagnosed.items() if d[2] == level}
            candidates = {m.name: m for found, _, _ in diagnosed.values() for m in found}
            known = [call for made_at, call in self.history if made_at <= level]
            ruled_out = {
                name
                for name, misconception in candidates.items()
                if contradicted(
                    misconception,
                    known,
                    self.reference,
                    self._variants.get(name, {}),
                    **self.tolerance,
                )
            }
            measured = self._measured_by_function(level)
            for nodeid, (found, observed, _) in diagnosed.items():
                named = _deepest([m for m in found if m.name not in ruled_out], self.reference)
                if not named:  # what no catalogue entry explains: a mutant that reproduces it,
                    named = self._mutants_of_test(nodeid, known, level)  # beside the signatures
                    if not observed:  # the function's own, measured on another test's calls
                        observed = measured.get(self._first_called(nodeid) or "", [])
                    if named and not observed:  # and what it leaves unsaid that the student sees
                        observed = self.symptoms.get(nodeid, [])
                if not named and not observed:  # the engine's measures, on all it knows
                    observed = observe_generic(
                        self._test_calls.get(nodeid, []), self.reference,
                        hidden=level == NEVER_SHOWN, evidence=known, **self.tolerance,
                    )  # fmt: skip
                hints[nodeid] = _phrased(named, observed, level)
        return self._blamed(hints)

    def _first_called(self, nodeid: str) -> str | None:
        return next(iter(self.called_by_test.get(nodeid, [])), None)

    def _measured_by_function(self, level: int) -> dict[str, list[str]]:
        """What the signatures measured of each function on the tests a reader of `level` may
        know of (its own first, so that each of its tests says the same of one function)."""
        measured: dict[str, list[str]] = {}
        tests = sorted(self.diagnosed.items(), key=lambda item: item[1][2] != level)
        for nodeid, (_, observed, made_at) in tests:
            function = self._first_called(nodeid)
            if observed and made_at <= level and function is not None:
                measured.setdefault(function, observed)
        return measured

    def _table_hints(self) -> dict[str, str | None]:
        """The release table's hints for the failed public tests (a notebook's test cells)."""
        if self.table is None or not self._failed_calls:
            return {}
        student = {
            id(c): hint_table.StudentCall(c.name, c.args, c.kwargs, c.result, c.raised, c.mutated)
            for _, c in self.history
        }
        failed = {
            nodeid: [student[id(c)] for c in calls if id(c) in student]
            for nodeid, calls in self._failed_calls.items()
        }
        try:
            judged = hint_table.TableJudgement(self.table, list(student.values()))
            return dict(judged.hints(failed, self.called_by_test))
        except Exception:  # a table meeting what it did not foresee names nothing
            return {}

    def _mutants_of_test(
        self, nodeid: str, known: Sequence[Call], level: int
    ) -> list[Misconception]:
        """The mutants that reproduce every call of a function the test called (the first
        such function it called), on the calls the test's reader may know of."""
        if nodeid in self.unwritten:
            return []
        for name in self.called_by_test.get(nodeid, []):
            found = self._mutant_causes_of(name, known, level)
            if found:
                return found
        return []

    def _mutant_causes_of(
        self, name: str, known: Sequence[Call], level: int
    ) -> list[Misconception]:
        """`name`'s mutant causes on `known` (worked out once per function and reader); a
        model meeting what it did not foresee names nothing."""
        if self.mutant_models is None or self.reference is None:
            return []
        key = (name, level)
        if key not in self._mutant_causes:
            try:
                causes = self.mutant_models.causes(name, known, **self.tolerance)
            except Exception:
                causes = []
            self._mutant_causes[key] = causes
        return self._mutant_causes[key]

    def _blamed(self, hints: dict[str, str | None]) -> dict[str, str | None]:
        """A test that fails because a function it calls is wrong on its own calls (and some
        failing test called it) names that function, the deepest one, with its own diagnosis:
        never blame a caller. A model meeting what it did not foresee leaves the hints as they
        are: a diagnosis never costs a submission its results."""
        try:
            return self._blame(hints)
        except Exception:
            return hints

    def _blame(self, hints: dict[str, str | None]) -> dict[str, str | None]:
        assert self.reference is not None
        blamed = dict(hints)
        for level in sorted({level for _, _, level in self.diagnosed.values()}):
            known = [call for made_at, call in self.history if made_at <= level]
            failing = {  # functions a failing test of this reader's groups called
                name
                for nodeid, called in self.called_by_test.items()
                if self.diagnosed[nodeid][2] <= level
                for name in called
            }
            examined = [call for call in known if call.name in failing][:MAX_BLAME_CALLS]
            wrong = wrong_functions(examined, self.reference, **self.tolerance) & failing
            own: dict[str, str | None] = {}  # each wrong function's diagnosis, on its calls
            for nodeid, (_, _, made_at) in self.diagnosed.items():
                if made_at != level or nodeid in self.unwritten:
                    continue
                cause = deepest_cause(self.called_by_test.get(nodeid, []), wrong, self.reference)
                if cause is None:
                    continue
                caller, culprit = cause
                if culprit not in own:
                    own[culprit] = _own_hint(culprit, hints, self._own_tests(culprit, level))
                    if own[culprit] is None:
                        own[culprit] = self._diagnosis_of(culprit, examined, level)
                text = (
                    f"{caller} calls {culprit}, which is wrong on its own tests: fix {culprit} "
                    "first, this test depends on it"
                )
                if own.get(culprit):
                    text += f" ({culprit}: {own[culprit]})"
                blamed[nodeid] = text if made_at != NEVER_SHOWN else without_arguments(text)
        return blamed

    def _own_tests(self, name: str, level: int) -> list[str]:
        """The diagnosed tests of `name` itself (it is the first function they call) that a
        reader of `level` may know of: those of the same group first."""
        own = [
            nodeid
            for nodeid, (_, _, made_at) in self.diagnosed.items()
            if made_at <= level and self.called_by_test.get(nodeid, [None])[0] == name
        ]
        return sorted(own, key=lambda nodeid: self.diagnosed[nodeid][2] != level)

    def _diagnosis_of(self, name: str, known: Sequence[Call], level: int) -> str | None:
        """What the catalogue, the signatures and the engine's models say of `name`'s own calls,
        without the function's name (the blame says it)."""
        assert self.reference is not None
        calls = [call for call in known if call.name == name][: MAX_BLAME_CALLS // 10]
        found = diagnose(
            calls, self.catalogue, self.reference, namespaces=self._variants, **self.tolerance
        )
        observed = [] if found else observe(calls, self.signatures, self.reference,
                                            **self.tolerance)  # fmt: skip
        if not found:
            found = self._mutant_causes_of(name, known, level)
        if not found and not observed:
            hidden = level == NEVER_SHOWN
            observed = observe_generic(calls, self.reference, hidden=hidden, evidence=known,
                                       **self.tolerance)  # fmt: skip
        observed = [text.removeprefix(f"{name}: ") for text in observed]
        hint = _phrased(found, observed, level)
        return None if hint is None else hint.removeprefix(f"{name}: ")


MAX_BLAME_CALLS = 2000
"""Calls of a submission read to tell which functions are wrong (the grader's time is bounded)."""


def _own_hint(name: str, hints: Mapping[str, str | None], own_tests: Sequence[str]) -> str | None:
    """What `name`'s own failing tests say of it, without its name (the blame says it): the
    blame repeats the function's own diagnosis rather than work out another."""
    for nodeid in own_tests:
        hint = hints.get(nodeid)
        if hint:
            return hint.replace(f"measured on your output: {name}: ", "measured on your output: "
                                ).removeprefix(f"{name}: ")  # fmt: skip
    return None


def _deepest(found: Sequence[Misconception], reference: ModuleType) -> list[Misconception]:
    """Of mistakes in several functions that explain a test, those in the deepest: a mistake
    in a function that calls another named one is not the cause."""
    targets = {m.target for m in found}
    return [
        m for m in found
        if not any(t != m.target and t in uses(reference, m.target) for t in targets)
    ]  # fmt: skip


def _phrased(found: Sequence[Misconception], observed: Sequence[str], level: int) -> str | None:
    """The hint; a hidden test's without its values (its results may be shown, its inputs
    never): what was measured on its calls without numbers, the catalogue's own words (which
    name no test's inputs) without the arguments of any call they quote."""
    if level != NEVER_SHOWN:
        return describe(found, observed)
    hint = describe(found, [without_values(text) for text in observed])
    return None if hint is None else without_arguments(hint)


HISTORY_BYTES = 64 * 1024 * 1024
"""Arrays of a submission's calls kept to rule mistakes out across tests."""


def _size(call: Call) -> int:
    """About the bytes a call's values hold: arrays, and the texts a student may return."""
    values = [*call.args, *call.kwargs.values(), call.result]
    return 256 + sum(
        len(v) if isinstance(v, (str, bytes)) else int(getattr(v, "nbytes", 0) or 0) for v in values
    )


def _is_hidden(item: pytest.Item) -> bool:
    """Whether `item` was collected from the grading context's hidden tests (worked out once
    per item: the runner's collection is inherited by every child, and asked for each test)."""
    known = item.stash.get(_HIDDEN, None)
    if known is None:
        grading = _grading(item.config)
        known = bool(
            grading is not None
            and grading.hidden_tests is not None
            and Path(item.path).resolve().is_relative_to(grading.hidden_tests)
        )
        item.stash[_HIDDEN] = known
    return known


_HIDDEN = pytest.StashKey[bool]()
_DISCLOSURE = pytest.StashKey[int]()
_GRADING = pytest.StashKey["GradingContext | None"]()


def _grading(config: pytest.Config) -> GradingContext | None:
    """The context the grader's runner passed to pytest.main, if this is a grading run (it is
    registered with pytest.main, before any hook runs: looked for once)."""
    if _GRADING not in config.stash:
        plugins = config.pluginmanager.get_plugins()
        config.stash[_GRADING] = next((p for p in plugins if isinstance(p, GradingContext)), None)
    return config.stash[_GRADING]


@pytest.fixture(scope="session")
def reference(request: pytest.FixtureRequest) -> ModuleType:
    """The reference solution: only the grader has it."""
    grading = _grading(request.config)
    if grading is None or grading.reference is None:
        raise pytest.UsageError(
            "the `reference` fixture exists only when the grader runs the tests"
        )
    return grading.reference


@pytest.fixture(scope="session")
def tolerance(request: pytest.FixtureRequest) -> dict[str, float]:
    """The rubric's numeric tolerance, as keyword arguments for `assert_close`."""
    grading = _grading(request.config)
    return dict(grading.tolerance) if grading else dict(DEFAULT_TOLERANCE)


@pytest.fixture
def rng(request: pytest.FixtureRequest) -> Any:
    """A NumPy generator seeded from the test's name: a hidden test's with the rubric's secret
    seed too, a public test's as `check` seeds it (seed 0, its name within its file, wherever
    the folder of tests lies), so that the grader runs the public tests on the very inputs the
    student saw, and the release's hint table knows them."""
    import zlib

    import numpy as np

    node = request.node
    if (grading := _grading(request.config)) is not None and _is_hidden(node):
        return np.random.default_rng([grading.seed, zlib.crc32(node.nodeid.encode())])
    name = f"{Path(node.path).name}::{node.nodeid.partition('::')[2]}"
    return np.random.default_rng([0, zlib.crc32(name.encode())])


PROOF_DOMAIN_FILE = "proof_domain.py"
_PROOF_DOMAINS = pytest.StashKey[dict[Path, ModuleType]]()
"""The proof vocabularies this pytest run imported, by path (each once, for every test)."""


@pytest.fixture(scope="module")
def proof_domain(request: pytest.FixtureRequest) -> ModuleType:
    """The assignment's proof vocabulary: `proof_domain.py` in the folder above the test's
    folder (the assignment's folder for the grader, the released folder for a student)."""
    path = (Path(request.path).parent.parent / PROOF_DOMAIN_FILE).resolve()
    domains = request.config.stash.setdefault(_PROOF_DOMAINS, {})
    if path not in domains:
        if not path.is_file():
            raise pytest.UsageError(f"no {PROOF_DOMAIN_FILE} beside the tests' folder ({path})")
        spec = importlib.util.spec_from_file_location(f"proof_domain_{len(domains)}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        domains[path] = module
    return domains[path]


@pytest.fixture(scope="session")
def student(request: pytest.FixtureRequest) -> Any:
    """The student's module: imported here for `check`, a proxy to the worker when grading."""
    grading = _grading(request.config)
    watch = input_watch(request.config)
    if grading is not None:
        if getattr(grading.student, "watched_by_worker", False):
            return grading.student
        return WatchedModule(grading.student, watch)
    submission = request.config.stash[_RECORDER].submission
    if submission is None:
        raise pytest.UsageError(
            f"no student module: pass --submission FILE or set {SUBMISSION_INI} in pytest.ini"
        )
    if not submission.is_file():
        raise SubmissionImportError(f"{submission} does not exist: is the file named correctly?")
    module = import_submission(submission)
    request.config.stash[_RECORDER].module = module
    return WatchedModule(module, watch)


def import_submission(path: Path) -> ModuleType:
    """Import the file at `path` as a fresh module named after it."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        raise SubmissionImportError(f"{path.name} is not a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module  # dataclasses and typing look a module up by name
    try:
        spec.loader.exec_module(module)
    except BaseException as error:
        sys.modules.pop(path.stem, None)
        if isinstance(error, KeyboardInterrupt):
            raise
        raise SubmissionImportError(describe_import_failure(error, path)) from None
    return module


NOT_RUN = "not graded: the grader failed before this test ended; it is graded again"


def not_run_outcome(item: pytest.Item) -> TestOutcome:
    """`item`'s outcome while it has not run: an error worth no points, in its part, with its
    visibility (the results of a grader that failed after the tests shown at once)."""
    return _outcome(item, "error", NOT_RUN)


def _outcome(
    item: pytest.Item,
    status: str,
    message: str | None,
    credit: float | None = None,
    hint: str | None = None,
    *,
    advice: str | None = None,
    function: str | None = None,
) -> TestOutcome:
    part = item.get_closest_marker("part")
    points = item.get_closest_marker("points")
    visibility = item.get_closest_marker("visibility")
    title = _title(item)
    callspec = getattr(item, "callspec", None)
    hidden = _is_hidden(item)
    if callspec is not None and hidden:  # its ids spell its inputs: which case it is, alone
        title = f"{title} (case {'-'.join(str(i + 1) for i in callspec.indices.values())})"
    elif callspec is not None:
        title = f"{title} [{readable_parameters(callspec.params)}]"
    return TestOutcome.from_dict(
        {
            "nodeid": item.nodeid,
            "name": item.name,
            "title": title,
            "part": part.args[0] if part and part.args else None,
            "status": status,
            "message": message,
            "points": points.args[0] if points and points.args else None,
            "visibility": visibility.args[0] if visibility and visibility.args else None,
            "credit": credit,
            "hint": hint,
            "hidden": hidden,
            "function": function,
            "advice": advice,
        }
    )


def _title(item: pytest.Item) -> str:
    """The first line of the test's docstring, or its name."""
    function = getattr(item, "function", None)
    doc = (getattr(function, "__doc__", None) or "").strip()
    return doc.splitlines()[0] if doc else getattr(item, "originalname", item.name)


PARAMETER_CHARS = 40
"""At most this many characters of each parameter's value in a test's title."""


def readable_parameters(params: dict[str, Any]) -> str:
    """A parametrised test's parameters as its title shows them: `x=4, n=-2, named=n`."""
    return ", ".join(f"{name}={_short_value(value)}" for name, value in params.items())


def _short_value(value: Any) -> str:
    if isinstance(value, str) and value.isidentifier():
        return value[:PARAMETER_CHARS]  # a word reads as itself; '8' keeps its quotes
    shape = getattr(value, "shape", None)
    if isinstance(shape, tuple) and not isinstance(value, (int, float, complex)):
        return f"<array {shape}>"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e6:
        return repr(value)  # 2.0 is not 2: a float argument stays one
    return short_repr(value, PARAMETER_CHARS)


_LEADING_NAME = re.compile(r"`?([A-Za-z_][A-Za-z0-9_]*)`?(?=\(|\[|`| is | |$)")
_CALLED_NAME = re.compile(r"(?<![\w.])([A-Za-z_][A-Za-z0-9_]*)(?=\()")


def _leading_function(
    text: str | None, known: frozenset[str], *, anywhere: bool = False
) -> str | None:
    """The function `text` starts with (`` `f` is not implemented yet``, `f(8, 16)[1, 2] …`):
    one of `known`, or, when none is known, a name written as called or quoted. `anywhere`: the
    first known function `text` calls anywhere (a title: `row 0 of f(1, 8) is …`)."""
    if not text:
        return None
    match = _LEADING_NAME.match(text)
    if match is not None:
        name = match.group(1)
        if name in known:
            return name
        if not known and text[match.end(1) :].startswith(("(", "`")):
            return name
    if anywhere:
        return next((m for m in _CALLED_NAME.findall(text) if m in known), None)
    return None


def _called_names(config: pytest.Config) -> list[str]:
    """The student's functions the running test called, in the order first called."""
    watch = input_watch(config)
    try:
        names: list[str] = getattr(watch, "called_names", lambda: [])()
    except Exception:  # the watch's record is a convenience: never a test's failure
        return []
    return [str(name) for name in names or ()]


def _public_functions(module: ModuleType) -> frozenset[str]:
    """`module`'s public functions (of a file's module, those defined in it, not imported), and
    its public constants in capitals that a student writes (a proof's steps)."""
    from_file = getattr(module, "__file__", None) is not None
    names: set[str] = set()
    for name, value in list(vars(module).items()):
        if name.startswith("_"):
            continue
        if inspect.isfunction(value):
            if not from_file or getattr(value, "__module__", None) == module.__name__:
                names.add(name)
        elif name.isupper() and not isinstance(value, (type, ModuleType)) and not callable(value):
            names.add(name)
    return frozenset(names)
