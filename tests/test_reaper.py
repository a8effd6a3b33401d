"""Waiting for a child process: its exit code as soon as it ends, None at the deadline."""

from __future__ import annotations

import os
import signal
import time

import pytest

from autograder.sandbox import reaper
from autograder.sandbox.reaper import wait_for_exit


def _child(seconds: float, code: int) -> int:
    pid = os.fork()
    if pid == 0:
        time.sleep(seconds)
        os._exit(code)
    return pid


@pytest.fixture(params=["pidfd", "polling"])
def way(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both ways of waiting: Linux's pidfd, and the polling used where there is none."""
    if request.param == "polling":
        monkeypatch.delattr(reaper.os, "pidfd_open", raising=False)
    return str(request.param)


def test_the_exit_code_arrives_when_the_child_ends(way: str) -> None:
    pid = _child(0.2, 3)
    started = time.monotonic()
    assert wait_for_exit(pid, started + 10) == 3
    assert time.monotonic() - started < 2  # not at the deadline


def test_a_running_child_is_left_running_at_the_deadline(way: str) -> None:
    pid = _child(30, 0)
    started = time.monotonic()
    try:
        assert wait_for_exit(pid, started + 0.2) is None
        assert 0.2 <= time.monotonic() - started < 5
        assert os.waitpid(pid, os.WNOHANG) == (0, 0)  # still running
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)


def test_without_a_deadline_it_waits_and_a_stranger_gives_none(way: str) -> None:
    assert wait_for_exit(_child(0.1, 7), None) == 7
    assert wait_for_exit(1, time.monotonic() + 0.1) is None  # not this process's child
