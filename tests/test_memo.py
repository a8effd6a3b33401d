"""Remembered verdicts: computed once, reported by the child that learnt them, kept by runners."""

from __future__ import annotations

import sympy as sp

from autograder.checks import memo
from autograder.checks.symbolic import prove_equal


def test_a_verdict_is_computed_once_and_reported_as_learnt() -> None:
    memo.forget()
    calls: list[str] = []

    def compute(value: str) -> str:
        calls.append(value)
        return value

    key = memo.key("test", ["a", "b"])
    assert memo.remembered(key, lambda: compute("first")) == "first"
    assert memo.remembered(key, lambda: compute("second")) == "first"
    assert calls == ["first"] and memo.learnt() == {key: "first"}
    memo.add(memo.learnt())  # what the runner does with a child's report
    assert memo.learnt() == {} and memo.remembered(key, lambda: "third") == "first"
    assert key != memo.key("test", ["ab"]) != memo.key("test", ["a", "b", ""])


def test_proofs_are_remembered_by_expression() -> None:
    memo.forget()
    x, k = sp.symbols("x k")
    assert prove_equal(sp.sin(x) ** 2 + sp.cos(x) ** 2, sp.Integer(1)) == "proved"
    assert len(memo.learnt()) == 1
    assert prove_equal(sp.sin(x) ** 2 + sp.cos(x) ** 2, sp.Integer(1)) == "proved"
    assert len(memo.learnt()) == 1
    assert prove_equal(sp.sin(k) ** 2 + sp.cos(k) ** 2, sp.Integer(1)) == "proved"
    assert len(memo.learnt()) == 2


def test_memory_stays_bounded() -> None:
    memo.forget()
    memo.add({str(n): str(n) for n in range(memo.MAX_VERDICTS + 10)})
    assert memo.remembered("0", lambda: "recomputed") == "recomputed"  # the oldest forgotten
    newest = str(memo.MAX_VERDICTS + 9)
    assert memo.remembered(newest, lambda: "recomputed") == newest
    memo.forget()
