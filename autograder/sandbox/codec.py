"""The data-only boundary: values cross between the grader and the worker as plain JSON and
raw buffers.

A closed list of exact types crosses: None, bool, int, float, complex, str, bytes, lists,
tuples and dicts of these, NumPy arrays (a dtype of numbers or text, a shape, and the raw bytes
in a buffer beside the JSON), NumPy scalars, and SymPy expressions as trees of whitelisted node
names rebuilt without evaluation. Anything else (a subclass, an object with its own `__eq__`, a
pickle) is refused with a CodecError that says what was found. Decoding never evaluates or
unpickles anything, and sizes are bounded so that a hostile value cannot make the grader hang
or run out of memory.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from autograder.errors import AutograderError
from autograder.safe_text import short_repr

MAX_NODES = 20_000
"""Containers, array headers and SymPy nodes in one value."""
MAX_DEPTH = 100
MAX_ARRAY_BYTES = 64 * 1024 * 1024
MAX_ARRAY_DIMENSIONS = 32
"""NumPy 1's own limit on an array's number of axes."""
MAX_MATRIX_ENTRIES = MAX_NODES
"""A SymPy Matrix's rows times columns, its zero axis counted as one (as arrays' are)."""
ARRAY_DTYPE = re.compile(r"[<>|=](?:[biufc]\d{1,2}|[SU]\d{1,9})")
"""The dtypes that cross: booleans, integers, floats, complex numbers, bytes and text."""
MAX_INTEGER_BITS = 4_096
"""About 1,230 decimal digits: far below Python's own limit on converting integers to text."""

SYMPY_FUNCTIONS: dict[str, Any] = {
    "sin": sp.sin, "cos": sp.cos, "tan": sp.tan, "exp": sp.exp, "log": sp.log,
    "Abs": sp.Abs, "asin": sp.asin, "acos": sp.acos, "atan": sp.atan,
    "sinh": sp.sinh, "cosh": sp.cosh, "tanh": sp.tanh, "sign": sp.sign,
}  # fmt: skip
SYMPY_OPERATORS: dict[str, Any] = {"Add": sp.Add, "Mul": sp.Mul, "Pow": sp.Pow}
SYMPY_CONSTANTS: dict[str, sp.Basic] = {
    "pi": sp.pi, "E": sp.E, "I": sp.I, "oo": sp.oo, "-oo": -sp.oo, "nan": sp.nan, "zoo": sp.zoo,
}  # fmt: skip
ASSUMPTIONS = frozenset(
    {"real", "positive", "negative", "nonnegative", "nonpositive", "integer", "rational",
     "finite", "nonzero", "zero", "complex", "commutative", "even", "odd", "prime", "extended_real"}
)  # fmt: skip


class CodecError(AutograderError, ValueError):
    """A value that may not cross the boundary, described for the student."""


@dataclass
class _Budget:
    nodes: int = 0

    def spend(self, depth: int) -> None:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise CodecError(f"the value is too large: more than {MAX_NODES} parts")
        if depth > MAX_DEPTH:
            raise CodecError(f"the value is nested more than {MAX_DEPTH} levels deep")


class Buffers:
    """The buffers that came beside a message's JSON, each taken once by `decode`: two values
    never share bytes, and a value takes exactly the bytes its dtype and shape need."""

    def __init__(self, buffers: Sequence[memoryview | bytes] = ()) -> None:
        self._buffers = list(buffers)
        self._taken: set[int] = set()

    def take(self, index: Any, size: int) -> memoryview | None:
        """Buffer `index` (the caller copies it, once), or None when there is no such buffer,
        it was taken already, or it does not hold `size` bytes."""
        if type(index) is not int or not 0 <= index < len(self._buffers) or index in self._taken:
            return None
        buffer = memoryview(self._buffers[index])
        if buffer.nbytes != size:
            return None
        self._taken.add(index)
        return buffer


def encode(value: Any, buffers: list[bytes]) -> Any:
    """`value` as JSON-ready data, the bytes of its arrays and bytes values added to
    `buffers` (they travel beside the JSON); CodecError when its type may not cross."""
    return _encode(value, _Budget(), 0, buffers)


def decode(data: Any, received: Buffers) -> Any:
    """The value that `encode` turned into `data`, its bytes taken from `received`;
    CodecError for anything malformed."""
    try:
        return _decode(data, _Budget(), 0, received)
    except CodecError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, OverflowError, AttributeError) as error:
        raise CodecError(f"malformed value from the worker: {short_repr(error)}") from None


