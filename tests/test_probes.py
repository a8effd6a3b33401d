"""Probes tell apart two models that reproduce the same calls: one mistake said two ways is
named once, two mistakes the calls cannot separate stay two."""

from __future__ import annotations

import inspect

import numpy as np

from autograder.diagnosis.diagnose import same
from autograder.diagnosis.probes import DRAWS, PROBED_CALLS, STEP, alike, probe_calls
from autograder.protocol.calls import Call


def agree(a: object, b: object) -> bool:
    return same(a, b, 1e-7, 1e-9)


def test_probes_redraw_floats_and_move_each_integer() -> None:
    x = np.array([[1.0, 2.0], [3.0, 4.0]])
    call = Call("f", (x, 3), {"scale": 0.0, "flag": True}, None)
    probes = probe_calls([call])
    drawn, moved = probes[:DRAWS], probes[DRAWS:]
    for probe in drawn:
        assert probe.args[0].shape == x.shape and not np.allclose(probe.args[0], x)
        assert probe.kwargs["scale"] != 0.0  # a 0 is moved, not only scaled
        assert probe.args[1] == 3 and probe.kwargs["flag"] is True  # integers, booleans kept
    assert [p.args[1] for p in moved] == [3 + STEP]
    assert np.array_equal(moved[0].args[0], x)


def test_probes_leave_out_refusals_repeats_and_all_but_the_smallest_calls() -> None:
    calls = [Call("f", (np.ones(n),), {}, None) for n in range(20, 0, -1)]
    calls += [Call("f", (np.ones(1),), {}, None), Call("f", (np.ones(2),), {}, None, raised="E")]
    sizes = sorted({p.args[0].size for p in probe_calls(calls)})
    assert sizes == list(range(1, PROBED_CALLS + 1))
    assert len(probe_calls(calls)) == PROBED_CALLS * DRAWS


def test_functions_alike_on_every_probe_are_one() -> None:
    """4·i and (2·i)·2 are one function; i·i agrees with them at i = 0 and 4 only."""
    calls = [Call("f", (0,), {}, 0), Call("f", (4,), {}, 16)]
    probes = probe_calls(calls)

    def four_i(i: int) -> int:
        return 4 * i

    def twice_two_i(i: int) -> int:
        return (2 * i) * 2

    def squared(i: int) -> int:
        return i * i

    assert alike([four_i, twice_two_i, squared], probes, agree) == [0, 0, 2]


def test_an_exception_is_alike_only_to_the_same_exception() -> None:
    def refuses(x: float) -> float:
        raise ValueError("no")

    def other(x: float) -> float:
        raise TypeError("no")

    probes = probe_calls([Call("f", (1.0,), {}, 1.0)])
    assert alike([refuses, refuses, other, None], probes, agree) == [0, 0, 2, 3]


def test_a_default_left_is_passed_once_moved() -> None:
    """f(x, base=10.0) called without base: a probe passes base, so that a model that ignores
    the base it is passed and one that reads it answer differently."""

    def f(x: float, base: float = 10.0, layout: str = "a") -> float:
        return x / base

    probes = probe_calls([Call("f", (1.0,), {}, 0.1)], inspect.signature(f))
    passed = [p for p in probes if "base" in p.kwargs]
    assert len(passed) == 1 and passed[0].kwargs["base"] != 10.0
    assert all("layout" not in p.kwargs for p in probes)  # not a number: left alone

    def ignores(x: float, base: float = 10.0) -> float:
        return x / 10.0

    assert alike([f, ignores], probes, agree) == [0, 1]
