"""The fixture course's sample classes graded end to end, through the real sandboxed path.

Each expected score is in the assignment's sample_class/expected.toml, reasoned from the rubric
beside it. Hostile samples cost bounded time
and earn what their honest parts earn; nothing of theirs outlives the grading; each test's
visibility comes from the folder it was collected from."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from autograder.authoring.sample_class import Sample, sample_class
from autograder.course.course import Course
from autograder.grading.results import SubmissionResult
from autograder.grading.runners import RunnerPool


def expected(course: Course) -> dict[tuple[str, str], Sample]:
    return {(a.name, s.name): s for a in course.assignments for s in sample_class(a)}


EXPECTED = expected(Course.load(Path(__file__).resolve().parent / "fixtures" / "course"))


def fingerprint(course: Course) -> str:
    digest = hashlib.sha256()
    for path in sorted(course.root.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path).encode() + path.read_bytes())
    return digest.hexdigest()


@pytest.fixture(scope="module")
def graded(
    course: Course, living_zygotes: Callable[[], set[str]]
) -> dict[tuple[str, str], SubmissionResult]:
    before, zygotes_before = fingerprint(course), living_zygotes()
    results = {}
    for assignment in course.assignments:
        samples = sorted(assignment.sample_class.glob("*.py"))
        assert {p.stem for p in samples} == {s.name for s in sample_class(assignment)}
        with RunnerPool(assignment, size=2) as runners, ThreadPoolExecutor(2) as pool:
            for result in pool.map(runners.grade, samples):
                results[(assignment.name, result.submission)] = result
    assert fingerprint(course) == before, "a submission changed the course's files"
    assert living_zygotes() <= zygotes_before, "a worker outlived its grading"
    return results


def test_every_sample_is_expected(graded: dict[tuple[str, str], SubmissionResult]) -> None:
    assert set(graded) == set(EXPECTED)


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_score_and_parts_lost(
    graded: dict[tuple[str, str], SubmissionResult], key: tuple[str, str], course: Course
) -> None:
    result = graded[key]
    sample = EXPECTED[key]
    assert (result.status, result.assignment) == ("graded", key[0])
    lost = [t.name for t in result.tests if t.status != "passed"]
    assert result.score == pytest.approx(sample.score), lost
    assert {t.part for t in result.tests if t.score < t.max_score} == sample.lost
    feedback = " ".join(f"{t.message} {t.hint}" for t in result.tests if t.status != "passed")
    assert [text for text in sample.says if text not in feedback] == []
    assert result.max_score == 10
    spec = course.assignment(key[0]).spec
    assert result.duration_s <= spec.limits.submission_timeout_s + 5


def test_visibility_follows_the_folder_a_test_came_from(
    graded: dict[tuple[str, str], SubmissionResult],
) -> None:
    tests = graded[("vectors", "correct_vectorised")].tests
    by_folder = {(t.nodeid.split("/")[0], t.visibility) for t in tests}
    assert by_folder == {("public_tests", "visible"), ("hidden_tests", "after_due_date")}


def test_hints_come_from_the_assignments_own_catalogue(
    graded: dict[tuple[str, str], SubmissionResult],
) -> None:
    failed = [t for t in graded[("series", "bug_sums_exclusive")].tests if t.status == "failed"]
    assert failed and all("s[i] includes x[i] itself" in (t.hint or "") for t in failed)
    correct = graded[("vectors", "correct_vectorised")].tests
    assert [t.hint for t in correct if t.hint] == []


def test_a_hostile_sample_gets_clear_messages(
    graded: dict[tuple[str, str], SubmissionResult],
) -> None:
    loop = [t.message or "" for t in graded[("vectors", "hostile_infinite_loop")].tests
            if t.status == "timeout"]  # fmt: skip
    assert loop and "normalise(" in loop[0] and "did not return within 5 s" in loop[0]
    exits = {t.message for t in graded[("series", "hostile_exit_at_import")].tests}
    assert len(exits) == 1 and "while importing series.py" in exits.pop()
