"""Timing shared by the bench scripts: the median wall time of repeated runs."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_seconds(action: Callable[[], object], runs: int) -> float:
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        timings.append(time.perf_counter() - start)
    return statistics.median(timings)


def medians_in_turns(actions: list[Callable[[], object]], runs: int) -> list[float]:
    """The median wall time of each action, run in turns (one of each, `runs` times): on a
    machine whose speed drifts from minute to minute, each ratio compares runs made together."""
    timings: list[list[float]] = [[] for _ in actions]
    for _ in range(runs):
        for action, spent in zip(actions, timings, strict=True):
            start = time.perf_counter()
            action()
            spent.append(time.perf_counter() - start)
    return [statistics.median(spent) for spent in timings]
