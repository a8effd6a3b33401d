"""What a student may read of a hidden test: no value of its inputs, in any text."""

from __future__ import annotations

from pathlib import Path

import pytest

from autograder.authoring.validate import validate
from autograder.course.course import Course
from autograder.diagnosis.disclosure import (
    NEVER_SHOWN,
    SHOWN_AT_ONCE,
    SHOWN_LATER,
    disclosure,
    holds_a_value,
    without_values,
)


def test_the_groups_follow_who_may_read_a_message() -> None:
    assert disclosure(hidden=False, visibility="visible") == SHOWN_AT_ONCE
    assert disclosure(hidden=False, visibility="after_due_date") == SHOWN_LATER
    assert disclosure(hidden=False, visibility="after_published") == SHOWN_LATER
    assert disclosure(hidden=False, visibility="hidden") == NEVER_SHOWN
    # a hidden test's results may be shown at once; its message (its inputs) never
    assert disclosure(hidden=True, visibility="visible") == NEVER_SHOWN


@pytest.mark.parametrize(("text", "phrased"), [
    ("but base=100 was passed: use `base`", "but base=… was passed: use `base`"),
    ("your frequencies follow ω = 10000^(−2i/C)", "your frequencies follow ω = …^(…i/C)"),
    ("slope base^(−3.74i/C); T=7. [1. 2.]", "slope base^(…i/C); T=… [… …]"),
    (".5 0x1F 1_000 3x3", "… … … …x…"),
    ("encoding(53, 10) at PE[7, 8] is 0.0699", "encoding(…) at PE[…, …] is …"),
    ("too large by a factor 1.414 = √2; -3.5e-4 off", "too large by a factor … = √…; … off"),
    ("causal_mask(T) is the 2i-th row of x2", "causal_mask(T) is the …i-th row of x…"),
])  # fmt: skip
def test_a_hidden_tests_hint_is_phrased_without_values(text: str, phrased: str) -> None:
    assert without_values(text) == phrased


@pytest.mark.parametrize(("title", "valued"), [
    ("T = 1000 positions, C = 128", True),
    ("entries of magnitude 1e4 give finite outputs", True),
    ("a long sequence at a wide model width", False),
    ("the first column is sin(pos) (wavelength 2π)", False),
    ("random shapes (case 3)", False),
    ("random shapes (case 3-2)", False),
    ("random shapes (case 3) of 4", True),
])  # fmt: skip
def test_a_title_with_a_number_is_one_with_a_value(title: str, valued: bool) -> None:
    assert holds_a_value(title) is valued


def test_validate_refuses_a_hidden_test_whose_title_holds_a_number(
    course_copy: Course, tmp_path: Path
) -> None:
    hidden = (
        course_copy.root / "assignments" / "vectors" / "hidden_tests" / "test_hidden_numeric.py"
    )
    text = hidden.read_text(encoding="utf-8")
    text = text.replace(
        '"""scale, normalise and cosine match the reference on random vectors"""',
        '"""scale, normalise and cosine on random vectors of 5 entries"""',
    )
    hidden.write_text(text, encoding="utf-8")
    assignment = Course.load(course_copy.root).assignment("vectors")
    verdicts = {v.name: v for v in validate(assignment, only=["reference"], jobs=1)}
    titles = verdicts["hidden test titles"]
    assert titles.problem is not None and "vectors of 5 entries" in titles.problem
    assert "test_random_vectors" in titles.problem


def test_validate_accepts_hidden_titles_without_values(course_copy: Course) -> None:
    verdicts = {v.name: v for v in validate(course_copy.assignment("vectors"), only=["reference"])}
    assert verdicts["hidden test titles"].ok and verdicts["reference"].ok
