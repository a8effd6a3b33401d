"""The causal-attention notebook through nbgrader's own round trip, against the kit's grades."""

from __future__ import annotations

from pathlib import Path

import pytest
from nbgrader_run import automatic_scores, nbgrader

from autograder.cli import main
from autograder.course.assignment import Assignment
from autograder.grading.runners import Runner

UPPER = (
    "return np.tril(np.ones((T, T), dtype=bool))",
    "return np.triu(np.ones((T, T), dtype=bool))",
)
"""The reference's mask, made to point at the future."""


@pytest.mark.slow
def test_nbgrader_round_trip_agrees_with_the_kit(tmp_path: Path, assignment: Assignment) -> None:
    course_dir = tmp_path / "nbgrader_course"
    command = ["release", "--course", str(assignment.course.root), "--nbgrader", str(course_dir),
               "--assignment", assignment.name]  # fmt: skip
    assert main(command) == 0
    name = assignment.name
    source = (course_dir / "source" / name / f"{name}.ipynb").read_text(encoding="utf-8")
    nbgrader(course_dir, "generate_assignment", name, "--force")
    released = (course_dir / "release" / name / f"{name}.ipynb").read_text(encoding="utf-8")
    assert "BEGIN SOLUTION" not in released and "np.tril" not in released
    upper = source.replace(*UPPER)
    assert upper != source
    notebooks = {"correct": source, "upper": upper, "stub": released}
    for student, text in notebooks.items():
        folder = course_dir / "submitted" / student / name
        folder.mkdir(parents=True)
        (folder / f"{name}.ipynb").write_text(text, encoding="utf-8")
    nbgrader(course_dir, "autograde", name, "--create")
    nbgrader_scores = automatic_scores(course_dir, name, notebooks)
    with Runner(assignment) as runner:
        kit_scores = {
            student: runner.grade(course_dir / "submitted" / student / name / f"{name}.ipynb").score
            for student in notebooks
        }
    assert nbgrader_scores == kit_scores
    assert kit_scores["correct"] == 100 and kit_scores["stub"] == 0
    assert 0 < kit_scores["upper"] < 100
