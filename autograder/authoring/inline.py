"""A part's points for functions defined in this process: the test cells of a notebook.

nbgrader runs a notebook's test cells in the student's own kernel. Such a cell ends with
`part_points("encoding", globals())`: it runs the kit's tests of that part (public and hidden,
the same files and markers `autograder grade` uses) against the notebook's functions, prints
what failed and why on stdout, and returns the points earned, which nbgrader takes as the cell's
partial credit. There is no isolation here (nbgrader shares one kernel between student code and
tests); `autograder grade` on the same notebook grades it in the sandbox, with the same points.
"""

from __future__ import annotations

import os
import sys
import tempfile
import types
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import pytest

from autograder.course.assignment import Assignment
from autograder.course.course import TEMPLATE_INI, Course
from autograder.diagnosis import hint_table
from autograder.errors import ConfigError
from autograder.grading.grouping import FAILING, fix_first_line, grouped, shown_causes
from autograder.grading.pytest_plugin import GradingContext, recorder
from autograder.grading.results import TestOutcome
from autograder.grading.scoring import earned
from autograder.tolerance import DEFAULT_TOLERANCE

TOLERANCE = dict(DEFAULT_TOLERANCE)
"""The public tests' tolerance on a student's machine (the rubric's is the grader's)."""
COURSE_VARIABLE = "AUTOGRADER_COURSE"
"""Where the course (grading.toml) is, when the notebook runs outside of it."""


def part_points(
    part: str,
    namespace: Mapping[str, Any],
    *,
    tests: Literal["all", "public"] = "all",
    course: str | os.PathLike[str] | None = None,
    assignment: str | None = None,
) -> float:
    """The points `namespace`'s functions earn in `part`, after printing each failure.

    `tests="all"`: the public and hidden tests of the course (grading.toml at `course`, in
    $AUTOGRADER_COURSE or above the working folder). `tests="public"`: the public tests a
    student has, next to the notebook (the released folder's pytest.ini says where)."""
    module = types.ModuleType("student")
    module.__dict__.update({k: v for k, v in namespace.items() if not k.startswith("_")})
    if tests == "all":
        chosen = Course.load(Path(course) if course else find_course()).assignment(assignment)
        chosen.spec.part(part)  # a ConfigError naming the parts when it is unknown
        outcomes = run_part(chosen, part, module)
    else:
        outcomes = run_public_part(part, module)
    print_failures(outcomes)
    total = sum(earned(o) for o in outcomes)
    which = "" if tests == "all" else " in the public checks"
    print(f"{part}: {total:g} / {sum(o.points or 0 for o in outcomes):g} points{which}")
    return round(total, 6)


def print_failures(outcomes: list[TestOutcome]) -> None:
    """Each function's failures, as `autograder check` groups them: what to fix first, then
    its failing tests, no cause printed twice; a function not written yet in one line."""
    printed: dict[str, str] = {}
    for group in grouped(outcomes):
        if group.not_implemented:
            print(f"✗ {group.name}: not implemented yet ({len(group.tests)} tests)")
            continue
        failing = group.with_status(*FAILING, "not_implemented")
        if not failing:
            continue
        fix = fix_first_line(group, printed)
        print(f"{group.name}: {len(failing)} of {len(group.tests)} failed")
        if fix and fix != failing[0].message:  # a message alone is printed with its test
            print(f"  what to fix first: {fix}")
        for test, shown in zip(failing, shown_causes(failing, printed, group.name), strict=True):
            print(f"✗ {test.title}: {shown.message or test.status}")
            if shown.same_cause:
                print("  (same cause as above)")
            elif shown.cause and shown.cause != fix:
                print(f"  hint: {shown.cause}")


def run_whole(assignment: Assignment, namespace: Mapping[str, Any]) -> float:
    """Every part's points for `namespace`'s functions, run here (the benchmark's bare limit)."""
    module = types.ModuleType(assignment.spec.module_name)
    module.__dict__.update({k: v for k, v in namespace.items() if not k.startswith("__")})
    return round(sum(earned(o) for o in run_part(assignment, None, module)), 6)


def run_part(assignment: Assignment, part: str | None, student: Any) -> list[TestOutcome]:
    """Every test of `part` (of all parts: None), public and hidden, run here on `student`."""
    from autograder.grading.serve import grading_context

    context = grading_context(assignment, student=student)
    helpers = assignment.shared_folder.parent
    return _run(assignment.test_folders, assignment.folder, context, part, helpers)


def run_public_part(part: str, student: Any) -> list[TestOutcome]:
    """The public tests of `part` from the released folder around the working folder."""
    from autograder.student.local_check import released_folder

    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        target = released_folder(folder)
        if target is not None:
            table = hint_table.read(target.tests_dir / hint_table.FILE_NAME)
            context = GradingContext(
                student=student, reference=None, tolerance=TOLERANCE, seed=0, table=table
            )
            return _run([target.tests_dir], folder, context, part, target.tests_dir)
    raise ConfigError(
        f"no {TEMPLATE_INI} above {here}: open the notebook in the folder you were given, next "
        "to its tests/ folder"
    )


def _run(
    tests: list[Path], rootdir: Path, context: GradingContext, part: str | None, helpers: Path
) -> list[TestOutcome]:
    """pytest on `tests`, with `helpers` (the folder holding `shared/`) importable for the
    tests' `from shared.X import …`."""
    if str(helpers) not in sys.path:
        sys.path.insert(0, str(helpers))
    selector = _PartSelector(part)
    with tempfile.TemporaryDirectory() as scratch:
        ini = Path(scratch) / "pytest.ini"
        ini.write_text("[pytest]\n", encoding="utf-8")
        arguments = [*map(str, tests), "-c", str(ini), "--rootdir", str(rootdir),
                     "--confcutdir", str(rootdir),
                     "-p", "autograder.grading.pytest_plugin", "--import-mode=importlib",
                     "-p", "no:cacheprovider", "-p", "no:terminal"]  # fmt: skip
        pytest.main(arguments, plugins=[context, selector])
    if selector.config is None:
        raise ConfigError("pytest could not run the tests")
    return list(recorder(selector.config).outcomes.values())


class _PartSelector:
    """Keeps the tests of one part; remembers the session's config for its outcomes."""

    def __init__(self, part: str | None) -> None:
        self.part = part
        self.config: pytest.Config | None = None

    def pytest_configure(self, config: pytest.Config) -> None:
        self.config = config

    def pytest_collection_modifyitems(
        self, config: pytest.Config, items: list[pytest.Item]
    ) -> None:
        if self.part is None:
            return
        kept: list[pytest.Item] = []
        dropped: list[pytest.Item] = []
        for item in items:
            marker = item.get_closest_marker("part")
            (kept if marker and marker.args and marker.args[0] == self.part else dropped).append(
                item
            )
        if dropped:
            config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def find_course() -> Path:
    """$AUTOGRADER_COURSE, or the nearest folder above the working one with a grading.toml."""
    if os.environ.get(COURSE_VARIABLE):
        return Path(os.environ[COURSE_VARIABLE])
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        if (folder / "grading.toml").is_file():
            return folder
    raise ConfigError(f"no grading.toml above {here}: set {COURSE_VARIABLE} to the course folder")
