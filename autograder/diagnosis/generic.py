"""Diagnoses that need no catalogue: what a wrong call shows against the reference's own answer.

Every failing test's calls are read, whatever the assignment. Each diagnosis compares the
student's result of one call with the reference's result of the same call (or with the
reference replayed on the same arguments changed in one way), and speaks only when its model
reproduces the student's output exactly: the exception contract (another exception where the
reference raises ValueError, a value accepted that the reference refuses, a NumPy integer
refused), an ignored parameter (the output is what the parameter's default gives), an argument
read the other way round (a boolean negated, a matrix transposed), the layout of the output
(transposed, axes swapped, reversed, shifted by one, a constant factor, a normaliser broadcast
along the wrong axis, rows missing), its precision (float16 or float32), non-finite values
where the reference's are finite, and floats in an expression the reference keeps exact.
Each sentence starts with the function it is about.
"""

from __future__ import annotations

import builtins
import inspect
import math
import re
import types
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import sympy as sp

from autograder.checks.closeness import all_close
from autograder.diagnosis import symptoms
from autograder.diagnosis.diagnose import Call, same
from autograder.diagnosis.fingerprints import arguments_key
from autograder.diagnosis.replays import Answer, answer, answer_to
from autograder.tolerance import DEFAULT_ATOL, DEFAULT_RTOL

MAX_ENTRIES = 1_000_000
"""Arrays larger than this are not examined (the grader's time is bounded too)."""


def observe_generic(
    calls: Sequence[Call],
    reference: types.ModuleType,
    *,
    rtol: float = DEFAULT_RTOL,
    atol: float = DEFAULT_ATOL,
    hidden: bool = False,
    evidence: Sequence[Call] | None = None,
) -> list[str]:
    """One sentence per function whose call the reference contradicts and a model explains:
    the first such call's. A sentence about the values returned stands only when the same
    model, said the same way but for its numbers, explains every other wrong value of that
    function in `evidence` (by default `calls`): a measure that fits one call and not the next
    is a partial model, and says nothing. `hidden`: the calls are a hidden test's, whose reader
    may learn nothing of its inputs: no sentence then describes an argument or quotes the
    reference's message (which may hold one)."""
    found: dict[str, str] = {}
    for call in calls:
        if call.name in found:
            continue
        function = getattr(reference, call.name, None)
        if not isinstance(function, types.FunctionType):
            continue
        text = _said(call, function, rtol, atol, hidden)
        if (
            text
            and _of_values(call, function)
            and not _type_fact(call, function, text)
            and not _holds_throughout(
                text, call, function, calls if evidence is None else evidence, rtol, atol, hidden
            )
        ):
            text = None
        if text:
            found[call.name] = f"{call.name}: {text}"
    return list(found.values())


MAX_EVIDENCE = 50
"""Wrong calls of one function a measure is checked against (the grader's time is bounded)."""


def _said(
    call: Call, function: types.FunctionType, rtol: float, atol: float, hidden: bool
) -> str | None:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return _diagnose_call(call, function, rtol, atol, hidden)
        except Exception:  # a model meeting a value it did not foresee says nothing
            return None


def _of_values(call: Call, function: types.FunctionType) -> bool:
    """A call where both the student and the reference returned a value: what a measure of
    values speaks of (an exception on either side is the contract's, a fact of that call)."""
    return call.raised is None and answer_to(function, call).raised is None


def _holds_throughout(
    text: str,
    first: Call,
    function: types.FunctionType,
    evidence: Sequence[Call],
    rtol: float,
    atol: float,
    hidden: bool,
) -> bool:
    """Whether every other wrong value `function`'s student gave in `evidence` is said as
    `text` is, but for its numbers."""
    form = _form(text)
    read = 0
    for call in evidence:
        if call is first or call.name != first.name or not _of_values(call, function):
            continue
        if same(call.result, answer_to(function, call).value, rtol, atol):
            continue  # a right value: nothing to explain
        if isinstance(call.result, np.ndarray) and call.result.size <= 1:
            continue  # one number fits any account of where or how it is wrong
        read += 1
        if read > MAX_EVIDENCE:
            break
        said = _said(call, function, rtol, atol, hidden)
        if said is None or _form(said) != form:
            return False
    return True


