"""What `check` knows of the models of mistakes, on the public tests' own inputs: shipped with
the release as data (`tests/hints.json`), never the reference, a model's code or a hidden input.

For every call the public tests make (as `check` makes them: the same seeds, the same order),
the table holds the key of its arguments, the projection of the reference's output, and the
projection of each model's output where it differs from the reference's: the catalogue's entries
and the reference's mutants, each with the words the grader would say. `check` names a model by
the grader's rule: it reproduces every known call of the function it names, at least one of
them wrong. Catalogue entries come first; mutants only where no entry fits; several mutants
that fit are all named, up to MAX_NAMED.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from autograder.diagnosis.fingerprints import arguments_key, projection, same_projection
from autograder.diagnosis.table_file import FILE_NAME as FILE_NAME
from autograder.diagnosis.table_file import SCHEMA

MAX_NAMED = 3
MAX_FITTING = 12
"""As mutant_match's: changes that may fit before the calls cannot tell them apart."""
MAX_BYTES = 8 * 1024 * 1024
"""A table larger than this is not read (the release is the instructor's; a bound all the same)."""


def one_constant(values: Sequence[Any]) -> bool:
    """Whether every wrong value is an array holding one same number in every entry (a
    modulus of 1, a 0 left everywhere): many different changes collapse to it, so a mutant
    that reproduces it is a coincidence as often as a cause."""
    if not values or not all(isinstance(v, np.ndarray) and v.size > 1 for v in values):
        return False
    try:
        firsts = {complex(np.ravel(v)[0]) for v in values}
        return len(firsts) == 1 and all(bool(np.all(v == np.ravel(v)[0])) for v in values)
    except (TypeError, ValueError):
        return False


@dataclass(frozen=True)
class Model:
    """One model of a mistake, as check names it."""

    target: str
    kind: str
    """"catalogue" or "mutant"."""
    summary: str
    hint: str = ""
    refused_inputs: bool = False
    """A catalogue entry about inputs the reference refuses (diagnose.py's meaning)."""
    mutates_input: bool = False
    """A catalogue entry recognised by an argument modified in place."""


@dataclass(frozen=True)
class KnownCall:
    """One call of the public tests: its function, the reference's output, each model's."""

    name: str
    reference: dict[str, Any]
    models: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Model index -> its output's projection, where it differs from the reference's."""


@dataclass(frozen=True)
class HintTable:
    digest: str
    """What the table was built from (release --check compares it)."""
    rtol: float
    atol: float
    models: tuple[Model, ...]
    calls: dict[str, KnownCall]
    reaches: dict[str, list[str]] = field(default_factory=dict)
    """Each public function and every module-level name it reaches (diagnose.uses)."""
    alike: dict[str, dict[int, int]] = field(default_factory=dict)
    """By function: a mutant's index -> the index of the mutant named for it, where the two
    answer its public calls and their probes alike (probes.py: one mistake said two ways)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "digest": self.digest,
            "rtol": self.rtol,
            "atol": self.atol,
            "models": [vars(m) for m in self.models],
            "reaches": {name: sorted(names) for name, names in sorted(self.reaches.items())},
            "alike": {
                name: [[i, j] for i, j in sorted(pairs.items())]
                for name, pairs in sorted(self.alike.items())
            },
            "calls": {
                key: {
                    "name": c.name,
                    "reference": c.reference,
                    "models": [[i, p] for i, p in sorted(c.models.items())],
                }
                for key, c in sorted(self.calls.items())
            },
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HintTable:
        if data.get("schema") != SCHEMA:
            raise ValueError("a hint table of another schema")
        models = tuple(Model(**m) for m in data["models"])
        calls = {
            str(key): KnownCall(
                str(c["name"]), dict(c["reference"]), {int(i): dict(p) for i, p in c["models"]}
            )
            for key, c in data["calls"].items()
        }
        reaches = {str(k): [str(n) for n in v] for k, v in data.get("reaches", {}).items()}
        alike = {
            str(name): {int(i): int(j) for i, j in pairs}
            for name, pairs in data.get("alike", {}).items()
        }
        return cls(
            str(data["digest"]), float(data["rtol"]), float(data["atol"]), models, calls, reaches,
            alike,
        )  # fmt: skip


