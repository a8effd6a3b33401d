"""The data-only boundary: what crosses round-trips exactly; everything else is refused."""

from __future__ import annotations

import io
import json
import pickle
import struct
import time
from typing import Any

import numpy as np
import pytest
import sympy as sp

from autograder.checks.evaluate import NotEvaluable, evaluate
from autograder.sandbox import channel
from autograder.sandbox.codec import (
    MAX_ARRAY_BYTES,
    MAX_DEPTH,
    MAX_NODES,
    Buffers,
    CodecError,
    decode,
    encode,
)

pos, w = sp.symbols("pos w", real=True)


def through(value: Any) -> Any:
    """`value` encoded, its JSON written out and parsed, its buffers copied, and decoded."""
    buffers: list[bytes] = []
    data = json.loads(json.dumps(encode(value, buffers)))
    return decode(data, Buffers([memoryview(bytearray(b)) for b in buffers]))


def forged(data: Any, *buffers: bytes) -> Any:
    """What decoding `data`, arriving with `buffers`, gives."""
    return decode(data, Buffers([memoryview(bytearray(b)) for b in buffers]))


@pytest.mark.parametrize(
    "value",
    [
        None,
        True,
        3,
        -(2**70),
        2.5,
        "text",
        b"\x00bytes",
        1 + 2j,
        [1, [2.0, "x"]],
        (1, (2,)),
        {"a": 1, 2: [3]},
    ],
    ids=repr,
)
def test_plain_values_round_trip(value: Any) -> None:
    result = through(value)
    assert result == value and type(result) is type(value)


def test_special_floats() -> None:
    assert np.isnan(through(float("nan"))) and through(float("inf")) == float("inf")


@pytest.mark.parametrize(
    "array",
    [
        np.arange(6.0).reshape(2, 3),
        np.zeros((0, 4)),
        np.arange(4, dtype=np.float32),
        np.array([True, False]),
        np.array(["a", "bc"]),
        np.arange(6, dtype=">i4").reshape(3, 2).T,  # big-endian, not C-contiguous
        np.array([1 + 2j], dtype=np.complex64),
    ],
    ids=str,
)
def test_arrays_keep_dtype_and_shape(array: np.ndarray) -> None:
    result = through(array)
    assert (
        type(result) is np.ndarray and result.dtype == array.dtype and np.array_equal(result, array)
    )
    result[...] = result  # the grader may write into what it received
    assert result.flags.writeable


def _forged_array(dtype: str, shape: list[Any], raw: bytes) -> tuple[dict[str, Any], bytes]:
    return {"$": "ndarray", "dtype": dtype, "shape": shape, "buffer": 0}, raw


@pytest.mark.parametrize(
    ("forged_array", "complaint"),
    [
        (_forged_array("|O", [1], pickle.dumps({"x": 1})), "dtype"),
        (_forged_array("|V8", [1], bytes(8)), "dtype"),
        (_forged_array("<f8,<i4", [1], bytes(12)), "dtype"),
        (_forged_array("<M8[s]", [1], bytes(8)), "dtype"),
        (_forged_array("<f8", [2], bytes(8)), "do not fill"),
        (_forged_array("<f8", [1], bytes(8 * 10**6)), "do not fill"),
        (({"$": "ndarray", "dtype": "<f8", "shape": [1], "buffer": 1}, bytes(8)), "do not fill"),
        (({"$": "ndarray", "dtype": "<f8", "shape": [1], "buffer": -1}, bytes(8)), "do not fill"),
        (({"$": "ndarray", "dtype": "<f8", "shape": [1], "buffer": "0"}, bytes(8)), "do not fill"),
        (({"$": "ndarray", "dtype": "<f8", "shape": [1], "buffer": True}, bytes(8)), "do not fill"),
        (({"$": "ndarray", "dtype": "<f8", "shape": [1]}, bytes(8)), "malformed"),
        (_forged_array("<f8", [2**20, 2**20], b""), "non-empty axes span"),
        (_forged_array("<f8", [0, 2**20, 2**20], b""), "non-empty axes span"),  # 0 bytes
        (_forged_array("<f8", [2**40, 0], b""), "non-empty axes span"),
        (_forged_array("|b1", [0] + [2**10] * 3, b""), "non-empty axes span"),
        (_forged_array("<f8", [0, 10**400], b""), "non-empty axes span"),
        (_forged_array("<f8", [0] * 33, b""), "33 axes"),
        (_forged_array("<f8", [1] * 10**6, bytes(8)), "axes"),
        (_forged_array("<f8", [-1], b""), "malformed shape"),
        (_forged_array("<f8", [1.5], bytes(8)), "malformed shape"),
        (_forged_array("<f8", "2", bytes(16)), "malformed shape"),
        (_forged_array("<f3", [1], bytes(3)), "malformed"),
        (_forged_array("<U1", [1], b"\xff\xff\xff\xff"), "not Unicode"),  # past U+10FFFF
        (_forged_array(">U2", [1], b"\x00\x00\x00a\x00\x11\x00\x00"), "not Unicode"),
        (({"$": "npscalar", "dtype": "<f8", "shape": [1], "buffer": 0}, bytes(8)), "with a shape"),
    ],
    ids=lambda value: str(value)[:40],
)
def test_forged_arrays_are_refused(
    forged_array: tuple[dict[str, Any], bytes], complaint: str
) -> None:
    data, raw = forged_array
    with pytest.raises(CodecError, match=complaint):
        forged(data, raw)


