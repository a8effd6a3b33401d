"""Which of the reference's mutants the tests can see: run as `python -m
autograder.authoring.mutant_survey COURSE ASSIGNMENT` (a process of its own, as it runs the
assignment's tests in itself), it prints one JSON document.

It runs every public and hidden test on the reference (instructor code, in this process),
recording each test's calls. Then each mutant (diagnosis/mutants.py) is replayed on the calls its
change can reach (those of functions that use it): a mutant whose outputs equal the reference's
on every call, and on random probes (the same calls with their float arrays drawn afresh), is
*equivalent* and dropped; one equal on the calls but not on a probe is *unseen*, a gap no test
can close without new inputs (so is a refusal left out that no call reached); the others are
*seen*, grouped by their outputs (mutants that give the same numbers on every call get the same
results), and each group is graded once by `validate` (mutation_testing.py).
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import json
import os
import sys
import tempfile
import time
import types
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sympy as sp

from autograder.authoring.model_deadline import ModelTooLong, deadline
from autograder.course.course import Course
from autograder.course.solutions import solution_source
from autograder.diagnosis.diagnose import same, uses, variant_namespace
from autograder.diagnosis.mutants import Mutant, mutants
from autograder.grading import pytest_compat
from autograder.grading.pytest_plugin import GradingContext, recorder
from autograder.grading.serve import UNUSED_PLUGINS, grading_context
from autograder.protocol.calls import Call
from autograder.protocol.results import TestOutcome
from autograder.student.local_check import NO_PLUGIN_AUTOLOAD

CHILD_SECONDS = 60.0
"""A group's tests that run longer are stopped: the mutant counts as caught."""
SECONDS_PER_MUTANT = 2.0
"""A mutant that loops or allocates without end is stopped and counted as seen (it fails)."""
CALLS_PER_FUNCTION = 60
"""Calls of one function replayed for a mutant: the tests' own, up to this many."""
WORKERS = max(1, min(2, os.cpu_count() or 1))
"""Forked children that share the survey (a course's machine has two cores or more)."""
DIFFERENCES_PER_GROUP = 3
"""A seen mutant's outputs are read up to its third call that differs from the reference's:
mutants alike so far are graded as one (their later calls rarely tell them apart, and reading
every call of a symbolic function costs a simplification each)."""
PROBES = 2
"""Fresh draws of every recorded call's float arrays, for equivalence."""


class _SurveyLoop:
    """Replaces pytest's loop: the tests on the reference (recording each test's calls), the
    mutants classified, then each group's tests on its first mutant, in a forked child."""

    def __init__(self, context: GradingContext, source: str, words: dict[str, str]) -> None:
        self.context = context
        self.source = source
        self.words = words
        self.calls: dict[str, list[Call]] = {}
        self.reference_outcomes: dict[str, TestOutcome] = {}
        self.rows: list[dict[str, Any]] = []
        self.timing: dict[str, float] = {}

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_teardown(self, item: pytest.Item) -> None:
        self.calls[item.nodeid] = list(self.context.calls)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> bool:
        recorded = recorder(session.config)
        _run(session.items)
        self.reference_outcomes = dict(recorded.outcomes)
        pytest_compat.tear_down_fixtures(session)
        recorded.outcomes.clear()
        recorded.durations.clear()
        pytest_compat.forget_failures(session)
        self.context.reset()
        reference = self.context.reference
        assert reference is not None
        found = mutants(self.source, vars(reference), self.words)
        tests_of = _tests_of(self.calls)
        tolerance = (self.context.tolerance["rtol"], self.context.tolerance["atol"])
        started = time.monotonic()
        self.rows = _in_children(
            lambda m: _survey_one(m, reference, tests_of, tolerance), found, WORKERS
        )
        self.timing["classified_s"] = round(time.monotonic() - started, 2)
        started = time.monotonic()
        first: dict[str, Mutant] = {}
        tests_of_group: dict[str, list[pytest.Item]] = {}
        for mutant, row in zip(found, self.rows, strict=True):
            if row["status"] == "seen" and row["group"] not in first:
                first[row["group"]] = mutant
                tests_of_group[row["group"]] = [
                    item for item in session.items if item.nodeid in set(row["tests"])
                ]
        groups = list(first.items())
        failed = _in_children(
            lambda group: _failed(session, self.context, group[1], tests_of_group[group[0]]),
            groups,
            WORKERS,
        )
        graded = {group: result for (group, _), result in zip(groups, failed, strict=True)}
        for row in self.rows:
            if row["status"] == "seen":
                row["failed"] = graded[row["group"]]
        self.timing["graded_s"] = round(time.monotonic() - started, 2)
        self.timing["groups"] = len(graded)
        return True


