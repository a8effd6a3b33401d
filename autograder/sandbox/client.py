"""The grader's side of the worker: start it, call the student's functions, stop it for good.

One `StudentSession` per submission; its workers are forked by a zygote (zygote.py), its own or
one the runner shares between the submissions it grades one after another. A call that times
out, or a worker that exits, crashes or sends garbage, kills the worker; the next call starts a
fresh one (re-importing the module). Each failure reaches the test as an exception the feedback
module turns into a message.
"""

from __future__ import annotations

import contextlib
import copy
import os
import select
import signal
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from autograder.errors import AutograderError
from autograder.protocol import messages
from autograder.protocol.calls import Call
from autograder.protocol.faults import (
    REBUILT,
    BoundaryRefused,
    Location,
    StudentCodeError,
    StudentCrash,
    StudentRaised,
    StudentTimeout,
    SubmissionImportError,
    SubmissionTimeExhausted,
)
from autograder.protocol.messages import MESSAGE_LIMIT, NAME_LIMIT
from autograder.protocol.zygote import WorkerStart
from autograder.safe_text import short_repr
from autograder.sandbox import channel, codec
from autograder.sandbox.cpu_time import CHECK_INTERVAL_S, WALL_FACTOR, Usage, Verdict, judge
from autograder.sandbox.isolation import Isolation
from autograder.sandbox.limits import Limits
from autograder.sandbox.slot_quota import SlotWatch
from autograder.sandbox.zygote import STARTUP_ALLOWANCE_S, Zygote, ZygoteFailed


class _Callable:
    """The worker's answer for an attribute that is a function: call it, do not read it."""


CALLABLE = _Callable()


__all__ = [
    "CALLABLE",
    "MESSAGE_LIMIT",
    "NAME_LIMIT",
    "BoundaryRefused",
    "StudentCodeError",
    "StudentCrash",
    "StudentSession",
    "StudentTimeout",
    "SubmissionImportError",
    "SubmissionTimeExhausted",
]
"""The student's faults are defined in autograder.protocol.faults; kept importable here."""


@dataclass
class _Output:
    """The worker's stdout and stderr, kept up to a cap and drained so it never blocks."""

    cap: int
    kept: bytearray = field(default_factory=bytearray)
    dropped: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def drain(self, fd: int) -> None:
        while chunk := os.read(fd, 65536):
            with self.lock:
                room = self.cap - len(self.kept)
                self.kept += chunk[: max(room, 0)]
                self.dropped += max(len(chunk) - max(room, 0), 0)
        os.close(fd)

    def text(self, upto: int | None = None) -> str:
        """What was kept, or its first `upto` bytes (a `mark()` made earlier)."""
        with self.lock:
            text = self.kept[:upto].decode("utf-8", "replace")
            if self.dropped and upto is None:
                text += f"\n[… {self.dropped} more bytes of output were dropped]"
            return text

    def mark(self) -> int:
        """How much is kept now: the output so far is `text(mark)`."""
        with self.lock:
            return len(self.kept)


