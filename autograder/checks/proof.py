"""Structured proofs, checked step by step: each step must follow by the law it names, and be true.

A proof is a list of `(expression, law)` pairs; expressions are strings in Python syntax. They
are parsed with `ast` and a whitelist of node types and names into SymPy objects (see
proof_parse.py): nothing is evaluated. A step is accepted when
1. its law justifies it: the previous and the new expression have the same normal form under
   that law's normaliser (so a step that skips ahead, or applies two laws at once, is refused
   and the student is told which law or laws it would need), and
2. it is true: both sides agree numerically at random instantiations.
Credit: one share per valid step up to the first invalid one; an unfinished proof earns at most
half; a proof of fewer than two steps earns nothing.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from autograder.checks import memo
from autograder.checks.failure import CheckFailure, PartialCredit, hidden_from_students, note
from autograder.checks.graded import examines
from autograder.checks.proof_parse import Domain, ProofSyntaxError

__tracebackhide__ = hidden_from_students  # a failed check's traceback ends at the test's line

MAX_STEPS = 40
MAX_TEXT = 1000


@dataclass(frozen=True)
class Law:
    """A named law of the vocabulary: a normaliser that applies just that law everywhere."""

    name: str
    normalise: Callable[[Any], Any]
    hint: str
    weaker: tuple[str, ...] = ()
    """Laws this one subsumes: a step they justify alone must name them instead."""


@dataclass(frozen=True)
class Statement:
    """What is to be proved, in which domain, with which laws."""

    name: str
    left: str
    right: str
    domain: Domain
    laws: tuple[Law, ...]
    reference_steps: int
    """Steps in the reference proof: each valid step of a student's proof earns 1/this."""

    def law(self, name: str) -> Law | None:
        return next((law for law in self.laws if law.name == name), None)


@dataclass(frozen=True)
class StepVerdict:
    number: int
    expression: str
    law: str
    ok: bool
    reason: str = ""


@dataclass(frozen=True)
class ProofReport:
    steps: tuple[StepVerdict, ...]
    credit: float
    summary: str

    def describe(self) -> str:
        lines = [self.summary]
        for step in self.steps:
            mark = "ok" if step.ok else "NOT ACCEPTED"
            lines.append(f"  step {step.number} [{mark}] {step.expression!r} by {step.law!r}")
            if step.reason:
                lines.append(f"      {step.reason}")
        return "\n".join(lines)


@examines("proof")
def assert_proof(proof: Any, statement: Statement, *, what: str) -> ProofReport:
    """Pass for a complete, valid proof; otherwise PartialCredit with every step's verdict."""
    if isinstance(proof, (list, tuple)) and len(proof) == 0:
        raise NotImplementedError(f"{what} is empty: it is not written yet")
    report = check_proof(proof, statement)
    if report.credit < 1.0:
        raise PartialCredit(report.describe(), report.credit)
    note(report.summary)
    return report


def check_proof(proof: Any, statement: Statement) -> ProofReport:
    """Every step's verdict, up to and including the first that is not accepted, and the credit."""
    steps = _as_steps(proof, statement)
    parts = [statement.name, statement.left, statement.right, json.dumps(steps)]
    data = memo.remembered(
        memo.key("proof", parts), lambda: _report_data(_check_steps(steps, statement))
    )
    return ProofReport(
        tuple(StepVerdict(**step) for step in data["steps"]), data["credit"], data["summary"]
    )


def _report_data(report: ProofReport) -> dict[str, Any]:
    return {
        "steps": [dataclasses.asdict(step) for step in report.steps],
        "credit": report.credit,
        "summary": report.summary,
    }


def _check_steps(steps: list[tuple[str, str]], statement: Statement) -> ProofReport:
    domain = statement.domain
    verdicts: list[StepVerdict] = []
    left, right = domain.parse(statement.left), domain.parse(statement.right)
    try:
        previous = domain.parse(steps[0][0])
    except ProofSyntaxError as error:
        return _report(statement, [StepVerdict(1, steps[0][0], steps[0][1], False, str(error))], 0)
    if domain.canonical(previous) != domain.canonical(left):
        reason = f"a proof starts from the statement's left side, {statement.left!r}"
        return _report(statement, [StepVerdict(1, steps[0][0], steps[0][1], False, reason)], 0)
    verdicts.append(StepVerdict(1, steps[0][0], steps[0][1], True))
    valid = 0
    for number, (text, law_name) in enumerate(steps[1:], start=2):
        reason = _judge(statement, previous, text, law_name, number)
        if isinstance(reason, str):
            verdicts.append(StepVerdict(number, text, law_name, False, reason))
            return _report(statement, verdicts, valid)
        verdicts.append(StepVerdict(number, text, law_name, True))
        previous = reason
        valid += 1
    finished = domain.canonical(previous) == domain.canonical(right)
    return _report(statement, verdicts, valid, finished=finished)