def survey(course_root: Path, name: str) -> dict[str, Any]:
    """The survey of one assignment, as the JSON document main prints."""
    assignment = Course.load(course_root).assignment(name)
    context = grading_context(assignment, student=assignment.load_reference(), mutants=False)
    source = solution_source(assignment.reference.read_text(encoding="utf-8"), origin="reference")
    loop = _SurveyLoop(context, source, assignment.load_words())
    with tempfile.TemporaryDirectory() as scratch:
        ini = Path(scratch) / "pytest.ini"
        ini.write_text("[pytest]\n", encoding="utf-8")
        unused = [part for plugin in UNUSED_PLUGINS for part in ("-p", f"no:{plugin}")]
        sys.path.insert(0, str(assignment.shared_folder.parent))
        arguments = [*map(str, assignment.test_folders), "-c", str(ini),
                     "--rootdir", str(assignment.folder), "--confcutdir", str(assignment.folder),
                     "-p", "autograder.grading.pytest_plugin", "--import-mode=importlib",
                     "--capture=sys", *unused]  # fmt: skip
        os.environ.update(NO_PLUGIN_AUTOLOAD)
        with contextlib.redirect_stdout(sys.stderr):
            pytest.main(arguments, plugins=[context, loop])
    tests = {
        nodeid: {"part": o.part, "function": o.function, "status": o.status}
        for nodeid, o in loop.reference_outcomes.items()
    }
    return {"assignment": name, "mutants": loop.rows, "tests": tests, "timing": loop.timing}


def _run(items: Sequence[pytest.Item]) -> None:
    for index, item in enumerate(items):
        following = items[index + 1] if index + 1 < len(items) else None
        item.ihook.pytest_runtest_protocol(item=item, nextitem=following)


def _failed(
    session: pytest.Session, context: GradingContext, mutant: Mutant, items: list[pytest.Item]
) -> list[str]:
    """The tests of `items` that fail on the mutant, run in a forked child of its own: its
    fixtures and module state start fresh, and nothing the mutant does stays."""
    reference = context.reference
    assert reference is not None
    module = types.ModuleType(f"mutant_{reference.__name__}")
    module.__dict__.update(variant_namespace(mutant.as_misconception(), reference))
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        failed = ["(the tests did not finish)"]
        try:
            context.student = module
            context.hint = lambda nodeid: None  # type: ignore[method-assign]
            context.final_hints = dict  # type: ignore[method-assign]
            context.reset()
            with deadline(CHILD_SECONDS):
                _run(items)
            outcomes = recorder(session.config).outcomes
            failed = [n for n, o in outcomes.items() if o.status not in ("passed", "skipped")]
        finally:
            with contextlib.suppress(BaseException):
                os.write(write, json.dumps(failed).encode())
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    try:
        found = json.loads(data)
    except ValueError:
        return ["(the tests did not finish)"]
    return [str(n) for n in found] if isinstance(found, list) else []


def _in_children(work: Callable[[Any], Any], items: Sequence[Any], workers: int) -> list[Any]:
    """`work` on each item, in `workers` forked children each taking every workers-th item
    (each item's result JSON, read back through a pipe); a child that dies leaves its items'
    results None."""
    if workers <= 1 or len(items) < 2:
        return [work(item) for item in items]
    children = []
    for start in range(workers):
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read)
            code = 1
            try:
                with os.fdopen(write, "w", encoding="utf-8") as pipe:
                    for index in range(start, len(items), workers):
                        pipe.write(json.dumps([index, work(items[index])]) + "\n")
                code = 0
            finally:
                os._exit(code)
        os.close(write)
        children.append((pid, read))
    results: list[Any] = [None] * len(items)
    for pid, read in children:
        with os.fdopen(read, encoding="utf-8") as pipe:
            for line in pipe:
                index, result = json.loads(line)
                results[index] = result
        os.waitpid(pid, 0)
    return results


def _tests_of(calls: dict[str, list[Call]]) -> list[tuple[str, Call]]:
    """Every recorded call with the test that made it (a call made twice counted once)."""
    flat: list[tuple[str, Call]] = []
    for nodeid, made in calls.items():
        flat.extend((nodeid, call) for call in made)
    return flat


NEVER_EQUIVALENT = ("raise removed",)
"""Mutants that probes cannot show equivalent: a refusal left out changes what its function does
on the input it refuses, and probes redraw arrays, not the inputs a function refuses. Unless a
test's call was refused by that very `raise` (its message's words), it is a missing test (an
unknown layout nobody tried); one that was is equivalent when the code after it refuses alike."""


def _refused_by_it(mutant: Mutant, kept: Sequence[tuple[str, Call]]) -> bool:
    """Whether a recorded call was refused with the left-out `raise`'s own message."""
    words = _message_words(mutant.before)
    if not words:
        return any(call.raised for _, call in kept)
    return any(call.error and all(w in call.error for w in words) for _, call in kept)


def _message_words(source: str) -> list[str]:
    """The literal words (four characters or more) of the message a `raise` in `source`
    writes; none when it writes no literal text."""
    try:
        tree = ast.parse(source.strip())
    except SyntaxError:
        return []
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
            message = node.exc.args[0]
            parts = message.values if isinstance(message, ast.JoinedStr) else [message]
            return [
                p.value.strip() for p in parts
                if isinstance(p, ast.Constant) and isinstance(p.value, str)
                and len(p.value.strip()) >= 4
            ]  # fmt: skip
    return []


