"""Fingerprints that let the student's own check compare outputs with models it does not have.

A call's arguments get a key (a digest of their exact values), and an output gets a projection:
a few fixed random projections of an array (with its shape, kind and norm), an expression's
values at fixed points, an exception's class. The release ships, for each call of the public
tests, the projections of the reference's output and of each model's (hint_table.py): `check`
projects the student's output the same way and compares, within the rubric's tolerance, so it
knows which model reproduces it without the reference or any model's code. Two outputs whose
projections agree are the same output but for a difference orthogonal to every projection.
"""

from __future__ import annotations

import hashlib
import math
from typing import Any

import numpy as np
import sympy as sp

from autograder.errors import AutograderError

PROJECTIONS = 6
"""Random directions an array is projected on."""
SAMPLES = 12
"""Entries of an array kept as they are, compared one by one (a change spread thinly over
every entry, within what a projection allows, shows there)."""
POINTS = 4
"""Points an expression is evaluated at."""


def arguments_key(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str | None:
    """A digest of a call's function and exact arguments, the same wherever the same values
    are built; None for a value it cannot write down exactly."""
    digest = hashlib.sha256(f"{name}(".encode())
    try:
        for value in args:
            _feed(digest, value)
        for name in sorted(kwargs):
            digest.update(f"|{name}=".encode())
            _feed(digest, kwargs[name])
    except _Unwritable:
        return None
    return digest.hexdigest()[:32]


class _Unwritable(AutograderError):
    pass


def _feed(digest: Any, value: Any) -> None:
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "biufc":
            raise _Unwritable
        digest.update(f"a{value.dtype.str}{value.shape}".encode())
        digest.update(np.ascontiguousarray(value).tobytes())
    elif value is None or isinstance(value, (bool, int, float, complex, str, np.generic)):
        digest.update(f"{type(value).__name__}:{value!r};".encode())
    elif isinstance(value, (sp.Basic, sp.MatrixBase)):
        digest.update(f"s:{sp.srepr(value)};".encode())
    elif isinstance(value, (tuple, list)):
        digest.update(f"{type(value).__name__}[".encode())
        for item in value:
            _feed(digest, item)
        digest.update(b"]")
    else:
        raise _Unwritable


def projection(value: Any) -> dict[str, Any] | None:
    """What check compares an output by; None for an output it cannot project."""
    if isinstance(value, BaseException):
        return {"raised": type(value).__name__}
    if isinstance(value, (sp.Basic, sp.MatrixBase)) or _all_symbolic(value):
        return _symbolic(value)
    if isinstance(value, (bool, str)):
        return {"exact": repr(value)}
    try:
        array = np.asarray(value)
    except (TypeError, ValueError):
        return None
    if array.dtype.kind not in "biufc":
        return {"exact": repr(value)[:4000]} if isinstance(value, (list, tuple)) else None
    numbers = array.astype(complex).reshape(-1)
    if not np.all(np.isfinite(numbers)):
        return {"shape": list(array.shape), "exact": repr(np.round(numbers, 12).tolist())[:4000]}
    weights = _directions(numbers.size)
    parts = [numbers.real, numbers.imag] if array.dtype.kind == "c" else [numbers.real]
    values = [_kept((w * part).sum()) for part in parts for w in weights]
    sampled = _sampled(numbers.size)
    return {
        "shape": list(array.shape),
        "kind": "c" if array.dtype.kind == "c" else "r",
        "list": type(value) in (list, tuple),
        "norm": _kept(np.linalg.norm(numbers)),
        "values": values,
        "samples": [_kept(x) for part in parts for x in part[sampled]],
    }


def same_projection(
    student: dict[str, Any] | None, model: dict[str, Any] | None, rtol: float, atol: float
) -> bool:
    """Whether two outputs agree, read from their projections: the same exception, the same
    exact text, or arrays of one shape whose every projection differs by no more than the
    tolerance allows (|Σ w·(a − b)| ≤ atol·‖w‖₁ + rtol·‖w‖₂·‖b‖₂)."""
    if student is None or model is None:
        return False
    if "raised" in student or "raised" in model:
        return student.get("raised") == model.get("raised")
    if "exact" in student or "exact" in model:
        return bool(student.get("exact") == model.get("exact") and
                    student.get("shape") == model.get("shape"))  # fmt: skip
    if "points" in student or "points" in model:
        left, right = student.get("points"), model.get("points")
        if left is None or right is None or student.get("symbols") != model.get("symbols"):
            return False
        if len(left) != len(right):
            return False
        return all(abs(a - b) <= 1e-8 * max(1.0, abs(b)) for a, b in zip(left, right, strict=True))
    if student.get("shape") != model.get("shape") or student.get("list") != model.get("list"):
        return False
    if student.get("kind") != model.get("kind"):
        return False
    for a, b in zip(student["samples"], model["samples"], strict=True):
        if abs(a - b) > atol + rtol * abs(b):
            return False
    size = math.prod(model["shape"]) if model["shape"] else 1
    weights = _directions(size)
    parts = len(model["values"]) // len(weights)
    for w, mine, theirs in zip(
        [w for _ in range(parts) for w in weights], student["values"], model["values"], strict=True
    ):
        allowed = atol * float(np.abs(w).sum()) + rtol * float(np.linalg.norm(w)) * model["norm"]
        if abs(mine - theirs) > allowed * (1 + 1e-9) + 1e-300:
            return False
    return True


def _kept(number: Any) -> float:
    """A number as the table keeps it: 12 significant digits, far below any tolerance."""
    return float(f"{float(number):.12g}")


def _sampled(size: int) -> np.ndarray:
    """SAMPLES fixed entries of an array of `size` (all of a small one)."""
    if size <= SAMPLES:
        return np.arange(size)
    return np.sort(np.random.default_rng([20261206, size]).choice(size, SAMPLES, replace=False))


_DIRECTIONS: dict[int, np.ndarray] = {}


def _directions(size: int) -> np.ndarray:
    """PROJECTIONS fixed directions for arrays of `size` entries (the same in every process)."""
    known = _DIRECTIONS.get(size)
    if known is None:
        known = np.random.default_rng([20261205, size]).normal(size=(PROJECTIONS, size))
        if len(_DIRECTIONS) < 256:
            _DIRECTIONS[size] = known
    return known


def _all_symbolic(value: Any) -> bool:
    return (
        isinstance(value, (tuple, list))
        and bool(value)
        and all(isinstance(v, sp.Basic) for v in value)
    )


def _symbolic(value: Any) -> dict[str, Any] | None:
    """An expression (or a matrix, or a list of them) at POINTS fixed points of its symbols."""
    entries = list(value) if isinstance(value, (sp.MatrixBase, tuple, list)) else [value]
    symbols = sorted({s for e in entries for s in getattr(e, "free_symbols", ())}, key=str)
    generator = np.random.default_rng(20261205)
    points: list[float] = []
    for _ in range(POINTS):
        at = {s: float(generator.uniform(-3, 3)) for s in symbols}
        for entry in entries:
            try:
                number = complex(sp.sympify(entry).evalf(subs=at))  # trusted: own process
            except (TypeError, ValueError, AttributeError):
                return None
            points += [number.real, number.imag]
    return {"symbols": [str(s) for s in symbols], "points": points, "size": len(entries)}