def _encode(value: Any, budget: _Budget, depth: int, buffers: list[bytes]) -> Any:
    budget.spend(depth)
    kind = type(value)
    if value is None or kind in (bool, str):
        return value
    if kind is int:
        return _integer(value)
    if kind is float:
        return value if math.isfinite(value) else {"$": "float", "v": repr(value)}
    if kind is complex:
        return {"$": "complex", "re": _encode(value.real, budget, depth + 1, buffers),
                "im": _encode(value.imag, budget, depth + 1, buffers)}  # fmt: skip
    if kind is bytes:
        if len(value) > MAX_ARRAY_BYTES:
            raise CodecError(f"bytes of length {len(value)} (at most {MAX_ARRAY_BYTES})")
        buffers.append(value)
        return {"$": "bytes", "size": len(value), "buffer": len(buffers) - 1}
    if kind is list:
        return [_encode(item, budget, depth + 1, buffers) for item in value]
    if kind is tuple:
        items = [_encode(item, budget, depth + 1, buffers) for item in value]
        return {"$": "tuple", "items": items}
    if kind is dict:
        pairs = [
            [_encode(k, budget, depth + 1, buffers), _encode(v, budget, depth + 1, buffers)]
            for k, v in value.items()
        ]
        return {"$": "dict", "items": pairs}
    if kind is np.ndarray or (isinstance(value, np.generic) and kind.__module__ == "numpy"):
        return _encode_array(value, buffers)
    if isinstance(value, (sp.Basic, sp.MatrixBase)):
        return _encode_sympy(value, budget, depth, buffers)
    raise CodecError(f"a {_describe(value)}")


def _encode_array(value: np.ndarray | np.generic, buffers: list[bytes]) -> dict[str, Any]:
    array = np.asarray(value)
    if array.dtype.hasobject or array.dtype.kind not in "biufcSU":
        raise CodecError(f"a NumPy array of dtype {array.dtype} (only numbers and text cross)")
    if array.nbytes > MAX_ARRAY_BYTES:
        raise CodecError(f"an array of {array.nbytes} bytes (at most {MAX_ARRAY_BYTES})")
    _check_shape(array.shape, array.dtype.itemsize)
    tag = "ndarray" if type(value) is np.ndarray else "npscalar"
    buffers.append(array.tobytes())  # C order, whatever the array's own
    return {
        "$": tag,
        "dtype": array.dtype.str,
        "shape": list(array.shape),
        "buffer": len(buffers) - 1,
    }


def _encode_sympy(value: Any, budget: _Budget, depth: int, buffers: list[bytes]) -> Any:
    budget.spend(depth)  # a Matrix too, as decoding counts it
    if isinstance(value, sp.MatrixBase):
        rows, cols = value.shape
        _check_matrix_shape(rows, cols)
        entries = [_encode_sympy(v, budget, depth + 1, buffers) for v in value]
        return {"$": "Matrix", "rows": rows, "cols": cols, "entries": entries}
    if isinstance(value, sp.Symbol) and type(value) is sp.Symbol:
        assumptions = {k: v for k, v in value.assumptions0.items() if k in ASSUMPTIONS}
        return {"$": "Symbol", "name": value.name, "assumptions": assumptions}
    if isinstance(value, sp.Integer):
        return {"$": "Integer", "v": _encode(int(value), budget, depth + 1, buffers)}
    if isinstance(value, sp.Rational):
        return {"$": "Rational", "p": _encode(int(value.p), budget, depth + 1, buffers),
                "q": _encode(int(value.q), budget, depth + 1, buffers)}  # fmt: skip
    if isinstance(value, sp.Float):
        sign, mantissa, exponent, _ = value._mpf_  # exact: (-1)**sign * mantissa * 2**exponent
        signed = -int(mantissa) if sign else int(mantissa)
        return {"$": "Float", "man": str(signed), "exp": int(exponent), "dps": int(value._prec)}
    for name, constant in SYMPY_CONSTANTS.items():
        if value == constant and type(value) is type(constant):
            return {"$": "const", "name": name}
    if isinstance(value, sp.Tuple):
        return {
            "$": "Tuple",
            "args": [_encode_sympy(a, budget, depth + 1, buffers) for a in value.args],
        }
    name = type(value).__name__
    if name in SYMPY_OPERATORS or name in SYMPY_FUNCTIONS:
        if type(value) is not (SYMPY_OPERATORS.get(name) or SYMPY_FUNCTIONS[name]):
            raise CodecError(f"a SymPy object of an unknown class {name}")
        return {
            "$": "sympy",
            "f": name,
            "args": [_encode_sympy(a, budget, depth + 1, buffers) for a in value.args],
        }
    raise CodecError(
        f"a SymPy {name} (the grader accepts symbols, numbers, +, *, **, "
        f"{', '.join(SYMPY_FUNCTIONS)}, Tuple and Matrix)"
    )


