"""One runner grades many submissions in turn: nothing of one may reach the next.

A batch runs each submission in a worker forked from the same warm zygote, in the same sandbox
and slot folder. These tests grade a submission that leaves files and a detached process
behind, then one that looks for them, with the same runner.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from autograder.course.assignment import Assignment
from autograder.grading.runners import Runner

LEAVER = """
import os, subprocess, sys, time
for folder in ("/tmp", "/dev/shm", os.getcwd()):
    try:
        with open(os.path.join(folder, "left-behind.txt"), "w") as handle:
            handle.write("secret of the first student")
    except OSError:
        pass
if os.fork() == 0:          # a detached daemon that would outlive the submission
    os.setsid()
    if os.fork() == 0:
        time.sleep(600)
    os._exit(0)
print("LEFT", sorted(os.listdir("/tmp")))
"""

LOOKER = """
import os
found = [os.path.join(folder, name) for folder in ("/tmp", "/dev/shm", os.getcwd())
         if os.path.isdir(folder) for name in os.listdir(folder) if name == "left-behind.txt"]
others = []
for entry in os.listdir("/proc"):
    if entry.isdigit() and int(entry) != os.getpid():
        with open(f"/proc/{entry}/cmdline", "rb") as handle:
            others.append(handle.read().replace(b"\\0", b" ").decode()[:60])
print("FOUND", found)
print("PROCESSES", len(others), others)
"""


@pytest.fixture
def runner(assignment: Assignment) -> Iterator[Runner]:
    with Runner(assignment) as shared:
        yield shared


def test_files_and_processes_of_one_submission_never_reach_the_next(
    tmp_path: Path, runner: Runner
) -> None:
    leaver, looker = tmp_path / "leaver.py", tmp_path / "looker.py"
    leaver.write_text(LEAVER, encoding="utf-8")
    looker.write_text(LOOKER, encoding="utf-8")
    first = runner.grade(leaver)
    assert "left-behind.txt" in first.output  # it did write into the sandbox's /tmp
    if "bwrap" not in first.isolation:
        raise AssertionError("install bubblewrap (apt-get install bubblewrap) for this test")
    second = runner.grade(looker)
    assert "FOUND []" in second.output
    # in its PID namespace: bwrap's init and the zygote, nothing of the first submission
    assert "PROCESSES 2 " in second.output, second.output
    assert "sleep" not in second.output


def test_a_shared_runner_grades_like_a_fresh_one(assignment: Assignment, runner: Runner) -> None:
    samples = assignment.sample_class
    hostile = runner.grade(samples / "hostile_infinite_loop.py")
    after = runner.grade(samples / "bug_normalise_by_sum.py")
    again = runner.grade(samples / "bug_normalise_by_sum.py")  # now with remembered verdicts
    assert hostile.score == 5
    assert after.score == again.score == 6
    assert [t.message for t in after.tests] == [t.message for t in again.tests]


def test_a_rehearsed_runner_grades_exactly_like_one_that_did_not(assignment: Assignment) -> None:
    samples = assignment.sample_class
    names = ("bug_normalise_by_sum", "correct_vectorised", "hostile_infinite_loop")

    def grades(runner: Runner) -> list[list[tuple[object, ...]]]:
        graded = [runner.grade(samples / f"{name}.py") for name in names]
        return [
            [(t.name, t.status, t.score, t.message, t.hint) for t in result.tests]
            for result in graded
        ]

    with Runner(assignment) as plain, Runner(assignment, rehearse=True) as rehearsed:
        expected = grades(plain)
        assert plain.rehearsal is None
        assert grades(rehearsed) == expected
        # it rehearsed on the reference, which passes every test
        assert rehearsed.rehearsal is not None
        assert rehearsed.rehearsal.passed == rehearsed.rehearsal.tests == 9
    assert any(status != "passed" for result in expected for _, status, *_ in result)