def test_two_values_never_share_a_buffer() -> None:
    """A worker naming one buffer for two arrays would make them one array in the grader (a
    write to one would change the other): the second is refused."""
    array = {"$": "ndarray", "dtype": "<f8", "shape": [1], "buffer": 0}
    with pytest.raises(CodecError, match="do not fill"):
        forged([array, array], bytes(8))
    with pytest.raises(CodecError, match="malformed bytes"):
        forged([array, {"$": "bytes", "size": 8, "buffer": 0}], bytes(8))
    first, second = forged([array, {**array, "buffer": 1}], bytes(8), bytes(8))
    first[0] = 1.0
    assert second[0] == 0.0


def test_an_array_owns_its_bytes() -> None:
    """A decoded array is a copy: it keeps no view of the message it arrived in."""
    block = bytearray(16)
    views = [memoryview(block)[:8], memoryview(block)[8:]]
    array = decode({"$": "ndarray", "dtype": "<f8", "shape": [1], "buffer": 1}, Buffers(views))
    block[8:] = np.float64(5.0).tobytes()
    assert array[0] == 0.0 and array.flags.writeable


def test_numpy_scalars() -> None:
    assert type(through(np.float64(2.5))) is np.float64 and type(through(np.int32(3))) is np.int32


def test_sympy_values_round_trip() -> None:
    pair = (sp.sin(w * pos), sp.cos(w * pos))
    assert through(pair) == pair
    matrix = sp.Matrix([[sp.cos(pos), sp.sin(pos)], [-sp.sin(pos), sp.cos(pos)]])
    assert through(matrix) == matrix
    assert through(sp.Rational(1, 3)) == sp.Rational(1, 3) and through(sp.pi * sp.I) == sp.pi * sp.I
    assert through(sp.Float("0.1", 30)) == sp.Float("0.1", 30)


class EqualToEverything:
    def __eq__(self, other: object) -> bool:
        return True


class ArraySubclass(np.ndarray):
    pass


@pytest.mark.parametrize(
    ("value", "complaint"),
    [
        (EqualToEverything(), "EqualToEverything object"),
        ([1, EqualToEverything()], "EqualToEverything object"),
        (np.arange(3).view(ArraySubclass), "a subclass of numpy.ndarray"),
        (np.array([object()]), "dtype object"),
        (sp.Function("f")(pos), "the grader accepts symbols"),
        (sp.Integral(pos, pos), "SymPy Integral"),
        (lambda: 1, "function object"),
        (10**5000, "more than 4096 bits"),
    ],
    ids=lambda value: type(value).__name__,
)
def test_other_values_are_refused_with_a_reason(value: Any, complaint: str) -> None:
    with pytest.raises(CodecError, match=complaint.replace("(", r"\(")):
        encode(value, [])


