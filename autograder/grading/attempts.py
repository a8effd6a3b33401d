"""Which of a student's attempts counts, by the rubric's `attempts` rule, and how late one is.

"last": the latest attempt. "best": the highest final score (late penalty off); of equal
ones, the latest. "last_before_due": the latest attempt submitted by the student's own due
date plus the grace period (an attempt without a time counts as on time); when every attempt
is later, the earliest late one counts, with its penalty (the student's first answer after
the due date, not one polished for days past it). With no due date, every attempt is on time.

Before results are released a student's channels ask with `released=False`: "best" then
ranks by the tests shown at once alone (before_release.py), so that which attempt counts says
nothing of a hidden test. The gradebook's own choice, the instructor's, uses every test.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone

from autograder.course.rubric import LatePolicy
from autograder.grading.before_release import shown_score
from autograder.grading.gradebook import Entry


def counted_attempt(
    attempts: Sequence[Entry],
    rule: str,
    policy: LatePolicy | None,
    student: str,
    *,
    released: bool = True,
    written_max: float = 0.0,
) -> Entry:
    """The attempt of `attempts` (one student's, in time order, at least one) that counts;
    `released` False: as a student may be told before results are released. "best" ranks by
    the automatic points less their late penalty (`written_max`, the written parts' points,
    is part of the maximum the penalty is a share of: after_grading/final_grade.py); people
    grade the written answers of the counted attempt alone, so they rank no attempt."""
    if rule == "best":
        if released:
            return max(reversed(attempts), key=lambda entry: entry.final_score)
        return max(
            reversed(attempts),
            key=lambda entry: _shown_final(entry, policy, student, written_max),
        )
    if rule == "last_before_due" and policy is not None:
        deadline = policy.due_for(student) + timedelta(minutes=policy.grace_minutes)
        on_time = [e for e in attempts if _on_time(e, deadline)]
        return on_time[-1] if on_time else attempts[0]
    return attempts[-1]


def _shown_final(
    entry: Entry, policy: LatePolicy | None, student: str, written_max: float
) -> float:
    """The points of the tests shown at once, less the penalty they would bear."""
    shown = shown_score(entry.result)
    when = datetime.fromisoformat(entry.submitted_at) if entry.submitted_at else None
    penalty = penalty_for(shown, entry.result.max_score + written_max, when, policy, student)
    return max(0.0, round(shown - penalty, 6))


def _on_time(entry: Entry, deadline: datetime) -> bool:
    if not entry.submitted_at:
        return True
    when = datetime.fromisoformat(entry.submitted_at)
    return (when if when.tzinfo else when.replace(tzinfo=timezone.utc)) <= deadline


def days_late(submitted_at: datetime | None, policy: LatePolicy | None, student: str | None) -> int:
    """Started days past `student`'s own due date plus the grace period; 0 when on time (or
    when there is no due date or no time)."""
    if policy is None or submitted_at is None:
        return 0
    when = submitted_at if submitted_at.tzinfo else submitted_at.replace(tzinfo=timezone.utc)
    late = when - (policy.due_for(student) + timedelta(minutes=policy.grace_minutes))
    return max(0, math.ceil(late / timedelta(days=1)))


def penalty_for(
    score: float,
    max_score: float,
    submitted_at: datetime | None,
    policy: LatePolicy | None,
    student: str | None,
) -> float:
    """Points off `score` for lateness: `penalty_per_day` percent of `max_score` per started
    day late, or all of `score` past the cut-off; never more than `score`. The final grade
    (after_grading/final_grade.py) gives it the points earned and the assignment's full
    points, written parts included."""
    days = days_late(submitted_at, policy, student)
    if days == 0 or policy is None:
        return 0.0
    if policy.cutoff_days is not None and days > policy.cutoff_days:
        return score
    return float(min(score, round(max_score * policy.penalty_per_day / 100 * days, 6)))
