"""Gradescope's `results.json`, per its autograder specification.

Top level: score, execution_time, output, output_format, visibility, stdout_visibility, tests;
each test: name, score, max_score, status, output, output_format, visibility, tags, number.
What the student's code printed goes in `extra_data`, hidden from students.
"""

from __future__ import annotations

import json
from typing import Any

from autograder.grading.results import SubmissionResult


def gradescope_results(result: SubmissionResult) -> dict[str, Any]:
    if result.status != "graded":
        heading = "could not be graded" if result.status == "ungradable" else "grader error"
        return {
            "score": 0.0,
            "execution_time": result.duration_s,
            "output": f"This submission {heading}: {result.message}",
            "output_format": "text",
            "visibility": "visible",
            "stdout_visibility": "hidden",
            "tests": [],
        }
    tests = []
    for number, test in enumerate(result.tests, start=1):
        output = test.message or ""
        if test.hint:
            output += f"\nHint: {test.hint}"
        tests.append(
            {
                "name": test.name,
                "number": str(number),
                "score": round(test.score, 6),
                "max_score": round(test.max_score, 6),
                "status": "passed" if test.status == "passed" else "failed",
                "output": output,
                "output_format": "text",
                "visibility": test.visibility,
                "tags": [test.part, test.status],
            }
        )
    summary = _summary(result)
    return {
        "score": result.final_score,
        "execution_time": result.duration_s,
        "output": summary,
        "output_format": "text",
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
        "extra_data": {"isolation": list(result.isolation), "student_output": result.output},
    }


def _summary(result: SubmissionResult) -> str:
    """The text above the tests, which students see at once: built from the visible tests
    alone when some are shown only after the due date (or never), so that it cannot reveal
    how the hidden tests went."""
    visible = [t for t in result.tests if t.visibility == "visible"]
    if len(visible) == len(result.tests):
        summary = f"{_fmt(result.final_score)} / {_fmt(result.max_score)} points."
        if result.late_penalty:
            summary += f" (late: {_fmt(result.late_penalty)} points off {_fmt(result.score)})"
        parts = result.part_scores()
    else:
        shown = sum(t.score for t in visible)
        most = sum(t.max_score for t in visible)
        later = len(result.tests) - len(visible)
        summary = (
            f"Tests shown now: {_fmt(round(shown, 6))} / {_fmt(round(most, 6))} points. "
            f"{later} more tests ({_fmt(round(result.max_score - most, 6))} points) are graded "
            "too; their results are shown after the due date."
        )
        if result.late_penalty:
            summary += f" A late penalty of {_fmt(result.late_penalty)} points applies."
        parts = {}
        for test in visible:
            score, of = parts.get(test.part, (0.0, 0.0))
            parts[test.part] = (round(score + test.score, 6), round(of + test.max_score, 6))
    for part, (score, of) in parts.items():
        summary += f"\n  {part}: {_fmt(score)} / {_fmt(of)}"
    for note in result.notes:
        summary += f"\nNote: {note}"
    return summary


def render_gradescope(result: SubmissionResult) -> str:
    return json.dumps(gradescope_results(result), indent=2, ensure_ascii=False) + "\n"


def _fmt(points: float) -> str:
    return f"{points:g}"
