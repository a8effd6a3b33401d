"""The positional-encoding assignment's own tests run on the repository's course
(repository_course.py says why every fixture derived from the assignment is overridden here),
and share one grading of its sample class."""

from __future__ import annotations

import hashlib
import socket
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest
from repository_course import assignment_fixture, course, reference, spec

from autograder.course.assignment import Assignment
from autograder.course.course import Course
from autograder.grading.results import SubmissionResult
from autograder.grading.runners import RunnerPool

assignment = assignment_fixture("positional_encoding")
SOCKET_PORT = 47123  # hostile_socket.py connects here

__all__ = ["assignment", "course", "graded", "reference", "spec"]


def course_fingerprint(course: Course) -> str:
    digest = hashlib.sha256()
    for path in sorted(course.root.rglob("*")):
        inside = path.relative_to(course.root).parts
        watched = inside[0] in ("reference", "assignments", "grading.toml", "autograder")
        if path.is_file() and watched and "__pycache__" not in inside:
            digest.update(str(inside).encode() + path.read_bytes())
    return digest.hexdigest()


@pytest.fixture(scope="session")
def graded(
    course: Course, assignment: Assignment, living_zygotes: Callable[[], set[str]]
) -> dict[str, SubmissionResult]:
    """Every sample graded once per session by two shared runners (as a batch does: hostile
    samples and the next ones share a runner and its zygote), with a listener up for the socket
    sample."""
    before = course_fingerprint(course)
    zygotes_before = living_zygotes()
    listener = socket.create_server(("127.0.0.1", SOCKET_PORT), reuse_port=True)
    listener.setblocking(False)
    samples = sorted(assignment.sample_class.glob("*.py"))
    try:
        with RunnerPool(assignment, size=2) as runners, ThreadPoolExecutor(2) as pool:
            results = list(pool.map(runners.grade, samples))
        with pytest.raises(BlockingIOError):
            listener.accept()  # nobody connected: the sandbox has no network
    finally:
        listener.close()
    assert course_fingerprint(course) == before, "a submission changed the grader's files"
    assert living_zygotes() <= zygotes_before, "a worker outlived its grading"
    return {result.submission: result for result in results}
