"""The checks every assignment of a course passes, as one pytest module.

For each assignment: its committed release is current, `validate` passes, every sample of its
sample class scores what `sample_class/expected.toml` says (and leaves no trace: no file of the
course changed, no process alive, no connection made), its Gradescope zip grades in a simulated
Gradescope run, its notebook survives nbgrader's round trip with the kit's scores, and
`autograder check` in its released folder fails on the stubs and passes on the reference.

In a course's folder (the kit installed with its `course` extra):

    python -m pytest --pyargs autograder.authoring.course_tests

AUTOGRADER_COURSE=PATH chooses another course; AUTOGRADER_COURSE_ASSIGNMENTS=a,b some of its
assignments. A course's own test folder may instead `from autograder.authoring.course_tests
import *`.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from autograder.authoring import corpus
from autograder.authoring.nbgrader_run import automatic_scores, nbgrader
from autograder.authoring.notebook import has_notebook, write_nbgrader_course
from autograder.authoring.release import check_release
from autograder.authoring.sample_class import Sample, sample_class, write_samples
from autograder.authoring.sample_scores import SampleScore
from autograder.authoring.validate import validate
from autograder.authoring.variants import replaced_function
from autograder.course.assignment import Assignment
from autograder.course.course import Course
from autograder.course.solutions import solution_source
from autograder.diagnosis.mutants import mutants
from autograder.gradescope.export import build_zip
from autograder.gradescope.simulate import run_autograder
from autograder.grading.results import SubmissionResult
from autograder.grading.runners import Runner, RunnerPool
from autograder.student.local_check import CheckTarget, run_check

COURSE_VARIABLE = "AUTOGRADER_COURSE"
CHOSEN_VARIABLE = "AUTOGRADER_COURSE_ASSIGNMENTS"
SLACK_S = 5.0
"""What a sample may take beyond its submission timeout (the worker's start and stop)."""


def the_course() -> Course:
    """The course under test: AUTOGRADER_COURSE, else the one around the working folder."""
    chosen = os.environ.get(COURSE_VARIABLE)
    return _loaded(Path(chosen).resolve() if chosen else Course.find(Path.cwd()).root)


@functools.cache
def _loaded(root: Path) -> Course:
    return Course.load(root)


@functools.cache
def samples_of(course_root: Path, name: str) -> tuple[Sample, ...]:
    """The assignment's sample class, built once per process."""
    return tuple(sample_class(_loaded(course_root).assignment(name)))


def course_assignments() -> list[str]:
    names = [assignment.name for assignment in the_course().assignments]
    chosen = [name for name in os.environ.get(CHOSEN_VARIABLE, "").split(",") if name]
    return [name for name in names if not chosen or name in chosen]


def course_samples() -> list[tuple[str, str]]:
    course = the_course()
    return [
        (name, sample.name)
        for name in course_assignments()
        for sample in samples_of(course.root, name)
    ]


@pytest.fixture(scope="module", params=course_assignments())
def course_assignment(request: pytest.FixtureRequest) -> Assignment:
    return the_course().assignment(request.param)


# --- the sample class -----------------------------------------------------------------------


def fingerprint(course: Course) -> str:
    """A digest of the course's own files: grading must change none of them."""
    digest = hashlib.sha256()
    for path in sorted(course.root.rglob("*")):
        inside = path.relative_to(course.root).parts
        watched = inside[0] in ("reference", "assignments", "grading.toml")
        if path.is_file() and watched and "__pycache__" not in inside:
            digest.update(str(inside).encode() + path.read_bytes())
    return digest.hexdigest()


def zygotes() -> set[str]:
    """This engine's zygote processes now alive, as "pid: command"."""
    engine = str(Path(__file__).resolve().parents[2])  # the folder holding the package
    found = set()
    for entry in Path("/proc").iterdir() if Path("/proc").is_dir() else ():
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if entry.name.isdigit() and "autograder.sandbox.zygote" in command and engine in command:
            found.add(f"{entry.name}: {command}")
    return found


@functools.cache
def graded_sample_class(course_root: Path, name: str) -> dict[str, SubmissionResult]:
    """Every sample of the assignment graded once per process by two shared runners (as a batch
    does: hostile samples and the next ones share a runner and its zygote), with a listener up
    on each port a payload names. Asserts that grading left no trace."""
    course = _loaded(course_root)
    assignment = course.assignment(name)
    samples = samples_of(course_root, name)
    ports = sorted({s.listens_on for s in samples if s.listens_on is not None})
    before, alive_before = fingerprint(course), zygotes()
    listeners = [socket.create_server(("127.0.0.1", port), reuse_port=True) for port in ports]
    with tempfile.TemporaryDirectory(prefix="autograder-samples-") as scratch:
        try:
            for listener in listeners:
                listener.setblocking(False)
            paths = write_samples(samples, Path(scratch))
            with RunnerPool(assignment, size=2) as runners, ThreadPoolExecutor(2) as pool:
                results = list(pool.map(runners.grade, paths))
            for listener in listeners:
                with pytest.raises(BlockingIOError):
                    listener.accept()  # nobody connected: the sandbox has no network
        finally:
            for listener in listeners:
                listener.close()
    assert fingerprint(course) == before, "a submission changed the course's files"
    assert zygotes() <= alive_before, "a worker outlived its grading"
    return {result.submission: result for result in results}


@functools.cache
def _secrets(assignment: Assignment) -> tuple[str, ...]:
    """Texts only the grader holds: the reference's long lines of code, the hidden tests'
    names, the rubric's seed."""
    reference = [
        line.strip()
        for line in assignment.reference.read_text(encoding="utf-8").splitlines()
        if len(line.strip()) > 40 and "def " not in line and '"""' not in line
    ]
    hidden = "".join(p.read_text(encoding="utf-8") for p in assignment.hidden_tests.glob("*.py"))
    names = re.findall(r"def (test_\w+)", hidden)
    return (*reference, *names, f"seed = {assignment.spec.seed}")


def _expected(assignment: Assignment, name: str) -> Sample:
    samples = samples_of(assignment.course.root, assignment.name)
    return next(sample for sample in samples if sample.name == name)


@pytest.mark.parametrize(("assignment_name", "sample_name"), course_samples())
def test_sample_scores_what_expected_toml_says(assignment_name: str, sample_name: str) -> None:
    course = the_course()
    assignment = course.assignment(assignment_name)
    expected = _expected(assignment, sample_name)
    result = graded_sample_class(course.root, assignment_name)[sample_name]
    problems = SampleScore(expected, result).problems()  # "sample bug_x: expected 53, got 52"
    assert problems == [], "\n".join(problems)
    unprinted = [text for text in expected.prints if text not in result.output]
    assert unprinted == [], f"sample {sample_name}: its output does not hold {unprinted}"
    most = assignment.spec.limits.submission_timeout_s + SLACK_S
    assert result.duration_s <= most, f"sample {sample_name}: took {result.duration_s:.1f} s"
    if expected.hint is not None:  # a catalogued mistake: its hint is given
        hints = [t.hint or "" for t in result.tests if t.status == "failed"]
        assert any(expected.hint in hint for hint in hints), (
            f"sample {sample_name}: no failed test's hint names {expected.hint!r}"
        )
    if expected.score == assignment.spec.max_score:
        hinted = [t.hint for t in result.tests if t.hint]
        assert hinted == [], f"sample {sample_name}: full marks, yet hinted {hinted}"


@pytest.mark.parametrize(("assignment_name", "sample_name"), course_samples())
def test_sample_learns_no_secret(assignment_name: str, sample_name: str) -> None:
    """What a sample printed (everything its code could find) holds no line of the reference,
    no hidden test's name and not the rubric's seed, and stays under the output cap; the
    worker ran with every layer of isolation this machine has."""
    course = the_course()
    assignment = course.assignment(assignment_name)
    result = graded_sample_class(course.root, assignment_name)[sample_name]
    spec = assignment.spec
    assert len(result.output.encode()) <= spec.limits.output_kb * 1024 + 200
    leaked = [secret for secret in _secrets(assignment) if secret in result.output]
    assert leaked == []
    assert result.isolation[:2] == ("process", "rlimits")
    if shutil.which("bwrap") and spec.bubblewrap != "off":
        assert "bwrap" in result.isolation


def test_the_sample_class_is_all_graded(course_assignment: Assignment) -> None:
    course = course_assignment.course
    graded = graded_sample_class(course.root, course_assignment.name)
    assert sorted(graded) == sorted(s.name for s in samples_of(course.root, course_assignment.name))


# --- the assessment's own checks --------------------------------------------------------------


def test_the_release_is_current(course_assignment: Assignment) -> None:
    check_release(course_assignment)


def test_the_independent_corpus_is_large_enough_and_sourced(
    course_assignment: Assignment,
) -> None:
    """An assignment's independent corpus (when it has one; `validate` grades it) holds at least
    8 correct styles and 25 mistakes, each with its public source and its words."""
    variants = corpus.load_corpus(course_assignment)
    if not variants:
        return
    assert sum(v.kind == "correct" for v in variants) >= 8
    assert sum(v.kind == "mistake" for v in variants) >= 25
    assert [
        v.name for v in variants if not v.origin or not (v.keywords or v.kind == "correct")
    ] == []


def test_validate_passes(course_assignment: Assignment) -> None:
    verdicts = validate(course_assignment)
    failed = [f"{v.name}: {v.problem}" for v in verdicts if not v.ok]
    assert failed == [], "\n".join(failed)


# --- where it is graded -------------------------------------------------------------------------


def test_the_gradescope_zip_grades_as_the_kit_does(
    course_assignment: Assignment, tmp_path: Path
) -> None:
    """The zip, run as Gradescope runs it: the reference gets full marks and a catalogued
    mistake (the first sample made from one) the score the kit gives it."""
    archive = tmp_path / f"{course_assignment.name}.zip"
    build_zip(course_assignment, archive)
    module = course_assignment.spec.module
    when = "2026-12-01T10:00:00+00:00"
    reference = course_assignment.reference.read_text(encoding="utf-8")
    full = run_autograder(archive, tmp_path / "reference", {module: reference}, when)
    assert full["score"] == course_assignment.spec.max_score
    mistake = next(
        (
            s
            for s in samples_of(course_assignment.course.root, course_assignment.name)
            if s.made_from.startswith("misconception")
        ),
        None,
    )
    if mistake is not None:
        wrong = run_autograder(archive, tmp_path / "mistake", {module: mistake.source}, when)
        assert wrong["score"] == pytest.approx(mistake.score)


def test_the_notebook_round_trip_agrees_with_the_kit(
    course_assignment: Assignment, tmp_path: Path
) -> None:
    """nbgrader's generate_assignment and autograde on the solved notebook, the released one and
    (where the catalogue's first function mistake fits in it) a wrong one, against the kit."""
    if not has_notebook(course_assignment):
        assert not course_assignment.notebook_source.exists()
        return
    course_dir, name = tmp_path / "nbgrader_course", course_assignment.name
    write_nbgrader_course(course_assignment, course_dir)
    source = (course_dir / "source" / name / f"{name}.ipynb").read_text(encoding="utf-8")
    nbgrader(course_dir, "generate_assignment", name, "--force")
    released = (course_dir / "release" / name / f"{name}.ipynb").read_text(encoding="utf-8")
    notebooks = {"correct": source, "stub": released}
    wrong = _wrong_notebook(course_assignment, source)
    if wrong is not None:
        notebooks["wrong"] = wrong
    for student, text in notebooks.items():
        folder = course_dir / "submitted" / student / name
        folder.mkdir(parents=True)
        (folder / f"{name}.ipynb").write_text(text, encoding="utf-8")
    nbgrader(course_dir, "autograde", name, "--create")
    nbgrader_scores = automatic_scores(course_dir, name, notebooks)
    with Runner(course_assignment) as runner:
        kit_scores = {
            student: runner.grade(course_dir / "submitted" / student / name / f"{name}.ipynb").score
            for student in notebooks
        }
    assert nbgrader_scores == kit_scores
    most = course_assignment.spec.max_score
    assert kit_scores["correct"] == most and kit_scores["stub"] == 0
    assert 0 < kit_scores.get("wrong", 1) < most


def _wrong_notebook(assignment: Assignment, source: str) -> str | None:
    """The solved notebook with the first catalogued function mistake in place of its target's
    definition, or None when no target's definition appears whole in one cell."""
    import ast

    reference = assignment.reference.read_text(encoding="utf-8")
    tree = ast.parse(reference)
    definitions = {
        node.name: ast.get_source_segment(reference, node)
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
    }
    notebook = json.loads(source)
    for misconception in assignment.load_catalogue():
        original = definitions.get(misconception.target)
        if misconception.implementation is None or not original:
            continue
        replacement = replaced_function(misconception).strip()
        for cell in notebook["cells"]:
            text = "".join(cell["source"])
            if cell["cell_type"] == "code" and original in text:
                cell["source"] = text.replace(original, replacement).splitlines(keepends=True)
                return json.dumps(notebook, indent=1, ensure_ascii=False)
    return None


# --- what the student runs ----------------------------------------------------------------------


@pytest.fixture
def released_copy(course_assignment: Assignment, tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "released"
    shutil.copytree(course_assignment.release_dir, folder)
    yield folder


def test_check_in_the_released_folder(course_assignment: Assignment, released_copy: Path) -> None:
    """`autograder check` exits 1 on the released stubs and 0 once the reference is in place."""

    def check() -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "autograder", "check"]
        return subprocess.run(
            command, cwd=released_copy, capture_output=True, text=True, timeout=600
        )

    stubs = check()
    assert stubs.returncode == 1, stubs.stdout[-2000:] + stubs.stderr[-2000:]
    shutil.copy(course_assignment.reference, released_copy / course_assignment.spec.module)
    solved = check()
    assert solved.returncode == 0, solved.stdout[-2000:] + solved.stderr[-2000:]


PARITY_MUTANTS = 12
"""Mutants (spread over the reference) whose hints check and grade must agree on, beside every
catalogue entry: each pair is graded and checked, so the course test stays within minutes."""


def test_check_names_what_grade_names(course_assignment: Assignment, tmp_path: Path) -> None:
    """For every catalogue entry and a spread of the reference's mutants, each failing public
    test's hint names the same causes in `check` (the release's hint table, on the student's
    machine) as in `grade` (the models themselves, in the runner): the public tests run on the
    same inputs in both."""
    assignment = course_assignment
    solution = solution_source(assignment.reference.read_text(encoding="utf-8"), origin="ref")
    made = mutants(solution, vars(assignment.load_reference()), assignment.load_words())
    catalogue = [m for m in assignment.load_catalogue() if not m.mutates_input]
    step = max(1, len(made) // PARITY_MUTANTS)
    sampled = made[::step][:PARITY_MUTANTS]
    causes = [m.summary for m in catalogue] + [m.said for m in made]
    sources = [replaced_function(m) for m in catalogue]
    sources += [f"\n\n{m.source}\n" for m in sampled]
    released = tmp_path / "released"
    shutil.copytree(assignment.release_dir, released)
    paths = []
    for index, source in enumerate(sources):
        folder = tmp_path / f"model_{index}"
        folder.mkdir()
        path = folder / assignment.spec.module
        path.write_text(solution + source, encoding="utf-8")
        paths.append(path)
    with RunnerPool(assignment, size=2) as runners, ThreadPoolExecutor(2) as pool:
        graded = list(pool.map(runners.grade, paths))
        checked = list(pool.map(
            lambda path: run_check(CheckTarget(path, released / "tests")), paths
        ))  # fmt: skip
    disagreements = []
    for path, result, report in zip(paths, graded, checked, strict=True):
        by_test = {_within_file(o.nodeid): o for o in report.outcomes}
        for test in result.tests:
            if test.hidden or test.status != "failed":
                continue
            theirs = by_test.get(_within_file(test.nodeid))
            said = (test.hint or "").split(" — measured on your output:")[0]  # grade's alone
            in_grade = {c for c in causes if c in said}
            in_check = {c for c in causes if theirs is not None and c in (theirs.hint or "")}
            if in_grade != in_check:
                disagreements.append(
                    f"{path.parent.name} {test.nodeid}: grade {sorted(in_grade)}, "
                    f"check {sorted(in_check)}"
                )
    assert disagreements == [], "\n".join(disagreements)


def _within_file(nodeid: str) -> str:
    """A test's name within its file (check's folder of tests is not the grader's)."""
    path, _, rest = nodeid.partition("::")
    return f"{Path(path).name}::{rest}"