class StudentSession:
    """The student's module, living in a worker process, called through data only."""

    def __init__(
        self,
        *,
        submission: Path,
        module_name: str,
        limits: Limits,
        isolation: Isolation,
        zygote: Zygote | None = None,
        on_disk_lost: Callable[[str], None] | None = None,
    ) -> None:
        """`zygote`: a running one whose inbox holds the submission (the caller keeps
        and closes it); by default the session starts its own. `on_disk_lost`: what to do,
        once the worker is stopped, when the slot's disk lost room its folder does not show
        (the grader's runner makes the submission a grader error); by default the student's
        stop, as a full slot is."""
        self.submission = submission
        self.module_name = module_name
        self.limits = limits
        self.isolation = isolation
        self.deadline: float | None = None
        """When the submission's time budget runs out: set at its first call, once the zygote
        is up (starting the sandbox is the grader's time, not the student's)."""
        self.output = _Output(cap=limits.output_kb * 1024)
        self.events: list[str] = []
        self._own_zygote = zygote is None
        self.zygote = zygote or Zygote(isolation, submission.parent)
        self._pid: int | None = None
        self._fds: tuple[int, int] = (-1, -1)
        self._drainer: threading.Thread | None = None
        self._import_error: str | None = None
        self._callables: set[str] = set()
        self._hanging: dict[str, str] = {}
        """Functions that timed out once: not called again, to save the submission's budget."""
        self._on_disk_lost = on_disk_lost
        self._slot_watch: SlotWatch | None = None
        """Without bwrap: the trusted side's watch over the slot's size (slot_quota.py)."""
        self._disk_exceeded: str | None = None
        self.rlimits: list[str] = []
        self.calls: list[Call] = []
        """Every successful call and constant read, for diagnosing a failed test."""

    # -- calls -------------------------------------------------------------------------------

    def call(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """Call the student's function; arrays it modifies in place are modified here too."""
        buffers: list[bytes] = []
        encoded = codec.encode(list(args), buffers), codec.encode(kwargs, buffers)
        request = messages.CallRequest(name, *encoded)
        before = (copy.deepcopy(args), copy.deepcopy(kwargs))
        try:
            value, mutated, received = self._ask(request, _CallText(name, args, kwargs), buffers)
        except StudentRaised as error:  # the student's own exception: the diagnosis reads its class
            text = str(error)[:MESSAGE_LIMIT]
            self.calls.append(Call(name, *before, None, raised=error.kind, error=text))
            raise
        modified: list[str | int] = []
        for key, data in mutated:  # arrays the function modified in place: modify ours too
            original = _argument(args, kwargs, key)
            if not isinstance(original, np.ndarray) or key in modified:
                continue  # not an array argument: a tampered worker's report, ignored
            modified.append(key)
            try:
                changed = codec.decode(data, received)
            except codec.CodecError:
                continue
            if (  # an argument modified in place keeps its type, dtype and shape: anything
                type(changed) is np.ndarray  # else (text, a SymPy matrix, whose entries a
                and changed.dtype == original.dtype  # copy would evaluate) is a tampered
                and changed.shape == original.shape  # report, ignored
            ):
                np.copyto(original, changed)
        self.calls.append(Call(name, before[0], before[1], value, modified=tuple(modified)))
        return value

    def attribute(self, name: str) -> Any:
        """A constant's value, or CALLABLE for a function (remembered while this worker lives:
        a test reads `student.f` before every call of f)."""
        if name in self._callables and self._pid is not None:
            return CALLABLE
        value = self._ask(messages.AttributeRequest(name), name)[0]
        if value is CALLABLE:
            self._callables.add(name)
        else:
            self.calls.append(Call(name, (), {}, value))
        return value

    def _ask(
        self, request: messages.Request, what: object, buffers: Sequence[bytes | memoryview] = ()
    ) -> tuple[Any, tuple[tuple[int | str, Any], ...], codec.Buffers]:
        """The value the worker answered `request` with (its `buffers` sent beside it), the
        arguments it reports modified (still encoded), and the buffers they are decoded from."""
        name = request.name
        if self._disk_exceeded is not None:
            self._remove_full_slot()
            raise StudentCrash(f"not run: {self._disk_exceeded}, so the submission was stopped")
        if name in self._hanging:
            raise StudentTimeout(
                f"not run: {self._hanging[name]} earlier, so {name} is not called again"
            )
        if self.deadline is None:
            with contextlib.suppress(ZygoteFailed):  # the spawn below reports it
                self.zygote.start()
            self.deadline = time.monotonic() + self.limits.submission_timeout_s
        if time.monotonic() >= self.deadline:
            raise SubmissionTimeExhausted(
                f"the submission's time budget of {self.limits.submission_timeout_s:g} s ran out "
                f"before {what} could run"
            )
        self._ensure_worker()
        request_fd, response_fd = self._fds
        left = self.deadline - time.monotonic()
        limit = max(min(self.limits.call_timeout_s, left), 0.0)
        cap = max(min(self.limits.call_timeout_s * WALL_FACTOR, left), limit)
        started = time.monotonic()
        self.zygote.mark()
        try:
            channel.send(request_fd, request.to_json(), started + cap, buffers)
            reply = self._receive(response_fd, started, limit, cap)
        except _OutOfTime as out:
            self._stop("timeout")
            if out.verdict == "starved":
                self.events.append("starved")  # the runner grades the submission again alone
            if left < self.limits.call_timeout_s:
                raise SubmissionTimeExhausted(
                    f"the submission's time budget of {self.limits.submission_timeout_s:g} s "
                    f"ran out during {what}, after {limit:.3g} s of it{out.why}"
                ) from None
            message = f"{what} did not return within {limit:.3g} s{out.why}"
            self._hanging[name] = message
            raise StudentTimeout(f"{message}{out.advice}") from None
        except channel.ChannelTimeout:  # its arguments or its reply still moving at the cap
            self._stop("timeout")
            message = f"{what} did not finish within {cap:.3g} s"
            self._hanging[name] = message
            raise StudentTimeout(f"{message}: does it loop forever?") from None
        except (channel.ChannelClosed, BrokenPipeError):
            code = self._stop("crash")
            if self._disk_exceeded is not None:
                self._remove_full_slot()
                raise StudentCrash(f"{self._disk_exceeded} (during {what})") from None
            raise StudentCrash(
                f"your code ended the worker process {_how(code)} during {what}"
            ) from None
        except channel.ChannelTooLarge as refused:  # the student's value, not a broken worker
            self._stop("garbage")  # the rest of the message is still in the pipe
            raise BoundaryRefused(
                f"{what} returned a value too large or too complex to send to the grader "
                f"({refused}): return what the docstring says, in at most "
                f"{codec.MAX_NODES} parts or an array of at most {codec.MAX_ARRAY_BYTES >> 20} MiB"
            ) from None
        except channel.ChannelGarbage as garbage:
            self._stop("garbage")
            raise StudentCrash(f"the worker sent {garbage} during {what}") from None
        return self._unpack(reply, what)

    def _unpack(
        self, arrived: channel.Received, what: object
    ) -> tuple[Any, tuple[tuple[int | str, Any], ...], codec.Buffers]:
        received = codec.Buffers(arrived.buffers)
        try:
            reply = messages.reply_from_json(arrived.value)
        except messages.MessageError as error:
            if error.kind == "value":  # a value's report of its modified arguments
                raise BoundaryRefused(f"{what} returned {error}") from None
            reply = None
        if isinstance(reply, messages.CallableReply):
            return CALLABLE, (), received
        if isinstance(reply, messages.ValueReply):
            try:
                return codec.decode(reply.value, received), reply.mutated, received
            except codec.CodecError as error:
                raise BoundaryRefused(f"{what} returned {error}") from None
        if isinstance(reply, (messages.ImportErrorReply, messages.MissingReply)):
            raise SubmissionImportError(reply.message)
        if isinstance(reply, messages.RefusedReply):
            message = reply.message
            advice = (
                "return a NumPy array of numbers, such as np.asarray(result, dtype=float)"
                if "array of dtype" in message
                else "return what the docstring says: NumPy arrays of numbers, numbers, "
                "tuples of them, or SymPy expressions"
            )
            raise BoundaryRefused(
                f"{what} returned {message}, which the grader cannot accept: {advice}"
            )
        if isinstance(reply, messages.RaisedReply):
            raise _rebuild(reply, self.submission.name)
        self._stop("garbage")
        raise StudentCrash(
            f"the worker sent an answer the grader does not understand during {what}"
        )

    def _receive(
        self, response_fd: int, started: float, limit: float, cap: float
    ) -> channel.Received:
        """The worker's reply, awaited while the call is within its time (cpu_time.py): up to
        `limit` of CPU time used by the submission's processes, or of wall-clock time where
        that cannot be measured, and never past `cap` of wall-clock time."""
        deadline = started + limit
        while True:
            if _readable(response_fd, deadline):  # a reply begins: read it whole, up to the cap
                return channel.receive(response_fd, started + cap)
            wall = time.monotonic() - started
            used = self.zygote.usage()
            verdict = judge(wall_s=wall, used=used, limit_s=limit, cap_s=cap)
            if verdict != "running":
                raise _OutOfTime(verdict, wall, used)
            cpu = 0.0 if used is None else used.cpu_s  # at full speed, when it reaches its limit:
            wait = min(max(limit - cpu, 0.01), CHECK_INTERVAL_S)  # an endless loop is not
            deadline = min(time.monotonic() + wait, started + cap)  # let run past it much

    # -- the process -------------------------------------------------------------------------

    def _ensure_worker(self) -> None:
        if self._pid is not None:
            return
        if self._import_error is not None:
            raise SubmissionImportError(self._import_error)
        request_read, request_write = os.pipe()
        response_read, response_write = os.pipe()
        output_read, output_write = os.pipe()
        config = WorkerStart(
            submission=f"{self.zygote.workdir_in_worker}/{self.submission.name}",
            module_name=self.module_name,
            limits=self.limits.to_dict(),
            drop_uid=self.isolation.worker_uid if self.isolation.drop_user else None,
            confine=self.isolation.confinement(self.zygote.workdir_in_worker),
        )
        try:
            self._pid = self.zygote.spawn(config, (request_read, response_write, output_write))
        except ZygoteFailed as failed:
            for fd in (request_write, response_read, output_read):
                os.close(fd)
            raise StudentCrash(f"the grader could not start a worker: {failed}") from None
        finally:
            for fd in (request_read, response_write, output_write):
                os.close(fd)
        self._fds = (request_write, response_read)
        self._watch_slot()
        self._drainer = threading.Thread(target=self.output.drain, args=(output_read,), daemon=True)
        self._drainer.start()
        try:
            hello = channel.receive(response_read, time.monotonic() + STARTUP_ALLOWANCE_S)
        except (channel.ChannelClosed, channel.ChannelTimeout, channel.ChannelGarbage):
            code = self._stop("crash")
            self._import_error = (
                f"the worker ended {_how(code)} while importing {self.submission.name}: does it "
                "call exit(), os._exit() or loop forever at import time?"
            )
            if self._disk_exceeded is not None:
                self._remove_full_slot()
                self._import_error = f"{self._disk_exceeded} (while importing it)"
            raise StudentCrash(self._import_error) from None
        try:
            ready = messages.hello_from_json(hello.value)
        except messages.MessageError:
            ready = messages.Ready(None, ())  # its next answer shows what it is
        self.rlimits = list(ready.rlimits) if isinstance(ready, messages.Ready) else []
        if isinstance(ready, messages.Unconfined):
            self._stop("unconfined")
            raise StudentCrash(f"the grader could not confine the worker: {ready.reason}")
        if ready.import_error:
            self._import_error = ready.import_error
            self._stop("import_error")
            raise SubmissionImportError(self._import_error)

    def _watch_slot(self) -> None:
        """Without bwrap's size-capped /tmp, watch the slot from here (once per session)."""
        if self.isolation.bwrap or self._slot_watch is not None:
            return
        self._slot_watch = SlotWatch(
            self.zygote.workdir_in_worker,
            max_bytes=self.limits.disk_mb * 2**20,
            disk_mb=self.limits.disk_mb,
            exceeded=self._slot_full,
            disk_lost=self._disk_lost,
        )

    def _slot_full(self, message: str) -> None:
        """From the watch's thread: stop the worker now; the calling thread then reports it."""
        self._disk_exceeded = message
        pid = self._pid
        if pid is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)

    def _disk_lost(self, message: str) -> None:
        """From the watch's thread: the disk lost room no slot shows (which submission took
        it cannot be told when several run at once)."""
        self._slot_full(message)
        if self._on_disk_lost is not None:
            self._on_disk_lost(message)

    def fresh_worker(self) -> None:
        """End the worker, if one ran, with everything it left: its processes, its files (the
        slot and a private /tmp). The next call starts a fresh worker in a fresh copy of the
        submission, which imports the module anew and so finds nothing the calls before it
        left, in the module's state or on disk."""
        if self._pid is None and not self.events:
            return  # no worker ran yet: nothing to forget
        self._stop("fresh")
        with contextlib.suppress(ZygoteFailed):  # killed with its sandbox: a new one is fresh
            self.zygote.end(None)

    def _remove_full_slot(self) -> None:
        """A slot past its quota goes at once, with every process the workers left: the disk
        it fills may be the gradebook's."""
        if "disk" in self.events:
            return
        self.events.append("disk")
        self._stop("disk")
        with contextlib.suppress(ZygoteFailed):
            self.zygote.end(None)

    def _stop(self, reason: str) -> int | None:
        """Kill the worker and everything it started; return its exit code."""
        pid, self._pid = self._pid, None
        self._callables.clear()
        if pid is None:
            return None
        self.events.append(reason)
        for fd in self._fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        self._fds = (-1, -1)
        try:
            code, _ = self.zygote.end(pid, patient=reason in ("crash", "closed"))
        except ZygoteFailed:  # it is killed already (Zygote.end): no exit code to report
            code = None
        if self._drainer is not None:
            self._drainer.join(timeout=5)
        return code

    def close(self) -> None:
        if self._slot_watch is not None:
            self._slot_watch.close()
        self._stop("closed")
        if self._own_zygote:
            self.zygote.close()

    def __enter__(self) -> StudentSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _argument(args: tuple[Any, ...], kwargs: dict[str, Any], key: Any) -> Any:
    """The argument the worker names by position or keyword; None when there is no such one."""
    if type(key) is int:
        return args[key] if 0 <= key < len(args) else None
    return kwargs.get(key) if type(key) is str else None