def _form(text: str) -> str:
    """A sentence's model, whatever call it was measured on: its numbers left out, and what it
    adds after its first clause (which argument a number equals, an example)."""
    plain = re.sub(r"-?\d+(\.\d+)?(e[+-]?\d+)?", "#", text)
    return re.split(r" = | \(|: ", plain, maxsplit=1)[0]


def _type_fact(call: Call, function: types.FunctionType, text: str) -> bool:
    """Whether `text` says what the returned array is (Python objects, not booleans, a coarser
    precision): a fact read off the value itself, true whatever the other calls gave."""
    expected = answer_to(function, call).value
    if not isinstance(call.result, np.ndarray) or not isinstance(expected, np.ndarray):
        return False
    return text in {
        _object_array(call.result),
        _not_boolean(call.result, expected),
        _coarser(call.result),
    }


def kept_state(
    calls: Sequence[Call], *, rtol: float = DEFAULT_RTOL, atol: float = DEFAULT_ATOL
) -> list[str]:
    """One sentence per function that answered the same arguments with two different results:
    it keeps something between calls, which no model of one call (a mutant, a measure) can
    reproduce, and which is the cause whatever else differs."""
    first_of: dict[str, Call] = {}
    found: dict[str, str] = {}
    for call in calls[:MAX_STATE_CALLS]:
        if call.name in found or call.raised is not None or call.mutated:
            continue
        key = arguments_key(call.name, call.args, call.kwargs)
        if key is None:
            continue
        first = first_of.setdefault(key, call)
        if first is not call and not same(first.result, call.result, rtol, atol):
            found[call.name] = (
                f"{call.name}: the same arguments gave two different results: it keeps "
                "something from one call to the next (a cache, a global, an argument it "
                "changes); compute each result from its own arguments alone"
            )
    return list(found.values())


MAX_STATE_CALLS = 2000
"""Calls read for one asked twice (the grader's time is bounded)."""


def wrong_functions(
    calls: Sequence[Call],
    reference: types.ModuleType,
    *,
    rtol: float = DEFAULT_RTOL,
    atol: float = DEFAULT_ATOL,
) -> set[str]:
    """The functions with a call whose result (or exception) is not the reference's."""
    wrong: set[str] = set()
    for call in calls:
        function = getattr(reference, call.name, None)
        if call.name in wrong or not isinstance(function, types.FunctionType):
            continue
        expected = answer_to(function, call)
        if call.raised is not None:
            if expected.raised != call.raised:
                wrong.add(call.name)
        elif expected.raised is not None or not same(call.result, expected.value, rtol, atol):
            wrong.add(call.name)
    return wrong


def deepest_cause(
    called: Sequence[str], wrong: set[str], reference: types.ModuleType
) -> tuple[str, str] | None:
    """(the function a test called, the wrong function it calls) when a test's failure comes
    from another public function that is wrong on its own calls: the deepest such one."""
    from autograder.diagnosis.diagnose import uses

    for name in reversed(list(called)):
        below = {g for g in uses(reference, name) - {name} if g in wrong}
        below = {g for g in below if isinstance(getattr(reference, g, None), types.FunctionType)}
        deepest = [g for g in below if not (uses(reference, g) - {g}) & below]
        if deepest:
            return name, sorted(deepest)[0]
    return None


def _diagnose_call(
    call: Call, function: types.FunctionType, rtol: float, atol: float, hidden: bool
) -> str | None:
    if _too_large((call.args, call.kwargs, call.result)):
        return None  # the grader's own time is bounded too
    expected = answer_to(function, call)
    named = _named_arguments(function, call)
    said = "" if hidden else f" (the reference says: {expected.message})"
    if call.raised is not None:
        return _raised(call, expected, named, said, hidden)
    if expected.raised is not None:  # the contract first, then what the function did instead
        accepted = _accepted(expected, named, said, hidden)
        replayed = _replayed(call, function, named, rtol, atol)
        if accepted and replayed:
            return f"{accepted}; instead your function {replayed}"
        return accepted or replayed
    exactness = _exactness(call, expected.value)
    if exactness or same(call.result, expected.value, rtol, atol):
        return exactness
    return _replayed(call, function, named, rtol, atol) or _layout(
        call.result, expected.value, named, rtol, atol
    )


# --- the exception contract -------------------------------------------------------------------


