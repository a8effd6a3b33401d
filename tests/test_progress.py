"""How `autograder grade` shows a batch's progress: lines in a log, a bar on a terminal."""

from __future__ import annotations

import io

from autograder.grading.gradebook import Entry
from autograder.grading.progress import Progress
from autograder.grading.results import SubmissionResult


def entry(student: str, status: str = "graded", score: float = 50.0) -> Entry:
    result = SubmissionResult(
        assignment="a", submission=student, status=status, score=score, max_score=100,  # type: ignore[arg-type]
        isolation=(), duration_s=0.1,
    )  # fmt: skip
    return Entry(student, "hash", "run", result, 0.0, None, "0")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_small_class_in_a_log_gets_a_line_per_submission() -> None:
    stream = io.StringIO()
    progress = Progress(3, describe=lambda e: f"{e.student} line", stream=stream)
    for done, name in enumerate(["a", "b", "c"], start=1):
        progress.update(entry(name), done, 3)
    assert stream.getvalue().splitlines() == ["[1/3] a line", "[2/3] b line", "[3/3] c line"]


def test_a_large_class_in_a_log_gets_periodic_lines_and_its_problems() -> None:
    stream = io.StringIO()
    progress = Progress(300, describe=lambda e: f"{e.student} {e.result.status}", stream=stream)
    for done in range(1, 301):
        status = "grader_error" if done == 7 else "graded"
        progress.update(entry(f"s{done}", status, 0.0 if done == 7 else 60.0), done, 300)
    lines = stream.getvalue().splitlines()
    assert "[7/300] s7 grader_error" in lines
    assert lines[-1].startswith("[300/300] graded; mean score 59.8")
    assert len(lines) < 10  # not a line per submission


def test_on_a_terminal_a_bar_with_the_mean_score() -> None:
    stream = Terminal()
    progress = Progress(4, describe=lambda e: f"{e.student} {e.result.status}", stream=stream)
    for done in range(1, 5):
        status = "ungradable" if done == 2 else "graded"
        progress.update(entry(f"s{done}", status, 40.0), done, 4)
    progress.close()
    text = stream.getvalue()
    assert "4/4" in text and "mean 40.0" in text
    assert "s2 ungradable" in text and "s1 graded" not in text