def test_size_and_depth_are_bounded() -> None:
    with pytest.raises(CodecError, match="too large"):
        encode(list(range(MAX_NODES + 1)), [])
    nested: list[Any] = []
    for _ in range(MAX_DEPTH + 5):
        nested = [nested]
    with pytest.raises(CodecError, match="nested more than"):
        encode(nested, [])
    matrix: dict[str, Any] = {"$": "Matrix", "rows": 0, "cols": 0, "entries": []}
    wide = {**matrix, "rows": 1, "cols": MAX_NODES, "entries": [matrix] * MAX_NODES}
    with pytest.raises(CodecError, match="too large"):  # a Matrix counts as a part too
        forged(wide)
    deep = matrix
    for _ in range(MAX_DEPTH + 5):
        deep = {**matrix, "rows": 1, "cols": 1, "entries": [deep]}
    with pytest.raises(CodecError, match="nested more than"):
        forged(deep)
    size = MAX_NODES - 2  # the value, its Matrix and its entries
    largest = sp.ImmutableMatrix(1, size, [pos] * size)
    assert through(largest) == largest  # counted alike in the worker and in the grader
    with pytest.raises(CodecError, match="too large"):
        encode(sp.ImmutableMatrix(1, size + 1, [pos] * (size + 1)), [])


def test_an_empty_array_is_bounded_by_its_other_axes() -> None:
    """An array with an empty axis holds no bytes, but what the trusted side derives from its
    other axes (a broadcast, a table of as many rows) would: they are bounded as if the empty
    axis held one entry, in both directions."""
    widest = MAX_ARRAY_BYTES // 8
    assert through(np.zeros((0, widest))).shape == (0, widest)
    assert through(np.zeros((widest, 0, 1))).shape == (widest, 0, 1)
    assert through(np.zeros((0, widest * 8), dtype=np.int8)).shape == (0, widest * 8)
    for shape in [(0, widest + 1), (0, 2**16, 2**16), (2**40, 0), (0,) * 40]:
        with pytest.raises(CodecError, match="axes"):
            encode(np.empty(shape), []) if len(shape) <= 32 else _check_forged_axes(len(shape))


def _check_forged_axes(count: int) -> None:
    forged({"$": "ndarray", "dtype": "<f8", "shape": [0] * count, "buffer": 0}, b"")


@pytest.mark.parametrize(
    ("rows", "cols"),
    [(0, 10**18), (10**18, 0), (0, MAX_NODES + 1), ("3", 0), (0.0, 0), (-1, -1), (True, 0)],
    ids=repr,
)
def test_a_matrix_shape_is_bounded_with_an_empty_axis(rows: Any, cols: Any) -> None:
    with pytest.raises(CodecError):
        forged({"$": "Matrix", "rows": rows, "cols": cols, "entries": []})


def test_an_empty_matrix_of_a_reasonable_width_crosses() -> None:
    assert through(sp.zeros(0, 3)).shape == (0, 3)
    with pytest.raises(CodecError, match="non-empty axes"):
        encode(sp.zeros(0, MAX_NODES + 1), [])


def test_bytes_are_bounded_as_arrays_are() -> None:
    with pytest.raises(CodecError, match="bytes of length"):
        encode(bytes(MAX_ARRAY_BYTES + 1), [])
    with pytest.raises(CodecError, match="malformed bytes"):
        forged({"$": "bytes", "size": MAX_ARRAY_BYTES + 1, "buffer": 0}, bytes(MAX_ARRAY_BYTES + 1))
    assert len(through(bytes(MAX_ARRAY_BYTES))) == MAX_ARRAY_BYTES


def test_a_refusal_quotes_at_most_a_little_of_what_was_sent() -> None:
    """A worker's 10 MB tag or name is not copied into the message that refuses it."""
    for malformed in ({"$": "x" * 10**7}, {"$": "const", "name": "x" * 10**7}):
        with pytest.raises(CodecError) as refused:
            forged(malformed)
        assert len(str(refused.value)) < 200


def test_a_pickle_never_decodes() -> None:
    buffer = io.BytesIO()
    np.save(buffer, np.array([{"x": 1}], dtype=object), allow_pickle=True)
    npy = buffer.getvalue()
    with pytest.raises(CodecError):  # an .npy file, a pickle inside: not a known form
        forged({"$": "ndarray", "npy": 0}, npy)
    with pytest.raises(CodecError):  # nor as an array's bytes: object arrays do not cross
        forged({"$": "ndarray", "dtype": "|O", "shape": [1], "buffer": 0}, npy)
    with pytest.raises(CodecError):  # the text form of bytes, as a worker might still send it
        forged({"$": "bytes", "b64": "gAN9cQA="})
    pickled = pickle.dumps({"x": 1})
    bytes_value = {"$": "bytes", "size": len(pickled), "buffer": 0}
    assert forged(bytes_value, pickled) == pickled  # bytes stay bytes: nothing is unpickled


