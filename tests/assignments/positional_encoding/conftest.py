"""The positional-encoding assignment's own tests run on the repository's course
(repository_course.py says why every fixture derived from the assignment is overridden here),
and share one grading of its sample class (the course tests' own)."""

from __future__ import annotations

import pytest
from repository_course import assignment_fixture, course, reference, spec

from autograder.authoring.course_tests import graded_sample_class
from autograder.course.assignment import Assignment
from autograder.grading.results import SubmissionResult

assignment = assignment_fixture("positional_encoding")

__all__ = ["assignment", "course", "graded", "reference", "spec"]


@pytest.fixture(scope="session")
def graded(assignment: Assignment) -> dict[str, SubmissionResult]:
    """Every sample, graded once per session (shared with tests/test_course.py)."""
    return graded_sample_class(assignment.course.root, assignment.name)
