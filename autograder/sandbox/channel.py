"""Length-prefixed JSON messages over pipes, with deadlines and a size cap."""

from __future__ import annotations

import json
import os
import select
import struct
import time
from typing import Any

MAX_MESSAGE_BYTES = 160 * 1024 * 1024
_HEADER = struct.Struct(">Q")


class ChannelClosed(Exception):
    """The other end closed its pipe (the worker exited or was killed)."""


class ChannelTimeout(Exception):
    """No complete message arrived before the deadline."""


class ChannelGarbage(Exception):
    """What arrived is not a message: too large, or not JSON."""


def send(fd: int, message: Any) -> None:
    payload = json.dumps(message, separators=(",", ":")).encode("utf-8")
    data = _HEADER.pack(len(payload)) + payload
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def receive(fd: int, deadline: float | None = None) -> Any:
    """The next message on `fd`; `deadline` is a time.monotonic() value, None to wait forever."""
    (length,) = _HEADER.unpack(_read_exactly(fd, _HEADER.size, deadline))
    if length > MAX_MESSAGE_BYTES:
        raise ChannelGarbage(f"a message of {length} bytes (at most {MAX_MESSAGE_BYTES})")
    try:
        return json.loads(_read_exactly(fd, length, deadline))
    except ValueError as error:  # not UTF-8, not JSON, or a number too long to convert
        raise ChannelGarbage(f"a message that is not JSON: {error}") from None


def _read_exactly(fd: int, size: int, deadline: float | None) -> bytes:
    chunks: list[bytes] = []
    remaining = size
    while remaining:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise ChannelTimeout
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            raise ChannelClosed
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)
