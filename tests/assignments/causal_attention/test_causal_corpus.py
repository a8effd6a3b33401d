"""The independent corpus of causal_attention (its independent_corpus.py), graded for real:
every correct style scores full marks with no hint, every mistake loses points, at least 90 %
of them are named, and no hint misleads (the promises are independent_corpus.py's tests)."""

from __future__ import annotations

import pytest
from independent_corpus import (
    grade_corpus,
    test_correct_styles_keep_full_marks_without_a_hint,
    test_every_mistake_loses_points,
    test_ninety_percent_of_mistakes_are_named_and_none_misleads,
    test_the_corpus_is_large_enough_and_sourced,
)

from autograder.authoring.corpus import Judged, summary
from autograder.course.assignment import Assignment

__all__ = [
    "test_correct_styles_keep_full_marks_without_a_hint",
    "test_every_mistake_loses_points",
    "test_ninety_percent_of_mistakes_are_named_and_none_misleads",
    "test_the_corpus_is_large_enough_and_sourced",
]


@pytest.fixture(scope="module")
def judged(assignment: Assignment, tmp_path_factory: pytest.TempPathFactory) -> list[Judged]:
    graded = grade_corpus(assignment, tmp_path_factory.mktemp("corpus"))
    print(summary(graded))
    return graded
