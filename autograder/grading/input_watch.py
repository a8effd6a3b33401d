"""Functions that promise to leave their inputs alone, checked on every call of every test.

Every public function keeps its inputs unless the rubric says otherwise (`may_modify_inputs`
in the assignment's table). Every call is watched: when grading, the worker compares each array
argument before and after every call (worker.py) and reports the ones that changed; when a
module runs in this process (`autograder check`, a notebook), the `student` fixture hands out a
WatchedModule that does the same.

A test may declare where breaking the contract costs points, with the marker
`keeps_inputs("normalise", "scale")`. Marked tests run after all others, so each sees every call
the submission's tests made, and fails, naming the call that modified its argument, whichever
test and call form did it (a visible test names a hidden test's call without its inputs). A
function no marked test guards costs points in the test whose own call modified its argument.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from autograder.checks.failure import CheckFailure, short_repr
from autograder.protocol.calls import Call

MARKER = "keeps_inputs"


@dataclass(frozen=True)
class Modification:
    """A call of a declared function that modified an array it was given."""

    call: Call
    arguments: tuple[str, ...]
    """The modified arguments, by parameter name where the signature says it."""
    test: str
    hidden: bool = False
    """Made by a hidden test: a visible test's message names neither it nor its inputs."""

    def describe(self, *, for_hidden_test: bool) -> str:
        which = ", ".join(self.arguments)
        noun = "arguments" if len(self.arguments) > 1 else "argument"
        if self.hidden and not for_hidden_test:
            where = f"a call of {self.call.name} in a hidden test"
        else:
            where = f"{call_text(self.call)} in {self.test!r}"
        return (
            f"{where} modified its {noun} {which} in place; {self.call.name} must leave the "
            "arrays it is given unchanged: work on new arrays"
        )


@dataclass(eq=False)  # a plugin: pytest keeps it in sets
class InputWatch:
    """The session's plugin: which functions keep their inputs, and who broke the promise."""

    grading_calls: Callable[[], list[Call] | None]
    """The calls the current test made, as the grader records them (None: not grading)."""
    signature_of: Callable[[str], inspect.Signature | None]
    """A function's signature, to name its arguments (the reference's when grading)."""
    is_hidden: Callable[[pytest.Item], bool] = lambda item: False
    """Whether a test is hidden (its calls' details stay out of visible tests' messages)."""
    declared: set[str] = field(default_factory=set)
    modifications: list[Modification] = field(default_factory=list)
    own_calls: list[Call] = field(default_factory=list)
    """The calls a WatchedModule saw in the current test, when not grading."""
    called: list[str] = field(default_factory=list)
    """The functions a WatchedModule saw called in the current test, when not grading."""
    may_modify: Callable[[], frozenset[str]] = lambda: frozenset()
    """The functions the rubric allows to modify their inputs."""

    def called_names(self) -> list[str]:
        """The student's functions (and constants) the running test used, first use first."""
        calls = self.grading_calls()
        names = self.called if calls is None else [call.name for call in calls]
        return list(dict.fromkeys(names))

    def calls_of_test(self) -> list[Call]:
        calls = self.grading_calls()
        return self.own_calls if calls is None else calls

    def pytest_runtest_setup(self) -> None:
        self.own_calls.clear()
        self.called.clear()

    def reset(self) -> None:
        """A new submission: forget what the last one did."""
        self.modifications.clear()

    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        """Learn the declared functions; run the tests that guard them after all others."""
        marked = [item for item in items if item.get_closest_marker(MARKER)]
        for item in marked:
            self.declared.update(_guarded(item))
        items[:] = [item for item in items if not item.get_closest_marker(MARKER)] + marked

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Generator[None, object, object]:
        hidden = self.is_hidden(item)
        try:
            result = yield
        finally:
            self.notice(self.calls_of_test(), item.name, hidden=hidden)
        guarded = _guarded(item)
        found = [m for m in self.modifications if m.call.name in guarded]
        if not guarded:  # a function no marked test guards costs points where it broke
            allowed = self.may_modify() | self.declared
            found = [
                Modification(call, self._names(call), item.name, hidden)
                for call in self.calls_of_test()
                if call.modified and call.name not in allowed
            ][:1]
        if found:
            if guarded:
                self.calls_of_test().extend(m.call for m in found)  # the diagnosis reads them
            messages = [m.describe(for_hidden_test=hidden) for m in found[:3]]
            raise CheckFailure("; ".join(messages))
        return result

    def _names(self, call: Call) -> tuple[str, ...]:
        return argument_names(self.signature_of(call.name), call.modified)

    def notice(self, calls: Iterable[Call], test: str, *, hidden: bool = False) -> None:
        """Keep the first call of each declared function that modified an argument."""
        for call in calls:
            seen = {m.call.name for m in self.modifications}
            if call.modified and call.name in self.declared and call.name not in seen:
                self.modifications.append(Modification(call, self._names(call), test, hidden))


