"""The messages between the grader's client (sandbox/client.py) and a worker (sandbox/worker.py).

They cross as JSON over the channel (sandbox/channel.py bounds their size before parsing);
values inside them are the codec's encodings (sandbox/codec.py decodes those, bounded). Each
`from_json` accepts exactly what `to_json` writes, with every text cut to a bound: anything
else raises MessageError, which the client reports as a worker that sent garbage.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from autograder.errors import AutograderError

NAME_LIMIT, MESSAGE_LIMIT = 200, 2000
"""The worker cuts exception names and messages to these (adding "…"); the client cuts what it
reads to them too, so a tampered worker's text is bounded as well."""
TEXT_LIMIT = MESSAGE_LIMIT + 1
"""Any other text from the worker: a message cut by the worker, with its "…"."""
MAX_RLIMITS = 64
"""Entries in the worker's list of the limits it applied."""


class MessageError(AutograderError, ValueError):
    """A message that is not one the protocol defines (a tampered or broken peer)."""

    def __init__(self, message: str, *, kind: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        """The kind of message it claimed to be, when it said."""


def fields(data: Any, what: str) -> dict[str, Any]:
    """`data` as a JSON object, or MessageError."""
    if not isinstance(data, dict):
        raise MessageError(f"{what} that is not a JSON object")
    return data


def text(data: dict[str, Any], key: str, limit: int, *, kind: str | None = None) -> str:
    """The string at `key`, cut to `limit` characters."""
    value = data.get(key)
    if not isinstance(value, str):
        raise MessageError(f"a message whose {key!r} is not a string", kind=kind)
    return value[:limit]


def optional_text(
    data: dict[str, Any], key: str, limit: int, *, kind: str | None = None
) -> str | None:
    return None if data.get(key) is None else text(data, key, limit, kind=kind)


def integer(data: dict[str, Any], key: str, *, kind: str | None = None) -> int:
    value = data.get(key)
    if type(value) is not int:
        raise MessageError(f"a message whose {key!r} is not an integer", kind=kind)
    return value


# -- client → worker --------------------------------------------------------------------------


@dataclass(frozen=True)
class CallRequest:
    """Call the student's function `name` with the codec's encodings of its arguments."""

    name: str
    args: Any
    kwargs: Any

    def to_json(self) -> dict[str, Any]:
        return {"op": "call", "name": self.name, "args": self.args, "kwargs": self.kwargs}


@dataclass(frozen=True)
class AttributeRequest:
    """Read the module's attribute `name`: a constant's value, or "callable"."""

    name: str

    def to_json(self) -> dict[str, Any]:
        return {"op": "getattr", "name": self.name}


Request = CallRequest | AttributeRequest


def request_from_json(data: Any) -> Request:
    message = fields(data, "a request")
    name = text(message, "name", NAME_LIMIT)
    if message.get("op") == "getattr":
        return AttributeRequest(name)
    if message.get("op") == "call" and "args" in message and "kwargs" in message:
        return CallRequest(name, message["args"], message["kwargs"])
    raise MessageError("a request of no known op")


# -- worker → client: its first message -------------------------------------------------------


@dataclass(frozen=True)
class Ready:
    """The worker is limited and confined, and imported the submission (or says why not)."""

    import_error: str | None
    rlimits: tuple[str, ...]
    """What it limited (rlimits, confinement layers), for the result's isolation line."""

    def to_json(self) -> dict[str, Any]:
        return {"ready": True, "import_error": self.import_error, "rlimits": list(self.rlimits)}


@dataclass(frozen=True)
class Unconfined:
    """The worker could not confine itself, so it runs no student code."""

    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"ready": False, "unconfined": self.reason}


Hello = Ready | Unconfined


def hello_from_json(data: Any) -> Hello:
    message = fields(data, "a first message")
    if message.get("ready") is False and message.get("unconfined"):
        return Unconfined(text(message, "unconfined", TEXT_LIMIT))
    if message.get("ready") is not True:
        raise MessageError("a first message that is neither ready nor unconfined")
    rlimits = message.get("rlimits", [])
    if not isinstance(rlimits, list) or len(rlimits) > MAX_RLIMITS:
        raise MessageError("a first message whose rlimits are not a short list")
    if not all(isinstance(entry, str) for entry in rlimits):
        raise MessageError("a first message whose rlimits are not strings")
    error = message.get("import_error")
    return Ready(
        import_error=str(error)[:MESSAGE_LIMIT] if error else None,
        rlimits=tuple(entry[:NAME_LIMIT] for entry in rlimits),
    )


# -- worker → client: the answer to a request -------------------------------------------------


@dataclass(frozen=True)
class CallableReply:
    """The attribute asked for is a function."""

    def to_json(self) -> dict[str, Any]:
        return {"kind": "callable"}


@dataclass(frozen=True)
class ValueReply:
    """The value returned (or read), and the array arguments the call modified in place, each
    as the codec's encoding."""

    value: Any
    mutated: tuple[tuple[int | str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "value",
            "value": self.value,
            "mutated": [[key, data] for key, data in self.mutated],
        }


@dataclass(frozen=True)
class ImportErrorReply:
    """The submission did not import: why."""

    message: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": "import_error", "message": self.message}


@dataclass(frozen=True)
class MissingReply:
    """The module has no attribute of the name asked for."""

    message: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": "missing", "message": self.message}


@dataclass(frozen=True)
class RefusedReply:
    """The value returned may not cross (the codec refused it): why."""

    message: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": "refused", "message": self.message}


@dataclass(frozen=True)
class RaisedReply:
    """The student's code raised: the class's name, whether it is a builtin class, its message,
    and the innermost function and line of the submission's file it came from."""

    type: str
    builtin: bool
    message: str
    function: str | None = None
    line: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "raised",
            "type": self.type,
            "builtin": self.builtin,
            "message": self.message,
            "function": self.function,
            "line": self.line,
        }


Reply = CallableReply | ValueReply | ImportErrorReply | MissingReply | RefusedReply | RaisedReply


def reply_from_json(data: Any) -> Reply:
    message = fields(data, "an answer")
    kind = message.get("kind")
    if kind == "callable":
        return CallableReply()
    if kind == "value":
        return ValueReply(message.get("value"), _mutations(message.get("mutated", [])))
    if kind == "import_error":
        return ImportErrorReply(text(message, "message", TEXT_LIMIT))
    if kind == "missing":
        return MissingReply(text(message, "message", TEXT_LIMIT))
    if kind == "refused":
        return RefusedReply(text(message, "message", TEXT_LIMIT))
    if kind == "raised":
        line = message.get("line")
        function = message.get("function")
        return RaisedReply(
            type=str(message.get("type"))[:NAME_LIMIT],
            builtin=message.get("builtin") is True,
            message=str(message.get("message", ""))[:MESSAGE_LIMIT],
            function=function[:NAME_LIMIT] if isinstance(function, str) and function else None,
            line=line if type(line) is int and line > 0 else None,
        )
    raise MessageError("an answer of no known kind")


def _mutations(data: Any) -> tuple[tuple[int | str, Any], ...]:
    if not isinstance(data, list) or not all(isinstance(m, list) and len(m) == 2 for m in data):
        raise MessageError("a malformed list of modified arguments", kind="value")
    return tuple((key, value) for key, value in data)
