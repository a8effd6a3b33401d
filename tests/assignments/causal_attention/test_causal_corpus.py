"""The independent corpus of causal_attention (its independent_corpus.py), graded for real:
every correct style scores full marks with no hint, every mistake loses points, at least 90 %
of them are named, and no hint misleads."""

from __future__ import annotations

import pytest
from independent_corpus import grade_corpus

from autograder.authoring.corpus import Judged, load_corpus, problems, summary
from autograder.course.assignment import Assignment


@pytest.fixture(scope="module")
def judged(assignment: Assignment, tmp_path_factory: pytest.TempPathFactory) -> list[Judged]:
    graded = grade_corpus(assignment, tmp_path_factory.mktemp("corpus"))
    print(summary(graded))
    return graded


def test_the_corpus_is_large_enough_and_sourced(assignment: Assignment) -> None:
    variants = load_corpus(assignment)
    assert sum(v.kind == "correct" for v in variants) >= 8
    assert sum(v.kind == "mistake" for v in variants) >= 25
    assert all(v.origin and (v.keywords or v.kind == "correct") for v in variants)


def test_correct_styles_keep_full_marks_without_a_hint(judged: list[Judged]) -> None:
    wrong = [(j.name, j.result.score, j.misleading) for j in judged if j.kind == "correct"
             if j.lost_points or j.misleading]  # fmt: skip
    assert wrong == []


def test_every_mistake_loses_points(judged: list[Judged]) -> None:
    assert [j.name for j in judged if j.kind == "mistake" and not j.lost_points] == []


def test_ninety_percent_of_mistakes_are_named_and_none_misleads(judged: list[Judged]) -> None:
    assert problems(judged) == []