def _rebuild(reply: messages.RaisedReply, filename: str) -> StudentRaised:
    """The student's exception as the grader raises it: a builtin class, or StudentCodeError."""
    kind, message = reply.type, reply.message
    cls = REBUILT.get(kind) if reply.builtin else None
    where = (
        Location(reply.function, filename, reply.line) if reply.function and reply.line else None
    )
    if kind in ("SystemExit", "KeyboardInterrupt"):
        text = f"{kind}: your code called exit() ({message})"
        return StudentCodeError(text, kind=kind, location=where)
    if cls is None:
        return StudentCodeError(
            f"{kind}: {message}" if message else kind, kind=kind, location=where
        )
    return cls(message, kind=kind, location=where)


def _readable(fd: int, deadline: float) -> bool:
    """`fd` has something to read before `deadline` (a time.monotonic() value)."""
    while True:
        ready, _, _ = select.select([fd], [], [], max(deadline - time.monotonic(), 0.0))
        if ready:
            return True
        if time.monotonic() >= deadline:
            return False


class _OutOfTime(AutograderError):
    """A call is over its time, and why (cpu_time.judge's verdict)."""

    def __init__(self, verdict: Verdict, wall_s: float, used: Usage | None) -> None:
        self.verdict, self.wall_s = verdict, wall_s
        self.why, self.advice = "", ": does it loop forever?"
        if verdict == "cpu" and used is not None:
            processes = f" (its {used.processes} processes)" if used.processes > 1 else ""
            self.why = f" of processor time{processes}"
        elif verdict == "idle":
            self.why = " while running for almost none of it"
            self.advice = ": does it sleep, or wait for something that never comes?"
        elif verdict == "starved" and used is not None:
            self.why = (
                f" of processor time: the machine was busy, and in {wall_s:.3g} s it gave "
                f"it {used.cpu_s:.3g} s"
            )
            self.advice = ""


class _CallText:
    """`name(arguments)` for a message, written only if a message needs it: most calls
    succeed, and describing their arguments cost more than some calls themselves."""

    __slots__ = ("args", "kwargs", "name")

    def __init__(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        self.name, self.args, self.kwargs = name, args, kwargs

    def __str__(self) -> str:
        return f"{self.name}({_signature(self.args, self.kwargs)})"


def _signature(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    parts = [_short(a) for a in args] + [f"{k}={_short(v)}" for k, v in kwargs.items()]
    return ", ".join(parts)


def _short(value: Any) -> str:
    shape = getattr(value, "shape", None)
    if shape is not None:
        return f"<array {tuple(shape)}>"
    return short_repr(value, 30)


def _how(code: int | None) -> str:
    if code is None:
        return ""
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        hint = {"SIGKILL": " (killed: out of memory or a limit)", "SIGXCPU": " (CPU time limit)",
                "SIGXFSZ": " (file size limit)", "SIGSEGV": " (a crash)"}.get(name, "")  # fmt: skip
        return f"with {name}{hint}"
    return f"with exit code {code}"
