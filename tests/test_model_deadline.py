"""A model replayed by the authoring tools is stopped by the CPU time it spends (a busy machine
does not change what it is judged to be), with a wall-clock backstop for one that waits."""

from __future__ import annotations

import signal
import time

import pytest

from autograder.authoring.model_deadline import ModelTooLong, deadline


def test_a_model_that_computes_without_end_is_stopped() -> None:
    with pytest.raises(ModelTooLong), deadline(0.05):
        while True:
            sum(range(1000))


def test_a_model_that_waits_is_stopped_by_the_backstop() -> None:
    with pytest.raises(ModelTooLong), deadline(0.01):
        time.sleep(30)  # stopped after ten times the deadline on the wall clock


def test_a_quick_model_finishes_and_leaves_no_timer_behind() -> None:
    with deadline(5.0):
        total = sum(range(1000))
    assert total == 499500
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
