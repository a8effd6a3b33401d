"""What the latest grading of each attempt changed: the score and the tests, before and after.

A regrade (`grade --regrade`, or a re-run after the rubric, tests or reference changed) keeps
the earlier result in the gradebook's history; here each attempt whose latest grading changed
its score is compared with the result it replaced, so an instructor reads what moved before
publishing anything. With `never_lower`, a lower regrade is refused: it is listed all the same,
saying the earlier result was kept.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from autograder.grading.gradebook import REFUSED, Earlier, Entry, Gradebook
from autograder.grading.results import SubmissionResult
from autograder.safe_text import spreadsheet_cell


@dataclass(frozen=True)
class TestChange:
    """One test whose score or status moved (None: the test did not exist on that side)."""

    name: str
    before: tuple[float, str] | None
    after: tuple[float, str] | None


@dataclass(frozen=True)
class Change:
    """One attempt whose latest grading scored differently from the result it replaced."""

    student: str
    attempt_number: int
    counted: bool
    max_score: float
    before: float
    after: float
    kept_earlier: bool
    """never_lower refused the lower regrade: the earlier result (`before`) stands."""
    tests: tuple[TestChange, ...]


def changes(book: Gradebook, assignment: str) -> list[Change]:
    """The attempts of `assignment` whose latest grading changed their score, by student."""
    latest: dict[tuple[str, str], Earlier] = {}
    for earlier in book.history(assignment):
        latest[(earlier.student, earlier.attempt)] = earlier  # oldest first: the last stays
    found = []
    for attempts in book.attempts(assignment).values():
        for entry in attempts:
            replaced = latest.get((entry.student, entry.attempt))
            if replaced is None or replaced.by_run != entry.run_id:
                continue  # the latest grading replaced nothing
            change = _change(entry, replaced)
            if change.before != change.after:
                found.append(change)
    return found


def _change(entry: Entry, earlier: Earlier) -> Change:
    kept = earlier.outcome == REFUSED
    before, after = (entry.result, earlier.result) if kept else (earlier.result, entry.result)
    return Change(
        student=entry.student,
        attempt_number=entry.attempt_number,
        counted=entry.counted,
        max_score=after.max_score,
        before=before.score,
        after=after.score,
        kept_earlier=kept,
        tests=_test_changes(before, after),
    )


def _test_changes(before: SubmissionResult, after: SubmissionResult) -> tuple[TestChange, ...]:
    old = {t.nodeid: t for t in before.tests}
    new = {t.nodeid: t for t in after.tests}
    moved = []
    for nodeid in [*old, *(n for n in new if n not in old)]:
        a, b = old.get(nodeid), new.get(nodeid)
        was = None if a is None else (a.score, a.status)
        now = None if b is None else (b.score, b.status)
        name = b.name if b is not None else a.name if a is not None else nodeid
        if was != now:
            moved.append(TestChange(name, was, now))
    return tuple(moved)


def describe(change: Change) -> list[str]:
    """The lines `gradebook --changes` prints for one change (not yet made printable)."""
    score = f"{change.before:g} → {change.after:g} / {change.max_score:g}"
    which = "" if change.counted else ", an attempt that does not count"
    kept = ", never_lower: the earlier result is kept" if change.kept_earlier else ""
    lines = [f"{change.student} (attempt {change.attempt_number}{which}): {score}{kept}"]
    for test in change.tests:
        lines.append(f"  {test.name}: {_side(test.before)} → {_side(test.after)}")
    return lines


def _side(side: tuple[float, str] | None) -> str:
    return "absent" if side is None else f"{side[0]:g} {side[1]}"


def write_changes_csv(found: list[Change], target: Path) -> None:
    """One row per changed test (and one per change with no test listed); no cell starts like
    a spreadsheet formula."""
    header = ["student", "attempt", "counted", "score_before", "score_after", "max_score",
              "kept_earlier", "test", "test_before", "test_after"]  # fmt: skip
    with target.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        for change in found:
            head = [change.student, change.attempt_number, change.counted, change.before,
                    change.after, change.max_score, change.kept_earlier]  # fmt: skip
            tests = change.tests or (None,)
            for test in tests:
                tail = ["", "", ""] if test is None else [
                    test.name, _side(test.before), _side(test.after)
                ]  # fmt: skip
                writer.writerow(map(spreadsheet_cell, [*head, *tail]))
