"""The engine's own diagnoses (generic.py), on the fixture course, which catalogues none of them.

Each case is a student's call as the grader records it, with the student's result (or the
exception it raised); the diagnosis reads it against the fixture reference's answer and must
name what it observes, or stay silent when its model does not reproduce the student's output.
"""

from __future__ import annotations

import math
import types

import numpy as np
import pytest
import sympy as sp

from autograder.diagnosis.diagnose import Call
from autograder.diagnosis.generic import deepest_cause, observe_generic, wrong_functions


def said(calls: list[Call], reference: types.ModuleType) -> str:
    return " | ".join(observe_generic(calls, reference))


X = np.array([[1.1, 2.3, 3.7], [4.2, 5.9, 7.3], [0.5, -1.3, 2.9]])
V = np.array([3.0, 4.0, 12.0])


def test_a_right_answer_is_not_diagnosed(reference: types.ModuleType) -> None:
    assert said([Call("scale", (X, 2.0), {}, 2 * X)], reference) == ""


@pytest.mark.parametrize(
    ("result", "words"),
    [
        (2 * X * math.sqrt(2), ["too large by a factor 1.414 = √2"]),
        (2 * X / 3, ["too small by a factor 3 = the length of axis 0 of x", "mean"]),
        (-2 * X, ["sign flipped"]),
        (2 * X.T, ["transposed"]),
        (2 * X[::-1], ["reversed along axis 0"]),
        ((2 * X).astype(np.float16), ["float16", "float64"]),
        (np.where(X > 4, np.nan, 2 * X), ["nan where the expected values are finite"]),
        (np.zeros((4, 3)), []),  # no clean model: silence
    ],
)
def test_the_layout_of_a_wrong_output_is_named(
    reference: types.ModuleType, result: np.ndarray, words: list[str]
) -> None:
    text = said([Call("scale", (X, 2.0), {}, result)], reference)
    if not words:
        assert text == ""
    for word in words:
        assert word in text, text
    assert text == "" or text.startswith("scale: ")


def test_a_shift_by_one_is_named(reference: types.ModuleType) -> None:
    x = np.arange(6.0)
    shifted = 2 * np.append(x[1:], 9.0)
    assert "shifted by one" in said([Call("scale", (x, 2.0), {}, shifted)], reference)


def test_the_exception_contract(reference: types.ModuleType) -> None:
    zero = np.zeros(3)
    assertion = Call("normalise", (zero,), {}, None, raised="AssertionError", error="norm > 0")
    text = said([assertion], reference)
    assert "raised AssertionError" in text and "ValueError is required" in text
    assert "the zero vector has no direction" in text  # the reference's own words
    accepted = Call("normalise", (zero,), {}, np.full(3, np.nan))
    assert "must refuse" in said([accepted], reference)
    refused = Call("scale", (X, np.int64(2)), {}, None, raised="TypeError", error="bad c")
    assert "NumPy integer" in said([refused], reference)


def test_numpy_on_sympy_and_floats_in_an_exact_answer(reference: types.ModuleType) -> None:
    a, b = sp.symbols("a b")
    numpy_call = Call(
        "square_sum", (a, b), {}, None, raised="TypeError",
        error="loop of ufunc does not support argument 0 of type Symbol",
    )  # fmt: skip
    assert "SymPy's own functions" in said([numpy_call], reference)
    rounded = a**2 + 2.0 * a * b + b**2
    text = said([Call("square_sum", (a, b), {}, rounded)], reference)
    assert "floating-point number 2.0" in text and "exact" in text


def test_a_batch_refused_and_a_whole_table_broadcast() -> None:
    module = _module(
        "def mix(X, table):\n"
        "    return X + table[: X.shape[-2]]\n"
    )  # fmt: skip
    batch, table = np.ones((2, 3, 4)), np.ones((5, 4))
    error = "matmul: a mismatch in its core dimension 0 (size 3 is different from 4)"
    refused = Call("mix", (batch, table), {}, None, raised="ValueError", error=error)
    assert "batched input" in said([refused], module)
    rows = np.ones((3, 4))
    broadcast = "operands could not be broadcast together with shapes (3,4) (5,4) "
    whole = Call("mix", (rows, table), {}, None, raised="ValueError", error=broadcast)
    assert "table[:3]" in said([whole], module)


