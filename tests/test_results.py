"""Test outcomes are frozen values that survive a JSON round trip unchanged."""

from __future__ import annotations

import json

import pytest

from autograder.grading.results import TestOutcome


def test_json_round_trip() -> None:
    outcome = TestOutcome(
        nodeid="tests/test_encoding.py::test_row_zero",
        name="test_row_zero",
        title="row 0 is [0, 1, 0, 1, …]",
        part="encoding",
        status="failed",
        message="row 0 should be [0, 1, 0, 1, …]; yours starts [1, 0, …]",
    )
    assert TestOutcome.from_dict(json.loads(json.dumps(outcome.to_dict()))) == outcome
    passed = TestOutcome(nodeid="a::b", name="b", title="b", part=None, status="passed")
    assert TestOutcome.from_dict(json.loads(json.dumps(passed.to_dict()))) == passed


def test_unknown_status_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown test status 'maybe'"):
        TestOutcome.from_dict({"nodeid": "a", "name": "a", "title": "a", "status": "maybe"})
