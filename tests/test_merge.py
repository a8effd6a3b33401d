"""`gradebook merge` does not depend on the order of its arguments: a student held differently
by two shards is refused naming both, and shards that agree merge alike in any order."""

from __future__ import annotations

import itertools
import sqlite3
from pathlib import Path

import pytest

from autograder.errors import ConfigError
from autograder.grading.gradebook import FILE_NAME, Entry, Gradebook, merge
from autograder.protocol.results import SubmissionResult, TestResult

RUBRIC = "rubric-1"


def _result(
    student: str, score: float, *, duration: float = 1.0, isolation: tuple[str, ...] = ("process",)
) -> SubmissionResult:
    test = TestResult(
        name="values",
        nodeid="test_a.py::test_values",
        part="values",
        score=score,
        max_score=10.0,
        status="passed" if score == 10.0 else "failed",
        visibility="visible",
        duration_s=duration / 2,
    )
    return SubmissionResult(
        assignment="vectors",
        submission=student,
        status="graded",
        score=score,
        max_score=10.0,
        isolation=isolation,
        duration_s=duration,
        tests=(test,),
    )


def _shard(
    folder: Path,
    scores: dict[str, float],
    *,
    content: str = "same",
    duration: float = 1.0,
    attempt: str = "2026-12-01T10:00:00+00:00",
    isolation: tuple[str, ...] = ("process",),
) -> Path:
    with Gradebook(folder) as book:
        book.bind(assignment="vectors", rubric_hash=RUBRIC)
        for student, score in scores.items():
            entry = Entry(
                student=student,
                content_hash=f"{content}-{student}",
                run_id=f"run-{folder.name}",
                result=_result(student, score, duration=duration, isolation=isolation),
                attempt=attempt,
                submitted_at=attempt,
            )
            book.record(entry, rubric_hash=RUBRIC, kit_version="1", source=f"# {student}\n")
    return folder


def _summary(folder: Path) -> list[tuple[str, str, float, bool]]:
    with Gradebook(folder) as book:
        return [
            (e.student, e.attempt, e.final_score, e.counted)
            for entries in book.attempts("vectors").values()
            for e in entries
        ]


def test_one_student_with_two_results_is_refused_in_either_order(tmp_path: Path) -> None:
    first = _shard(tmp_path / "shard-a", {"ada": 10.0, "bo": 7.0})
    second = _shard(tmp_path / "shard-b", {"ada": 4.0, "cy": 9.0})
    for order in ([first, second], [second, first]):
        target = tmp_path / f"merged-{order[0].name}"
        with pytest.raises(ConfigError) as refused:
            merge(order, target)
        message = str(refused.value)
        assert "shard-a" in message and "shard-b" in message and "'ada'" in message
        assert "different results" in message and "10" in message and "4" in message
        assert _summary(target) == []  # nothing was written before the refusal


def test_a_different_file_for_the_same_attempt_is_refused(tmp_path: Path) -> None:
    first = _shard(tmp_path / "one", {"ada": 10.0})
    second = _shard(tmp_path / "two", {"ada": 10.0}, content="other")
    with pytest.raises(ConfigError, match="different files as attempt"):
        merge([second, first], tmp_path / "merged")


def test_a_student_split_over_two_shards_is_refused(tmp_path: Path) -> None:
    """Which of a student's attempts counts is the rubric's rule over all of them: two shards
    each holding one attempt would leave it to whichever is merged last."""
    first = _shard(tmp_path / "one", {"ada": 10.0})
    second = _shard(tmp_path / "two", {"ada": 6.0}, attempt="2026-12-02T10:00:00+00:00")
    with pytest.raises(ConfigError, match="different attempts"):
        merge([first, second], tmp_path / "merged")


def test_shards_that_agree_merge_alike_in_every_order(tmp_path: Path) -> None:
    """The same student graded twice (a shard merged twice, or two runs whose only difference
    is how long they took) is one student, and every order gives the same gradebook."""
    shards = [
        _shard(tmp_path / "a", {"ada": 10.0, "bo": 7.0}),
        # graded on another machine: another time, other isolation layers, the same grade
        _shard(
            tmp_path / "b",
            {"ada": 10.0, "cy": 9.0},
            duration=3.5,
            isolation=("process", "cpu-cgroup"),
        ),
        _shard(tmp_path / "c", {"dee": 0.0}),
    ]
    summaries = []
    for number, order in enumerate(itertools.permutations(shards)):
        target = tmp_path / f"merged-{number}"
        assert merge([*order, order[0]], target) == 4
        summaries.append(_summary(target))
    assert summaries[0] == [
        ("ada", "2026-12-01T10:00:00+00:00", 10.0, True),
        ("bo", "2026-12-01T10:00:00+00:00", 7.0, True),
        ("cy", "2026-12-01T10:00:00+00:00", 9.0, True),
        ("dee", "2026-12-01T10:00:00+00:00", 0.0, True),
    ]
    assert all(summary == summaries[0] for summary in summaries)


def test_rubrics_that_differ_are_refused_naming_both_shards(tmp_path: Path) -> None:
    first = _shard(tmp_path / "one", {"ada": 10.0})
    second = _shard(tmp_path / "two", {"bo": 10.0})
    with sqlite3.connect(second / FILE_NAME) as db:
        db.execute("UPDATE assignments SET rubric_hash = 'another'")
    for order in ([first, second], [second, first]):
        with pytest.raises(ConfigError, match="graded vectors under another rubric") as refused:
            merge(order, tmp_path / "merged")
        assert str(first) in str(refused.value) and str(second) in str(refused.value)


def test_a_merge_again_replaces_what_the_target_held(tmp_path: Path) -> None:
    """A shard regraded since the last merge is merged again into the same folder: its new
    result stands and the earlier one is kept in the history, whatever the order."""
    shard = _shard(tmp_path / "one", {"ada": 4.0})
    target = tmp_path / "merged"
    merge([shard], target)
    regraded = _shard(tmp_path / "again", {"ada": 10.0})
    merge([regraded], target)
    assert _summary(target) == [("ada", "2026-12-01T10:00:00+00:00", 10.0, True)]
    with Gradebook(target) as book:
        assert [earlier.result.score for earlier in book.history()] == [4.0]
