"""Grade one Gradescope submission: `python -m autograder.gradescope.run ROOT` (run_autograder).

ROOT is laid out as Gradescope's /autograder: `source/course` (from the zip), `submission/`,
`submission_metadata.json`, `results/`. The submission time in the metadata feeds the rubric's
late policy. Whatever happens, `results/results.json` is written: a failure of the grader
becomes a zero with a message, never Gradescope's "the autograder failed to execute".
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
from autograder.course.rubric import AssignmentSpec
from autograder.gradescope.results import gradescope_results
from autograder.grading.batch import late_penalty
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
        result, spec = grade(args.root, args.assignment)
        if result.status == "grader_error":  # run_autograder's output: the instructor's alone
            print(f"grader error: {result.message}", file=sys.stderr)
        released = results_released(args.root / "submission_metadata.json", spec)
        data = gradescope_results(result, released=released, score_before_due=spec.score_before_due)
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


def grade(root: Path, assignment: str | None) -> tuple[SubmissionResult, AssignmentSpec]:
    _lock(root)
    chosen = Course.load(root / "source" / "course").assignment(assignment)
    spec = chosen.spec
    with Runner(chosen, hide=(root / "results",)) as runner:
        result = runner.grade(root / "submission")
    submitted_at = _submitted_at(root / "submission_metadata.json")
    penalty = late_penalty(result, submitted_at, spec.late)
    when = submitted_at.isoformat() if submitted_at else None
    return replace(result, late_penalty=penalty, submitted_at=when), spec


def results_released(metadata: Path, spec: AssignmentSpec, now: datetime | None = None) -> bool:
    """Whether every test's results may be shown now: Gradescope's late due date (or its due
    date) has passed, by the submission's metadata; without one, the rubric's late policy
    (results_released_at). With neither, not released: only what is shown at once counts."""
    moment = now or datetime.now(timezone.utc)
    released_at = None
    if metadata.is_file():
        dates = json.loads(metadata.read_text(encoding="utf-8")).get("assignment") or {}
        for key in ("late_due_date", "due_date"):
            if isinstance(dates, dict) and isinstance(dates.get(key), str):
                with contextlib.suppress(ValueError):  # not ISO 8601: the rubric's date
                    released_at = datetime.fromisoformat(dates[key])
                    break
    if released_at is None:
        released_at = results_released_at(spec.late)
    if released_at is None:
        return False
    if released_at.tzinfo is None:
        released_at = released_at.replace(tzinfo=timezone.utc)
    return moment >= released_at


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
