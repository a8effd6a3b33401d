"""Build a release's hint table (diagnosis/hint_table.py): run as `python -m
autograder.authoring.hint_table_build COURSE ASSIGNMENT TESTS_DIR OUT`, a process of its own
since it runs the released public tests in itself, exactly as `autograder check` runs them (the
same folder, seeds and order), on the reference, recording every call. Each call's arguments are
keyed, and the reference's output and every model's (the catalogue's entries and the reference's
mutants that reach the function) are projected; a model's projection is kept where it differs.
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import json
import os
import sys
import tempfile
import types
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from autograder.authoring.model_deadline import ModelTooLong, deadline
from autograder.course.assignment import Assignment
from autograder.course.catalogue import Misconception
from autograder.course.course import Course
from autograder.course.solutions import solution_source
from autograder.diagnosis import hint_table, probes
from autograder.diagnosis.diagnose import same, uses, variant_namespace
from autograder.diagnosis.fingerprints import arguments_key, projection, same_projection
from autograder.diagnosis.hint_table import HintTable, KnownCall, Model, TableJudgement
from autograder.diagnosis.mutants import mutants, naming_order
from autograder.diagnosis.table_file import digest
from autograder.grading.pytest_plugin import input_watch
from autograder.protocol.calls import Call
from autograder.student.local_check import NO_PLUGIN_AUTOLOAD, UNREAD_PLUGINS

SECONDS_PER_CALL = 2.0
"""A model that runs longer on one call is left out of that call (check names it nowhere)."""
SECONDS_PER_GROUP = 20.0
"""Mutants alike on the calls whose probes take longer stay apart (check lists them)."""


def released_tests(tests_dir: Path) -> dict[str, str]:
    """The released test folder's Python files, as the release renders them."""
    return {
        f"tests/{p.relative_to(tests_dir).as_posix()}": p.read_text(encoding="utf-8")
        for p in sorted(tests_dir.rglob("*.py"))
        if "__pycache__" not in p.parts
    }


class _Recorder:
    """Keeps each test's calls (check's own, from the input watch) before the next test."""

    def __init__(self) -> None:
        self.calls: list[Call] = []

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_teardown(self, item: pytest.Item) -> None:
        self.calls.extend(input_watch(item.config).own_calls)


def build(assignment: Assignment, tests_dir: Path) -> HintTable:
    """Run the released public tests on the reference, as check does, and project every
    model's output on their calls."""
    reference_source = assignment.reference.read_text(encoding="utf-8")
    solution = solution_source(reference_source, origin=str(assignment.reference))
    recorder = _Recorder()
    with tempfile.TemporaryDirectory(prefix="autograder-hints-") as scratch:
        submission = Path(scratch) / assignment.spec.module
        submission.write_text(solution, encoding="utf-8")
        ini = Path(scratch) / "pytest.ini"
        ini.write_text("[pytest]\n", encoding="utf-8")
        arguments = [
            str(tests_dir), "-c", str(ini), "--rootdir", str(tests_dir),
            "--confcutdir", str(tests_dir.parent), "-p", "autograder.grading.pytest_plugin",
            "-p", "no:cacheprovider", "--import-mode=importlib", "-q",
            f"--submission={submission}",
            *(part for name in UNREAD_PLUGINS for part in ("-p", f"no:{name}")),
        ]  # fmt: skip
        sys.path[:0] = [str(tests_dir)]
        os.environ.update(NO_PLUGIN_AUTOLOAD)
        with contextlib.redirect_stdout(sys.stderr):
            pytest.main(arguments, plugins=[recorder])
    reference = assignment.load_reference()
    catalogue = assignment.load_catalogue()
    made = mutants(solution, vars(reference), assignment.load_words())
    models: list[tuple[Model, Misconception]] = [
        (Model(m.target, "catalogue", m.summary, m.hint, m.refused_inputs, m.mutates_input), m)
        for m in catalogue
    ]
    models += [
        (Model(m.function, "mutant", m.said, refused_inputs=m.operator == "raise removed"),
         m.as_misconception())
        for m in made
    ]  # fmt: skip
    namespaces = [variant_namespace(m, reference) for _, m in models]
    tolerance = assignment.spec.tolerance
    known: dict[str, KnownCall] = {}
    for call in recorder.calls:
        key = arguments_key(call.name, call.args, call.kwargs)
        if key is None or key in known:
            continue
        expected = _projected(vars(reference), call)
        if expected is None:
            continue
        reached = uses(reference, call.name)
        differing: dict[int, dict[str, Any]] = {}
        for index, ((model, misconception), namespace) in enumerate(
            zip(models, namespaces, strict=True)
        ):
            if misconception.target not in reached or misconception.mutates_input:
                continue
            if model.kind == "mutant" and not _mutant_reaches(model, call.name, reference):
                continue
            theirs = _projected(namespace, call)
            if theirs is not None and not same_projection(theirs, expected, **tolerance):
                differing[index] = theirs
        known[key] = KnownCall(call.name, expected, differing)
    public = [n for n, v in vars(reference).items()
              if isinstance(v, types.FunctionType) and not n.startswith("_")
              and v.__module__ == reference.__name__]  # fmt: skip
    table = HintTable(
        digest(assignment, released_tests(tests_dir)), tolerance["rtol"], tolerance["atol"],
        tuple(model for model, _ in models), known,
        {name: sorted(uses(reference, name)) for name in public},
    )  # fmt: skip
    first_mutant = len(models) - len(made)
    wording = {first_mutant + n: naming_order(m) for n, m in enumerate(made)}
    quantities = {first_mutant + n: m.quantity for n, m in enumerate(made)}
    alike = {
        name: pairs
        for name in public
        if (
            pairs := _alike(
                table, reference, name, recorder.calls, namespaces, (wording, quantities)
            )
        )
    }
    return dataclasses.replace(table, alike=alike)