def _survey_one(
    mutant: Mutant,
    reference: types.ModuleType,
    tests_of: Sequence[tuple[str, Call]],
    tolerance: tuple[float, float],
) -> dict[str, Any]:
    """Whether the tests' calls see the mutant, compared at the rubric's tolerance (a change
    within it is one the instructor chose not to see: equivalent)."""
    namespace = variant_namespace(mutant.as_misconception(), reference)
    reached = [(t, c) for t, c in tests_of if mutant.function in uses(reference, c.name)]
    per_function: dict[str, int] = {}
    kept = []
    for test, call in reached:
        per_function[call.name] = per_function.get(call.name, 0) + 1
        if per_function[call.name] <= CALLS_PER_FUNCTION or call.raised:  # every refusal
            kept.append((test, call))
    row: dict[str, Any] = {
        "key": mutant.key, "function": mutant.function, "line": mutant.line,
        "operator": mutant.operator, "change": mutant.said, "before": mutant.before,
        "after": mutant.after,
    }  # fmt: skip
    digest = hashlib.sha256()
    differences = 0
    reaching = sorted({test for test, _ in kept})
    try:
        with deadline(SECONDS_PER_MUTANT):
            for _, call in kept:
                theirs = _answer(namespace, vars(reference), call)
                digest.update(_printed(theirs).encode())
                if not _same_answer(theirs, _reference_answer(reference, call), tolerance):
                    differences += 1
                    if differences == DIFFERENCES_PER_GROUP:
                        break
            if differences:
                group = f"{mutant.function} {digest.hexdigest()}"  # the same tests see it
                row.update(status="seen", tests=reaching, group=group)
                return row
            if mutant.operator in NEVER_EQUIVALENT and not _refused_by_it(mutant, kept):
                row.update(status="unseen")  # no call reached it: probes redraw arrays only
                return row
            probes = list(_probes([c for _, c in kept]))
            for call in probes:
                theirs = _answer(namespace, vars(reference), call)
                expected = _reference_answer(reference, call)
                if not _same_answer(theirs, expected, tolerance):
                    row.update(status="unseen")
                    return row
    except ModelTooLong:
        row.update(status="seen", tests=reaching, group=f"slow {mutant.key}")
        return row
    row.update(status="equivalent")
    return row


_REFERENCE_ANSWERS: dict[int, tuple[Call, Any]] = {}


def _reference_answer(reference: types.ModuleType, call: Call) -> Any:
    """The reference's answer to `call`, worked out once (every mutant compares with it)."""
    known = _REFERENCE_ANSWERS.get(id(call))
    if known is None or known[0] is not call:
        answer = _answer(vars(reference), vars(reference), call)
        known = _REFERENCE_ANSWERS[id(call)] = (call, answer)
    return known[1]


def _answer(namespace: dict[str, Any], reference: dict[str, Any], call: Call) -> Any:
    """(True, output) or (False, exception class name): a call replayed on copies."""
    function = namespace.get(call.name)
    if not callable(function):
        return (True, function)
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in call.args]
    kwargs = {k: v.copy() if isinstance(v, np.ndarray) else v for k, v in call.kwargs.items()}
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return (True, function(*args, **kwargs))
        except ModelTooLong:
            raise
        except Exception as error:
            return (False, type(error).__name__)


def _same_answer(left: Any, right: Any, tolerance: tuple[float, float]) -> bool:
    if left[0] != right[0]:
        return False
    if not left[0]:
        return bool(left[1] == right[1])
    if _precision(left[1]) != _precision(right[1]):
        return False  # float32 where float64 is promised: within the tolerance, yet not the same
    return same(left[1], right[1], *tolerance)


def _precision(value: Any) -> str | None:
    """A float array's dtype (what a docstring's "float64" promises), else None."""
    if isinstance(value, np.ndarray) and value.dtype.kind in "fc":
        return str(value.dtype.name)
    return None


def _printed(answer: Any) -> str:
    """An answer as text precise enough that two mutants giving it are the same."""
    ok, value = answer
    if not ok:
        return f"raised {value};"
    if isinstance(value, np.ndarray) and value.dtype.kind in "biufc":
        return f"{value.shape}{value.dtype}{np.round(value.astype(complex), 7).tobytes().hex()};"
    if isinstance(value, (sp.Basic, sp.MatrixBase)):
        return f"{sp.srepr(value)};"
    return f"{value!r:.4000};"


def _probes(calls: Sequence[Call]) -> Iterator[Call]:
    """The calls again with their float arrays drawn afresh (shapes kept)."""
    generator = np.random.default_rng(20261205)
    for _ in range(PROBES):
        for call in calls[:40]:
            args = tuple(_redrawn(a, generator) for a in call.args)
            kwargs = {k: _redrawn(v, generator) for k, v in call.kwargs.items()}
            yield Call(call.name, args, kwargs, None)


def _redrawn(value: Any, generator: np.random.Generator) -> Any:
    if isinstance(value, np.ndarray) and value.dtype.kind == "f" and value.size:
        return generator.normal(size=value.shape)
    return value


def main(argv: list[str]) -> int:
    course_root, name = argv
    print(json.dumps(survey(Path(course_root), name)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
