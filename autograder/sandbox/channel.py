"""Length-prefixed messages over pipes, with deadlines and bounds on what a message costs.

A message is JSON and, beside it, the raw bytes of the arrays and bytes values it carries
(its buffers): a header of the JSON's length, the number of buffers and each one's length,
then the JSON, then the buffers. Arrays cross as their own bytes, never as text inside the JSON:
encoding a megabyte as base64, checking and decoding it took the two sides 30 ms.

Both directions are bounded for the trusted side: a send gives up at its deadline (a worker
that stops reading, or fills its own request pipe, cannot block the grader), and a message is
refused before it is parsed when it is longer than any value the codec sends, has more parts,
its JSON is not ASCII (`send` writes only ASCII), or it could take more than MAX_PARSE_BYTES to
parse and decode (150 MB of `[[],[],…]` took 2 GiB). Its JSON and its buffers are each read into
one block of their announced length.
"""

from __future__ import annotations

import json
import os
import select
import struct
import time
from collections.abc import Sequence
from typing import Any

from autograder.errors import AutograderError

MAX_MESSAGE_BYTES = 88 * 1024 * 1024
"""Room for the largest value the codec sends, one array of its 64 MiB, and its envelope,
JSON and buffers together."""
MAX_MESSAGE_PARTS = 500_000
"""Lists, objects and separators in one message's JSON: the codec's values have at most 20,000
parts each (a few JSON parts apiece), and arrays cross as buffers."""
MAX_MESSAGE_BUFFERS = MAX_MESSAGE_PARTS
"""Buffers beside one message's JSON: each is named by an object of the JSON, so an honest
message has no more buffers than parts (a message holds several values, each of up to the
codec's 20,000 parts: a call's arguments and keywords, a reply's value and modified arrays)."""
BUFFER_BYTES = 400
"""What reading one buffer costs beyond its bytes: its view as read (184 bytes) and the header
of the value decoded from it (a NumPy scalar, bytes or an array's, under 200)."""
MAX_PARSE_BYTES = 200 * 1024 * 1024
"""What reading one message may take, estimated before parsing: its JSON text, the strings
parsed from it (1 byte a character, or 4 when a `\\u` escape above U+00FF widens a string:
Python stores a whole string at the width of its widest character), PART_BYTES a part, its
buffers' bytes twice (as read, and as the values decoded from them) and BUFFER_BYTES a buffer.
The largest array the codec sends takes 128 MiB, 20,000 symbols with all their assumptions 120."""
PART_BYTES = 320
"""The most one part costs once parsed: a dict of one new key holding the next dict takes
290 bytes; a list 96, a string 63, a float 37 (CPython 3.11, measured)."""
_HEADER = struct.Struct(">QI")
"""The JSON's length and the number of buffers; each buffer's length follows, as _LENGTH."""
_LENGTH = struct.Struct(">Q")
_READ_CHUNK = 1 << 20
_WRITE_VIEWS = 512
"""Buffers handed to one writev (the system allows 1024)."""


class Received:
    """A message as it arrived: its JSON value and the buffers beside it, in order."""

    __slots__ = ("buffers", "value")

    def __init__(self, value: Any, buffers: list[memoryview]) -> None:
        self.value = value
        self.buffers = buffers


class ChannelClosed(AutograderError):
    """The other end closed its pipe (the worker exited or was killed)."""


class ChannelTimeout(AutograderError):
    """No complete message arrived before the deadline."""


class ChannelGarbage(AutograderError):
    """What arrived is not a message: too large, or not JSON."""


class ChannelTooLarge(ChannelGarbage):
    """A message longer or more complex than any value the codec sends; refused unparsed."""


