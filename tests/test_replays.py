"""The diagnosis asks trusted code (the reference, a catalogued variant) for its answer to each
recorded call's arguments once: the answer is kept, read-only, for the submission (or, primed
from the runner's rehearsal, for every submission)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from autograder.diagnosis import replays
from autograder.diagnosis.diagnose import Call


@pytest.fixture(autouse=True)
def empty_store() -> Iterator[None]:
    replays.forget_primed()
    yield
    replays.forget_primed()


class Counted:
    """A trusted function that counts its calls."""

    def __init__(self, result: Any = None, error: Exception | None = None) -> None:
        self.calls = 0
        self.result = result
        self.error = error

    def __call__(self, x: Any) -> Any:
        self.calls += 1
        if self.error is not None:
            raise self.error
        return self.result if self.result is not None else np.asarray(x) * 2.0


def test_an_answer_is_computed_once_per_function_and_arguments() -> None:
    double = Counted()
    call = Call("f", (np.arange(3.0),), {}, None)
    first = replays.answer_to(double, call).value
    second = replays.answer_to(double, call).value
    assert double.calls == 1
    np.testing.assert_array_equal(first, [0.0, 2.0, 4.0])
    assert second is first
    other = Call("f", (np.arange(3.0),), {}, "another result")  # equal arguments, another call
    assert replays.answer_to(double, other).value is first
    assert double.calls == 1
    replays.answer_to(Counted(), call)  # another function, the same call
    assert double.calls == 1


@pytest.mark.parametrize(
    "argument",
    [
        np.arange(3, dtype=np.int64),  # the same numbers in another dtype
        np.arange(3.0).reshape(3, 1),  # another shape
        np.array([0.0, 1.0, 2.0 + 1e-15]),  # one bit apart
        np.arange(1000.0),  # large enough to be fingerprinted by its digest
        [0.0, 1.0, 2.0],  # a list, not an array
        (0.0, 1.0, 2.0),
        np.float64(1.0),
    ],
)
def test_arguments_that_differ_in_any_way_get_their_own_answer(argument: Any) -> None:
    double = Counted()
    replays.answer_to(double, Call("f", (np.arange(3.0),), {}, None))
    replays.answer_to(double, Call("f", (argument,), {}, None))
    assert double.calls == 2


def test_large_arrays_one_entry_apart_get_their_own_answer() -> None:
    double = Counted()
    large = np.arange(1000.0)
    changed = large.copy()
    changed[500] += 1e-12
    replays.answer_to(double, Call("f", (large,), {}, None))
    replays.answer_to(double, Call("f", (changed,), {}, None))
    replays.answer_to(double, Call("f", (large.copy(),), {}, None))
    assert double.calls == 2


@pytest.mark.parametrize(
    ("one", "other"),
    [(1, 1.0), (1, True), (0.0, -0.0), ("1", 1), (b"1", "1"), ((1,), [1]), ({1: 2}, {2: 1})],
)
def test_scalars_equal_in_python_are_told_apart(one: Any, other: Any) -> None:
    identity = Counted(result="kept")
    replays.answer_to(identity, Call("f", (one,), {}, None))
    replays.answer_to(identity, Call("f", (other,), {}, None))
    assert identity.calls == 2
    replays.answer_to(identity, Call("f", (), {"x": one}, None))  # as a keyword: its own key
    assert identity.calls == 3


def test_arguments_without_a_fingerprint_are_kept_for_their_call_alone() -> None:
    import sympy as sp

    counted = Counted(result=1.0)
    x = sp.Dummy("x")  # two Dummies of one name differ: no fingerprint tells them apart
    call = Call("f", (x,), {}, None)
    replays.answer_to(counted, call)
    replays.answer_to(counted, call)
    assert counted.calls == 1
    replays.answer_to(counted, Call("f", (x,), {}, None))  # equal, but no fingerprint
    assert counted.calls == 2
    assert replays.fingerprint_of(Call("f", (object(),), {}, None)) is None
    many = Call("f", (list(range(replays.FINGERPRINT_PARTS + 1)),), {}, None)
    assert replays.fingerprint_of(many) is None  # beyond the budget: no fingerprint


class Marked(__import__("sympy").Symbol):
    """A Symbol subclass: what it carries beyond its name, its tree does not show."""


def test_sympy_expressions_are_fingerprinted_by_their_whole_tree() -> None:
    import sympy as sp

    x, y = sp.symbols("x y", real=True)
    plain_x = sp.Symbol("x")
    same = [sp.sin(x) * y + 1, sp.sin(x) * y + 1]
    assert len({replays.fingerprint_of(Call("f", (e,), {}, None)) for e in same}) == 1
    differ = [sp.sin(x) * y, sp.sin(plain_x) * y, sp.cos(x) * y, sp.sin(y) * x,
              sp.sin(x) * y + sp.Float(1.0), sp.sin(x) * y + sp.Float("1.0000000000000002"),
              sp.sin(x) * y + sp.Rational(1, 3), sp.Tuple(x, y), sp.Tuple(y, x)]  # fmt: skip
    printed = [replays.fingerprint_of(Call("f", (e,), {}, None)) for e in differ]
    assert None not in printed and len(set(printed)) == len(differ)
    for opaque in (sp.Function("g")(x), sp.Wild("w") + x, Marked("x"), sp.Dummy("x") * 2):
        assert replays.fingerprint_of(Call("f", (opaque,), {}, None)) is None, opaque


def test_primed_answers_outlive_a_submission_and_are_bounded() -> None:
    double = Counted()
    rehearsed = Call("f", (np.arange(3.0),), {}, None)
    huge = Call("f", (np.zeros(replays.PRIMED_VALUE_BYTES // 8 + 1),), {}, None)
    with replays.priming():
        replays.answer_to(double, rehearsed)
        replays.answer_to(double, huge)
    assert replays.primable(rehearsed) and not replays.primable(huge)
    assert double.calls == 2
    replays.forget()  # a new submission: the primed answer stays, the huge one was not kept
    students = Call("f", (np.arange(3.0),), {}, np.zeros(3))
    assert replays.answer_to(double, students).value.flags.writeable is False
    assert double.calls == 2
    replays.answer_to(double, Call("f", (np.zeros(replays.PRIMED_VALUE_BYTES // 8 + 1),), {}, None))
    assert double.calls == 3
    replays.forget_primed()
    replays.answer_to(double, students)
    assert double.calls == 4


def test_a_verdict_is_decided_once_per_key_and_arguments() -> None:
    decided: list[int] = []

    def decide() -> bool:
        decided.append(1)
        return True

    call = Call("f", (np.arange(3.0),), {}, None)
    with replays.priming():
        assert replays.verdict(("shows", "m"), call, decide)
    replays.forget()
    assert replays.verdict(("shows", "m"), Call("f", (np.arange(3.0),), {}, 1.0), decide)
    assert len(decided) == 1  # primed: kept for the next submission
    replays.verdict(("shows", "other"), call, decide)
    replays.verdict(("shows", "m"), Call("f", (np.arange(4.0),), {}, None), decide)
    assert len(decided) == 3
    replays.verdict(("shows", "m"), Call("f", (object(),), {}, None), decide)
    replays.verdict(("shows", "m"), Call("f", (object(),), {}, None), decide)
    assert len(decided) == 5  # no fingerprint: decided each time


def test_a_kept_array_is_read_only_and_the_functions_own_stays_writeable() -> None:
    table = np.zeros(4)
    constant = Counted(result=table)
    call = Call("f", (1,), {}, None)
    kept = replays.answer_to(constant, call).value
    with pytest.raises(ValueError, match="read-only"):
        kept[0] = 1.0
    table[0] = 5.0  # the function's own table is not frozen by the diagnosis
    assert replays.answer_to(constant, call).value[0] == 5.0
    assert constant.calls == 1


def test_the_arguments_are_copies() -> None:
    def in_place(x: np.ndarray) -> np.ndarray:
        x += 1
        return x

    argument = np.zeros(2)
    replays.answer_to(in_place, Call("f", (argument,), {}, None))
    np.testing.assert_array_equal(argument, [0.0, 0.0])


def test_what_a_reader_could_change_is_computed_again() -> None:
    made: list[list[float]] = []

    def as_list(x: Any) -> list[float]:
        made.append([1.0, 2.0])
        return made[-1]

    call = Call("f", (1,), {}, None)
    replays.answer_to(as_list, call).value.append(3.0)  # a reader changes its list
    assert replays.answer_to(as_list, call).value == [1.0, 2.0]
    assert len(made) == 2  # lists are never kept
    long_tuple = Counted(result=tuple(range(100)))
    replays.answer_to(long_tuple, call)
    replays.answer_to(long_tuple, call)
    assert long_tuple.calls == 2


def test_an_exception_is_an_answer_kept_like_a_value() -> None:
    refusing = Counted(error=ValueError("x must be positive " + "very " * 100))
    call = Call("f", (-1,), {}, None)
    answered = replays.answer_to(refusing, call)
    assert answered.raised == "ValueError"
    assert answered.message.startswith("x must be positive") and len(answered.message) <= 200
    assert replays.answer_to(refusing, call) is answered
    assert refusing.calls == 1


def test_the_store_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replays, "MAX_BYTES", 1000)
    big = Counted(result=np.zeros(1000))
    call = Call("f", (1,), {}, None)
    replays.answer_to(big, call)
    replays.answer_to(big, call)
    assert big.calls == 2  # 8000 bytes: beyond the bound, computed each time
    monkeypatch.setattr(replays, "MAX_ANSWERS", 0)
    small = Counted(result=np.zeros(1))
    replays.answer_to(small, call)
    replays.answer_to(small, call)
    assert small.calls == 2


def test_forget_drops_every_answer() -> None:
    double = Counted()
    call = Call("f", (np.ones(2),), {}, None)
    replays.answer_to(double, call)
    replays.forget()
    replays.answer_to(double, call)
    assert double.calls == 2


def test_hostile_arguments_get_no_fingerprint_and_cost_little() -> None:
    """What a test may pass on from a student's result (the codec bounds it, but the store must
    not rely on that): values too deep, too many, too large, or texts no file could hold are
    answered without a fingerprint, or with one that tells them apart; nothing raises."""
    import sympy as sp

    deep: Any = 0.0
    for _ in range(5000):
        deep = [deep]
    x = sp.Symbol("x")
    nested = x
    for _ in range(5000):
        nested = sp.Add(nested, x, evaluate=False)
    wide = list(range(10**6))
    huge = np.zeros(replays.FINGERPRINT_BYTES // 8 + 1)
    for value in (deep, nested, wide, huge):
        assert replays.fingerprint_of(Call("f", (value,), {}, None)) is None
        counted = Counted(result=1.0)
        answered = replays.answer_to(counted, Call("f", (value,), {}, None))
        if value is deep:  # too deep even to copy: the answer says so, and nothing raises
            assert answered.raised == "RecursionError" and counted.calls == 0
        else:
            assert answered.value == 1.0 and counted.calls == 1
    odd = ["\ud800", "\x1b[2J\x00", "\ud800\udc00"]  # a lone surrogate, controls, a pair
    printed = [replays.fingerprint_of(Call("f", (text,), {}, None)) for text in odd]
    assert None not in printed and len(set(printed)) == len(odd)
