"""The assignment's rubric table: its parts and points, as the lessons weigh them."""

from __future__ import annotations

from autograder.course.rubric import AssignmentSpec


def test_the_rubric_table(spec: AssignmentSpec) -> None:
    assert spec.name == "positional_encoding" and spec.module == "positional_encoding.py"
    assert {p.name: p.points for p in spec.parts} == {
        "encoding": 30, "attention": 25, "rotation": 15, "symbolic": 15, "permutation": 15,
    }  # fmt: skip
    assert spec.max_score == 100
