"""The results of a test run: defined in the bottom layer (autograder.protocol.results), where
every process and every report reads them; kept importable here."""

from autograder.protocol.results import (
    SCHEMA_VERSION,
    STATUSES,
    Status,
    SubmissionResult,
    SubmissionStatus,
    TestOutcome,
    TestResult,
)

__all__ = [
    "SCHEMA_VERSION",
    "STATUSES",
    "Status",
    "SubmissionResult",
    "SubmissionStatus",
    "TestOutcome",
    "TestResult",
]
