"""Grade an assignment's independent corpus (corpus.py) through the real grading path."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from autograder.authoring import corpus
from autograder.authoring.solutions import solution_source
from autograder.course.assignment import Assignment
from autograder.grading.runners import RunnerPool


def grade_corpus(assignment: Assignment, folder: Path) -> list[corpus.Judged]:
    variants = corpus.load_corpus(assignment)
    solution = solution_source(assignment.reference.read_text(encoding="utf-8"), origin="ref")
    paths = corpus.corpus_files(variants, solution, folder)
    with RunnerPool(assignment, size=2) as runners, ThreadPoolExecutor(2) as pool:
        results = list(pool.map(runners.grade, [paths[v.name] for v in variants]))
    return [corpus.judge(v, r) for v, r in zip(variants, results, strict=True)]


# The promises every assignment's corpus keeps; a test module imports them beside its own
# `judged` fixture (pytest collects imported test functions as the module's own).


def test_the_corpus_is_large_enough_and_sourced(assignment: Assignment) -> None:
    variants = corpus.load_corpus(assignment)
    assert sum(v.kind == "correct" for v in variants) >= 8
    assert sum(v.kind == "mistake" for v in variants) >= 25
    assert all(v.origin and (v.keywords or v.kind == "correct") for v in variants)


def test_correct_styles_keep_full_marks_without_a_hint(judged: list[corpus.Judged]) -> None:
    wrong = [(j.name, j.result.score, j.misleading) for j in judged if j.kind == "correct"
             if j.lost_points or j.misleading]  # fmt: skip
    assert wrong == []


def test_every_mistake_loses_points(judged: list[corpus.Judged]) -> None:
    assert [j.name for j in judged if j.kind == "mistake" and not j.lost_points] == []


def test_ninety_percent_of_mistakes_are_named_and_none_misleads(
    judged: list[corpus.Judged],
) -> None:
    assert corpus.problems(judged) == []