def _raised(
    call: Call, expected: Answer, named: dict[str, Any], said: str, hidden: bool
) -> str | None:
    message = call.error or ""
    if call.raised == "NotImplementedError":
        return None  # not written yet: nothing to diagnose
    builtin = isinstance(getattr(builtins, call.raised or "", None), type)
    kind = call.raised if builtin else "an exception class of your own"  # a student's name
    if expected.raised == "ValueError" and call.raised != "ValueError":
        assertion = (
            " (an `assert` is not an argument check: it vanishes under python -O; "
            "raise ValueError(...) naming the argument)"
            if call.raised == "AssertionError"
            else ""
        )
        return f"raised {kind} for these arguments, where a ValueError is required{said}{assertion}"
    if expected.raised is not None:
        return None
    integers = [n for n, v in named.items() if isinstance(v, np.integer)]
    if integers and not hidden:
        return (
            f"raised {kind} when {integers[0]} is a NumPy integer: a NumPy integer is an "
            "integer too (isinstance(x, (int, np.integer))); refuse only what the docstring "
            "refuses, with ValueError"
        )
    symbolic = any(isinstance(v, (sp.Basic, sp.MatrixBase)) for v in named.values())
    if symbolic and call.raised == "TypeError" and ("ufunc" in message or "loop of" in message):
        return (
            "a NumPy function was applied to a SymPy expression (NumPy's TypeError): use "
            "SymPy's own functions, sp.exp, sp.sqrt, sp.sin, on symbols"
        )
    reduced = _reduced_shape(message, named)
    if reduced:
        return reduced
    odd = [n for n, v in named.items() if type(v) is int and v % 2 == 1 and v > 1]
    if odd and not hidden and ("broadcast" in message or "shape" in message):
        return (
            f"raised {kind} when {odd[0]} is odd ({odd[0]} = {named[odd[0]]}): code that pairs "
            "entries up breaks on an odd size; handle the unpaired one on its own"
        )
    batched = [n for n, v in named.items() if isinstance(v, np.ndarray) and v.ndim >= 3]
    if batched and _mentions_batch(message, named[batched[0]].shape):
        return (
            f"raised {kind} on a batched input ({batched[0]} of shape "
            f"{named[batched[0]].shape}), which it must accept: code written for 2-D arrays "
            "breaks on a stack of them: `.T` reverses every axis (swap only the last two, "
            "np.swapaxes), and shape[0] is the batch's size, not a row count"
        )
    return _broadcast(message, named)


def _reduced_shape(message: str, named: dict[str, Any]) -> str | None:
    """A shape error with an argument's shape missing one axis: a reduction without keepdims."""
    if "broadcast" not in message:
        return None
    quoted = {
        tuple(int(n) for n in s.split(",") if n.strip())
        for s in re.findall(r"\(([\d, ]+)\)", message)
    }
    for name, value in named.items():
        if not isinstance(value, np.ndarray) or value.ndim < 2:
            continue
        for axis in range(value.ndim):
            if value.shape[:axis] + value.shape[axis + 1 :] in quoted:
                return (
                    f"a sum or a maximum over an axis of {name} lost that axis, so it no "
                    "longer broadcasts against the array: keep it with keepdims=True"
                )
    return None


def _mentions_batch(message: str, shape: tuple[int, ...]) -> bool:
    """Whether NumPy's shape error names the batch size or T where a width was expected: the
    sizes it compares ("size 5 is different from 2"), or a 2-D shape it quotes."""
    sizes = {
        int(n) for pair in re.findall(r"size (\d+) is different from (\d+)", message) for n in pair
    }
    for quoted in re.findall(r"\((\d+), ?(\d+)\)", message):
        sizes |= {int(n) for n in quoted}
    return bool(sizes & {shape[0], shape[-2]})


def _broadcast(message: str, named: dict[str, Any]) -> str | None:
    """A NumPy broadcast error between two of the arguments whose lengths differ."""
    if "broadcast" not in message:
        return None
    shapes = [
        tuple(int(n) for n in s.split(",") if n.strip())
        for s in re.findall(r"\(([\d, ]+)\)", message)
    ]
    arrays = {n: v.shape for n, v in named.items() if isinstance(v, np.ndarray)}
    for longer, long_shape in arrays.items():
        for shorter, short_shape in arrays.items():
            if (
                longer != shorter
                and long_shape in shapes
                and short_shape in shapes
                and len(long_shape) == len(short_shape) >= 1
                and long_shape[0] > short_shape[0]
                and long_shape[1:] == short_shape[1:]
            ):
                rows = short_shape[0]
                return (
                    f"combined all {long_shape[0]} rows of {longer} with the {rows} rows of "
                    f"{shorter} (NumPy cannot broadcast them): take the first {rows} rows, "
                    f"{longer}[:{rows}]"
                )
    return None


