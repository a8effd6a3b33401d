"""uvicorn bounded for a page that anyone on the machine can connect to.

Every local user and process can reach 127.0.0.1, token or not, so what a connection costs
must be bounded before the token is ever checked. uvicorn bounds a request's headers
(`h11_max_incomplete_event_size`) and an idle connection after a response
(`timeout_keep_alive`), but not a connection that never completes its headers: a thousand of
those, opened and left idle or half-sent, would exhaust the file descriptors, lock the grading
page out and fill the terminal with accept errors. Here:

- each connection has a deadline: its headers within HEADER_SECONDS of connecting (or of its
  last response), then its response begun and done within REQUEST_SECONDS (a slow body too);
  past it, the connection is dropped;
- at most `capacity` connections are open, well under the open-file limit (raised first
  towards WANTED_FILES, as far as the hard limit allows): a new one beyond it evicts another,
  never is refused itself. The victim is the oldest connection waiting for headers; failing
  that, the oldest whose peer reads no more of its response (its writing paused: requests
  pipelined and never read); failing that, the one busy longest. A grader's browser sends its
  request at once and is answered in milliseconds, so neither idle nor stalled floods keep it
  out;
- the listening backlog is small, so one accept round cannot open hundreds of sockets at once;
- uvicorn's and asyncio's log lines are rate-limited (`LogThrottle`), with a count of those not
  shown: a flood of bad requests prints a few lines, not one per connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import resource
import socket
import threading
import time
from typing import Any, ClassVar

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_SECONDS = 5.0
REQUEST_SECONDS = 30.0
MAX_CONNECTIONS = 200
BACKLOG = 64
MAX_HEADER_BYTES = 16 * 1024
RESERVED_FILES = 2 * BACKLOG + 64
"""Descriptors kept out of the connections' share: the gradebook, the standard streams, and
sockets accepted in one round before their connection is admitted or evicted."""
WANTED_FILES = 4096
THROTTLED_LOGGERS = ("uvicorn.error", "uvicorn.access", "asyncio")


class Connections:
    """The open connections of one server, and the rule that admits a new one."""

    def __init__(self, capacity: int, header_seconds: float, request_seconds: float) -> None:
        self.capacity = capacity
        self.header_seconds = header_seconds
        self.request_seconds = request_seconds
        self.open: dict[GuardedH11, None] = {}  # insertion-ordered set

    def admit(self, new: GuardedH11) -> None:
        if len(self.open) >= self.capacity and self.open:
            victim = self.victim()
            self.forget(victim)
            victim.transport.abort()
        self.open[new] = None

    def victim(self) -> GuardedH11:
        """The open connection a newcomer replaces (see the module's docstring)."""
        waiting = [c for c in self.open if c.waiting_since is not None]
        if waiting:
            return min(waiting, key=lambda c: c.waiting_since or 0.0)
        stalled = [c for c in self.open if c.flow is not None and c.flow.write_paused]
        return min(stalled or self.open, key=lambda c: c.busy_since)

    def forget(self, connection: GuardedH11) -> None:
        self.open.pop(connection, None)


class GuardedH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline on every connection and a shared cap."""

    registry: ClassVar[Connections]

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.deadline: asyncio.TimerHandle | None = None
        self.waiting_since: float | None = self.loop.time()
        self.busy_since = self.waiting_since
        self._arm(self.registry.header_seconds)
        self.registry.admit(self)

    def handle_events(self) -> None:
        before = self.cycle
        super().handle_events()
        if self.cycle is not before:  # headers complete: a request is being answered
            self.waiting_since = None
            self.busy_since = self.loop.time()
            self._arm(self.registry.request_seconds)

    def on_response_complete(self) -> None:
        self.waiting_since = self.loop.time()
        self._arm(self.registry.header_seconds)
        super().on_response_complete()  # may start a pipelined request: handle_events re-arms

    def connection_lost(self, exc: Exception | None) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
        self.registry.forget(self)
        super().connection_lost(exc)

    def _arm(self, seconds: float) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
        self.deadline = self.loop.call_later(seconds, self.transport.abort)


class LogThrottle(logging.Filter):
    """At most `burst` records of a logger per `window` seconds. The next one says that the
    rest are not shown; the first after a window that dropped some says how many were not."""

    def __init__(self, burst: int = 5, window: float = 10.0) -> None:
        super().__init__()
        self.burst, self.window = burst, window
        self.started, self.passed, self.dropped = -window, 0, 0
        self.lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        with self.lock:
            now = time.monotonic()
            if now - self.started >= self.window:
                self.started, self.passed = now, 0
            self.passed += 1
            if self.passed > self.burst + 1:
                self.dropped += 1
                return False
            note = ""
            if self.passed == self.burst + 1:
                note = f"more than {self.burst} log lines in {self.window:g} s: the rest not shown"
            elif self.dropped:
                note = f"{self.dropped} log lines not shown"
                self.dropped = 0
            if note:
                record.msg, record.args = f"{record.getMessage()} ({note})", ()
            return True


def throttle_logs() -> None:
    for name in THROTTLED_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, LogThrottle) for f in logger.filters):
            logger.addFilter(LogThrottle())


def open_file_limit() -> int:
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return WANTED_FILES if soft == resource.RLIM_INFINITY else int(soft)


def raise_open_file_limit() -> None:
    """The soft limit on open files raised towards WANTED_FILES, as far as the hard one allows."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = WANTED_FILES if hard == resource.RLIM_INFINITY else min(WANTED_FILES, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):  # then capacity() sizes by the old one
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def capacity(files: int) -> int:
    """How many connections may be open when the process may open `files` descriptors."""
    return max(8, min(MAX_CONNECTIONS, (files - RESERVED_FILES) // 2))


def bounded_server(
    app: Any,
    *,
    log_level: str = "warning",
    header_seconds: float = HEADER_SECONDS,
    request_seconds: float = REQUEST_SECONDS,
) -> uvicorn.Server:
    """A uvicorn server of `app` with the bounds above (run it on a socket of bound_socket)."""
    most = capacity(open_file_limit())
    connections = Connections(most, header_seconds, request_seconds)
    protocol = type("GuardedH11", (GuardedH11,), {"registry": connections})
    config = uvicorn.Config(
        app, http=protocol, log_level=log_level, lifespan="on", backlog=BACKLOG,
        timeout_keep_alive=max(1, int(header_seconds)), limit_concurrency=most + 2 * BACKLOG,
        h11_max_incomplete_event_size=MAX_HEADER_BYTES,
    )  # fmt: skip
    throttle_logs()
    return uvicorn.Server(config)


def serve(app: Any, sock: socket.socket) -> None:
    """Serve `app` on the listening `sock` until interrupted (Ctrl+C: a clean stop, after
    which uvicorn re-raises the interrupt; no traceback for the grader)."""
    raise_open_file_limit()
    with contextlib.suppress(KeyboardInterrupt):
        bounded_server(app).run(sockets=[sock])
