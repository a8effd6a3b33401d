"""Run trusted code on untrusted data with a time and memory limit: a forked child does the work.

SymPy can spend unbounded time (or memory, in C arithmetic that no signal interrupts) on an
expression a student built. The grader's own symbolic work on such data therefore runs in a
child forked from the test process: it inherits everything already imported, computes, sends a
small JSON answer back through a pipe, and is killed at the deadline. Where there is no fork
(Windows: students' own checks only) the work runs in-process.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from autograder.sandbox.limits import limit_address_space

MEMORY_LIMIT_MB = 1024
"""What the child may map beyond what it inherits from the test process."""


@dataclass(frozen=True)
class Bounded:
    """What the bounded work gave: a value, or why there is none ("timeout" or "error")."""

    value: Any = None
    problem: str | None = None


def run_bounded(work: Callable[[], Any], *, timeout_s: float) -> Bounded:
    """`work()` in a forked child (its JSON-able value), or the reason it gave none."""
    if not hasattr(os, "fork"):
        return Bounded(value=work())
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: limit, work, answer, and leave without cleanup of the parent's state
        os.close(read)
        code = 0
        try:
            limit_address_space(MEMORY_LIMIT_MB)  # beyond what it inherits, however large
            payload = json.dumps({"value": work()}).encode()
        except BaseException as error:  # any failure in the child is its answer
            payload = json.dumps({"error": f"{type(error).__name__}: {error}"[:500]}).encode()
            code = 1
        with contextlib.suppress(OSError):
            os.write(write, payload)
        os._exit(code)
    os.close(write)
    try:
        return _collect(read, pid, time.monotonic() + timeout_s)
    finally:
        os.close(read)


def _collect(read: int, pid: int, deadline: float) -> Bounded:
    chunks: list[bytes] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([read], [], [], left)[0]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return Bounded(problem="timeout")
        chunk = os.read(read, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.waitpid(pid, 0)
    try:
        answer = json.loads(b"".join(chunks) or b"{}")
    except ValueError:
        return Bounded(problem="error: no answer")
    if "value" in answer:
        return Bounded(value=answer["value"])
    return Bounded(problem=f"error: {answer.get('error', 'the child ended without an answer')}")