@pytest.mark.parametrize(
    "malformed",
    [
        {"$": "sympy", "f": "__import__", "args": []},
        {"$": "nope"},
        {"$": "Integer", "v": "1"},
        {"$": "Matrix", "rows": 2, "cols": 2, "entries": []},
        {"$": "const", "name": "os"},
        3j,
        {"$": "bytes", "size": 9, "buffer": 0},  # not the size of its buffer
        {"$": "bytes", "size": 8},
        {"$": "Symbol", "name": "x", "assumptions": []},  # a list where a dict belongs
        {"$": "Symbol", "name": "x", "assumptions": "real"},
        {"$": "Matrix", "rows": 1, "cols": 1, "entries": {"a": 1}},
    ],
    ids=str,
)
def test_malformed_data_is_refused(malformed: Any) -> None:
    with pytest.raises(CodecError):
        forged(malformed, bytes(8))


def test_huge_powers_cross_unevaluated_and_evaluate_in_bounded_time() -> None:
    tower = sp.Pow(
        sp.Integer(10), sp.Pow(sp.Integer(10), sp.Integer(18), evaluate=False), evaluate=False
    )
    rebuilt = through(sp.Add(tower, pos, evaluate=False))
    started = time.monotonic()
    with pytest.raises(NotEvaluable, match=r"beyond 2\*\*4096"):  # refused, not computed
        evaluate(rebuilt, {pos: 1.0})
    assert time.monotonic() - started < 1


def across_a_pipe(
    message: Any, buffers: list[bytes], deadline: float | None = None
) -> channel.Received:
    """`message` and its buffers sent by a thread through a real pipe, as received (with a
    `deadline`, the sender writes without blocking, so the pipe takes them in pieces)."""
    import os
    import threading

    read, write = os.pipe()
    sender = threading.Thread(
        target=channel.send,
        args=(write, message, deadline),
        kwargs={"buffers": buffers},
        daemon=True,
    )
    sender.start()
    try:
        return channel.receive(read, time.monotonic() + 60)
    finally:
        sender.join(timeout=60)
        os.close(read)
        os.close(write)


def header(length: int, *buffers: int) -> bytes:
    """A message's header: its JSON's length, and its buffers' lengths."""
    return struct.pack(">QI", length, len(buffers)) + b"".join(
        struct.pack(">Q", size) for size in buffers
    )


def test_channel_refuses_oversized_and_garbage(tmp_path: Any) -> None:
    import os

    read, write = os.pipe()
    os.write(write, header(channel.MAX_MESSAGE_BYTES + 1))
    with pytest.raises(channel.ChannelGarbage, match="a message of"):
        channel.receive(read, time.monotonic() + 1)
    os.write(write, header(2, channel.MAX_MESSAGE_BYTES - 1))  # JSON and buffers together
    with pytest.raises(channel.ChannelGarbage, match="a message of"):
        channel.receive(read, time.monotonic() + 1)
    os.write(write, struct.pack(">QI", 2, channel.MAX_MESSAGE_BUFFERS + 1))
    with pytest.raises(channel.ChannelGarbage, match="buffers, beyond"):
        channel.receive(read, time.monotonic() + 1)
    os.write(write, header(2, *[0] * 5_000) + b"[]")  # 5,000 empty buffers (within a pipe)
    assert len(channel.receive(read, time.monotonic() + 1).buffers) == 5_000
    os.write(write, header(3) + b"{{{")
    with pytest.raises(channel.ChannelGarbage, match="not JSON"):
        channel.receive(read, time.monotonic() + 1)
    with pytest.raises(channel.ChannelTimeout):
        channel.receive(read, time.monotonic() + 0.05)
    channel.send(write, {"ok": [1, 2]})
    arrived = channel.receive(read, time.monotonic() + 1)
    assert arrived.value == {"ok": [1, 2]} and arrived.buffers == []
    channel.send(write, [], buffers=[b"ab", b"", memoryview(np.arange(3.0))])
    arrived = channel.receive(read, time.monotonic() + 1)
    assert [bytes(view) for view in arrived.buffers] == [b"ab", b"", np.arange(3.0).tobytes()]
    os.close(write)
    with pytest.raises(channel.ChannelClosed):
        channel.receive(read, time.monotonic() + 1)