def _decode(data: Any, budget: _Budget, depth: int, received: Buffers) -> Any:
    budget.spend(depth)
    kind = type(data)
    if data is None or kind in (bool, str, float):
        return data
    if kind is int:
        return _integer(data)
    if kind is list:
        return [_decode(item, budget, depth + 1, received) for item in data]
    if kind is not dict:
        raise CodecError(f"malformed value of type {kind.__name__}")
    tag = data["$"]
    if tag == "float":
        return float(_choice(data["v"], {"nan", "inf", "-inf"}))
    if tag == "complex":
        real, imaginary = data["re"], data["im"]
        return complex(
            _number(real, budget, depth, received), _number(imaginary, budget, depth, received)
        )
    if tag == "bytes":
        size = data["size"]
        ok = type(size) is int and size <= MAX_ARRAY_BYTES
        raw = received.take(data["buffer"], size) if ok else None
        if raw is None:
            raise CodecError("malformed bytes")
        return bytes(raw)  # its one copy
    if tag == "tuple":
        return tuple(_decode(item, budget, depth + 1, received) for item in data["items"])
    if tag == "dict":
        return {
            _hashable(_decode(k, budget, depth + 1, received)): _decode(
                v, budget, depth + 1, received
            )
            for k, v in data["items"]
        }
    if tag in ("ndarray", "npscalar"):
        return _decode_array(data, tag, received)
    return _decode_sympy(data, budget, depth)


def _decode_array(data: dict[str, Any], tag: str, received: Buffers) -> Any:
    """The array from its dtype, shape and bytes, each checked: only the closed set of dtypes
    (plain numbers and text, of either byte order), a shape that the bytes fill exactly."""
    dtype_text, shape = data["dtype"], data["shape"]
    if type(dtype_text) is not str or not ARRAY_DTYPE.fullmatch(dtype_text):
        raise CodecError("an array of a dtype the grader does not accept")
    dtype = np.dtype(dtype_text)
    if type(shape) is not list or any(type(size) is not int or size < 0 for size in shape):
        raise CodecError("an array with a malformed shape")
    _check_shape(shape, dtype.itemsize)
    if tag == "npscalar" and shape:
        raise CodecError("a NumPy scalar with a shape")
    size = math.prod(shape) * dtype.itemsize
    if size > MAX_ARRAY_BYTES:
        raise CodecError("an array larger than the limit")
    raw = received.take(data["buffer"], size)
    if raw is None:
        raise CodecError(f"an array whose bytes do not fill its shape {tuple(shape)}")
    if dtype.kind == "U" and size:  # each character a code point: none past U+10FFFF
        codes = np.frombuffer(raw, dtype=np.dtype(np.uint32).newbyteorder(dtype.byteorder))
        if int(codes.max()) > 0x10FFFF:
            raise CodecError("an array of text that is not Unicode")
    array = np.frombuffer(bytearray(raw), dtype=dtype).reshape(shape)  # its one copy, writable
    return array[()] if tag == "npscalar" else array


