"""Before results are released, nothing a student sees depends on a hidden test: the rule,
written once; every channel a student reads points here.

Released: the results held back until the due date may be shown. For the kit's own files
(`feedback`), once the last due date plus its grace period (and the cut-off, when late work is
accepted until then) has passed, or when the instructor says so (`feedback --after-due`):
visibility.results_released_at. On Gradescope, once the student's own late due date has passed
(gradescope/run.py results_released). With no due date, never.

Hidden: every test not shown at once (its visibility is not "visible": `after_due_date`,
`after_published`, `hidden`), whichever folder it comes from. Until release, what a student
reads is built from the tests shown at once alone:

- their results, messages and hints (visibility.student_view; disclosure.py says why those
  tests run first, in a worker of their own);
- the score: the points of the tests shown at once (Gradescope's `score_before_due =
  "shown_tests"`), or nothing at all (`"hidden"`);
- which attempt counts: "best" ranks attempts by the points of the tests shown at once, less
  the late penalty those points would bear; "last" and "last_before_due" read times only
  (attempts.py);
- the status: a grader error met after the tests shown at once had run (a later test, a part,
  the process running them) keeps those tests' results (serve.py writes them before the first
  later test runs); the student sees a graded result, the instructor a grader error (its
  status in the gradebook, the class report, `grade`'s summary), and the next `grade` grades
  the submission again;
- the duration: not shown; a student's copy of the result carries the time of the tests shown
  at once only (as_seen_before_release);
- lateness: whether a late penalty applies (by the submission's time), not how many points (a
  penalty is capped by the score).

The gradebook, its CSV and the class report are the instructor's, with every result; an LMS
import file holds final scores, so `gradebook --lms` warns while results are not released.

After release the full rules apply: every result its visibility allows, the final score, the
attempt the rule picks on every test, a pending grader error as the grader error it is.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from autograder.protocol.results import SubmissionResult, TestResult


def shown_at_once(test: TestResult) -> bool:
    """Whether a student reads `test`'s result before release."""
    return test.visibility == "visible"


def shown_score(result: SubmissionResult) -> float:
    """The points of the tests shown at once: all of the score a student may know before
    release."""
    return round(sum(t.score for t in result.tests if shown_at_once(t)), 6)


def as_seen_before_release(result: SubmissionResult) -> SubmissionResult:
    """`result` as a student's channel builds on it before release: a grader error met after
    the tests shown at once is their graded result, and the duration and the output are those
    of the tests shown at once. Every other field a channel shows is filtered there."""
    duration = round(sum(t.duration_s for t in result.tests if shown_at_once(t)), 3)
    seen = replace(result, duration_s=duration, output=result.shown_output)
    if result.status == "grader_error" and result.failed_after_shown:
        return replace(seen, status="graded", message=None, failed_after_shown=False)
    return seen


def as_seen(result: SubmissionResult, *, released: bool) -> SubmissionResult:
    """`result` as a student's channel builds on it now: after release, as it is."""
    return result if released else as_seen_before_release(result)


def shown_results_file(results: Path) -> Path:
    """Where a test child leaves the results of the tests shown at once before it runs any
    other (serve.py), beside its results file: the runner reads them when the grader fails."""
    return results.with_name(results.name + ".shown")
