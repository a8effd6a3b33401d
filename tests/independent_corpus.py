"""Grade an assignment's independent corpus (correct styles and mistakes from public code,
written without reading its catalogue) through the real grading path, and judge the hints.

A mistake is *named* when some failing test's hint or message carries all its keywords (a
hidden test's hint is phrased without values, so its keywords are compared so phrased). A hint
*misleads* when it carries neither the keywords nor, for a variant that checks no argument at
all, the engine's true remark that it accepts arguments it must refuse.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autograder.authoring.solutions import solution_source
from autograder.course.assignment import Assignment
from autograder.grading.disclosure import without_values
from autograder.grading.results import SubmissionResult
from autograder.grading.runners import RunnerPool

CONTRACT_REMARKS = ("must refuse", "a ValueError is required")


@dataclass(frozen=True)
class Judged:
    name: str
    kind: str
    lost_points: bool
    named: bool
    misleading: tuple[str, ...]
    result: SubmissionResult


def grade_corpus(assignment: Assignment, variants: Sequence[Any], folder: Path) -> list[Judged]:
    solution = solution_source(assignment.reference.read_text(encoding="utf-8"), origin="ref")
    paths = {}
    for variant in variants:
        paths[variant.name] = folder / f"{variant.name}.py"
        paths[variant.name].write_text(f"{solution}\n\n{variant.source}", encoding="utf-8")
    with RunnerPool(assignment, size=2) as runners, ThreadPoolExecutor(2) as pool:
        results = dict(zip(paths, pool.map(runners.grade, paths.values()), strict=True))
    return [judge(v, results[v.name]) for v in variants]


def judge(variant: Any, result: SubmissionResult) -> Judged:
    def carries(text: str, hidden: bool) -> bool:
        text = text.lower()
        return all(
            w.lower() in text or (hidden and without_values(w).lower() in text)
            for w in variant.keywords
        )

    named = bool(variant.keywords) and any(
        carries(f"{t.hint or ''} {t.message or ''}", t.hidden) for t in result.tests
    )
    checks_nothing = "raise ValueError" not in variant.source
    misleading = tuple(
        t.hint
        for t in result.tests
        if t.hint
        and (variant.kind == "correct" or not carries(t.hint, t.hidden))
        and not (checks_nothing and any(remark in t.hint for remark in CONTRACT_REMARKS))
    )
    return Judged(
        variant.name, variant.kind, result.score < result.max_score, named, misleading, result
    )


def table(judged: Sequence[Judged]) -> str:
    """The figures a closing note quotes."""
    correct = [j for j in judged if j.kind == "correct"]
    mistakes = [j for j in judged if j.kind == "mistake"]
    return (
        f"{len(correct)} correct styles, {sum(j.lost_points for j in correct)} failed; "
        f"{len(mistakes)} mistakes, {sum(not j.lost_points for j in mistakes)} full marks, "
        f"{sum(j.named for j in mistakes)} named "
        f"({100 * sum(j.named for j in mistakes) / max(len(mistakes), 1):.0f} %), "
        f"{sum(bool(j.misleading) for j in judged)} misleading"
    )
