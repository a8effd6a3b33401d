"""Keep a graded submission's written answers in the gradebook (batch.py calls this)."""

from __future__ import annotations

from pathlib import Path

from autograder.course.rubric import AssignmentSpec
from autograder.manual.answers import read_answers
from autograder.manual.store import ManualStore


def capture_answers(folder: Path, spec: AssignmentSpec, student: str, submission: Path) -> None:
    """Read and store `student`'s answers to the manual parts of `spec` (missing ones too)."""
    answers = read_answers(submission, spec)
    with ManualStore(folder) as store:
        store.record_answers(spec.name, student, answers)