def _as_steps(proof: Any, statement: Statement) -> list[tuple[str, str]]:
    shape = "a list of (expression, law) pairs of strings"
    if not isinstance(proof, (list, tuple)):
        raise CheckFailure(f"{statement.name} should be {shape}; yours is a {type(proof).__name__}")
    if len(proof) > MAX_STEPS:
        raise CheckFailure(f"{statement.name} has {len(proof)} steps; at most {MAX_STEPS}")
    steps = []
    for number, step in enumerate(proof, start=1):
        if not (
            isinstance(step, (list, tuple))
            and len(step) == 2
            and all(isinstance(s, str) for s in step)
        ):
            raise CheckFailure(
                f"step {number} of {statement.name} should be a pair of strings, {shape}"
            )
        if max(len(step[0]), len(step[1])) > MAX_TEXT:
            raise CheckFailure(
                f"step {number} of {statement.name} is longer than {MAX_TEXT} characters"
            )
        steps.append((step[0], step[1]))
    return steps


def _judge(statement: Statement, previous: Any, text: str, law_name: str, number: int) -> Any:
    """The parsed step when it is accepted; otherwise the reason it is not (a string)."""
    domain = statement.domain
    try:
        current = domain.parse(text)
    except ProofSyntaxError as error:
        return str(error)
    law = statement.law(law_name)
    if law is None:
        names = ", ".join(repr(law.name) for law in statement.laws)
        return f"{law_name!r} is not a law of this proof's vocabulary: {names}"
    if domain.canonical(current) == domain.canonical(previous):
        return "this step changes nothing; it earns nothing"
    counterexample = domain.differs(previous, current)
    if counterexample is not None:
        return f"this step is false: {counterexample}"
    if not _justifies(domain, law, previous, current):
        return _what_would(statement, previous, current, law)
    for weaker in law.weaker:
        weak = statement.law(weaker)
        if weak is not None and _justifies(domain, weak, previous, current):
            return f"this step follows by {weaker!r} alone: name that law, not {law.name!r}"
    return current


def _justifies(domain: Domain, law: Law | Sequence[Law], previous: Any, current: Any) -> bool:
    laws = [law] if isinstance(law, Law) else list(law)

    def normal(expression: Any) -> Any:
        for each in laws:
            expression = domain.canonical(each.normalise(expression))
        return expression

    try:
        return bool(normal(previous) == normal(current))
    except (TypeError, ValueError, AttributeError):
        return False


def _what_would(statement: Statement, previous: Any, current: Any, named: Law) -> str:
    domain = statement.domain
    alone = [law for law in statement.laws if _justifies(domain, law, previous, current)]
    if alone:
        return f"this step does not follow by {named.name!r}; it follows by {alone[0].name!r}"
    for first, second in itertools.permutations(statement.laws, 2):
        if _justifies(domain, (first, second), previous, current):
            return (
                f"this step applies two laws at once ({first.name!r}, then {second.name!r}): "
                "write each as a step of its own"
            )
    return (
        f"this step does not follow by {named.name!r} ({named.hint}); "
        "it skips ahead: add the steps between"
    )


def _report(
    statement: Statement, verdicts: list[StepVerdict], valid: int, *, finished: bool = False
) -> ProofReport:
    accepted = all(v.ok for v in verdicts)
    if accepted and finished and valid >= 2:
        return ProofReport(
            tuple(verdicts), 1.0, f"{statement.name}: all {valid} steps follow; proved"
        )
    if accepted and finished:
        summary = f"{statement.name}: a proof needs its steps in between, one law each; no credit"
        return ProofReport(tuple(verdicts), 0.0, summary)
    credit = min(0.5, valid / statement.reference_steps) if verdicts[0].ok else 0.0
    if accepted:
        summary = (
            f"{statement.name}: {valid} valid steps, but the proof does not reach the right side "
            f"{statement.right!r}: finish it (an unfinished proof earns at most half)"
        )
    else:
        bad = next(v for v in verdicts if not v.ok)
        before = f"{valid} valid step{'s' if valid != 1 else ''} before it"
        summary = f"{statement.name}: step {bad.number} is not accepted; {before}"
    return ProofReport(tuple(verdicts), round(credit, 6), summary)