def _accepted(expected: Answer, named: dict[str, Any], said: str, hidden: bool) -> str | None:
    """The student returned where the reference raises."""
    if expected.raised != "ValueError":
        return None
    odd = [(n, _kind_of(v)) for n, v in named.items() if _kind_of(v)]
    what = f" ({odd[0][0]} is {odd[0][1]})" if odd and not hidden else ""
    return (
        f"returned a value for arguments it must refuse{what}: raise ValueError, as the "
        f"docstring says{said}"
    )


def _kind_of(value: Any) -> str | None:
    if isinstance(value, (bool, np.bool_)):
        return f"the bool {value}, not an integer"
    if isinstance(value, (float, np.floating)):
        return f"the float {value!r}, not an integer"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (int, np.integer)) and value < 0:
        return f"negative, {int(value)}"
    return None


# --- the reference replayed on arguments changed in one way ----------------------------------


def _replayed(
    call: Call, function: types.FunctionType, named: dict[str, Any], rtol: float, atol: float
) -> str | None:
    for description, args, kwargs in _changed_calls(call, function, named):
        replay = answer(function, args, kwargs)
        if replay.raised is None and same(call.result, replay.value, rtol, atol):
            return description
    return None


def _changed_calls(
    call: Call, function: types.FunctionType, named: dict[str, Any]
) -> Iterator[tuple[str, tuple[Any, ...], dict[str, Any]]]:
    signature = inspect.signature(function)
    bound = signature.bind_partial(*call.args, **call.kwargs)
    for name, parameter in signature.parameters.items():
        if name not in bound.arguments or parameter.default is inspect.Parameter.empty:
            continue
        if _identical(bound.arguments[name], parameter.default):
            continue
        changed = dict(bound.arguments)
        changed[name] = parameter.default
        yield (
            f"ignores its argument {name}: your output is what {name} = "
            f"{parameter.default!r} gives; use the {name} you are passed",
            (),
            changed,
        )
    for name, value in bound.arguments.items():
        if isinstance(value, np.ndarray) and value.dtype == np.bool_:
            changed = dict(bound.arguments)
            changed[name] = ~value
            yield (
                f"reads {name} the other way round: your output is what ~{name} gives (True "
                f"and False exchanged): read {name} as the docstring defines it",
                (),
                changed,
            )
    first = _first(signature)
    matrices = [
        n for n, v in bound.arguments.items()
        if isinstance(v, np.ndarray) and v.ndim == 2 and v.dtype != np.bool_ and n != first
    ]  # fmt: skip
    if matrices:
        changed = dict(bound.arguments)
        for name in matrices:
            changed[name] = bound.arguments[name].T
        which = ", ".join(matrices)
        yield (
            f"uses {which} transposed: your output is what {which}.T gives: check which side "
            f"{which} multiplies from, as the docstring writes it",
            (),
            changed,
        )


def _first(signature: inspect.Signature) -> str | None:
    return next(iter(signature.parameters), None)


def _identical(a: Any, b: Any) -> bool:
    try:
        return bool(a is b or (type(a) is type(b) and a == b))
    except Exception:
        return False


# --- the output against the reference's ------------------------------------------------------