def _alike(
    table: HintTable,
    reference: types.ModuleType,
    name: str,
    calls: list[Call],
    namespaces: list[dict[str, Any]],
    said: tuple[dict[int, tuple[bool, bool, int]], dict[int, str]],
) -> dict[int, int]:
    """The mutants reaching `name` that answer its public calls alike and its probes alike too,
    and change the same quantity, each mapped to the one the grader names for them
    (mutant_match.MutantModels._one_of_each: the words that say most, then the first in the
    grader's order)."""
    own = [c for c in calls if c.name == name and c.raised is None]
    keys = list(dict.fromkeys(k for c in own if (k := arguments_key(c.name, c.args, c.kwargs))))
    reaching = TableJudgement(table, []).reaching(name)
    buckets: dict[str, list[int]] = {}
    for index in reaching:
        answers = [table.calls[k].models.get(index) for k in keys if k in table.calls]
        if any(a is not None for a in answers):  # it shows somewhere: it may be named
            buckets.setdefault(json.dumps(answers, sort_keys=True), []).append(index)
    mapped: dict[int, int] = {}
    tolerance = {"rtol": table.rtol, "atol": table.atol}
    function = getattr(reference, name, None)
    probed = probes.probe_calls(own, inspect.signature(function) if callable(function) else None)
    for members in (m for m in buckets.values() if len(m) > 1):
        with warnings.catch_warnings(), np.errstate(all="ignore"), deadline(SECONDS_PER_GROUP):
            try:
                firsts = probes.alike(
                    [namespaces[i].get(name) for i in members], probed,
                    lambda a, b: same(a, b, **tolerance),
                )  # fmt: skip
            except ModelTooLong:
                continue
        wording, quantities = said
        groups: dict[tuple[int, str], list[int]] = {}
        for member, first in zip(members, firsts, strict=True):
            groups.setdefault((first, quantities.get(member, "")), []).append(member)
        for group in groups.values():
            named = min(group, key=lambda i: wording.get(i, (True, True, 0)))
            mapped.update({i: named for i in group if i != named})
    return mapped


def _mutant_reaches(model: Model, name: str, reference: types.ModuleType) -> bool:
    """A mutant is read on the calls of every function its change reaches (its own, those
    reading its constant, those calling its function: mutant_match.MutantModels)."""
    return model.target in uses(reference, name)


def _projected(namespace: dict[str, Any], call: Call) -> dict[str, Any] | None:
    function = namespace.get(call.name)
    if not callable(function):  # a constant is its own output
        return None if call.name not in namespace else projection(function)
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in call.args]
    kwargs = {k: v.copy() if isinstance(v, np.ndarray) else v for k, v in call.kwargs.items()}
    with warnings.catch_warnings(), np.errstate(all="ignore"), deadline(SECONDS_PER_CALL):
        warnings.simplefilter("ignore")
        try:
            return projection(function(*args, **kwargs))
        except ModelTooLong:
            return None
        except Exception as error:
            return projection(error)


def main(argv: list[str]) -> int:
    course_root, name, tests_dir, out = argv
    assignment = Course.load(Path(course_root)).assignment(name)
    hint_table.write(build(assignment, Path(tests_dir)), Path(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
