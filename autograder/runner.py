"""The trusted runner: pytest on an assignment's public and hidden tests against a worker.

Started by grade.py as `python -m autograder.runner CONFIG_JSON`, once per submission, so that
the grader's own process never holds test modules, the reference or student data. It writes
the tests' outcomes and the worker's captured output to the results file named in CONFIG_JSON.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import tempfile
from pathlib import Path
from types import ModuleType

import pytest

from autograder.checks.symbolic import configure as configure_symbolic
from autograder.course import Course
from autograder.diagnose import Misconception
from autograder.proxy import StudentProxy
from autograder.pytest_plugin import GradingContext
from autograder.results import TestOutcome
from autograder.sandbox.client import StudentSession
from autograder.sandbox.isolation import choose
from autograder.sandbox.reaper import become_subreaper

TEST_FOLDERS = ("public_tests", "hidden_tests")


def main(argv: list[str]) -> int:
    config = json.loads(argv[0])
    course = Course.load(Path(config["course"]))
    spec = course.rubric.assignment(config["assignment"])
    hidden = [course.root, *(Path(p) for p in config.get("hide", []))]
    isolation = choose(hidden=hidden, bubblewrap=spec.bubblewrap)
    results_file = Path(config["results"])
    session = StudentSession(
        submission=Path(config["submission"]),
        module_name=spec.module_name,
        limits=spec.limits,
        isolation=isolation,
        reap_orphans=become_subreaper(),
    )
    configure_symbolic(spec.symbolic)
    folder = course.assignment_dir(spec)
    tests = [str(folder / name) for name in TEST_FOLDERS if (folder / name).is_dir()]
    context = GradingContext(
        student=StudentProxy(session),
        reference=import_instructor_module(course.reference_path(spec)),
        tolerance=spec.tolerance,
        seed=spec.seed,
        calls=session.calls,
        catalogue=load_catalogue(course.assignment_dir(spec)),
    )
    with session, tempfile.TemporaryDirectory(prefix="autograder-runner-") as scratch:
        ini = Path(scratch) / "pytest.ini"
        ini.write_text("[pytest]\n", encoding="utf-8")
        outcomes_file = Path(scratch) / "outcomes.json"
        arguments = [*tests, "-c", str(ini), "--rootdir", str(folder),
                     "-p", "autograder.pytest_plugin", "-p", "no:cacheprovider",
                     "--import-mode=importlib", "-p", "no:terminal",
                     f"--autograder-results={outcomes_file}"]  # fmt: skip
        code = pytest.main(arguments, plugins=[context])
        if (
            code in (pytest.ExitCode.INTERNAL_ERROR, pytest.ExitCode.USAGE_ERROR)
            or not outcomes_file.is_file()
        ):
            raise SystemExit(f"pytest could not run the tests (exit code {int(code)})")
        outcomes = json.loads(outcomes_file.read_text(encoding="utf-8"))["tests"]
    results_file.write_text(
        json.dumps(
            {
                "tests": [TestOutcome.from_dict(o).to_dict() for o in outcomes],
                "isolation": isolation.layers,
                "output": session.output.text(),
                "worker_events": session.events,
            }
        ),
        encoding="utf-8",
    )
    return 0


def import_instructor_module(path: Path) -> ModuleType:
    """An instructor's file (the reference, the catalogue): trusted code, never a student's."""
    spec = importlib.util.spec_from_file_location(
        f"instructor_{path.parent.name}_{path.stem}", path
    )
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_catalogue(assignment_dir: Path) -> tuple[Misconception, ...]:
    """The assignment's CATALOGUE of misconceptions, or none when it has no misconceptions.py."""
    path = assignment_dir / "misconceptions.py"
    if not path.is_file():
        return ()
    return tuple(import_instructor_module(path).CATALOGUE)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
