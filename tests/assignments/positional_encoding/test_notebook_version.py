"""The assignment's notebook: the solved instructor version earns full marks in the sandbox,
the student's stubs earn none, and the model answers stay out of the student's copy."""

from __future__ import annotations

import json
from pathlib import Path

from autograder.authoring.notebook import instructor_notebook, student_notebook
from autograder.course.assignment import Assignment
from autograder.grading.runners import Runner


def test_the_kit_grades_the_notebook_versions(tmp_path: Path, assignment: Assignment) -> None:
    solved = tmp_path / "solved.ipynb"
    solved.write_text(instructor_notebook(assignment), encoding="utf-8")
    stub = tmp_path / "stub.ipynb"
    student = student_notebook(assignment)
    stub.write_text(student, encoding="utf-8")
    text = "".join("".join(cell["source"]) for cell in json.loads(student)["cells"])
    assert "is permutation-equivariant" not in text and "BEGIN SOLUTION" not in text
    with Runner(assignment) as runner:
        assert runner.grade(solved).score == assignment.spec.max_score
        assert runner.grade(stub).score == 0