def _guarded(item: pytest.Item) -> set[str]:
    return {str(name) for marker in item.iter_markers(MARKER) for name in marker.args}


BY_KEYWORD_ONLY = 2
"""inspect's parameter kinds 0 and 1 can be passed by place; from 2 (*args) on they cannot."""


def argument_names(
    signature: inspect.Signature | None, keys: Iterable[str | int]
) -> tuple[str, ...]:
    """Arguments passed by place as their parameter names (`X`), keywords as themselves."""
    ordered = [
        p.name
        for p in (signature.parameters.values() if signature else ())
        if p.kind.value < BY_KEYWORD_ONLY
    ]
    return tuple(
        ordered[key] if isinstance(key, int) and key < len(ordered) else
        (f"number {key + 1}" if isinstance(key, int) else str(key)[:40])
        for key in keys
    )  # fmt: skip


def call_text(call: Call) -> str:
    """`name(<array (4, 3)>, W_v=<array (3, 3)>)`: a call as a message names it."""
    parts = [_short(a) for a in call.args] + [f"{k}={_short(v)}" for k, v in call.kwargs.items()]
    return f"{call.name}({', '.join(parts)})"


def _short(value: Any) -> str:
    shape = getattr(value, "shape", None)
    if isinstance(shape, tuple):
        return f"<array {shape}>"
    return short_repr(value, 30)


class WatchedModule:
    """A student's module run in this process, whose functions are watched as the grader's
    worker watches them."""

    def __init__(self, module: Any, watch: InputWatch) -> None:
        self._module = module
        self._watch = watch

    def __getattr__(self, name: str) -> Any:
        __tracebackhide__ = True  # a missing function: the test's line says which
        value = getattr(self._module, name)
        if name.startswith("_") or isinstance(value, type) or inspect.ismodule(value):
            return value
        self._watch.called.append(name)
        if not callable(value):  # read as the worker reports it: a call with no arguments
            self._watch.calls_of_test().append(Call(name, (), {}, value))
            return value
        return _Watched(name, value, self._watch.calls_of_test())

    def __repr__(self) -> str:
        return repr(self._module)


class _Watched:
    def __init__(self, name: str, function: Callable[..., Any], calls: list[Call]) -> None:
        self.__name__ = name
        self._function = function
        self._calls = calls

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        __tracebackhide__ = True  # the student's traceback goes from the test into their code
        named: dict[str | int, Any] = dict(enumerate(args))
        named.update(kwargs)
        before = {k: v.copy() for k, v in named.items() if type(v) is np.ndarray}
        copies = tuple(before.get(i, a) for i, a in enumerate(args))
        kept = {k: before.get(k, v) for k, v in kwargs.items()}
        try:
            result = self._function(*args, **kwargs)
        except Exception as error:  # the diagnosis reads what was raised, as the worker's
            text = str(error)[:2000]
            self._calls.append(
                Call(self.__name__, copies, kept, None, raised=type(error).__name__, error=text)
            )
            raise
        modified = tuple(
            key for key, copy in before.items()
            if copy.shape != named[key].shape
            or not np.array_equal(copy, named[key], equal_nan=True)
        )  # fmt: skip
        self._calls.append(Call(self.__name__, copies, kept, result, modified=modified))
        return result
