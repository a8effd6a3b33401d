"""Calls like the ones recorded, drawn afresh: what tells apart two models that reproduce the
same calls.

Two mutants that agree on every recorded call of a function, and on these probes too, are one
mistake said two ways ("4 where 2 belongs" in the exponent, or "the power applied twice"): the
diagnosis names the one whose words say most, rather than listing both or, past MAX_NAMED,
saying nothing. Two that agree on the calls but not on a probe are different mistakes the calls
cannot tell apart, and stay apart. The probes are drawn from the calls alone, so `grade` and the
release's hint table (which `check` reads) group the same mutants alike.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import sympy as sp

from autograder.diagnosis import replays
from autograder.diagnosis.fingerprints import arguments_key
from autograder.protocol.calls import Call

PROBED_CALLS = 6
"""Recorded calls a function's probes are drawn from (the smallest: a probe costs a replay)."""
DRAWS = 2
"""Fresh draws of each probed call's floats."""
SEED = 20261206
PASSED_BY_NAME = (1, 3)
"""inspect's parameter kinds a keyword can pass: 1 (by place or by name) and 3 (by name only)."""
STEP = 1
"""What a probe adds to one integer argument at a time (a width, a length, a shift)."""


def probe_calls(calls: Sequence[Call], signature: inspect.Signature | None = None) -> list[Call]:
    """Calls like `calls`: each of the smallest few (distinct arguments, answered without an
    exception) with its float arrays and float numbers drawn afresh, and once more for each
    integer argument with that integer moved by STEP, and for each number `signature` gives a
    default the call leaves, once with it passed (moved). A float array is drawn around its own
    mean and spread (scores of 1e3 stay that large: a mistake of stability shows there only);
    a float number is scaled and moved (a 0 stays 0 under a scale alone). Symbolic arguments
    are kept as they are (an expression's answer is already the same everywhere or not at
    all)."""
    chosen: dict[str, Call] = {}
    for call in calls:
        if call.raised is not None or call.mutated:
            continue
        key = arguments_key(call.name, call.args, call.kwargs)
        if key is not None and key not in chosen:
            chosen[key] = call
    smallest = sorted(chosen.items(), key=lambda item: (_size(item[1]), item[0]))
    generator = np.random.default_rng(SEED)
    probes: list[Call] = []
    for _, call in smallest[:PROBED_CALLS]:
        if any(_drawn(v) for v in [*call.args, *call.kwargs.values()]):
            for _ in range(DRAWS):
                args = tuple(_redrawn(a, generator) for a in call.args)
                kwargs = {k: _redrawn(v, generator) for k, v in call.kwargs.items()}
                probes.append(Call(call.name, args, kwargs, None))
        for index, value in enumerate(call.args):
            if _is_integer(value):
                args = (*call.args[:index], value + STEP, *call.args[index + 1 :])
                probes.append(Call(call.name, args, dict(call.kwargs), None))
        for name, value in call.kwargs.items():
            if _is_integer(value):
                probes.append(Call(call.name, call.args, {**call.kwargs, name: value + STEP}, None))
        for name, value in _defaults_left(call, signature):  # a default read, or not
            moved = _redrawn(value, generator) if _drawn(value) else value + STEP
            probes.append(Call(call.name, call.args, {**call.kwargs, name: moved}, None))
    return probes


def _defaults_left(call: Call, signature: inspect.Signature | None) -> list[tuple[str, Any]]:
    """The numeric parameters `call` leaves at their defaults: passing one explicitly tells a
    function that ignores what it is passed from one that reads it."""
    if signature is None:
        return []
    left = []
    for position, (name, parameter) in enumerate(signature.parameters.items()):
        if position < len(call.args) or name in call.kwargs:
            continue
        default = parameter.default
        if parameter.kind.value in PASSED_BY_NAME and (_drawn(default) or _is_integer(default)):
            left.append((name, default))
    return left


def alike(
    functions: Sequence[Callable[..., Any] | None],
    probes: Sequence[Call],
    same: Callable[[Any, Any], bool],
) -> list[int]:
    """For each of `functions`, the index of the first one that answers every probe as it does
    (the same value within `same`, or the same exception): itself when none before it does."""
    answers = [[_answer(f, probe) for probe in probes] for f in functions]
    first: list[int] = []
    for index, mine in enumerate(answers):
        match = next(
            (
                earlier
                for earlier in dict.fromkeys(first)
                if all(_agree(a, b, same) for a, b in zip(answers[earlier], mine, strict=True))
            ),
            index,
        )
        first.append(match)
    return first


def _answer(function: Callable[..., Any] | None, call: Call) -> replays.Answer:
    if not callable(function):
        return replays.Answer(raised="missing")
    return replays.answer(function, call.args, call.kwargs)


def _agree(a: replays.Answer, b: replays.Answer, same: Callable[[Any, Any], bool]) -> bool:
    if a.raised is not None or b.raised is not None:
        return a.raised == b.raised
    try:
        return bool(same(a.value, b.value))
    except Exception:
        return False


def _is_integer(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _drawn(value: Any) -> bool:
    """Whether a probe draws `value` afresh: a float array, or a float number."""
    if isinstance(value, np.ndarray):
        return value.dtype.kind == "f" and value.size > 0
    return isinstance(value, float) and not isinstance(value, sp.Basic)


def _redrawn(value: Any, generator: np.random.Generator) -> Any:
    if not _drawn(value):
        return value
    if isinstance(value, np.ndarray):  # at the scale of the call's own (large scores stay so)
        finite = value[np.isfinite(value)]
        centre = float(finite.mean()) if finite.size else 0.0
        spread = float(finite.std()) if finite.size else 1.0
        spread = spread if spread > 0 else max(abs(centre), 1.0)
        drawn = centre + spread * generator.normal(size=value.shape)
        return np.asarray(drawn, dtype=value.dtype)
    return value * float(generator.uniform(0.5, 1.5)) + float(generator.uniform(-0.5, 0.5))


def _size(call: Call) -> int:
    parts = [*call.args, *call.kwargs.values()]
    return sum(p.size if isinstance(p, np.ndarray) else 1 for p in parts)