def _layout(
    actual: Any, expected: Any, named: dict[str, Any], rtol: float, atol: float
) -> str | None:
    if not isinstance(expected, np.ndarray) or not isinstance(actual, np.ndarray):
        return None
    if actual.size > MAX_ENTRIES or expected.size > MAX_ENTRIES:
        return None
    fact = _object_array(actual) or _not_boolean(actual, expected)
    if fact:
        return fact
    close = _closeness(rtol, atol)
    if actual.shape != expected.shape:
        return _shape(actual, expected, named, close)
    if expected.dtype == np.bool_:
        if expected.size > 1 and np.array_equal(actual, ~expected):  # one entry: any mistake
            return "every True of yours is a False of the expected and every False a True"
        if expected.ndim == 2 and np.array_equal(actual, expected.T):
            return "your boolean matrix is the expected one transposed (rows and columns exchanged)"
        return symptoms.where_differs(actual, expected, np.equal)
    if actual.dtype.kind not in "fiuc":
        return None
    left, right = actual.astype(np.complex128 if actual.dtype.kind == "c" else np.float64), expected
    return (
        _non_finite(left, right, named)
        or _constant(left, right)
        or _precision(actual, expected, rtol, atol)
        or _rearranged(left, right, close)
        or _factor(left, right, named, close)
        or _normaliser(left, right, close)
        or _one_slice_kept(left, right, named, close)
        or _zero_slice(left, right, close)
        or _rounding(left, right)
        or _symptom(left, right, rtol, atol)
    )


def _symptom(actual: np.ndarray, expected: np.ndarray, rtol: float, atol: float) -> str | None:
    """Where the wrong entries lie, or a factor per row: a symptom, when no measure says more."""
    if actual.dtype.kind == "c" or expected.dtype.kind == "c":
        return None

    def agree(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.asarray(np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=True))

    expected = np.asarray(expected, dtype=np.float64)
    worst = float(np.nanmax(np.abs(actual - expected))) if expected.size else 0.0
    if worst < SLIGHT * max(1.0, float(np.nanmax(np.abs(expected)))):
        return (
            None  # entries barely past the tolerance: where they lie is the inputs', not a region's
        )
    return symptoms.row_factors(actual, expected, agree) or symptoms.where_differs(
        actual, expected, agree
    )


SLIGHT = 1e-3
"""A difference below this share of the result's scale says nothing of where a mistake lies: the
entries that cross the tolerance are those the inputs happen to make largest (a rounding error
on large angles shows on some entries of a rotation and not others)."""


def _object_array(actual: np.ndarray) -> str | None:
    if actual.dtype == object:
        return "returned an array of Python objects (dtype object): return numbers (float64)"
    return None


def _not_boolean(actual: np.ndarray, expected: np.ndarray) -> str | None:
    if expected.dtype == np.bool_ and actual.dtype != np.bool_ and actual.shape == expected.shape:
        return (
            f"returned dtype {actual.dtype} where a boolean array is expected "
            "(True where allowed, False where masked)"
        )
    return None


def _coarser(actual: np.ndarray) -> str | None:
    """A float16 or float32 result: its precision is a fact of the value, whatever else is
    wrong with it (the tolerance is float64's)."""
    if actual.dtype not in (np.float16, np.float32):
        return None
    spacing = float(np.finfo(actual.dtype).eps)
    return (
        f"computed in {actual.dtype}, whose precision ({spacing:.1e}) is coarser than the "
        "tolerance: compute in float64"
    )


def _closeness(rtol: float, atol: float) -> Callable[[Any, Any], bool]:
    def close(a: Any, b: Any) -> bool:
        a, b = np.asarray(a), np.asarray(b)
        return a.shape == b.shape and all_close(a, b, rtol, atol)

    return close


def _shape(
    actual: np.ndarray, expected: np.ndarray, named: dict[str, Any], close: Callable[..., bool]
) -> str | None:
    if expected.ndim == 2 and actual.shape == expected.T.shape and close(actual, expected.T):
        return f"your {actual.shape} array is the expected {expected.shape} one transposed"
    if actual.ndim == expected.ndim:
        for a in range(actual.ndim):
            for b in range(a + 1, actual.ndim):
                swapped = np.swapaxes(expected, a, b)
                if swapped.shape == actual.shape and close(actual, swapped):
                    return f"your axes {a} and {b} are swapped (np.swapaxes(…, {a}, {b}))"
        if (
            actual.ndim >= 1
            and actual.shape[1:] == expected.shape[1:]
            and actual.shape[0] < expected.shape[0]
            and close(actual, expected[: actual.shape[0]])
        ):
            length = expected.shape[0]
            which = [n for n, v in named.items() if type(v) in (int, np.int64) and v == length]
            also = f" ({which[0]} = {length})" if which else ""
            return (
                f"your {actual.shape[0]} rows are the first rows of the expected {length}"
                f"{also}: the rows after them are missing"
            )
    for axis in range(expected.ndim):
        if expected.shape[axis] == 1 and np.squeeze(expected, axis).shape == actual.shape:
            return f"your result lost axis {axis} of length 1: keep it (keepdims=True)"
    return None


