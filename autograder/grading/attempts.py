"""Which of a student's attempts counts, by the rubric's `attempts` rule.

"last": the latest attempt. "best": the highest final score (late penalty off); of equal
ones, the latest. "last_before_due": the latest attempt submitted by the student's own due
date plus the grace period (an attempt without a time counts as on time); when every attempt
is later, the earliest late one counts, with its penalty (the student's first answer after
the due date, not one polished for days past it). With no due date, every attempt is on time.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta, timezone

from autograder.course.rubric import LatePolicy
from autograder.grading.gradebook import Entry


def counted_attempt(
    attempts: Sequence[Entry], rule: str, policy: LatePolicy | None, student: str
) -> Entry:
    """The attempt of `attempts` (one student's, in time order, at least one) that counts."""
    if rule == "best":
        return max(reversed(attempts), key=lambda entry: entry.final_score)
    if rule == "last_before_due" and policy is not None:
        deadline = policy.due_for(student) + timedelta(minutes=policy.grace_minutes)
        on_time = [e for e in attempts if _on_time(e, deadline)]
        return on_time[-1] if on_time else attempts[0]
    return attempts[-1]


def _on_time(entry: Entry, deadline: datetime) -> bool:
    if not entry.submitted_at:
        return True
    when = datetime.fromisoformat(entry.submitted_at)
    return (when if when.tzinfo else when.replace(tzinfo=timezone.utc)) <= deadline
