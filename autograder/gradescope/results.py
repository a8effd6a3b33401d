"""Gradescope's `results.json`, per its autograder specification.

Top level: score, execution_time, output, output_format, visibility, stdout_visibility, tests;
each test: name, score, max_score, status, output, output_format, visibility, tags, number.
What the student's code printed goes in `extra_data`, hidden from students.

Gradescope's "Autograder Specifications" (gradescope-autograders.readthedocs.io/en/latest/specs)
say what students see: the top-level `score` ("optional, but required if not on each test
case"; when present it is the submission's score) is shown at once unless the top-level
`visibility` (hidden, after_due_date, after_published, visible) holds the whole result back,
while each test follows its own `visibility`; `stdout_visibility` governs the grader's own
printed output. So a score that counted the hidden tests would tell every student, before the
due date, how those tests went. Before the results are released the score here counts only the
tests shown at once (the rubric's `score_before_due = "shown_tests"`: a regrade after the due
date records the full score), or the whole result is held back until the due date
(`score_before_due = "hidden"`, with the full score). A test whose message is private (a hidden
test, or one shown only later) never carries its message: it names the test's inputs; its hint
is shown without the values of the calls it quotes. Until the results are released nothing
else a hidden test could sway is shown either (grading/before_release.py): no execution time (a
submission could time its hidden calls to spell their inputs), no late penalty's points, and a
grader error met after the tests shown at once is their graded result (with `score_before_due
= "hidden"`, the grader error held back like any result); a grader error's detail goes to the
instructor alone.
"""

from __future__ import annotations

import json
from typing import Any

from autograder.diagnosis.disclosure import without_arguments
from autograder.grading.before_release import as_seen, shown_at_once, shown_score
from autograder.grading.grouping import without_advice
from autograder.protocol.results import SubmissionResult, TestResult


def gradescope_results(
    result: SubmissionResult,
    *,
    released: bool = False,
    score_before_due: str = "shown_tests",
    late: bool | None = None,
) -> dict[str, Any]:
    """`result` as Gradescope's results.json; `released`: the due date has passed (every
    test's results may be shown), else only the tests shown at once count (see above).
    `late`: the submission came after its due date (None: not known, not said)."""
    hold_back = not released and score_before_due == "hidden"
    if not hold_back:
        result = as_seen(result, released=released)
    if result.status != "graded":
        output = (
            f"This submission could not be graded: {result.message}"
            if result.status == "ungradable"  # about the student's own upload
            else "The grader failed on this submission; this is not your fault, and your "
            "instructor will grade it again."  # its detail (a trace) is the instructor's
        )
        # held back with the rest when the grader failed on tests not shown yet
        pending = hold_back and result.failed_after_shown
        return {
            "score": 0.0,
            "output": output,
            "output_format": "text",
            "visibility": "after_due_date" if pending else "visible",
            "stdout_visibility": "hidden",
            "tests": [],
        }
    tests = _tests(result.tests)
    partial = not released and not hold_back and not _all_shown_at_once(result)
    timing = {"execution_time": result.duration_s} if released else {}  # no timing channel
    return {
        "score": _shown_now(result) if partial else result.final_score,
        **timing,
        "output": _summary(result, partial=partial, late=late),
        "output_format": "text",
        "visibility": "after_due_date" if hold_back else "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
        "extra_data": {"isolation": list(result.isolation), "student_output": result.shown_output},
    }


def _tests(results: tuple[TestResult, ...]) -> list[dict[str, Any]]:
    """Every test's entry; a cause (hint, or a check's advice) already given by an earlier
    test is not repeated: the later one says which test gave it. Only an earlier test shown no
    later than this one is named (a visible test never points at a hidden test's result)."""
    said: dict[str, tuple[int, int]] = {}
    """{cause as shown: (the number of the test that gave it, when that test is shown)}."""
    entries = []
    for number, test in enumerate(results, start=1):
        rank = SHOWN_WHEN.get(test.visibility, len(SHOWN_WHEN))
        cause = _shown_cause(test)
        earlier = said.get(cause) if cause else None
        same = earlier is not None and earlier[1] <= rank
        entries.append(_test(number, test, same_as=earlier[0] if same and earlier else None))
        if cause and (earlier is None or rank < earlier[1]):
            said[cause] = (number, rank)
    return entries


SHOWN_WHEN = {"visible": 0, "after_due_date": 1, "after_published": 1, "hidden": 2}


def _shown_cause(test: TestResult) -> str | None:
    """The cause a failing test's output gives: its hint (without values, for a private test),
    else the advice of its check (only where its message is shown)."""
    if test.status == "passed":
        return None
    if test.hint:
        return without_arguments(test.hint) if test.private else test.hint
    return None if test.private else test.advice


def _test(number: int, test: TestResult, *, same_as: int | None = None) -> dict[str, Any]:
    same = f"Hint: same cause as above (test {same_as})" if same_as is not None else None
    if test.private:
        hint = None if test.hint is None else f"Hint: {without_arguments(test.hint)}"
        output = (same if hint and same else hint) or ""
    else:
        message = test.message or ""
        if same and not test.hint:
            message = without_advice(message, test.advice) or ""
        hint = None if test.hint is None else f"Hint: {test.hint}"
        tail = same if same and (test.hint or test.advice) else hint
        output = message + (f"\n{tail}" if tail else "")
    return {
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


def _all_shown_at_once(result: SubmissionResult) -> bool:
    return all(shown_at_once(t) for t in result.tests)


def _shown_now(result: SubmissionResult) -> float:
    return shown_score(result)


def _summary(result: SubmissionResult, *, partial: bool, late: bool | None = None) -> str:
    """The text above the tests: before the results are released, built from the tests shown
    at once alone, so that it cannot reveal how the others went."""
    if not partial:
        summary = f"{_fmt(result.final_score)} / {_fmt(result.max_score)} points."
        if result.late_penalty:
            summary += f" (late: {_fmt(result.late_penalty)} points off {_fmt(result.score)})"
        parts = result.part_scores()
    else:
        visible = [t for t in result.tests if t.visibility == "visible"]
        shown = sum(t.score for t in visible)
        most = sum(t.max_score for t in visible)
        later = len(result.tests) - len(visible)
        summary = (
            f"Score so far (tests shown now): {_fmt(round(shown, 6))} of {_fmt(round(most, 6))} "
            f"points, the score shown until the due date. {later} more tests "
            f"({_fmt(round(result.max_score - most, 6))} points) are graded too; their results "
            "are shown, and counted, after the due date."
        )
        if late:  # said by the time alone: its points are capped by the tests not shown yet
            summary += " A late penalty applies."
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
    """results.json as a batch writes it, not knowing the due date: as before it."""
    return json.dumps(gradescope_results(result), indent=2, ensure_ascii=False) + "\n"


def _fmt(points: float) -> str:
    return f"{points:g}"