def send(
    fd: int, message: Any, deadline: float | None = None, buffers: Sequence[bytes | memoryview] = ()
) -> None:
    """Write `message` (a JSON value) and its `buffers` to `fd`; with a `deadline` (a
    time.monotonic() value) the fd is made non-blocking and ChannelTimeout is raised when the
    reader has not taken it in time."""
    payload = json.dumps(message, separators=(",", ":")).encode("ascii")  # ensure_ascii
    parts = [memoryview(buffer).cast("B") for buffer in buffers]  # lengths in bytes, not items
    head = [_HEADER.pack(len(payload), len(parts)), *(_LENGTH.pack(part.nbytes) for part in parts)]
    if deadline is not None:
        os.set_blocking(fd, False)
    views = [memoryview(b"".join(head)), memoryview(payload), *parts]  # no joined copy of parts
    views = [view for view in views if view.nbytes]
    first = 0  # the first view not yet written whole (an index: popping each would be quadratic)
    while first < len(views):
        try:
            written = os.writev(fd, views[first : first + _WRITE_VIEWS])
        except BlockingIOError:
            left = deadline - time.monotonic() if deadline is not None else None
            if left is not None and (left <= 0 or not select.select([], [fd], [], left)[1]):
                raise ChannelTimeout from None
            continue
        while written:  # pass what was written: whole views, then the start of the next
            if written >= views[first].nbytes:
                written -= views[first].nbytes
                first += 1
            else:
                views[first], written = views[first][written:], 0


def receive(fd: int, deadline: float | None = None) -> Received:
    """The next message on `fd`; `deadline` is a time.monotonic() value, None to wait forever.

    ChannelTooLarge for a message that may cost too much to read, ChannelGarbage for one that
    is not JSON; neither error keeps the message's bytes alive in its traceback."""
    length, count = _HEADER.unpack(_read_exactly(fd, _HEADER.size, deadline))
    if count > MAX_MESSAGE_BUFFERS:
        raise ChannelTooLarge(
            f"a message of {count} buffers, beyond the {MAX_MESSAGE_BUFFERS} allowed"
        )
    table = _read_exactly(fd, _LENGTH.size * count, deadline)
    lengths = [size for (size,) in _LENGTH.iter_unpack(table)]
    total = length + sum(lengths)
    if total > MAX_MESSAGE_BYTES:
        raise ChannelTooLarge(f"a message of {total} bytes, beyond the {MAX_MESSAGE_BYTES} allowed")
    data = _read_exactly(fd, length, deadline)
    if (refusal := _refusal(data, total - length, count)) is not None:
        del data  # a test keeps its exception, and with it this frame, while it is reported
        raise refusal
    buffers = _read_exactly(fd, total - length, deadline) if count else bytearray()
    text = data.decode("ascii")
    del data  # only the text is kept while it is parsed
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as error:  # not JSON, too deep, an integer too long
        reason = type(error).__name__
    else:
        return Received(value, _split(buffers, lengths))
    del text, buffers
    raise ChannelGarbage(f"a message that is not JSON: {reason}")


def _split(buffers: bytearray, lengths: list[int]) -> list[memoryview]:
    """The buffers, as views of the one block they were read into."""
    views, start = [], 0
    whole = memoryview(buffers)
    for size in lengths:
        views.append(whole[start : start + size])
        start += size
    return views


def _refusal(data: bytearray, buffer_bytes: int = 0, buffers: int = 0) -> ChannelGarbage | None:
    """Why `data` (a message's JSON, arriving with `buffers` buffers of `buffer_bytes` in all)
    is not parsed, or None: each check is a scan in C, before any object exists."""
    if not data.isascii():
        return ChannelGarbage("a message that is not JSON: it is not ASCII")
    parts = data.count(b",") + data.count(b"[") + data.count(b"{")
    if parts > MAX_MESSAGE_PARTS:
        return ChannelTooLarge(f"a message of more than {MAX_MESSAGE_PARTS} parts")
    # Each `\u00XX` is also a `\u`, so more `\u` than `\u00` means an escape above U+00FF
    # (or a literal backslash before a `u`: over-counted, never under-counted).
    wide = b"\\u" in data and data.count(b"\\u") > data.count(b"\\u00")
    text_cost = len(data) * (5 if wide else 2) + parts * PART_BYTES
    cost = text_cost + 2 * buffer_bytes + buffers * BUFFER_BYTES
    if cost > MAX_PARSE_BYTES:
        return ChannelTooLarge(
            f"a message of {len(data)} bytes of JSON, {parts} parts and {buffers} buffers of "
            f"{buffer_bytes} bytes, which could take {cost >> 20} MiB to read, beyond the "
            f"{MAX_PARSE_BYTES >> 20} MiB allowed"
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
