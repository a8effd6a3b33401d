"""The diagnosis asks trusted code (the reference, a catalogued variant) for its answer to each
recorded call once: the answer is kept, read-only, for as long as the call lives."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from autograder.grading import replays
from autograder.grading.diagnose import Call


@pytest.fixture(autouse=True)
def empty_store() -> Iterator[None]:
    replays.forget()
    yield
    replays.forget()


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


def test_an_answer_is_computed_once_per_function_and_call() -> None:
    double = Counted()
    call = Call("f", (np.arange(3.0),), {}, None)
    first = replays.answer_to(double, call).value
    second = replays.answer_to(double, call).value
    assert double.calls == 1
    np.testing.assert_array_equal(first, [0.0, 2.0, 4.0])
    assert second is first
    other = Call("f", (np.arange(3.0),), {}, None)  # equal arguments, another call
    replays.answer_to(double, other)
    assert double.calls == 2
    replays.answer_to(Counted(), call)  # another function, the same call
    assert double.calls == 2


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
