"""The causal-attention assignment's own tests run on the repository's course: these fixtures
override the engine tests' fixture course for this folder. Every session-scoped fixture that
derives from the assignment is overridden here too: pytest caches a session fixture once per
definition, so a parent's `spec` first computed here would serve the engine's tests later."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from autograder.course.assignment import Assignment
from autograder.course.course import Course
from autograder.course.rubric import AssignmentSpec

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def course() -> Course:
    return Course.load(ROOT)


@pytest.fixture(scope="session")
def assignment(course: Course) -> Assignment:
    return course.assignment("causal_attention")


@pytest.fixture(scope="session")
def spec(assignment: Assignment) -> AssignmentSpec:
    return assignment.spec


@pytest.fixture(scope="session")
def reference(assignment: Assignment) -> ModuleType:
    return assignment.load_reference()
