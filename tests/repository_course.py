"""Fixtures for one assignment of the repository's own course, for its folder of tests.

An assignment's `conftest.py` overrides the engine tests' fixture course with these: `course`,
`assignment` (made by `assignment_fixture(name)`), and every session fixture that derives from the
assignment (`spec`, `reference`). pytest caches a session fixture once per definition, so a
parent's `spec` first computed in an assignment's folder would otherwise serve the engine's tests
later. Imported into each conftest, each is a definition of that folder's own."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from autograder.course.assignment import Assignment
from autograder.course.course import Course
from autograder.course.rubric import AssignmentSpec

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def course() -> Course:
    return Course.load(ROOT)


def assignment_fixture(name: str) -> Callable[[Course], Assignment]:
    """The `assignment` fixture for the course's assignment `name`."""

    @pytest.fixture(scope="session")
    def assignment(course: Course) -> Assignment:
        return course.assignment(name)

    return assignment


@pytest.fixture(scope="session")
def spec(assignment: Assignment) -> AssignmentSpec:
    return assignment.spec


@pytest.fixture(scope="session")
def reference(assignment: Assignment) -> ModuleType:
    return assignment.load_reference()
