"""A submission's hints, from the calls its tests made: by one rule of honesty, a catalogue
entry, else the reference's mutants (with what the signatures measured beside them), else the
engine's own measures, each spoken only when its model reproduces every recorded call of the
function it names; and the blame of a test that fails because a function it calls is wrong.

Plain code over recorded calls (protocol/calls.py): the pytest plugin records each test's calls
and the disclosure of its reader, and asks; nothing here knows pytest. Without the reference
(a student's notebook), the release's hint table stands in for the models (hint_table.py).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from autograder.diagnosis import hint_table, replays
from autograder.diagnosis.diagnose import (
    Call,
    Misconception,
    Signature,
    contradicted,
    describe,
    diagnose,
    observe,
    prime_call,
    same,
    uses,
    variant_namespace,
)
from autograder.diagnosis.disclosure import NEVER_SHOWN, without_arguments, without_values
from autograder.diagnosis.generic import (
    deepest_cause,
    kept_state,
    non_finite_symptom,
    observe_generic,
    wrong_functions,
)

if TYPE_CHECKING:
    from autograder.diagnosis.mutant_match import MutantModels

HISTORY_BYTES = 64 * 1024 * 1024
"""Arrays of a submission's calls kept to rule mistakes out across tests."""


class SubmissionJudgement:
    """What the kit says of one submission's failed tests, from every call its tests made."""

    def __init__(
        self,
        *,
        reference: ModuleType | None,
        tolerance: dict[str, float],
        catalogue: Sequence[Misconception] = (),
        signatures: Sequence[Signature] = (),
        mutant_models: MutantModels | None = None,
        table: hint_table.HintTable | None = None,
    ) -> None:
        """`mutant_models`: the reference's mutants, which name what the catalogue does not.
        `table`: without the reference (a student's notebook), the release's hint table, which
        names the same causes on the public tests."""
        self.reference = reference
        self.tolerance = tolerance
        self.catalogue = catalogue
        self.signatures = signatures
        self.mutant_models = mutant_models
        self.table = table
        self.history: list[tuple[int, Call]] = []
        """The submission's calls so far, each with the disclosure of the test that made it."""
        self._history_bytes = 0
        self.calls: list[Call] = []
        """The calls of the failed test being judged."""
        self._level = 0
        self.diagnosed: dict[str, tuple[list[Misconception], list[str], int]] = {}
        """Each failed test's catalogue entries, signature measures and disclosure."""
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
        self._failed_calls: dict[str, list[Call]] = {}
        """Each failed test's own calls, for the table's judgement (no reference here)."""
        self._mutant_causes: dict[tuple[str, int], list[Misconception]] = {}
        """Each function's mutant cause, on the calls its readers may know of."""

    def reset(self) -> None:
        """A new submission: nothing of the last one's calls or diagnoses is kept."""
        for kept in (self.history, self.calls, self._mutant_causes, self._failed_calls,
                     self.diagnosed, self.called_by_test, self.generic, self.symptoms,
                     self._test_calls):  # fmt: skip
            kept.clear()
        self.unwritten.clear()
        self._diagnosing = None
        self._history_bytes = 0

    def remember(self, calls: Sequence[Call], level: int) -> None:
        """A test's calls join the submission's history (up to HISTORY_BYTES of arrays: beyond
        it, later calls are not kept as evidence), with the disclosure of its reader."""
        kept = []
        for call in calls:
            size = _size(call)
            if self._history_bytes + size <= HISTORY_BYTES:
                self.history.append((level, call))
                self._history_bytes += size
                kept.append(call)
        if self._diagnosing is not None:  # a failed test's own calls, as far as they are kept
            self._test_calls[self._diagnosing] = kept
            self._diagnosing = None

    def prime(self, seconds: float) -> int:
        """Work out, once in the runner, the reference's, every catalogued variant's and every
        mutant's answers to the calls in the history (the rehearsal's: the tests' own inputs,
        which the rubric's seed fixes): every child forked afterwards inherits them, and a
        failed test's diagnosis compares instead of replaying. Stops after `seconds` (what is
        left is worked out when needed). Returns how many calls were primed."""
        if self.reference is None:
            return 0
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

    def failed(self, nodeid: str, calls: Sequence[Call], level: int) -> str | None:
        """A failed test's provisional hint, from the calls it made (read at disclosure
        `level`): the catalogued misconceptions they match, what the signatures measure on its
        wrong results, else the engine's own measures (final_hints may narrow it)."""
        self.calls = list(calls)
        self._level = level
        if self.reference is None:
            if self.table is not None:
                self._failed_calls[nodeid] = list(self.calls)
                self.called_by_test[nodeid] = list(dict.fromkeys(c.name for c in self.calls))
            return None
        found = diagnose(
            self.calls, self.catalogue, self.reference, namespaces=self._variants, **self.tolerance
        )
        observed = observe(self.calls, self.signatures, self.reference, **self.tolerance)
        hidden = self._level == NEVER_SHOWN
        self.generic[nodeid] = observe_generic(
            self.calls, self.reference, hidden=hidden, evidence=None, **self.tolerance
        )
        self.symptoms[nodeid] = non_finite_symptom(self.calls, self.reference, hidden=hidden)
        if any(call.raised == "NotImplementedError" for call in self.calls):
            self.unwritten.add(nodeid)
        self._diagnosing = nodeid
        self.diagnosed[nodeid] = (found, observed, self._level)
        self.called_by_test[nodeid] = list(dict.fromkeys(c.name for c in self.calls))
        if not found and not observed:  # what no catalogue foresaw: the engine's own models
            observed = self.generic[nodeid]
        return _phrased(found, observed, self._level)

    def final_hints(self) -> dict[str, str | None]:
        """Every diagnosed test's hint, once the whole submission has run: a mistake that
        some other call of the submission rules out is not named (its test's own inputs could
        not tell it from the student's real mistake). Only calls a test's own reader may know
        of rule out: those of its group of disclosure and of the groups before it, so that no
        hint read at once changes with what a hidden test passed."""
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
                        measured_of = named[0].target if named else self._first_called(nodeid)
                        observed = measured.get(measured_of or "", [])
                    if named and not observed:  # and what it leaves unsaid that the student sees
                        observed = self.symptoms.get(nodeid, [])
                if not named and not observed:  # the engine's measures, on all it knows
                    called = set(self.called_by_test.get(nodeid, []))
                    observed = kept_state(
                        [call for call in known if call.name in called], **self.tolerance
                    ) or observe_generic(
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
            own = self._test_calls.get(nodeid, [])
            found = [m for m in self._mutant_causes_of(name, known, level)
                     if self._shows_in(m, name, own)]  # fmt: skip
            if found:
                return found
        return []

    def _shows_in(self, mutant: Misconception, name: str, calls: Sequence[Call]) -> bool:
        """Whether a test's own calls of `name` hold what the mutant speaks of: a wrong value
        (a test that failed on a refusal alone learns nothing from a numeric cause), or for a
        refusal left out, a value where the reference refuses."""
        function = getattr(self.reference, name, None)
        if not callable(function):
            return True  # a constant: its readers' calls are the evidence
        for call in calls:
            if call.name != name or call.raised is not None:
                continue
            expected = replays.answer_to(function, call)
            refused = expected.raised is not None
            if refused == mutant.refused_inputs and (
                refused or not same(call.result, expected.value, **self.tolerance)
            ):
                return True
        return False

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


def _size(call: Call) -> int:
    """About the bytes a call's values hold: arrays, and the texts a student may return."""
    values = [*call.args, *call.kwargs.values(), call.result]
    return 256 + sum(
        len(v) if isinstance(v, (str, bytes)) else int(getattr(v, "nbytes", 0) or 0) for v in values
    )