@pytest.mark.parametrize(
    ("arguments", "keywords"), [(12_000, 9_000), (2 * MAX_NODES - 6, 0)], ids=["both", "many"]
)
def test_a_message_of_several_values_crosses_with_all_their_buffers(
    arguments: int, keywords: int
) -> None:
    """Each value may have MAX_NODES parts, and a message holds several (a call's arguments
    and keywords, a reply's value and its modified arrays): one buffer each is allowed."""
    buffers: list[bytes] = []
    message = [
        encode([np.float64(n) for n in range(min(arguments, MAX_NODES - 2))], buffers),
        encode([np.float64(n) for n in range(arguments - min(arguments, MAX_NODES - 2))], buffers),
        encode({f"k{n}": np.float64(n) for n in range(keywords)}, buffers),
    ]
    arrived = across_a_pipe(message, buffers)
    received = Buffers(arrived.buffers)
    values = [decode(part, received) for part in arrived.value]
    assert len(values[0]) + len(values[1]) == arguments and len(values[2]) == keywords
    assert values[0][-1] == min(arguments, MAX_NODES - 2) - 1


def test_buffers_written_in_pieces_arrive_whole_and_in_order() -> None:
    """A pipe takes a non-blocking write in pieces that end inside a buffer or between them,
    and one writev takes at most 512 buffers: every byte still arrives, in its buffer."""
    buffers = [bytes([n % 251]) * (1 + (n * 7919) % 9000) for n in range(3000)]  # 13 MB
    arrived = across_a_pipe({"buffers": len(buffers)}, buffers, time.monotonic() + 60)
    assert arrived.value == {"buffers": 3000}
    assert [bytes(view) for view in arrived.buffers] == buffers


def test_a_send_to_a_worker_that_stops_reading_gives_up_at_its_deadline() -> None:
    """A worker can fill its own request pipe (or just never read): the trusted side's send
    must not block past the call's deadline."""
    import os

    read, write = os.pipe()
    try:
        started = time.monotonic()
        with pytest.raises(channel.ChannelTimeout):
            channel.send(write, {"x": "y" * 4_000_000}, time.monotonic() + 0.5)
        assert 0.4 < time.monotonic() - started < 5
    finally:
        os.close(read)
        os.close(write)


def test_a_reply_with_millions_of_parts_is_refused_before_it_is_parsed() -> None:
    """150 MB of `[[],[],…]` took gigabytes in json.loads; it is refused by a count first."""
    import os
    import resource
    import threading

    payload = b"[" + b"[]," * 3_000_000 + b"[]]"
    read, write = os.pipe()
    sender = threading.Thread(
        target=lambda: os.write(write, header(len(payload)) + payload), daemon=True
    )
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    sender.start()
    try:
        with pytest.raises(channel.ChannelGarbage, match="more than 500000 parts"):
            channel.receive(read, time.monotonic() + 30)
    finally:
        sender.join(timeout=30)
        os.close(read)
        os.close(write)
    grown_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mib < 200  # parsing it would have taken more than a gigabyte


