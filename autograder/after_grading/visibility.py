"""What a student may see of their result at a given time, by the rubric's visibility rules.

A test marked (or defaulting to) `visible` is shown at once; `after_due_date` (and Gradescope's
`after_published`) once the due date has passed; `hidden` never. A hidden test's message is never
shown, even when its result is: it names the test's inputs and expected values. Its hint is
shown with the arguments of any quoted call that holds a value (a number, a string, a list)
left out (disclosure.without_arguments): `f(53, 10)` becomes `f(…)`, `g(T)` stays; the grader
phrases it without any value already (disclosure.without_values). The rest of what a student
reads before results are released (the attempt that counts, the status, the duration, the late
penalty) follows one rule, written in grading/before_release.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from autograder.course.rubric import LatePolicy
from autograder.diagnosis.disclosure import without_arguments
from autograder.grading.results import SubmissionResult, TestResult

SHOWN_AFTER_DUE = frozenset({"after_due_date", "after_published"})


def results_released_at(policy: LatePolicy | None) -> datetime | None:
    """When the results held back until the due date may be shown, to everyone: the last due
    date (the rubric's, or the last extension's) plus its grace period, or the cut-off when
    late submissions are accepted until then (a student who saw the hidden tests, or was told
    them, could still resubmit before it). None: the rubric sets no due date."""
    if policy is None:
        return None
    released = policy.last_due + timedelta(minutes=policy.grace_minutes)
    if policy.cutoff_days is not None:
        released += timedelta(days=policy.cutoff_days)
    return released


@dataclass(frozen=True)
class ShownTest:
    """One test as a student sees it: the message only for a public test."""

    test: TestResult
    message: str | None
    hint: str | None


@dataclass(frozen=True)
class StudentView:
    """A submission's result as its student may see it now."""

    result: SubmissionResult
    shown: tuple[ShownTest, ...]
    withheld: int
    """Tests graded but not shown yet (or never)."""
    withheld_points: float

    @property
    def complete(self) -> bool:
        return self.withheld == 0

    @property
    def shown_score(self) -> tuple[float, float]:
        """(points, of) over the tests shown."""
        return (
            round(sum(s.test.score for s in self.shown), 6),
            round(sum(s.test.max_score for s in self.shown), 6),
        )

    def part_scores(self) -> dict[str, tuple[float, float]]:
        """{part: (points, of)} over the tests shown, in the order the parts first appear."""
        parts: dict[str, tuple[float, float]] = {}
        for shown in self.shown:
            score, of = parts.get(shown.test.part, (0.0, 0.0))
            parts[shown.test.part] = (
                round(score + shown.test.score, 6),
                round(of + shown.test.max_score, 6),
            )
        return parts


def student_view(result: SubmissionResult, *, after_due: bool) -> StudentView:
    """`result` as its student may see it, before the due date or after it."""
    shown = []
    withheld = 0
    withheld_points = 0.0
    for test in result.tests:
        if test.visibility == "visible" or (after_due and test.visibility in SHOWN_AFTER_DUE):
            shown.append(_as_shown(test))
        else:
            withheld += 1
            withheld_points += test.max_score
    return StudentView(result, tuple(shown), withheld, round(withheld_points, 6))


def _as_shown(test: TestResult) -> ShownTest:
    if not test.private:
        return ShownTest(test, test.message, test.hint)
    return ShownTest(test, None, None if test.hint is None else without_arguments(test.hint))