def non_finite_symptom(
    calls: Sequence[Call], reference: types.ModuleType, *, hidden: bool = False
) -> list[str]:
    """What a model's cause leaves unsaid that the student sees: nan or inf where the expected
    values are finite, as measured on the first such call (without advice: the cause is the
    model's to say). A hidden test's sentence holds no value of its inputs."""
    for call in calls:
        function = getattr(reference, call.name, None)
        if not isinstance(function, types.FunctionType) or not isinstance(call.result, np.ndarray):
            continue
        if call.result.dtype.kind not in "fc" or _too_large((call.args, call.kwargs, call.result)):
            continue
        expected = answer_to(function, call)
        value = expected.value
        if expected.raised is not None or not isinstance(value, np.ndarray):
            continue
        if value.shape != call.result.shape or value.dtype.kind not in "fiu":
            continue
        named = _named_arguments(function, call)  # a hidden test's values are cut later
        with np.errstate(all="ignore"):
            said = _non_finite(call.result.astype(np.float64), value, named, advice=False)
        if said:
            return [f"{call.name}: your result holds {said}"]
    return []


def _non_finite(
    actual: np.ndarray, expected: np.ndarray, named: dict[str, Any], advice: bool = True
) -> str | None:
    broken = ~np.isfinite(actual) & np.isfinite(expected)
    if not broken.any():
        return None
    kind = "nan" if np.isnan(actual[broken]).any() else "inf"
    arrays = [v for v in named.values() if isinstance(v, np.ndarray) and v.dtype.kind in "fiu"]
    largest = max((float(np.max(np.abs(v))) for v in arrays if v.size), default=0.0)
    masks = [(n, v) for n, v in named.items() if isinstance(v, np.ndarray) and v.dtype == np.bool_]
    for name, mask in masks:
        try:
            allowed = np.broadcast_to(mask, actual.shape)
        except ValueError:
            continue
        empty = ~allowed.any(axis=-1)
        rows = ~np.isfinite(actual).all(axis=-1)
        if empty.any() and np.array_equal(rows & empty, rows):
            return (
                f"{kind} in exactly the rows where {name} is False throughout (fully masked): "
                "0/0 is nan" + ("; such a row needs its own handling" if advice else "")
            )
    if largest > 80:  # large inputs: exp may overflow, or underflow to 0 and give 0/0
        return (
            f"{kind} where the expected values are finite, on inputs as large as "
            f"{largest:.3g}"
            + (": does exp overflow (past about 709, 88 in float32) or every exp of a row "
               "underflow to 0? The stable form subtracts each row's own maximum before exp, "
               "np.max(…, axis=axis, keepdims=True)" if advice else "")
        )  # fmt: skip
    return f"{kind} where the expected values are finite ({int(broken.sum())} entries)"


def _precision(actual: np.ndarray, expected: np.ndarray, rtol: float, atol: float) -> str | None:
    said = _coarser(actual)
    if said is None:
        return None
    spacing = float(np.finfo(actual.dtype).eps)
    scale = float(np.max(np.abs(expected))) if expected.size else 0.0
    if np.allclose(
        actual, expected, rtol=max(rtol, 8 * spacing), atol=max(atol, 8 * spacing * scale)
    ):
        return said
    return None


def _constant(actual: np.ndarray, expected: np.ndarray) -> str | None:
    """One number in every entry where the expected entries vary."""
    if actual.size < 2 or not np.all(actual == actual.flat[0]):
        return None
    if np.all(expected == expected.flat[0]):
        return None
    value = actual.flat[0]
    said = f"{value.real:.4g}" if actual.dtype.kind == "c" and value.imag == 0 else f"{value:.4g}"
    return f"every entry of yours is {said}, where the expected entries vary"


ROUNDING_ULPS = 16
"""How many of a precision's steps (eps · the largest expected value) a difference may span and
still read as that precision's rounding."""


