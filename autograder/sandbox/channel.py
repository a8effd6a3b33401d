"""Length-prefixed JSON messages over pipes, with deadlines and a size cap.

Both directions are bounded for the trusted side: a send gives up at its deadline (a worker
that stops reading, or fills its own request pipe, cannot block the grader), and a message is
refused before it is parsed when it is too long or holds more parts than any value the codec
accepts (150 MB of `[[],[],…]` would otherwise take gigabytes to parse).
"""

from __future__ import annotations

import json
import os
import select
import struct
import time
from typing import Any

MAX_MESSAGE_BYTES = 160 * 1024 * 1024
MAX_MESSAGE_PARTS = 500_000
"""Lists, objects and separators in one message: the codec's values have at most 20,000 parts
each (a few JSON parts apiece), and arrays cross as one string."""
_HEADER = struct.Struct(">Q")


class ChannelClosed(Exception):
    """The other end closed its pipe (the worker exited or was killed)."""


class ChannelTimeout(Exception):
    """No complete message arrived before the deadline."""


class ChannelGarbage(Exception):
    """What arrived is not a message: too large, or not JSON."""


def send(fd: int, message: Any, deadline: float | None = None) -> None:
    """Write `message` to `fd`; with a `deadline` (a time.monotonic() value) the fd is made
    non-blocking and ChannelTimeout is raised when the reader has not taken it in time."""
    payload = json.dumps(message, separators=(",", ":")).encode("utf-8")
    data = _HEADER.pack(len(payload)) + payload
    view = memoryview(data)
    if deadline is not None:
        os.set_blocking(fd, False)
    while view:
        try:
            written = os.write(fd, view)
        except BlockingIOError:
            left = deadline - time.monotonic() if deadline is not None else None
            if left is not None and (left <= 0 or not select.select([], [fd], [], left)[1]):
                raise ChannelTimeout from None
            continue
        view = view[written:]


def receive(fd: int, deadline: float | None = None) -> Any:
    """The next message on `fd`; `deadline` is a time.monotonic() value, None to wait forever."""
    (length,) = _HEADER.unpack(_read_exactly(fd, _HEADER.size, deadline))
    if length > MAX_MESSAGE_BYTES:
        raise ChannelGarbage(f"a message of {length} bytes (at most {MAX_MESSAGE_BYTES})")
    data = _read_exactly(fd, length, deadline)
    parts = data.count(b",") + data.count(b"[") + data.count(b"{")
    if parts > MAX_MESSAGE_PARTS:
        raise ChannelGarbage(f"a message of more than {MAX_MESSAGE_PARTS} parts")
    try:
        return json.loads(data)
    except (ValueError, RecursionError) as error:  # not UTF-8, not JSON, too deep, too long
        raise ChannelGarbage(f"a message that is not JSON: {type(error).__name__}") from None


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
