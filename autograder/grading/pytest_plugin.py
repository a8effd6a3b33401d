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
from collections.abc import Generator, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest

from autograder.checks.context import CheckContext
from autograder.checks.context import active as active_checks
from autograder.checks.failure import CheckFailure, short_repr
from autograder.course.course import MAY_MODIFY_INI, SUBMISSION_INI
from autograder.diagnosis import hint_table, replays
from autograder.diagnosis.diagnose import Call, Misconception, Signature
from autograder.diagnosis.disclosure import SHOWN_AT_ONCE, disclosure
from autograder.diagnosis.judgement import SubmissionJudgement
from autograder.grading.feedback import SubmissionImportError, describe_import_failure, explain
from autograder.grading.input_watch import MARKER, InputWatch, WatchedModule
from autograder.protocol.results import TestOutcome
from autograder.student import verdict_cache
from autograder.tolerance import DEFAULT_TOLERANCE

if TYPE_CHECKING:
    from autograder.diagnosis.mutant_match import MutantModels


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
        examined = check_context(item.config).take_examined()  # this phase's, kept for "call"
        if call.when != "call":
            examined = []
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
                function=self.function_of(
                    item,
                    verdict.message,
                    status=verdict.status,
                    graded=_graded_function(call.excinfo.value if call.excinfo else None),
                    examined=examined,
                ),
            )
        elif call.when == "call" and report.passed and previous is None:
            passed = cut("; ".join(notes) or None, self.message_limit)
            self.outcomes[item.nodeid] = _outcome(
                item, "passed", passed, function=self.function_of(item, None, examined=examined)
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

    def function_of(
        self,
        item: pytest.Item,
        message: str | None,
        *,
        status: str | None = None,
        graded: str | None = None,
        examined: Sequence[str] = (),
    ) -> str | None:
        """The public function (or constant) of the student's module that `item` grades.

        The one whose returned value its failing check examined (`graded`, checks/graded.py);
        for a function not written yet, the one its message names; for an error, the one whose
        call raised; else the last whose value its checks `examined` (a test checks its helpers,
        then what it claims). When no check saw a function's value (a test of values it made
        itself): the one its message starts with, else the last of the functions it called first,
        else the first its title names."""
        known = self.public_functions(item.config)

        def public(name: str | None) -> str | None:
            return name if name is not None and (not known or name in known) else None

        if status == "not_implemented" and (named := _leading_function(message, known)):
            return named
        raised = _raising_call(item.config) if status == "error" else None
        for name in (graded, raised, *examined[-1:]):
            if public(name) is not None:
                return public(name)
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
    config.stash[_CHECKS].calls = watch.calls_of_test  # what the checks trace values to


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
    the calls each test makes, and the disclosure of its reader; the hints are the
    submission's judgement's (diagnosis/judgement.py)."""

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
        `mutant_models`, `table`: as the judgement reads them (SubmissionJudgement).
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
        """The calls of the test running now (the student's proxy appends to it)."""
        self._disclosure = SHOWN_AT_ONCE
        """The disclosure of the test running now."""
        self.judgement = SubmissionJudgement(
            reference=reference, tolerance=tolerance, catalogue=catalogue,
            signatures=signatures, mutant_models=mutant_models, table=table,
        )  # fmt: skip

    @property
    def history(self) -> list[tuple[int, Call]]:
        return self.judgement.history

    @property
    def diagnosed(self) -> dict[str, tuple[list[Misconception], list[str], int]]:
        return self.judgement.diagnosed

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
        self.judgement.reset()

    def prime_answers(self, seconds: float = PRIME_SECONDS) -> int:
        """Work out, once in the runner, the answers to the rehearsal's calls (the judgement's
        prime). Returns how many calls were primed."""
        self._remember()
        return self.judgement.prime(seconds)

    def _remember(self) -> None:
        """Move the last test's calls to the submission's history, and start a new test."""
        self.judgement.remember(self.calls, self._disclosure)
        self.calls.clear()

    def hint(self, nodeid: str) -> str | None:
        """The current test's provisional hint (final_hints may narrow it)."""
        return self.judgement.failed(nodeid, self.calls, self._disclosure)

    def final_hints(self) -> dict[str, str | None]:
        """Every diagnosed test's hint, once the whole submission has run."""
        self._remember()
        return self.judgement.final_hints()


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
    """The first paragraph of the test's docstring on one line (a title that runs on to a
    second line keeps it: its expected values are often there), or the test's name."""
    function = getattr(item, "function", None)
    doc = (getattr(function, "__doc__", None) or "").strip()
    paragraph = re.split(r"\n\s*\n", doc, maxsplit=1)[0]
    return " ".join(paragraph.split()) or getattr(item, "originalname", item.name)


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


_LEADING_NAME = re.compile(r"`?([A-Za-z_][A-Za-z0-9_]*)`?(?=\(|\[|`|,| is | |$)")
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


def _graded_function(error: BaseException | None) -> str | None:
    """The function whose returned value the failed check examined (checks/graded.py)."""
    return error.function if isinstance(error, CheckFailure) else None


def _raising_call(config: pytest.Config) -> str | None:
    """The student's function whose call, made by the running test, raised (the last such)."""
    calls = input_watch(config).calls_of_test()
    return next((call.name for call in reversed(calls) if call.raised), None)


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