def _decode_sympy(data: dict[str, Any], budget: _Budget, depth: int) -> Any:
    tag = data["$"]
    budget.spend(depth)  # a Matrix too: matrices of matrices are bounded like any nesting
    if tag == "Matrix":
        rows, cols = _integer(data["rows"]), _integer(data["cols"])
        if rows < 0 or cols < 0:
            raise CodecError("a Matrix whose shape does not match its entries")
        _check_matrix_shape(rows, cols)
        entries = [_decode_sympy(e, budget, depth + 1) for e in data["entries"]]
        if rows * cols != len(entries):
            raise CodecError("a Matrix whose shape does not match its entries")
        return sp.ImmutableMatrix(rows, cols, entries)
    if tag == "Symbol":
        given = data["assumptions"]
        if type(given) is not dict:
            raise CodecError("a Symbol with malformed assumptions")
        assumptions = {k: bool(v) for k, v in given.items() if k in ASSUMPTIONS}
        return sp.Symbol(str(data["name"]), **assumptions)
    if tag == "Integer":
        return sp.Integer(_integer(data["v"]))
    if tag == "Rational":
        return sp.Rational(_integer(data["p"]), _integer(data["q"]))
    if tag == "Float":
        text = data["man"]
        mantissa = _integer(int(text) if isinstance(text, str) and len(text) <= 1300 else None)
        exponent = _integer(data["exp"])
        if abs(exponent) > 10**6:
            raise CodecError("a Float with an exponent out of range")
        precision = min(max(int(data["dps"]), 1), 1000)
        with mpmath.workprec(precision):
            return sp.Float(mpmath.mpf((mantissa, exponent)), precision=precision)
    if tag == "const":
        return SYMPY_CONSTANTS[_choice(data["name"], set(SYMPY_CONSTANTS))]
    if tag == "Tuple":
        return sp.Tuple(*[_decode_sympy(a, budget, depth + 1) for a in data["args"]])
    if tag == "sympy":
        name = _choice(data["f"], set(SYMPY_OPERATORS) | set(SYMPY_FUNCTIONS))
        args = [_decode_sympy(a, budget, depth + 1) for a in data["args"]]
        if name in SYMPY_OPERATORS:
            if name == "Pow" and len(args) != 2:
                raise CodecError("a Pow needs two arguments")
            return SYMPY_OPERATORS[name](*args, evaluate=False)
        return SYMPY_FUNCTIONS[name](*args, evaluate=False)
    raise CodecError(f"an unknown kind of value {short_repr(tag, 80)}")


def _check_shape(shape: Sequence[int], itemsize: int) -> None:
    """Refuse a shape whose bytes are within the limit only because an axis is empty.

    An array of shape (0, 2**20, 2**20) holds no bytes, yet whatever the trusted side derives
    from its other axes (a broadcast, a table of the same rows and columns, a diagnosis's
    reshaping) would be terabytes. So the number of axes, each axis, and the product of the
    non-empty axes times the item size are bounded, each by what a non-empty array may be.
    """
    if len(shape) > MAX_ARRAY_DIMENSIONS:
        raise CodecError(f"an array of {len(shape)} axes (at most {MAX_ARRAY_DIMENSIONS})")
    bound = MAX_ARRAY_BYTES // max(itemsize, 1)
    entries = 1
    for size in shape:
        entries *= max(size, 1)
        if entries > bound:  # checked as it grows: a product of 32 huge axes is never formed
            raise CodecError(
                f"an array of shape {_shape_text(shape)}: its non-empty axes span more than "
                f"{bound:,} entries of {itemsize} bytes ({MAX_ARRAY_BYTES >> 20} MiB)"
            )


def _check_matrix_shape(rows: int, cols: int) -> None:
    if max(rows, 1) * max(cols, 1) > MAX_MATRIX_ENTRIES:
        raise CodecError(
            f"a Matrix of {rows} × {cols}: its non-empty axes span more than "
            f"{MAX_MATRIX_ENTRIES:,} entries"
        )


def _shape_text(shape: Sequence[int]) -> str:
    return short_repr(tuple(shape), 120)


def _choice(value: Any, allowed: set[str]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise CodecError(f"an unknown name {short_repr(value, 80)}")
    return value


def _integer(value: Any) -> int:
    """`value` if it is an int of bounded size (one limit for both directions)."""
    if type(value) is not int:
        raise CodecError("a malformed integer")
    if value.bit_length() > MAX_INTEGER_BITS:
        raise CodecError(f"an integer of more than {MAX_INTEGER_BITS} bits")
    return value


def _number(data: Any, budget: _Budget, depth: int, received: Buffers) -> float:
    value = _decode(data, budget, depth + 1, received)
    if type(value) not in (int, float):
        raise CodecError("a malformed complex number")
    return float(value)


def _hashable(key: Any) -> Any:
    if isinstance(key, (list, dict, np.ndarray)):
        raise CodecError("a dict key that is not hashable")
    return key


def _describe(value: Any) -> str:
    kind = type(value)
    module = kind.__module__
    name = (
        kind.__qualname__ if module in ("builtins", "__main__") else f"{module}.{kind.__qualname__}"
    )
    if isinstance(value, np.ndarray):
        return f"{name} (a subclass of numpy.ndarray; return a plain array, e.g. np.asarray(x))"
    return f"{name} object"
