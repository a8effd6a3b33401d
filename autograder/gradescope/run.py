"""Grade one Gradescope submission: `python -m autograder.gradescope.run ROOT` (run_autograder).

ROOT is laid out as Gradescope's /autograder: `source/course` (from the zip), `submission/`,
`submission_metadata.json`, `results/`. The submission time in the metadata feeds the rubric's
late policy, and so does the student's own due date: Gradescope lists each submitter under
`users`, and an extension granted on Gradescope shows as that user's `assignment.due_date`
(and `late_due_date`), beside the assignment's own dates
(https://gradescope-autograders.readthedocs.io/en/latest/submission_metadata/).
Whatever happens, `results/results.json` is written: a failure of the grader becomes a zero
with a message, never Gradescope's "the autograder failed to execute".
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import traceback
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from autograder.after_grading.visibility import results_released_at
from autograder.course.course import Course
from autograder.course.rubric import AssignmentSpec, LatePolicy
from autograder.gradescope.results import gradescope_results
from autograder.grading.attempts import days_late
from autograder.grading.batch import late_penalty, written_points
from autograder.grading.runners import Runner
from autograder.protocol.results import SubmissionResult


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder.gradescope.run")
    parser.add_argument("root", type=Path)
    parser.add_argument("--assignment")
    args = parser.parse_args(argv)
    results = args.root / "results" / "results.json"
    results.parent.mkdir(parents=True, exist_ok=True)
    data: dict[str, Any]
    try:
        result, spec, late = grade(args.root, args.assignment)
        if result.status == "grader_error":  # run_autograder's output: the instructor's alone
            print(f"grader error: {result.message}", file=sys.stderr)
        released = results_released(args.root / "submission_metadata.json", spec)
        data = gradescope_results(
            result, released=released, score_before_due=spec.score_before_due, late=late
        )
    except Exception as error:  # the student must get a results.json, whatever went wrong
        traceback.print_exc()
        data = {
            "score": 0.0,
            "output": f"The grader failed ({type(error).__name__}: {error}); this is not your "
            "fault: tell your instructor.",
            "output_format": "text",
            "visibility": "visible",
            "tests": [],
        }
    results.write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


def grade(root: Path, assignment: str | None) -> tuple[SubmissionResult, AssignmentSpec, bool]:
    """The graded result, its assignment, and whether it came after the student's due date."""
    _lock(root)
    chosen = Course.load(root / "source" / "course").assignment(assignment)
    spec = chosen.spec
    with Runner(chosen, hide=(root / "results",)) as runner:
        result = runner.grade(root / "submission")
    metadata = root / "submission_metadata.json"
    submitted_at = _submitted_at(metadata)
    policy = own_late_policy(metadata, spec.late)
    student = _student(metadata)
    penalty = late_penalty(result, submitted_at, policy, student, written_max=written_points(spec))
    when = submitted_at.isoformat() if submitted_at else None
    late = days_late(submitted_at, policy, student) > 0
    return replace(result, late_penalty=penalty, submitted_at=when), spec, late


def results_released(metadata: Path, spec: AssignmentSpec, now: datetime | None = None) -> bool:
    """Whether every test's results may be shown now: the student's late due date (or due
    date) has passed, their own (an extension on Gradescope) before the assignment's, by the
    submission's metadata; without one, the rubric's late policy (results_released_at). When
    the rubric lists extensions, not before the last of them has passed either: the metadata
    knows only this student's. With neither date, not released: only what is shown at once
    counts."""
    moment = now or datetime.now(timezone.utc)
    released_at = None
    for dates in _dates(metadata):
        released_at = _date(dates, "late_due_date") or _date(dates, "due_date")
        if released_at is not None:
            break
    rubric = results_released_at(spec.late)
    if released_at is None or (spec.late is not None and spec.late.extensions and rubric):
        released_at = max(filter(None, (released_at, rubric)), default=None)
    if released_at is None:
        return False
    return moment >= released_at


def own_late_policy(metadata: Path, policy: LatePolicy | None) -> LatePolicy | None:
    """The rubric's late policy from the student's own due date, when Gradescope gives them
    one later than the rubric's (an extension); the rubric's policy otherwise."""
    if policy is None:
        return None
    own = next(iter(_dates(metadata)[:-1]), {})  # the first user's dates, not the assignment's
    due = _date(own, "due_date")
    if due is None or due <= policy.due:
        return policy
    return replace(policy, due=due, extensions=())


def _dates(metadata: Path) -> list[dict[str, Any]]:
    """The first user's own dates (when given), then the assignment's, as metadata tables."""
    if not metadata.is_file():
        return []
    data = json.loads(metadata.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        return []
    users = data.get("users")
    first = users[0] if isinstance(users, list) and users else {}
    tables = [first.get("assignment") if isinstance(first, dict) else None, data.get("assignment")]
    return [table if isinstance(table, dict) else {} for table in tables]


def _student(metadata: Path) -> str | None:
    """The name a rubric's extensions file knows a Gradescope student by: the first user's
    email (Gradescope's `users[].email`; the kit never sees the gradebook's own names there)."""
    if not metadata.is_file():
        return None
    data = json.loads(metadata.read_text(encoding="utf-8"))
    users = data.get("users") if isinstance(data, dict) else None
    first = users[0] if isinstance(users, list) and users else None
    email = first.get("email") if isinstance(first, dict) else None
    return email if isinstance(email, str) and email else None


def _date(table: dict[str, Any], key: str) -> datetime | None:
    """An ISO 8601 date (no zone: UTC) under `key`; None when absent or unreadable."""
    value = table.get(key)
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:  # not ISO 8601: as if absent
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def _lock(root: Path) -> None:
    """Files the worker must never read, readable by root alone: the metadata (which holds the
    earlier submissions' results, hidden tests' scores included) and the results folder. The
    course is locked by run_autograder; bwrap or Landlock keep all of them out of reach too."""
    for path in (root / "submission_metadata.json", root / "results"):
        with contextlib.suppress(OSError):
            path.chmod(0o700 if path.is_dir() else 0o600)


def _submitted_at(metadata: Path) -> datetime | None:
    if not metadata.is_file():
        return None
    created = json.loads(metadata.read_text(encoding="utf-8")).get("created_at")
    return datetime.fromisoformat(created) if isinstance(created, str) else None


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