def test_an_argument_ignored_negated_or_transposed() -> None:
    module = _module(
        "def weigh(S, mask, W, base=10.0):\n"
        "    return np.where(mask, S @ W, 0.0) / base\n"
    )  # fmt: skip
    S, W = np.arange(9.0).reshape(3, 3), np.array([[1.0, 2, 0], [0, 1, 3], [4, 0, 1]])
    mask = np.tril(np.ones((3, 3), dtype=bool))
    ignored = Call("weigh", (S, mask, W), {"base": 2.0}, np.where(mask, S @ W, 0) / 10)
    assert "ignores its argument base" in said([ignored], module)
    negated = Call("weigh", (S, mask, W), {}, np.where(~mask, S @ W, 0) / 10)
    assert "reads mask the other way round" in said([negated], module)
    transposed = Call("weigh", (S, mask, W), {}, np.where(mask, S @ W.T, 0) / 10)
    assert "uses W transposed" in said([transposed], module)


def test_a_normaliser_without_keepdims_and_one_slice_kept() -> None:
    module = _module(
        "def rows(S):\n"
        "    e = np.exp(S)\n"
        "    return e / e.sum(axis=-1, keepdims=True)\n"
        "def total(g):\n"
        "    return g.sum(axis=0)\n"
    )  # fmt: skip
    S = np.array([[0.0, 1.0, 2.0], [1.0, 3.0, 0.5], [2.0, 0.0, 1.0]])
    e = np.exp(S)
    text = said([Call("rows", (S,), {}, e / e.sum(axis=-1))], module)
    assert "keepdims=True" in text
    g = np.arange(24.0).reshape(2, 3, 4)
    assert "keeps only the last entry" in said([Call("total", (g,), {}, g[-1])], module)


def test_blame_goes_to_the_deepest_wrong_function(reference: types.ModuleType) -> None:
    u, v = np.array([1.0, 0.0]), np.array([1.0, 1.0])
    calls = [
        Call("normalise", (v,), {}, v / 2),  # wrong on its own call
        Call("cosine", (u, v), {}, 0.5),  # wrong because it calls normalise
        Call("scale", (u, 2.0), {}, 2 * u),  # right
    ]
    wrong = wrong_functions(calls, reference)
    assert wrong == {"normalise", "cosine"}
    assert deepest_cause(["cosine"], wrong, reference) == ("cosine", "normalise")
    assert deepest_cause(["normalise"], wrong, reference) is None
    assert deepest_cause(["scale"], wrong, reference) is None


def test_a_model_meeting_odd_values_stays_silent(reference: types.ModuleType) -> None:
    odd = [
        Call("scale", (X, 2.0), {}, "not an array"),
        Call("scale", (X, 2.0), {}, np.array([object()] * 9).reshape(3, 3)),
        Call("scale", (X, 2.0), {}, np.full((3, 3), np.inf)),
        Call("normalise", (V,), {}, None, raised="RuntimeError", error="x" * 5000),
        Call("no_such_function", (), {}, 1),
    ]
    text = said(odd, reference)
    assert "dtype object" in text  # a fact of that value, whatever the other calls gave
    assert len(text) < 2000


def test_a_measure_that_fits_one_call_and_not_the_next_says_nothing(
    reference: types.ModuleType,
) -> None:
    """A mask whose last row allows nothing reads, on T = 3, as wrong in its last row only;
    on T = 4 with its first row wrong as well it is another account: the sentence stands only
    when every wrong value of the function is said the same way. A single entry (T = 1) fits
    any account, and contradicts none."""
    module = _module("def allowed(T):\n    return np.tril(np.ones((T, T), dtype=bool))\n")

    def last_row_off(T: int, first_too: bool = False) -> np.ndarray:
        mask = np.tril(np.ones((T, T), dtype=bool))
        mask[-1] = False
        if first_too:
            mask[0, 0] = False
        return mask

    first = Call("allowed", (3,), {}, last_row_off(3))
    both = Call("allowed", (4,), {}, last_row_off(4, first_too=True))
    single = Call("allowed", (1,), {}, last_row_off(1))
    said = "allowed: only your last row differs from the expected; the others are right"
    assert observe_generic([first], module) == [said]
    assert observe_generic([first], module, evidence=[first, both]) == []
    assert observe_generic([first], module, evidence=[first, single]) == [said]
    inverted = [Call("allowed", (T,), {}, ~np.tril(np.ones((T, T), dtype=bool))) for T in (4, 1)]
    assert observe_generic(inverted, module) == [
        "allowed: every True of yours is a False of the expected and every False a True"
    ]


def _module(source: str) -> types.ModuleType:
    module = types.ModuleType("instructor_generic_case")
    module.np = np  # type: ignore[attr-defined]
    exec(compile(source, "<case>", "exec"), vars(module))  # trusted: the test's own code
    return module


