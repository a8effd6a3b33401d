"""Shared fixtures: the repository's course, its reference module, and throwaway copies of both."""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

from autograder.course.course import Course
from autograder.course.rubric import AssignmentSpec

ROOT = Path(__file__).resolve().parents[1]
COURSE_FILES = ("grading.toml", "reference", "assignments", "student_template")


@pytest.fixture(scope="session")
def course() -> Course:
    return Course.load(ROOT)


@pytest.fixture(scope="session")
def spec(course: Course) -> AssignmentSpec:
    return course.rubric.assignment("positional_encoding")


@pytest.fixture(scope="session")
def reference(course: Course, spec: AssignmentSpec) -> ModuleType:
    """The reference solution, imported from its file (it is not part of the installed package)."""
    path = course.reference_path(spec)
    module_spec = importlib.util.spec_from_file_location("reference_positional_encoding", path)
    assert module_spec is not None and module_spec.loader is not None
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module


def copy_course(target: Path) -> Course:
    """A copy of the repository's course files in `target`."""
    for name in COURSE_FILES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, target / name)
    return Course.load(target)


@pytest.fixture
def course_copy(tmp_path: Path) -> Course:
    """A private copy of the course files, for tests that write or break them."""
    return copy_course(tmp_path)


@pytest.fixture(scope="module")
def module_course_copy(tmp_path_factory: pytest.TempPathFactory) -> Course:
    """A copy of the course files shared by one test module's tests (set up once per module)."""
    return copy_course(tmp_path_factory.mktemp("course"))


@pytest.fixture(scope="session")
def unprivileged_python() -> str | None:
    """An interpreter (with the kit's dependencies) that every user may run: this one where
    every folder above it is open to others, else the one `make test` prepares as root
    (.ci/unprivileged-python). Tests that grade as another user, or as root without bwrap
    (where the worker must drop to a user of its own), run the grader with it."""
    candidates = [sys.executable, os.environ.get("AUTOGRADER_UNPRIVILEGED_PYTHON", ""),
                  "/opt/autograder-unprivileged/bin/python"]  # fmt: skip
    for candidate in filter(None, candidates):
        path = Path(candidate).resolve()
        if path.is_file() and all(os.stat(f).st_mode & 0o001 for f in path.parents):
            return candidate
    return None
