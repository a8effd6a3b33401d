"""The messages between the grader (sandbox/zygote.py's Zygote) and its zygote process, which
forks the workers inside the sandbox: one JSON object a line on a Unix socket, the worker's
three pipes passed beside a spawn request as file descriptors.

The zygote is started with a ZygoteStart as its argument and says ZygoteReady; then each
SpawnRequest is answered by a Spawned, each EndRequest by an Ended and each UsageRequest by a
Usage; a MarkRequest (sent as a call starts, so it must cost the call nothing) has no answer;
a request it does not know, a Refused. The grader reads the answers with `reply_from_json`:
anything else is a zygote that stopped answering (MessageError).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from autograder.protocol.messages import (
    MessageError,
    fields,
    integer,
    optional_text,
    text,
)

PATH_LIMIT = 4096
ID_LIMIT = 100
MAX_PRELOADED = 1000


@dataclass(frozen=True)
class ZygoteStart:
    """Where the zygote finds the submission (`inbox`) and makes each worker's folder (`slot`),
    whether its /tmp is private (bwrap), and what it imports and runs before any worker."""

    private_tmp: bool
    inbox: str
    slot: str
    preload: tuple[str, ...] = ()
    warm_up: str | None = None
    """The assignment's warm-up source (trusted instructor code)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "private_tmp": self.private_tmp,
            "inbox": self.inbox,
            "slot": self.slot,
            "preload": list(self.preload),
            "warm_up": self.warm_up,
        }

    @classmethod
    def from_json(cls, data: Any) -> ZygoteStart:
        message = fields(data, "a zygote's configuration")
        preload = message.get("preload", [])
        if not isinstance(preload, list) or len(preload) > MAX_PRELOADED:
            raise MessageError("a zygote's configuration whose preload is not a list")
        if not all(isinstance(name, str) for name in preload):
            raise MessageError("a zygote's configuration whose preload is not module names")
        warm_up = message.get("warm_up")
        if warm_up is not None and not isinstance(warm_up, str):
            raise MessageError("a zygote's configuration whose warm-up is not source")
        return cls(
            private_tmp=message.get("private_tmp") is True,
            inbox=text(message, "inbox", PATH_LIMIT),
            slot=text(message, "slot", PATH_LIMIT),
            preload=tuple(preload),
            warm_up=warm_up,
        )


@dataclass(frozen=True)
class WorkerStart:
    """What a worker needs: its submission's path and module name, its limits (Limits.to_dict),
    the user to drop to, and its confinement (confine.confine's arguments), if any."""

    submission: str
    module_name: str
    limits: dict[str, Any]
    drop_uid: int | None = None
    confine: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "submission": self.submission,
            "module_name": self.module_name,
            "limits": self.limits,
            "drop_uid": self.drop_uid,
            "confine": self.confine,
        }

    @classmethod
    def from_json(cls, data: Any) -> WorkerStart:
        message = fields(data, "a worker's configuration")
        limits, confine = message.get("limits"), message.get("confine")
        if not isinstance(limits, dict) or (confine is not None and not isinstance(confine, dict)):
            raise MessageError("a worker's configuration whose limits are not an object")
        return cls(
            submission=text(message, "submission", PATH_LIMIT),
            module_name=text(message, "module_name", PATH_LIMIT),
            limits=limits,
            drop_uid=None if message.get("drop_uid") is None else integer(message, "drop_uid"),
            confine=confine or None,
        )


@dataclass(frozen=True)
class SpawnRequest:
    """Fork a worker for `worker` on the three file descriptors sent with this message."""

    id: str
    worker: WorkerStart

    def to_json(self) -> dict[str, Any]:
        return {"op": "spawn", "id": self.id, "config": self.worker.to_json()}


@dataclass(frozen=True)
class EndRequest:
    """End worker `pid` (None: every process the workers left, and the slot), given a second
    to end by itself when `patient`."""

    id: str
    pid: int | None
    patient: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"op": "end", "id": self.id, "pid": self.pid, "patient": self.patient}


@dataclass(frozen=True)
class MarkRequest:
    """Note what the workers' processes have used so far: a call starts (no answer)."""

    id: str

    def to_json(self) -> dict[str, Any]:
        return {"op": "mark", "id": self.id}


@dataclass(frozen=True)
class UsageRequest:
    """What the workers' processes used since the last mark (cpu_time.py)."""

    id: str

    def to_json(self) -> dict[str, Any]:
        return {"op": "usage", "id": self.id}


ZygoteRequest = SpawnRequest | EndRequest | MarkRequest | UsageRequest


def request_from_json(data: Any) -> ZygoteRequest:
    message = fields(data, "a request to the zygote")
    ident = text(message, "id", ID_LIMIT)
    if message.get("op") == "spawn":
        return SpawnRequest(ident, WorkerStart.from_json(message.get("config")))
    if message.get("op") == "end":
        pid = None if message.get("pid") is None else integer(message, "pid")
        return EndRequest(ident, pid, message.get("patient") is True)
    if message.get("op") == "mark":
        return MarkRequest(ident)
    if message.get("op") == "usage":
        return UsageRequest(ident)
    raise MessageError("a request to the zygote of no known op")


@dataclass(frozen=True)
class ZygoteReady:
    """The zygote imported and warmed up what it was asked to, and waits for requests."""

    def to_json(self) -> dict[str, Any]:
        return {"ready": True}

    @classmethod
    def from_json(cls, data: Any) -> ZygoteReady:
        if fields(data, "a zygote's first line").get("ready") is not True:
            raise MessageError(f"a first line that is not ready: {str(data)[:200]}")
        return cls()


@dataclass(frozen=True)
class Spawned:
    id: str | None
    pid: int

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "pid": self.pid}


@dataclass(frozen=True)
class Ended:
    """The worker's exit code (None when it had none to report) and how many other processes
    were ended."""

    id: str | None
    code: int | None
    ended: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "code": self.code, "ended": self.ended}


@dataclass(frozen=True)
class Refused:
    id: str | None
    error: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "error": self.error}


@dataclass(frozen=True)
class Usage:
    """CPU seconds, seconds waited for a processor (None: unknown) and processes, since the
    last mark; all None where the zygote cannot tell (not Linux)."""

    id: str | None
    cpu_s: float | None
    waited_s: float | None = None
    processes: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "cpu_s": self.cpu_s, "waited_s": self.waited_s,
                "processes": self.processes}  # fmt: skip


ZygoteReply = Spawned | Ended | Usage | Refused


def reply_from_json(data: Any) -> ZygoteReply:
    message = fields(data, "a zygote's answer")
    ident = optional_text(message, "id", ID_LIMIT)
    if "pid" in message:
        pid = integer(message, "pid")
        if pid <= 0:
            raise MessageError("a zygote's answer with no process")
        return Spawned(ident, pid)
    if "code" in message:
        code = None if message.get("code") is None else integer(message, "code")
        return Ended(ident, code, integer(message, "ended") if "ended" in message else 0)
    if "cpu_s" in message:
        cpu, waited = message.get("cpu_s"), message.get("waited_s")
        return Usage(ident, _seconds(cpu), _seconds(waited), integer(message, "processes"))
    if "error" in message:
        return Refused(ident, text(message, "error", 500))
    raise MessageError("a zygote's answer of no known kind")


def _seconds(value: Any) -> float | None:
    if value is None:
        return None
    if type(value) not in (int, float) or not 0 <= value < float("inf"):
        raise MessageError("a zygote's usage that is not a number of seconds")
    return float(value)
