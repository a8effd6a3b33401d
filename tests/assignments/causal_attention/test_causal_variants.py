"""The independent corpus of causal_attention (causal_variants.py), graded for real: every
correct style scores full marks with no hint, every mistake loses points, at least 90 % of them
are named, and no hint misleads."""

from __future__ import annotations

import pytest
from causal_variants import CORRECT, MISTAKES, VARIANTS
from independent_corpus import Judged, grade_corpus, table

from autograder.course.assignment import Assignment


@pytest.fixture(scope="module")
def judged(assignment: Assignment, tmp_path_factory: pytest.TempPathFactory) -> list[Judged]:
    graded = grade_corpus(assignment, VARIANTS, tmp_path_factory.mktemp("variants"))
    print(table(graded))
    return graded


def test_the_corpus_is_large_enough_and_sourced() -> None:
    assert len(CORRECT) >= 8 and len(MISTAKES) >= 25
    assert all(v.origin for v in VARIANTS) and len({v.name for v in VARIANTS}) == len(VARIANTS)


def test_correct_styles_keep_full_marks_without_a_hint(judged: list[Judged]) -> None:
    wrong = [(j.name, j.result.score, j.misleading) for j in judged if j.kind == "correct"
             if j.lost_points or j.misleading]  # fmt: skip
    assert wrong == []


def test_every_mistake_loses_points(judged: list[Judged]) -> None:
    assert [j.name for j in judged if j.kind == "mistake" and not j.lost_points] == []


def test_ninety_percent_of_mistakes_are_named_and_none_misleads(judged: list[Judged]) -> None:
    mistakes = [j for j in judged if j.kind == "mistake"]
    unnamed = [j.name for j in mistakes if not j.named]
    assert len(unnamed) <= 0.1 * len(mistakes), unnamed
    assert {j.name: j.misleading for j in mistakes if j.misleading} == {}
