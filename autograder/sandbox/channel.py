"""Length-prefixed JSON messages over pipes, with deadlines and bounds on what a message costs.

Both directions are bounded for the trusted side: a send gives up at its deadline (a worker
that stops reading, or fills its own request pipe, cannot block the grader), and a message is
refused before it is parsed when it is longer than any value the codec sends, has more parts,
is not ASCII (`send` writes only ASCII), or could take more than MAX_PARSE_BYTES to parse (150
MB of `[[],[],…]` took 2 GiB). It is read into one buffer of its announced length, freed once
the buffer is decoded to text.
"""

from __future__ import annotations

import json
import os
import select
import struct
import time
from typing import Any

from autograder.errors import AutograderError

MAX_MESSAGE_BYTES = 88 * 1024 * 1024
"""Room for the largest value the codec sends, one array of its 64 MiB (85.4 MiB as base64),
and its envelope. No more: the reader holds a message twice while it decodes it."""
MAX_MESSAGE_PARTS = 500_000
"""Lists, objects and separators in one message: the codec's values have at most 20,000 parts
each (a few JSON parts apiece), and arrays cross as one string."""
MAX_PARSE_BYTES = 200 * 1024 * 1024
"""What parsing one message may take, estimated before parsing: its text, the strings parsed
from it (1 byte a character, or 4 when a `\\u` escape above U+00FF widens a string: Python
stores a whole string at the width of its widest character), and PART_BYTES a part. The
largest array the codec sends takes 171 MiB, 20,000 symbols with all their assumptions 120."""
PART_BYTES = 320
"""The most one part costs once parsed: a dict of one new key holding the next dict takes
290 bytes; a list 96, a string 63, a float 37 (CPython 3.11, measured)."""
_HEADER = struct.Struct(">Q")
_READ_CHUNK = 1 << 20


class ChannelClosed(AutograderError):
    """The other end closed its pipe (the worker exited or was killed)."""


class ChannelTimeout(AutograderError):
    """No complete message arrived before the deadline."""


class ChannelGarbage(AutograderError):
    """What arrived is not a message: too large, or not JSON."""


class ChannelTooLarge(ChannelGarbage):
    """A message longer or more complex than any value the codec sends; refused unparsed."""


def send(fd: int, message: Any, deadline: float | None = None) -> None:
    """Write `message` to `fd`; with a `deadline` (a time.monotonic() value) the fd is made
    non-blocking and ChannelTimeout is raised when the reader has not taken it in time."""
    payload = json.dumps(message, separators=(",", ":")).encode("ascii")  # ensure_ascii
    if deadline is not None:
        os.set_blocking(fd, False)
    for part in (_HEADER.pack(len(payload)), payload):  # no joined copy of a large payload
        view = memoryview(part)
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
    """The next message on `fd`; `deadline` is a time.monotonic() value, None to wait forever.

    ChannelTooLarge for a message that may cost too much to parse, ChannelGarbage for one that
    is not JSON; neither error keeps the message's bytes alive in its traceback."""
    (length,) = _HEADER.unpack(_read_exactly(fd, _HEADER.size, deadline))
    if length > MAX_MESSAGE_BYTES:
        raise ChannelTooLarge(
            f"a message of {length} bytes, beyond the {MAX_MESSAGE_BYTES} allowed"
        )
    data = _read_exactly(fd, length, deadline)
    if (refusal := _refusal(data)) is not None:
        del data  # a test keeps its exception, and with it this frame, while it is reported
        raise refusal
    text = data.decode("ascii")
    del data  # only the text is kept while it is parsed
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as error:  # not JSON, too deep, an integer too long
        reason = type(error).__name__
    del text
    raise ChannelGarbage(f"a message that is not JSON: {reason}")


def _refusal(data: bytearray) -> ChannelGarbage | None:
    """Why `data` is not parsed, or None: each check is a scan in C, before any object exists."""
    if not data.isascii():
        return ChannelGarbage("a message that is not JSON: it is not ASCII")
    parts = data.count(b",") + data.count(b"[") + data.count(b"{")
    if parts > MAX_MESSAGE_PARTS:
        return ChannelTooLarge(f"a message of more than {MAX_MESSAGE_PARTS} parts")
    # Each `\u00XX` is also a `\u`, so more `\u` than `\u00` means an escape above U+00FF
    # (or a literal backslash before a `u`: over-counted, never under-counted).
    wide = b"\\u" in data and data.count(b"\\u") > data.count(b"\\u00")
    cost = len(data) * (5 if wide else 2) + parts * PART_BYTES
    if cost > MAX_PARSE_BYTES:
        return ChannelTooLarge(
            f"a message of {len(data)} bytes and {parts} parts, which could take "
            f"{cost >> 20} MiB to read, beyond the {MAX_PARSE_BYTES >> 20} MiB allowed"
        )
    return None


def _read_exactly(fd: int, size: int, deadline: float | None) -> bytearray:
    """`size` bytes read into one buffer: no list of chunks joined into a second copy."""
    buffer = bytearray(size)
    with memoryview(buffer) as view:  # released, so that the buffer can be freed
        failure = _fill(fd, view, deadline)
    if failure is not None:
        del buffer  # not kept alive, with this frame, by the traceback of the error
        raise failure
    return buffer


def _fill(fd: int, view: memoryview, deadline: float | None) -> Exception | None:
    """Read from `fd` until `view` is full; the error that stopped it, or None."""
    done = 0
    while done < len(view):
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return ChannelTimeout()
        got = os.readv(fd, [view[done : done + _READ_CHUNK]])
        if not got:
            return ChannelClosed()
        done += got
    return None