def _rounding(actual: np.ndarray, expected: np.ndarray) -> str | None:
    """Every entry off by no more than float32's rounding, in a float64 result: a step
    computed in a coarser precision somewhere on the way."""
    if actual.dtype.kind == "c" or not np.isfinite(actual).all() or not expected.size:
        return None
    reference = np.asarray(expected, dtype=np.float64)
    if not np.isfinite(reference).all():
        return None
    worst = float(np.max(np.abs(actual - reference)))
    scale = max(1.0, float(np.max(np.abs(reference))))
    if worst > ROUNDING_ULPS * float(np.finfo(np.float32).eps) * scale:
        return None  # beyond float32's rounding, a small difference is a formula's as often
    return (
        f"your entries are off by at most {worst:.1e}, the size of a rounding error in "
        "float32: is a value computed in a lower precision on the way (an array, a "
        "constant, a dtype=)?"
    )


def _rearranged(actual: np.ndarray, expected: np.ndarray, close: Callable[..., bool]) -> str | None:
    if expected.ndim == 2 and expected.shape[0] == expected.shape[1] and close(actual, expected.T):
        return "your result is the expected one transposed (rows and columns exchanged)"
    for axis in range(expected.ndim):
        n = expected.shape[axis]
        if n < 2:
            continue
        if close(actual, np.flip(expected, axis)):
            return f"your result is the expected one reversed along axis {axis}"
        head = [slice(None)] * expected.ndim
        tail = [slice(None)] * expected.ndim
        head[axis], tail[axis] = slice(0, n - 1), slice(1, n)
        if n >= 3 and close(actual[tuple(head)], expected[tuple(tail)]):
            return (
                f"your entry i along axis {axis} is the expected entry i + 1: shifted by one "
                "(an index or a position that starts at 1 instead of 0?)"
            )
        if n >= 3 and close(actual[tuple(tail)], expected[tuple(head)]):
            return (
                f"your entry i + 1 along axis {axis} is the expected entry i: shifted by one "
                "(an off-by-one index?)"
            )
    return None


def _factor(
    actual: np.ndarray, expected: np.ndarray, named: dict[str, Any], close: Callable[..., bool]
) -> str | None:
    denominator = float(np.vdot(expected, expected).real)
    if np.count_nonzero(expected) < 3 or not np.isfinite(actual).all():
        return None  # one number fits any factor
    factor = float(np.vdot(expected, actual).real) / denominator
    if not np.isfinite(factor) or abs(factor) < 1e-12 or _near(factor, 1.0):
        return None
    if not close(actual, factor * expected):
        return None
    if _near(factor, -1.0):
        return "your result is the expected one with its sign flipped"
    size = abs(factor) if abs(factor) >= 1 else 1 / abs(factor)
    direction = "too large" if abs(factor) > 1 else "too small"
    name = _name_number(size, named)
    return f"your result is {direction} by a factor {name}" + (
        ", and of the wrong sign" if factor < 0 else ""
    )


def _name_number(value: float, named: dict[str, Any]) -> str:
    for n in range(2, 65):
        if _near(value, math.sqrt(n)) and not _near(value, round(value)):
            return f"{value:.4g} = √{n}"
    lengths = {
        f"the length of axis {axis} of {name}": length
        for name, v in named.items()
        if isinstance(v, np.ndarray)
        for axis, length in enumerate(v.shape)
    }
    for what, length in lengths.items():
        if length > 1 and _near(value, length):
            return f"{length} = {what}: a mean over that axis instead of a sum?"
    if _near(value, round(value)):
        return f"{round(value)}"
    return f"{value:.4g}"


def _normaliser(actual: np.ndarray, expected: np.ndarray, close: Callable[..., bool]) -> str | None:
    """actual[i, j] = expected[i, j] · a[i] · b[j], not one constant: a normaliser (a sum or a
    maximum without keepdims=True) broadcast along the wrong axis."""
    if expected.ndim != 2 or min(expected.shape) < 2 or not np.isfinite(actual).all():
        return None
    present = np.abs(expected) > 1e-12
    if not close(np.where(present, 0.0, actual), np.zeros_like(actual)) or present.sum() < 4:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ratio = np.where(present, actual / np.where(present, expected, 1.0), np.nan)
        if np.nanmin(ratio) <= 0:
            return None
        logs = np.log(ratio)
        if np.nanmax(logs) - np.nanmin(logs) < 1e-6:
            return None
        rows, columns = np.zeros(expected.shape[0]), np.zeros(expected.shape[1])
        for _ in range(50):  # log ratio = rows[i] + columns[j], fitted on the present entries
            before = columns
            rows = np.nan_to_num(np.nanmean(logs - columns[None, :], axis=1))
            columns = np.nan_to_num(np.nanmean(logs - rows[:, None], axis=0))
            if np.max(np.abs(columns - before)) < 1e-13:  # settled: with every entry present,
                break  # after the second round
        residual = np.nanmax(np.abs(logs - rows[:, None] - columns[None, :]))
    varies = np.ptp(rows) > 1e-6 and np.ptp(columns) > 1e-6  # one alone: a missing division
    if residual < 1e-6 and varies:
        return (
            "your entries are off by a factor that depends on the row and the column "
            "separately: a sum or a maximum taken without keepdims=True is broadcast along "
            "the wrong axis (keep the reduced axis: keepdims=True)"
        )
    return None


