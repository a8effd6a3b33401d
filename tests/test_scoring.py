"""Points come from test markers, and the rubric refuses tests that do not add up."""

from __future__ import annotations

from pathlib import Path

import pytest

from autograder.course.rubric import load_rubric
from autograder.errors import ConfigError
from autograder.grading.results import TestOutcome
from autograder.grading.scoring import score_tests

RUBRIC = """
[assignments.demo]
title = "Demo"
module = "demo.py"
[assignments.demo.parts.one]
title = "One"
points = 3
"""


def outcome(
    name: str, status: str = "passed", points: float | None = 1.5, part: str | None = "one"
) -> TestOutcome:
    hidden = name.startswith("h")  # as the recorder marks a test collected from hidden_tests/
    return TestOutcome(
        nodeid=f"t.py::{name}",
        hidden=hidden,
        name=name,
        title=name,
        part=part,
        status=status,
        points=points,  # type: ignore[arg-type]
    )


@pytest.fixture
def rubric(tmp_path: Path):  # type: ignore[no-untyped-def]
    path = tmp_path / "grading.toml"
    path.write_text(RUBRIC)
    return load_rubric(path)


def test_scores_and_default_visibility(rubric) -> None:  # type: ignore[no-untyped-def]
    spec = rubric.assignment()
    tests = score_tests(rubric, spec, (outcome("a"), outcome("h", status="failed")))
    assert [(t.score, t.max_score, t.visibility) for t in tests] == [
        (1.5, 1.5, "visible"),
        (0.0, 1.5, "after_due_date"),
    ]


@pytest.mark.parametrize(
    ("outcomes", "complaint"),
    [
        (
            (outcome("a"),),
            r"\[assignments.demo.parts.one\] points = 3, but its tests add up to 1.5",
        ),
        (
            (outcome("a"), outcome("b", points=None)),
            "lack a part or points marker, e.g. t.py::b",
        ),
        (
            (outcome("a"), outcome("b", part="two")),
            "is marked part 'two', which .* does not define",
        ),
    ],
)
def test_mismatches_name_the_part_and_the_fix(rubric, outcomes, complaint) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError, match=complaint):
        score_tests(rubric, rubric.assignment(), outcomes)
