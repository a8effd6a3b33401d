"""Name a mistake nobody catalogued: the reference's mutant that reproduces every recorded call
of the function it changes.

The mutants (diagnosis/mutants.py) are made once per runner, before any child is forked, and
their answers to the rubric's fixed inputs are primed with the catalogue's (replays.py), so that
a submission pays a comparison, not a replay. A mutant is named only when its output equals
the student's on every call of its function, right calls and wrong ones alike (the honesty
rule): one that fits some calls and not others is a partial model, and says nothing. Of those
that fit, the simplest change is named.
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Mapping, Sequence
from typing import Any

from autograder.course.catalogue import Misconception
from autograder.diagnosis import probes, replays
from autograder.diagnosis.diagnose import same, uses, variant_namespace
from autograder.diagnosis.hint_table import one_constant
from autograder.diagnosis.mutants import RANKS, Mutant, mutants, naming_order
from autograder.protocol.calls import Call

MAX_NAMED = 3
"""Different changes that may be named together, when each reproduces every call."""
MAX_FITTING = 12
"""Different changes that may fit before the calls are judged unable to tell them apart (those
that answer the probes alike are then one: _one_of_each)."""
MAX_CALLS = 200
"""Calls of one function compared with a mutant (the grader's time is bounded)."""


class MutantModels:
    """The reference's mutants, by the function they change, as the diagnosis reads them."""

    def __init__(
        self, reference: types.ModuleType, source: str, words: Mapping[str, str] | None = None
    ) -> None:
        self.reference = reference
        made = mutants(source, vars(reference), words)
        self.by_function: dict[str, list[Mutant]] = {}
        for mutant in made:
            self.by_function.setdefault(mutant.function, []).append(mutant)
        self._models: dict[str, tuple[Misconception, dict[str, Any]]] = {}
        self._renamed: dict[tuple[str, str], Misconception] = {}
        self._mutant_of: dict[str, Mutant] = {}
        """Each named mutant's Mutant, by its Misconception's name (its operator and rank)."""

    def __len__(self) -> int:
        return sum(map(len, self.by_function.values()))

    def candidates(self, function: str) -> list[tuple[Misconception, dict[str, Any]]]:
        """The mutants that can change `function`'s output, simplest first: its own, then
        those of the module constants it reads, then those of the functions it calls (a
        student who writes inline what the reference delegates makes the callee's mistakes in
        the caller); each named as a mistake of `function`, with its namespace."""
        return [(self._named(m, function), namespace)
                for m, namespace in self._reaching(function)]  # fmt: skip

    def _reaching(self, function: str) -> list[tuple[Mutant, dict[str, Any]]]:
        reached = uses(self.reference, function) - {function}
        constants = sorted(n for n in reached if not callable(getattr(self.reference, n, None)))
        callees = sorted(n for n in reached if n in self.by_function and n not in constants)
        found = []
        for name in [function, *constants, *callees]:
            for mutant in self.by_function.get(name, ()):
                found.append((mutant, self._model(mutant)[1]))
        return found

    def _named(self, mutant: Mutant, function: str) -> Misconception:
        """The mutant as a mistake of `function` (its words say where, in the quantity)."""
        misconception = self._model(mutant)[0]
        self._mutant_of[misconception.name] = mutant
        if mutant.function == function:
            return misconception
        key = (mutant.key, function)
        if key not in self._renamed:
            self._renamed[key] = Misconception(
                name=f"{misconception.name} (in {function})", target=function, part="",
                summary=misconception.summary, hint="",
                refused_inputs=misconception.refused_inputs,
            )  # fmt: skip
            self._mutant_of[self._renamed[key].name] = mutant
        return self._renamed[key]

    def _model(self, mutant: Mutant) -> tuple[Misconception, dict[str, Any]]:
        known = self._models.get(mutant.key)
        if known is None:
            misconception = mutant.as_misconception()
            known = (misconception, variant_namespace(misconception, self.reference))
            self._models[mutant.key] = known
        return known

    def prime(self, calls: Sequence[Call]) -> int:
        """Work out each mutant's answer to the calls of its own function (under
        replays.priming: every child forked afterwards inherits them). Returns the answers."""
        primed = 0
        by_name: dict[str, list[Call]] = {}
        for call in calls:
            if replays.primable(call):
                by_name.setdefault(call.name, []).append(call)
        for name, own in by_name.items():
            for _, namespace in self.candidates(name):
                function = namespace.get(name)
                if callable(function):
                    for call in own[:MAX_CALLS]:
                        replays.answer_to(function, call)
                        primed += 1
        return primed

    def causes(
        self, function: str, calls: Sequence[Call], *, rtol: float, atol: float
    ) -> list[Misconception]:
        """The mutants that reproduce every recorded call of `function` (at least one of them
        wrong), simplest first, one per change in words; none when more than MAX_NAMED
        different changes fit (the calls cannot tell them apart: a cause would be a guess).
        Calls the reference refuses count for a mutant that stops refusing, and for no other;
        a mutant is named only for a wrong value it reproduces (one that only raises where the
        student raised says nothing of why)."""
        own = [c for c in calls if c.name == function][:MAX_CALLS]
        reference = getattr(self.reference, function, None)
        numeric = [c for c in own if not isinstance(_answer(reference, c), _Raised)]
        wrong_of = {
            read_all: [  # wrong values: an exception's cause cannot be read from outputs
                c
                for c in calls_read
                if c.raised is None and not _reproduces(c, _answer(reference, c), rtol, atol)
            ]
            for read_all, calls_read in ((True, own), (False, numeric))
        }
        if one_constant([c.result for c in wrong_of[False]]):
            return []  # the same number everywhere: too many mistakes give it to name one
        fitting: dict[str, tuple[Misconception, dict[str, Any]]] = {}
        for misconception, namespace in self.candidates(function):
            if misconception.summary in fitting:
                continue
            # the calls the reference refuses say nothing of a numeric mistake: only a
            # mutant that stops refusing is read on them (as the catalogue's entries are)
            read = own if misconception.refused_inputs else numeric
            wrong = wrong_of[misconception.refused_inputs]
            if not wrong:
                continue
            variant = namespace.get(function)
            if not _reproduces(wrong[0], _answer(variant, wrong[0]), rtol, atol):
                continue
            if all(_reproduces(c, _answer(variant, c), rtol, atol) for c in read):
                fitting[misconception.summary] = (misconception, namespace)
                if len(fitting) > MAX_FITTING:
                    return []
        found = self._one_of_each(function, list(fitting.values()), numeric, rtol, atol)
        return found if len(found) <= MAX_NAMED else []

    def _one_of_each(
        self,
        function: str,
        fitting: Sequence[tuple[Misconception, dict[str, Any]]],
        calls: Sequence[Call],
        rtol: float,
        atol: float,
    ) -> list[Misconception]:
        """Of mutants that fit the same calls, those that also answer every probe alike
        (probes.py) and change the same quantity are one mistake: the one whose words say most
        is named for them all."""
        if len(fitting) < 2:
            return [m for m, _ in fitting]
        firsts = probes.alike(
            [namespace.get(function) for _, namespace in fitting],
            probes.probe_calls(calls, _signature(getattr(self.reference, function, None))),
            lambda a, b: same(a, b, rtol, atol),
        )
        groups: dict[tuple[int, str], list[int]] = {}
        for index, first in enumerate(firsts):  # a change of another quantity is another
            groups.setdefault((first, self._quantity(fitting[index][0])), []).append(index)
        named = [
            min(members, key=lambda i: self._wording(fitting[i][0])) for members in groups.values()
        ]
        return [fitting[i][0] for i in sorted(named)]

    def _quantity(self, misconception: Misconception) -> str:
        """What a mutant's change computes (two places giving the same numbers are two
        accounts of where the mistake is, both said)."""
        mutant = self._mutant_of.get(misconception.name)
        return mutant.quantity if mutant is not None else misconception.name

    def _wording(self, misconception: Misconception) -> tuple[bool, bool, int]:
        """Which of one mistake's accounts to say (mutants.naming_order)."""
        mutant = self._mutant_of.get(misconception.name)
        if mutant is None:
            return (True, True, len(RANKS))
        return naming_order(mutant)


def _signature(function: Any) -> inspect.Signature | None:
    try:
        return inspect.signature(function) if callable(function) else None
    except (TypeError, ValueError):
        return None


class _Raised:
    """A model's answer that is an exception: its class's name."""

    def __init__(self, name: str) -> None:
        self.name = name


def _answer(function: Any, call: Call) -> Any:
    """A model's answer to `call` (worked out once: replays.py), or the exception it raised."""
    if not callable(function):
        return _Raised("missing")
    answered = replays.answer_to(function, call)
    return _Raised(answered.raised) if answered.raised is not None else answered.value


def _reproduces(call: Call, answer: Any, rtol: float, atol: float) -> bool:
    """Whether a model's answer is what the student's call gave: the same exception, or the
    same value; a call that modified its arguments is reproduced by no mutant (a model runs
    on copies and never does)."""
    if call.mutated:
        return False
    if call.raised is not None or isinstance(answer, _Raised):
        return isinstance(answer, _Raised) and answer.name == call.raised
    return same(call.result, answer, rtol, atol)
