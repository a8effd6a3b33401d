"""The positional-encoding assignment's own tests run on the repository's course: these fixtures
override the engine tests' fixture course for this folder (`spec` and `reference` follow)."""

from __future__ import annotations

from pathlib import Path

import pytest

from autograder.course.assignment import Assignment
from autograder.course.course import Course

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def course() -> Course:
    return Course.load(ROOT)


@pytest.fixture(scope="session")
def assignment(course: Course) -> Assignment:
    return course.assignment("positional_encoding")
