"""`autograder check`: run the public tests on a student's module and collect their outcomes.

The tests run in a child pytest process, so a module that calls `os._exit`, crashes the
interpreter or loops forever costs the student a clear message, not the command itself.
"""

from __future__ import annotations

import ast
import configparser
import json
import os
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from autograder.course.course import SUBMISSION_INI, TEMPLATE_INI, Course, find_course_root
from autograder.errors import ConfigError
from autograder.protocol.results import TestOutcome

DEFAULT_TIMEOUT_S = 300.0
UNREAD_PLUGINS = ("unraisableexception", "threadexception", "pastebin", "junitxml", "doctest",
                  "stepwise", "setuponly", "setupplan", "faulthandler")  # fmt: skip
"""pytest's plugins whose work no check reads (the outcomes come from the kit's plugin, and a
crash's last lines from the terminal's output): `unraisableexception` alone collects garbage
twice at the end of every run, about a tenth of a second."""
NO_PLUGIN_AUTOLOAD = {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
"""The public tests need the kit's plugin alone (named with -p): the plugins other installed
packages register with pytest (anyio's, from a Jupyter install, takes most of a second to
import) are not loaded, in `check` as in the grader's runner. A course whose tests need a
plugin names it in a conftest.py's `pytest_plugins`."""


@dataclass(frozen=True)
class CheckTarget:
    """What to check: the student's module and the folder of public tests to run on it."""

    submission: Path
    tests_dir: Path


@dataclass(frozen=True)
class CheckReport:
    """The outcome of every public test, or the reason the tests could not report."""

    target: CheckTarget
    outcomes: tuple[TestOutcome, ...]
    problem: str | None = None
    order: tuple[str, ...] = ()
    """The names the student's module defines, in its order (the assignment's): the order of
    the report's functions."""

    @property
    def all_passed(self) -> bool:
        return (
            self.problem is None
            and bool(self.outcomes)
            and all(outcome.status == "passed" for outcome in self.outcomes)
        )

    def count(self, status: str) -> int:
        return sum(outcome.status == status for outcome in self.outcomes)

    @property
    def functions(self) -> list[str]:
        """The functions the tests are about, in the module's order (else the tests')."""
        found = list(dict.fromkeys(o.function for o in self.outcomes if o.function))
        place = {name: index for index, name in enumerate(self.order)}
        return sorted(found, key=lambda name: place.get(name, len(place)))

    def only(self, function: str) -> CheckReport:
        """The report on `function`'s tests alone; a problem naming the functions there are
        when no test is about it."""
        if self.problem is not None:
            return self
        kept = tuple(o for o in self.outcomes if o.function == function)
        if kept:
            return CheckReport(self.target, kept, order=self.order)
        known = ", ".join(self.functions) or "none"
        return CheckReport(
            self.target,
            (),
            f"no public test is about {function}; the tests are about: {known}",
            self.order,
        )


def locate(path: Path, *, assignment: str | None = None) -> CheckTarget:
    """Find the student's module at `path` (a file, or a folder holding it) and its public tests.

    A folder released by `autograder release` describes itself in its pytest.ini; otherwise the
    course around `path` (or around the current folder) says which assignment the file belongs to.
    """
    path = path.resolve()
    if not path.exists():
        raise ConfigError(f"{path} does not exist: pass your module or the folder that holds it")
    folder = path if path.is_dir() else path.parent
    released = released_folder(folder)
    if released is not None and (path.is_dir() or path.name == released.submission.name):
        return released
    course_root = find_course_root(folder) or find_course_root(Path.cwd())
    if course_root is None:
        raise ConfigError(
            f"cannot tell which assignment {path} belongs to: run `autograder check` in the "
            f"folder you were given (it has a {TEMPLATE_INI}), or inside the course folder"
        )
    course = Course.load(course_root)
    if path.is_dir():
        chosen = course.assignment(assignment)
        submission = path / chosen.spec.module
    else:
        by_module = course.rubric.assignment_for_module(path.name)
        chosen = course.assignment(by_module.name if by_module else assignment)
        submission = path
    if not submission.is_file():
        raise ConfigError(
            f"{submission} does not exist: the assignment expects {chosen.spec.module}"
        )
    return CheckTarget(submission=submission, tests_dir=chosen.public_tests)


def released_folder(folder: Path) -> CheckTarget | None:
    """The student module and public tests a released folder's pytest.ini names, or None."""
    ini = folder / TEMPLATE_INI
    if not ini.is_file():
        return None
    parser = configparser.ConfigParser()
    parser.read(ini, encoding="utf-8")
    module = parser.get("pytest", SUBMISSION_INI, fallback=None)
    tests = parser.get("pytest", "testpaths", fallback="tests")
    if not module:
        return None
    return CheckTarget(submission=folder / module, tests_dir=folder / tests.split()[0])


def _kill_tree(process: subprocess.Popen[bytes]) -> None:
    """End the test process and, on POSIX, every process the student's module started."""
    if hasattr(os, "killpg"):
        os.killpg(process.pid, signal.SIGKILL)
    else:  # Windows: no process groups through os; ending the test process is what we can do
        process.kill()


def helper_folders(tests_dir: Path) -> list[Path]:
    """Where the tests' `from shared.X import …` finds X: next to a released folder's tests
    (`tests/shared/`), and in a course's own tests, its `assignments/` folder."""
    course_root = find_course_root(tests_dir)
    return [tests_dir, *([course_root / "assignments"] if course_root is not None else [])]


def run_check(
    target: CheckTarget, *, timeout_s: float = DEFAULT_TIMEOUT_S, keyword: str | None = None
) -> CheckReport:
    """Run the public tests on the student's module in a child process and read their outcomes
    (only those pytest's `-k keyword` selects, if given)."""
    with tempfile.TemporaryDirectory(prefix="autograder-check-") as scratch:
        results = Path(scratch) / "results.json"
        ini = Path(scratch) / "pytest.ini"
        ini.write_text("[pytest]\n", encoding="utf-8")  # isolate from any config around the tests
        command = [
            sys.executable, "-m", "autograder.student.check_process", str(target.tests_dir),
            "-c", str(ini), "--rootdir", str(target.tests_dir),
            "--confcutdir", str(target.tests_dir.parent),
            "-p", "autograder.grading.pytest_plugin", "-p", "no:cacheprovider",
            "--import-mode=importlib", "-q", "--no-header", "-o", "console_output_style=classic",
            f"--submission={target.submission}", f"--autograder-results={results}",
            f"--autograder-verdicts={target.tests_dir}",
            *(part for name in UNREAD_PLUGINS for part in ("-p", f"no:{name}")),
            *(["-k", keyword] if keyword else []),
        ]  # fmt: skip
        helpers = [str(path) for path in helper_folders(target.tests_dir)]
        helpers += filter(None, [os.environ.get("PYTHONPATH")])
        environment = {
            **os.environ,  # bytecode as the student's own Python does it (pytest keeps the
            # tests it rewrote for the next run unless PYTHONDONTWRITEBYTECODE says not to)
            "PYTHONPATH": os.pathsep.join(helpers),  # the tests' `from shared.X import`
            **NO_PLUGIN_AUTOLOAD,
        }
        process = subprocess.Popen(
            command,
            cwd=target.submission.parent,
            env=environment,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # so a timeout can end the module's own children too
        )
        try:
            output, _ = process.communicate(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            _kill_tree(process)
            process.communicate()
            return CheckReport(
                target,
                (),
                f"the public tests did not finish within {timeout_s:g} s: "
                "does one of your functions loop forever?",
            )
        if not results.is_file():
            tail = output.decode("utf-8", "replace").strip().splitlines()[-5:]
            return CheckReport(
                target,
                (),
                f"the test process ended before it could report (exit code {process.returncode}); "
                "does your module call exit() or os._exit()? Its last output:\n" + "\n".join(tail),
            )
        data = json.loads(results.read_text(encoding="utf-8"))
        outcomes = tuple(TestOutcome.from_dict(item) for item in data["tests"])
        problem = None
        order = definition_order(target.submission)
        if not outcomes:
            problem = (
                f"no public test matches -k {keyword!r}"
                if keyword
                else f"no public test was found in {target.tests_dir}"
            )
        return CheckReport(target, outcomes, problem, order)


def definition_order(module: Path) -> tuple[str, ...]:
    """The functions and constants `module` defines at its top level, in order, read without
    running it (none when it cannot be read or parsed)."""
    try:
        tree = ast.parse(module.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return ()
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.append(node.name)
        elif isinstance(node, ast.Assign):
            names += [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
    return tuple(dict.fromkeys(names))
