"""Shared fixtures: the engine's test course (tests/fixtures/course), its first assignment, its
reference module, throwaway copies, and classes of submissions built from its sample class.

The engine's tests run on this fixture course alone; the tests of the course's real
assignments live in tests/assignments/ (their conftest gives the repository's course)."""

from __future__ import annotations

import ast
import importlib.util
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from autograder.course.assignment import Assignment
from autograder.course.course import Course
from autograder.course.rubric import AssignmentSpec
from autograder.student.verdict_cache import CACHE_ENV

pytest.register_assert_rewrite("autograder.authoring.course_tests")  # its asserts say their values
os.environ.setdefault(CACHE_ENV, tempfile.mkdtemp(prefix="autograder-test-cache-"))
"""`check`'s verdicts, kept between the suite's runs of it, never in the user's own cache."""

ROOT = Path(__file__).resolve().parents[1]
FIXTURE_COURSE = ROOT / "tests" / "fixtures" / "course"
COURSE_FILES = ("grading.toml", "reference", "assignments", "student_template")
collect_ignore = ["fixtures"]
"""The fixture course's tests are the course's, run by the grader on submissions: not the kit's."""


@pytest.fixture(scope="session")
def course() -> Course:
    return Course.load(FIXTURE_COURSE)


@pytest.fixture(scope="session")
def assignment(course: Course) -> Assignment:
    """The fixture course's first assignment, `vectors`."""
    return course.assignment("vectors")


@pytest.fixture(scope="session")
def spec(assignment: Assignment) -> AssignmentSpec:
    return assignment.spec


@pytest.fixture(scope="session")
def reference(assignment: Assignment) -> ModuleType:
    """The reference solution, imported from its file (it is not part of the installed package)."""
    return assignment.load_reference()


def copy_course(target: Path, source: Path = FIXTURE_COURSE) -> Course:
    """A copy of a course's files (the fixture course's by default) in `target`."""
    target.mkdir(parents=True, exist_ok=True)
    for name in COURSE_FILES:
        origin = source / name
        if origin.is_dir():
            shutil.copytree(origin, target / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif origin.is_file():
            shutil.copy2(origin, target / name)
    return Course.load(target)


@pytest.fixture(scope="session")
def course_copier() -> Callable[[Path, Path], Course]:
    """copy_course itself, for tests of another course than the fixture (tests/assignments/)."""
    return copy_course


@pytest.fixture
def course_copy(tmp_path: Path) -> Course:
    """A private copy of the fixture course, for tests that write or break it."""
    return copy_course(tmp_path / "course")


@pytest.fixture(scope="module")
def module_course_copy(tmp_path_factory: pytest.TempPathFactory) -> Course:
    """A copy of the fixture course shared by one test module's tests (set up once per module)."""
    return copy_course(tmp_path_factory.mktemp("course"))


ClassBuilder = Callable[[Path, dict[str, str]], Path]


@pytest.fixture
def make_class(assignment: Assignment) -> ClassBuilder:
    """Builds a class folder of `vectors` submissions: {student: sample submission's name
    (without .py)}; several students may hand in the same sample."""

    def build(folder: Path, names: dict[str, str]) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        for student, name in names.items():
            shutil.copy(assignment.sample_class / f"{name}.py", folder / f"{student}.py")
        return folder

    return build


@pytest.fixture
def stub_module(tmp_path: Path, assignment: Assignment) -> ModuleType:
    """The assignment's released module (its stubs), imported."""
    from autograder.authoring.release import render_release

    path = tmp_path / assignment.spec.module
    path.write_text(render_release(assignment)[assignment.spec.module], encoding="utf-8")
    module_spec = importlib.util.spec_from_file_location("stub_module", path)
    assert module_spec is not None and module_spec.loader is not None
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def docstrings() -> Callable[[str], dict[str, str | None]]:
    """The docstrings of a module's source: each top-level function's, and the module's."""

    def read(source: str) -> dict[str, str | None]:
        tree = ast.parse(source)
        functions = [node for node in tree.body if isinstance(node, ast.FunctionDef)]
        found: dict[str, str | None] = {f.name: ast.get_docstring(f) for f in functions}
        return found | {"<module>": ast.get_docstring(tree)}

    return read


@pytest.fixture(scope="session")
def living_zygotes() -> Callable[[], set[str]]:
    """The zygotes of this checkout's engine now alive, as "pid: command" (another checkout's
    tests may be grading at the same time: their zygotes are not counted)."""
    engine = str(ROOT)

    def alive() -> set[str]:
        found = set()
        for entry in Path("/proc").iterdir():
            try:
                command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if (
                entry.name.isdigit()
                and "autograder.sandbox.zygote" in command
                and engine in command
            ):
                found.add(f"{entry.name}: {command}")
        return found

    return alive


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
