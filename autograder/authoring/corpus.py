"""An assignment's independent corpus: student code from public sources, judged for its hints.

`assignments/NAME/independent_corpus.py` (optional) lists VARIANTS, each replacing one function
of the reference with code in the style of public implementations, tutorials or forum
threads, written without reading the assignment's catalogue. A "correct" variant is another
right way to write the function: it must keep full marks with no hint. A "mistake" must lose
points, and should be *named*: some failing test's hint or message carries all its keywords
(a hidden test's hint is phrased without values, so its keywords are compared so phrased too).
A hint *misleads* when it carries neither the keywords nor a fact the engine checked: that the
function broke the argument contract on those calls, or that a function it calls is wrong on
its own tests (the blame, when it adds no diagnosis of that function: one it adds must carry the
keywords like any hint).
`autograder validate` grades the corpus and prints the rate; the kit's tests hold it to it.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from autograder.course.assignment import CORPUS_FILE, Assignment
from autograder.diagnosis.disclosure import without_values
from autograder.errors import ConfigError
from autograder.grading.results import SubmissionResult

KEYWORD_OR = "|"
"""Between two phrasings of one keyword, either of which names the mistake."""
NAMED_AT_LEAST = 0.9
"""The share of the corpus's mistakes that must be named."""
NAMED_WITHOUT_CATALOGUE = 0.85
"""The share the kit's own judgement (mutants, generic measures) must name with the
assignment's catalogue and signatures switched off."""
CONTRACT_REMARKS = ("must refuse", "a ValueError is required")
"""What the engine says of a function that accepts or mis-refuses invalid arguments."""
BLAME_ALONE = re.compile(
    r"\S+ calls (\S+), which is wrong on its own tests: fix \1 first, this test depends on it"
)
"""The blame of grading/pytest_plugin.py with no diagnosis of the culprit after it."""


@dataclass(frozen=True)
class Variant:
    """One function of the reference, written another way."""

    name: str
    origin: str
    """Where the code comes from (a tutorial, a library, a forum thread)."""
    source: str
    """The function's source; appended to the reference's, so it may use its names."""
    keywords: tuple[str, ...]
    """Words every hint on this variant must contain (all of them; "grow|multiplied by": either
    phrasing of one fact); empty for a correct one."""
    kind: str
    """"correct" (another right implementation) or "mistake" (wrong on some allowed input)."""


@dataclass(frozen=True)
class Judged:
    """How the grader treated one variant."""

    name: str
    kind: str
    lost_points: bool
    named: bool
    misleading: tuple[str, ...]
    result: SubmissionResult


def load_corpus(assignment: Assignment) -> tuple[Variant, ...]:
    """The assignment's corpus (its VARIANTS), or none without a corpus file."""
    path = assignment.folder / CORPUS_FILE
    if not path.is_file():
        return ()
    name = f"instructor_{assignment.name}_corpus"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ConfigError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up by name
    try:
        spec.loader.exec_module(module)
    finally:
        sys.modules.pop(name, None)
    variants = tuple(getattr(module, "VARIANTS", ()))
    names = [v.name for v in variants]
    if len(set(names)) != len(names) or any(v.kind not in ("correct", "mistake") for v in variants):
        raise ConfigError(f"{path}: variant names must be unique and kinds correct or mistake")
    return variants


def judge(variant: Variant, result: SubmissionResult) -> Judged:
    def carries(text: str, hidden: bool) -> bool:
        text = text.lower()
        return all(
            any(
                word.lower() in text or (hidden and without_values(word).lower() in text)
                for word in keyword.split(KEYWORD_OR)
            )
            for keyword in variant.keywords
        )

    named = bool(variant.keywords) and any(
        carries(f"{t.hint or ''} {t.message or ''}", t.hidden) for t in result.tests
    )
    misleading = tuple(
        t.hint
        for t in result.tests
        if t.hint
        and (variant.kind == "correct" or not carries(t.hint, t.hidden))
        and not (variant.kind == "mistake" and _contract_only(t.hint))
    )
    lost = result.status != "graded" or result.score < result.max_score
    return Judged(variant.name, variant.kind, lost, named, misleading, result)


def _contract_only(hint: str) -> bool:
    """A fact the reference checked, so never misleading, though it names no mistake: the
    function broke the argument contract on these very calls (the reference refuses them, or
    raised ValueError where the student raised another), or it calls a function that is wrong
    on its own tests (the blame alone, with no diagnosis of that function)."""
    return any(remark in hint for remark in CONTRACT_REMARKS) or bool(BLAME_ALONE.fullmatch(hint))


def summary(judged: Sequence[Judged]) -> str:
    """The corpus in one line: the figures a closing note quotes."""
    correct = [j for j in judged if j.kind == "correct"]
    mistakes = [j for j in judged if j.kind == "mistake"]
    named = sum(j.named for j in mistakes)
    return (
        f"{len(correct)} correct styles, {sum(j.lost_points for j in correct)} failed; "
        f"{len(mistakes)} mistakes, {sum(not j.lost_points for j in mistakes)} full marks, "
        f"{named} named ({100 * named / max(len(mistakes), 1):.0f} %), "
        f"{sum(bool(j.misleading) for j in judged)} misleading"
    )


def problems(judged: Sequence[Judged], at_least: float = NAMED_AT_LEAST) -> list[str]:
    """What breaks the corpus's promises: a correct style failed or hinted, a mistake with
    full marks, a misleading hint, fewer than `at_least` of the mistakes named."""
    found = []
    for j in judged:
        if j.kind == "correct" and (j.lost_points or j.misleading):
            found.append(f"correct style {j.name} lost points or got a hint")
        if j.kind == "mistake" and not j.lost_points:
            found.append(f"mistake {j.name} kept full marks")
        if j.kind == "mistake" and j.misleading:
            found.append(f"mistake {j.name} got a misleading hint: {j.misleading[0][:80]}")
    mistakes = [j for j in judged if j.kind == "mistake"]
    unnamed = [j.name for j in mistakes if not j.named]
    if mistakes and len(unnamed) > (1 - at_least) * len(mistakes):
        found.append(f"only {len(mistakes) - len(unnamed)} of {len(mistakes)} named; not: "
                     + ", ".join(unnamed))  # fmt: skip
    return found


def corpus_files(variants: Sequence[Variant], solution: str, folder: Path) -> dict[str, Path]:
    """Each variant as a submission: the reference's solution with the one function replaced."""
    paths = {}
    for variant in variants:
        path = folder / f"corpus_{variant.name}.py"
        path.write_text(f"{solution}\n\n{variant.source}", encoding="utf-8")
        paths[variant.name] = path
    return paths