HOSTILE_READER = r"""
import json, os, struct, sys, time
from autograder.sandbox import channel

SHAPES = {  # (text, repeats) runs; the runs marked 0 repeat to fill the reply's length
    "flat": [(b'{"kind":"value","value":[', 1), (b"[],", 0), (b'[]],"mutated":[]}', 1)],
    "tuple": [(b'{"kind":"value","value":{"$":"tuple","items":[', 1), (b"[],", 0),
              (b'[]]},"mutated":[]}', 1)],
    "deep": [(b"[", 0), (b"]", 0)],
    "brackets": [(b'{"kind":"value","value":"', 1), (b"[[", 0), (b'"}', 1)],
    "wide": [(b'{"kind":"value","value":"\\ud83d\\ude00', 1), (b"a", 0), (b'"}', 1)],
    "utf8": [('{"kind":"value","value":"\U0001F600'.encode(), 1), (b"a", 0), (b'"}', 1)],
    "text": [(b'{"kind":"value","value":"', 1), (b"a", 0), (b'"}', 1)],
    "costly": [(b'{"kind":"value","value":[', 1), (b'{"a":{}},', 130_000), (b'"', 1), (b"a", 0),
               (b'"]}', 1)],
}

def high_water_mib() -> int:
    with open("/proc/self/status") as status:
        line = next(line for line in status if line.startswith("VmHWM:"))
    return int(line.split()[1]) // 1024

def write_reply(fd: int, shape: str, size: int) -> None:
    # Streamed a megabyte at a time, as a worker could: the writer needs no copy of it either.
    runs = SHAPES[shape]
    fixed = sum(len(text) for text, repeats in runs if repeats)
    filling = [text for text, repeats in runs if not repeats]
    each = (size - fixed) // sum(len(text) for text in filling)
    length = fixed + each * sum(len(text) for text in filling)
    os.write(fd, length.to_bytes(8, "big") + bytes(4))  # the JSON's length, and no buffers
    for text, repeats in runs:
        left = repeats or each
        while left:
            count = min(left, (1 << 20) // len(text))
            view = memoryview(text * count)
            while view:
                view = view[os.write(fd, view):]
            left -= count

def write_buffers(fd: int) -> None:
    # As many empty buffers as a message may have, beside `[]`: their views cost the reader.
    count = channel.MAX_MESSAGE_BUFFERS
    os.write(fd, struct.pack(">QI", 2, count))
    table = struct.pack(">Q", 0) * count + b"[]"
    view = memoryview(table)
    while view:
        view = view[os.write(fd, view):]

shape, size = sys.argv[1], int(sys.argv[2])
read, write = os.pipe()
writer = os.fork()
if writer == 0:
    os.close(read)
    try:
        write_buffers(write) if shape == "buffers" else write_reply(write, shape, size)
    except BrokenPipeError:  # the reader refused the reply before reading all of it
        pass
    os._exit(0)
os.close(write)
before = high_water_mib()
try:
    reply = channel.receive(read, time.monotonic() + 60)
    if shape == "buffers":
        outcome = "accepted" if len(reply.buffers) == channel.MAX_MESSAGE_BUFFERS else "lost"
    else:
        outcome = "accepted" if len(reply.value["value"]) > size - 100 else "truncated"
except channel.ChannelGarbage as refused:
    outcome = type(refused).__name__
os.close(read)
os.waitpid(writer, 0)
print(json.dumps({"outcome": outcome, "grown_mib": high_water_mib() - before}))
"""


@pytest.mark.parametrize(
    ("shape", "megabytes", "outcome"),
    [
        ("flat", 150, "ChannelTooLarge"),  # the reported reply: refused by its length alone
        ("tuple", 0, "ChannelTooLarge"),  # as long as a reply may be: read, refused by a count
        ("deep", 0, "ChannelTooLarge"),
        ("brackets", 0, "ChannelTooLarge"),  # brackets inside a string are counted too
        ("wide", 0, "ChannelTooLarge"),  # one escape would make Python store 4 bytes a char
        ("utf8", 0, "ChannelGarbage"),  # `send` writes ASCII only
        ("costly", 0, "ChannelTooLarge"),  # 390,000 parts are allowed, not with 88 MiB of text
        ("text", 0, "accepted"),  # a long plain string may cross: it costs twice its length
        ("buffers", 0, "accepted"),  # as many (empty) buffers as a message may have
    ],
)
def test_a_hostile_reply_costs_the_reader_less_than_256_mib(
    shape: str, megabytes: int, outcome: str
) -> None:
    """A reply from a writer process through a real pipe, to the reading side in a fresh
    process (its own peak is what is measured): refused, or read, while that peak grows by
    less than 256 MiB (150 MB of `[[],[],…]` took 2 GiB). 0 MB: the longest reply allowed."""
    import json as json_module
    import subprocess
    import sys
    from pathlib import Path

    size = megabytes * 10**6 or channel.MAX_MESSAGE_BYTES
    done = subprocess.run(
        [sys.executable, "-c", HOSTILE_READER, shape, str(size)],
        capture_output=True, text=True, timeout=120, cwd=Path(__file__).resolve().parents[1],
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json_module.loads(done.stdout)
    assert result["outcome"] == outcome
    assert result["grown_mib"] < 256, result


def test_the_largest_array_the_codec_sends_crosses_the_channel() -> None:
    """The message length limit is set by the codec's array limit: a maximal array fits."""

    array = np.ones(MAX_ARRAY_BYTES // 8)
    buffers: list[bytes] = []
    message = {"kind": "value", "value": encode(array, buffers)}
    arrived = across_a_pipe(message, buffers)
    result = decode(arrived.value["value"], Buffers(arrived.buffers))
    assert result.shape == array.shape and result.flags.writeable and np.array_equal(result, array)