def test_a_hidden_tests_sentence_describes_no_argument_and_quotes_no_student_name(
    reference: types.ModuleType,
) -> None:
    """A student's own exception class may spell anything (a hidden input, in letters): it is
    never quoted; for a hidden test no argument is described and the reference's message, which
    may hold one, is not quoted."""
    zero = np.zeros(3)
    spelled = Call("normalise", (zero,), {}, None, raised="Tisminusthree", error="secret")
    for hidden in (False, True):
        text = " | ".join(observe_generic([spelled], reference, hidden=hidden))
        assert "Tisminusthree" not in text and "secret" not in text
        assert "an exception class of your own" in text
    hidden_text = " | ".join(observe_generic([spelled], reference, hidden=True))
    assert "the reference says" not in hidden_text
    module = _module(
        "def count(n):\n"
        "    if isinstance(n, bool) or n < 0:\n"
        "        raise ValueError(f'n must be a count >= 0, got {n!r}')\n"
        "    return np.zeros(n)\n"
    )  # fmt: skip
    accepted = Call("count", (True,), {}, np.zeros(1))
    assert "the bool True" in said([accepted], module)
    quiet = " | ".join(observe_generic([accepted], module, hidden=True))
    assert "must refuse" in quiet and "True" not in quiet and "bool" not in quiet


def test_models_that_would_fit_anything_stay_silent() -> None:
    """One number fits any factor; a factor along the rows alone is a missing division, not a
    normaliser broadcast along the wrong axis."""
    module = _module(
        "def mean(x):\n"
        "    return np.array([np.mean(x)])\n"
        "def rows(S):\n"
        "    e = np.exp(S)\n"
        "    return e / e.sum(axis=-1, keepdims=True)\n"
    )  # fmt: skip
    x = np.array([1.0, 2.0, 4.0])
    assert said([Call("mean", (x,), {}, np.array([-3.5]))], module) == ""
    S = np.array([[0.0, 1.0, 2.0], [1.0, 3.0, 0.5], [2.0, 0.0, 1.0]])
    assert "keepdims" not in said([Call("rows", (S,), {}, np.exp(S))], module)


def test_what_a_value_is_stands_whatever_the_other_calls_gave() -> None:
    """A float16 result is float16 on every call, however far its numbers drift elsewhere:
    the precision is said even where another call's values fit no measure."""
    module = _module("def twice(x):\n    return 2.0 * np.asarray(x, dtype=np.float64)\n")
    small, large = np.array([0.1, 0.2, 0.3]), np.array([1000.1, 2000.2, 3000.3])
    half = [
        Call("twice", (small,), {}, (2.0 * small).astype(np.float16)),
        Call("twice", (large,), {}, (2.5 * large).astype(np.float16)),
    ]
    (sentence,) = observe_generic(half, module)
    assert sentence.startswith("twice: computed in float16, whose precision")


def test_one_number_everywhere_and_a_rounding_error_are_said_as_symptoms() -> None:
    """A result holding 1 in every entry is said so; one off by float32's rounding alone is
    said to be that size, with the question it raises (a lower precision on the way)."""
    module = _module("def angles(x):\n    return np.cos(np.asarray(x, dtype=np.float64) * 1e3)\n")
    x = np.array([0.1, 0.2, 0.3, 0.4])
    constant = observe_generic([Call("angles", (x,), {}, np.ones(4))], module)
    assert constant == ["angles: every entry of yours is 1, where the expected entries vary"]
    coarse = np.cos(x.astype(np.float32) * np.float32(1e3)).astype(np.float64)
    (rounded,) = observe_generic([Call("angles", (x,), {}, coarse)], module, rtol=1e-10, atol=1e-12)
    assert "the size of a rounding error in float32" in rounded


def test_entries_barely_past_the_tolerance_are_placed_nowhere() -> None:
    """A difference of 1e-5 on a scale of 1 crosses the tolerance where the inputs make it
    largest: no region is said of it; the same region off by 0.5 is."""
    module = _module("def table(n):\n    return np.arange(16.0).reshape(4, 4) / 16.0\n")
    expected = np.arange(16.0).reshape(4, 4) / 16.0
    slight, clear = expected.copy(), expected.copy()
    slight[np.diag_indices(4)] += 1e-5
    clear[np.diag_indices(4)] += 0.5
    assert observe_generic([Call("table", (4,), {}, slight)], module) == []
    assert observe_generic([Call("table", (4,), {}, clear)], module) == [
        "table: your entries differ from the expected only on the diagonal; the others are right"
    ]