def write(table: HintTable, path: Path) -> None:
    data = table.to_json()
    calls = data.pop("calls")
    lines = [json.dumps(data, sort_keys=True, separators=(",", ":"))[:-1] + ',"calls":{']
    lines += [  # one line a call: a release's diff says which calls changed
        f"{json.dumps(key)}:{json.dumps(entry, sort_keys=True, separators=(',', ':'))},"
        for key, entry in calls.items()
    ]
    if len(lines) > 1:
        lines[-1] = lines[-1].rstrip(",")
    path.write_text("\n".join(lines) + "\n}}\n", encoding="utf-8")


def read(path: Path) -> HintTable | None:
    """The table at `path`, or None when there is none or it cannot be read."""
    try:
        if not path.is_file() or path.stat().st_size > MAX_BYTES:
            return None
        return HintTable.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        return None


@dataclass(frozen=True)
class StudentCall:
    """One call the student's module answered in check: its function, arguments and output
    (or exception), and whether it modified an argument."""

    name: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    result: Any
    raised: str | None = None
    modified: bool = False


@dataclass(frozen=True)
class _Known:
    """A student's call the table knows: its entry and the student's output's projection."""

    call: StudentCall
    entry: KnownCall
    mine: dict[str, Any] | None


BLAME = (
    "{caller} calls {culprit}, which is wrong on its own tests: fix {culprit} first, this test "
    "depends on it"
)
"""The grader's words for a test that fails because a function it calls is wrong
(grading/pytest_plugin.py), which check says alike."""


