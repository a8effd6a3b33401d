"""The words every report uses for a submission's and a test's status, defined once.

A submission is `graded` when every test ran to an end, `timed out` when it was graded but at
least one of its tests ran out of time (those points are lost), `ungradable` when its file could
not be graded, `grader error` when the grader failed. A test `passed`, `failed`, raised an
`error`, is `not implemented yet`, or `timed out`. The class report, the feedback files and
the terminal's tables all say these, so a looping submission reads the same everywhere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from autograder.protocol.results import SubmissionResult

SUBMISSION_WORDS = {
    "graded": "graded",
    "timed_out": "timed out",
    "ungradable": "ungradable",
    "grader_error": "grader error",
}
"""A submission's status (its result's, or `timed_out`) → the word for it, in report order."""

SUBMISSION_MEANINGS = {
    "graded": "every test ran to an end",
    "timed_out": "graded, but at least one test ran out of time (its points lost)",
    "ungradable": "the submission could not be graded",
    "grader_error": "the grader failed: grade it again",
}

TEST_WORDS = {
    "passed": "passed",
    "failed": "failed",
    "error": "error",
    "not_implemented": "not implemented yet",
    "timeout": "timed out",
}
"""A test's status → the word for it, in the order reports count them."""

LOST = frozenset({"failed", "error", "timeout"})
"""Test statuses a terminal prints in capitals (points lost by running code)."""


def submission_status(result: SubmissionResult) -> str:
    """The key of SUBMISSION_WORDS for `result`."""
    if result.status == "graded" and any(t.status == "timeout" for t in result.tests):
        return "timed_out"
    return result.status


def submission_word(result: SubmissionResult) -> str:
    return SUBMISSION_WORDS[submission_status(result)]


def word_for_test(status: str) -> str:
    return TEST_WORDS.get(status, status)


def terminal_label(status: str) -> str:
    """A test's word as a terminal table prints it: a lost test's in capitals, to be seen."""
    word = word_for_test(status)
    return word.upper() if status in LOST else word