def _zero_slice(actual: np.ndarray, expected: np.ndarray, close: Callable[..., bool]) -> str | None:
    """Right but for its last column left at 0 (an odd width's unpaired column, say)."""
    if expected.ndim != 2 or expected.shape[0] < 3 or expected.shape[-1] < 2:
        return None
    zero = np.all(actual == 0, axis=tuple(range(actual.ndim - 1)))
    empty = np.all(expected == 0, axis=tuple(range(expected.ndim - 1)))
    missing = np.flatnonzero(zero & ~empty)
    if list(missing) != [expected.shape[-1] - 1]:
        return None
    kept = np.ones(expected.shape[-1], dtype=bool)
    kept[missing] = False
    if not close(actual[..., kept], expected[..., kept]):
        return None
    return f"your last column ({int(missing[0])}) is left at 0; every other column is right"


def _one_slice_kept(
    actual: np.ndarray, expected: np.ndarray, named: dict[str, Any], close: Callable[..., bool]
) -> str | None:
    """The expected sums an argument over its first axis; the student's keeps one slice."""
    for name, value in named.items():
        if not isinstance(value, np.ndarray) or value.ndim < 2 or value.shape[0] < 2:
            continue
        total = value.sum(axis=0)
        rows = total.shape[0]
        if total.shape[1:] != expected.shape[1:] or rows > expected.shape[0]:
            continue
        if not close(expected[:rows], total):
            continue
        for which, index in (("last", -1), ("first", 0)):
            if close(actual[:rows], value[index]):
                return (
                    f"your result keeps only the {which} entry along axis 0 of {name} where "
                    "the sum over that axis is needed (an assignment with repeated indices, "
                    "a[idx] += b, keeps one of them: np.add.at(a, idx, b) sums them)"
                )
    return None


def _near(a: float, b: float, rel: float = 1e-3) -> bool:
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-12)


# --- exact answers ---------------------------------------------------------------------------


def _exactness(call: Call, expected: Any) -> str | None:
    floats = _floats(call.result) - _floats((call.args, call.kwargs))
    if floats and not _floats(expected):
        shown = ", ".join(sorted(str(f)[:12] for f in floats)[:3])
        return (
            f"your expression holds the floating-point number {shown}; the answer must be "
            "exact: use SymPy's numbers (sp.sqrt(2), sp.Rational(1, 2), sp.pi), not math's"
        )
    return None


def _floats(value: Any) -> set[sp.Float]:
    if isinstance(value, sp.Basic):
        return set(value.atoms(sp.Float))
    if isinstance(value, sp.MatrixBase):
        return set().union(*(set(e.atoms(sp.Float)) for e in value)) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(set(), *(_floats(v) for v in value))
    if isinstance(value, dict):
        return _floats(list(value.values()))
    return set()


# --- helpers ---------------------------------------------------------------------------------


def _too_large(value: Any) -> bool:
    """Whether a call holds an array past MAX_ENTRIES (it is then not examined)."""
    if isinstance(value, np.ndarray):
        return value.size > MAX_ENTRIES
    if isinstance(value, (tuple, list)):
        return any(_too_large(v) for v in value[:64])
    if isinstance(value, dict):
        return any(_too_large(v) for v in list(value.values())[:64])
    return False


def _named_arguments(function: types.FunctionType, call: Call) -> dict[str, Any]:
    try:
        bound = inspect.signature(function).bind_partial(*call.args, **call.kwargs)
    except TypeError:
        return {f"argument {i + 1}": v for i, v in enumerate(call.args)} | dict(call.kwargs)
    return dict(bound.arguments)