class TableJudgement:
    """The grader's rule on the public tests, read from the table instead of the models: each
    failed test's catalogue entries (every call where one shows agrees with it, a wrong call of
    its own function it leaves unexplained rules it out, and the submission's other calls may
    contradict it), else the mutants that reproduce every call of a function the test called,
    and the blame of a test that fails because a deeper function is wrong."""

    def __init__(self, table: HintTable, calls: Sequence[StudentCall]) -> None:
        self.table = table
        self.tolerance = {"rtol": table.rtol, "atol": table.atol}
        self._known: dict[int, _Known | None] = {}
        self.calls = list(calls)

    def known(self, call: StudentCall) -> _Known | None:
        """The table's entry for `call`, with the student's projection (None: not known)."""
        if id(call) not in self._known:
            key = arguments_key(call.name, call.args, call.kwargs)
            entry = None if key is None else self.table.calls.get(key)
            found = None
            if entry is not None and entry.name == call.name:
                mine = {"raised": call.raised} if call.raised else projection(call.result)
                found = _Known(call, entry, mine)
            self._known[id(call)] = found
        return self._known[id(call)]

    def uses(self, name: str) -> set[str]:
        return set(self.table.reaches.get(name, [name]))

    def right(self, known: _Known) -> bool:
        return same_projection(known.mine, known.entry.reference, **self.tolerance)

    # -- the catalogue: diagnose.diagnose, contradicted and the deepest ------------------------

    def catalogue_found(self, calls: Sequence[StudentCall]) -> list[int]:
        knowns = [k for k in map(self.known, calls) if k is not None and not k.call.raised]
        if all(self.right(k) and not k.call.modified for k in knowns):
            return []
        found = []
        for index, model in enumerate(self.table.models):
            if model.kind != "catalogue":
                continue
            if model.mutates_input:
                if any(k.call.modified and k.call.name == model.target for k in knowns):
                    found.append(index)
                continue
            consistent, shown_wrong = self._agreement(index, knowns)
            if consistent and shown_wrong:
                found.append(index)
        return found

    def contradicted(self, index: int) -> bool:
        model = self.table.models[index]
        if model.mutates_input:
            return False
        knowns = [k for k in map(self.known, self.calls) if k is not None and not k.call.raised]
        relevant = [k for k in knowns if model.target in self.uses(k.call.name)]
        return not self._agreement(index, relevant)[0]

    def _agreement(self, index: int, knowns: Sequence[_Known]) -> tuple[bool, bool]:
        model = self.table.models[index]
        shown_wrong = False
        for known in knowns:
            if model.target not in self.uses(known.call.name):
                continue
            refused = "raised" in known.entry.reference
            if refused and not model.refused_inputs:
                continue
            variant = known.entry.models.get(index, known.entry.reference)
            if refused and "raised" in variant:
                continue
            right = self.right(known)
            if index not in known.entry.models:  # this mistake does not show on this call
                if known.call.name == model.target and not right:
                    return False, shown_wrong
                continue
            if not same_projection(known.mine, variant, **self.tolerance):
                return False, shown_wrong
            shown_wrong = shown_wrong or not right
        return True, shown_wrong

    def deepest(self, found: Sequence[int]) -> list[int]:
        targets = {self.table.models[i].target for i in found}

        def below_another(index: int) -> bool:
            own = self.table.models[index].target
            return any(t != own and t in self.uses(own) for t in targets)

        return [i for i in found if not below_another(i)]

    # -- the mutants: mutant_match.MutantModels.causes -----------------------------------------

    def mutant_causes(self, function: str, calls: Sequence[StudentCall]) -> list[Model]:
        own = [
            k for c in calls
            if c.name == function and not c.modified and (k := self.known(c)) is not None
        ]  # fmt: skip
        numeric = [k for k in own if "raised" not in k.entry.reference]
        wrong = [k.call.result for k in numeric if not k.call.raised and not self.right(k)]
        if one_constant(wrong):
            return []  # as MutantModels.causes: a constant is too many mistakes' answer
        fitting: dict[str, int] = {}
        reaching = self.reaching(function)
        for index in reaching:
            model = self.table.models[index]
            if model.summary in fitting:
                continue
            knowns = own if model.refused_inputs else numeric  # as MutantModels.causes reads
            if all(self.right(k) or k.call.raised for k in knowns):
                continue  # no wrong value: as MutantModels.causes, an exception names nothing
            if all(
                same_projection(k.mine, k.entry.models.get(index, k.entry.reference),
                                **self.tolerance)
                for k in knowns
            ) and any(index in k.entry.models for k in knowns):  # fmt: skip
                fitting[model.summary] = index
                if len(fitting) > MAX_FITTING:
                    return []
        alike = self.table.alike.get(function, {})
        place = {index: n for n, index in enumerate(reaching)}
        named = sorted({alike.get(i, i) for i in fitting.values()}, key=lambda i: place.get(i, i))
        if len(named) > MAX_NAMED:
            return []
        return [
            Model(function, "mutant", m.summary, refused_inputs=m.refused_inputs)
            for m in (self.table.models[i] for i in named)
        ]

    def _shows_in(self, model: Model, name: str, calls: Sequence[StudentCall]) -> bool:
        """Whether a test's own calls of `name` hold what the mutant speaks of
        (judgement.SubmissionJudgement's rule): a wrong value, or for a refusal left out a
        value where the reference refuses."""
        for call in calls:
            known = self.known(call) if call.name == name else None
            if known is None or call.raised:
                continue
            refused = "raised" in known.entry.reference
            if refused == model.refused_inputs and not self.right(known):
                return True
        return False

    def reaching(self, function: str) -> list[int]:
        """The mutants that reach `function`, in the grader's order: its own, those of the
        constants it reads, those of the functions it calls (mutant_match.MutantModels)."""
        reached = self.uses(function) - {function}
        constants = sorted(n for n in reached if n not in self.table.reaches)
        callees = sorted(n for n in reached if n in self.table.reaches)
        by_target: dict[str, list[int]] = {}
        for index, model in enumerate(self.table.models):
            if model.kind == "mutant":
                by_target.setdefault(model.target, []).append(index)
        return [i for name in [function, *constants, *callees] for i in by_target.get(name, [])]

    # -- a test's hint, and the blame ------------------------------------------------------------

    def hints(
        self, failed: Mapping[str, Sequence[StudentCall]], called: Mapping[str, Sequence[str]]
    ) -> dict[str, str]:
        """Each failed test's hint (`failed`: its own calls; `called`: the functions it called,
        first call first), as the grader gives it on the public tests."""
        hints: dict[str, str] = {}
        unwritten = {n for n, calls in failed.items()
                     if any(c.raised == "NotImplementedError" for c in calls)}  # fmt: skip
        causes_of: dict[str, list[Model]] = {}
        for nodeid, calls in failed.items():
            found = [i for i in self.catalogue_found(calls) if not self.contradicted(i)]
            named = [self.table.models[i] for i in self.deepest(found)]
            if not named and nodeid not in unwritten:
                for name in called.get(nodeid, []):
                    if name not in causes_of:
                        causes_of[name] = self.mutant_causes(name, self.calls)
                    named = [m for m in causes_of[name] if self._shows_in(m, name, calls)]
                    if named:
                        break
            text = sentence(named)
            if text:
                hints[nodeid] = text
        hints.update(self._blamed(failed, called, unwritten, dict(hints)))
        return hints

    def _blamed(
        self,
        failed: Mapping[str, Sequence[StudentCall]],
        called: Mapping[str, Sequence[str]],
        unwritten: set[str],
        own_hints: Mapping[str, str],
    ) -> dict[str, str]:
        failing = {name for nodeid in failed for name in called.get(nodeid, [])}
        examined = [c for c in self.calls if c.name in failing][:MAX_BLAME_CALLS]
        wrong = {
            c.name for c in examined
            if (k := self.known(c)) is not None and not self.right(k)
        } & failing  # fmt: skip
        blamed: dict[str, str] = {}
        own: dict[str, str | None] = {}
        for nodeid in failed:
            if nodeid in unwritten:
                continue
            cause = self._deepest_cause(called.get(nodeid, []), wrong)
            if cause is None:
                continue
            caller, culprit = cause
            if culprit not in own:  # the culprit's own tests' words, as the grader repeats them
                said = [own_hints[n] for n in failed
                        if n in own_hints and called.get(n, [None])[0] == culprit]  # fmt: skip
                own[culprit] = (said[0].removeprefix(f"{culprit}: ") if said
                                else self._diagnosis_of(culprit, examined))  # fmt: skip
            text = BLAME.format(caller=caller, culprit=culprit)
            if own[culprit]:
                text += f" ({culprit}: {own[culprit]})"
            blamed[nodeid] = text
        return blamed

    def _deepest_cause(self, called: Sequence[str], wrong: set[str]) -> tuple[str, str] | None:
        for name in reversed(list(called)):
            below = {g for g in self.uses(name) - {name} if g in wrong and g in self.table.reaches}
            deepest = [g for g in below if not (self.uses(g) - {g}) & below]
            if deepest:
                return name, sorted(deepest)[0]
        return None

    def _diagnosis_of(self, name: str, examined: Sequence[StudentCall]) -> str | None:
        calls = [c for c in examined if c.name == name][: MAX_BLAME_CALLS // 10]
        found: list[Model] = [self.table.models[i] for i in self.catalogue_found(calls)]
        if not found:
            found = self.mutant_causes(name, examined)
        text = sentence(found)
        return None if text is None else text.removeprefix(f"{name}: ")


MAX_BLAME_CALLS = 2000
"""As the grader: calls read to tell which functions are wrong."""


def sentence(found: Sequence[Model]) -> str | None:
    """The hint for the models found, in the grader's words (diagnosis/diagnose.describe)."""
    if not found:
        return None
    if len(found) == 1:
        advice = f": {found[0].hint}" if found[0].hint else ""
        return f"{found[0].target}: {found[0].summary}{advice}"
    targets = {m.target for m in found}
    if all(m.kind == "mutant" for m in found) and len(targets) == 1:
        named = "; or ".join(m.summary for m in found)
        return f"{found[0].target}: each of these changes gives exactly your numbers: {named}"
    one = len(targets) == 1
    named = "; or ".join(
        f"{'' if one else m.target + ': '}{m.summary}" + (f" ({m.hint})" if m.hint else "")
        for m in found
    )
    return (
        f"{found[0].target + ': ' if one else ''}your results match {len(found)} known "
        f"mistakes, which give the same numbers here: {named}"
    )
