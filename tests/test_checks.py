"""The assertion helpers tests use: their messages say what, where, expected, observed, and why."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from autograder.checks import (
    CheckFailure,
    assert_close,
    assert_equivalent,
    assert_free_of,
    assert_raises,
    assert_shape,
    assert_unchanged,
    format_value,
    format_values,
)


def message(call: object, *args: object, **kwargs: object) -> str:
    with pytest.raises(CheckFailure) as failure:
        call(*args, **kwargs)  # type: ignore[operator]
    return str(failure.value)


def test_format_values_reads_like_a_person_wrote_it() -> None:
    assert format_values([0.0, 1.0, 0.0, 1.0, 0.0]) == "[0, 1, 0, 1, …]"
    assert format_values(np.array([0.84147, -0.41614])) == "[0.8415, -0.4161]"
    assert (
        format_value(np.nan) == "nan"
        and format_value(10000.0) == "10000"
        and format_value(3) == "3"
    )


EDGES = [0.0, -0.0, 1e-300, -1e-300, 1e308, -1e308, 1.0, 1.0 + 1e-9, 1.0 + 1e-4, np.nan,
         np.inf, -np.inf, 5e-324, 2.0**-1022]  # fmt: skip


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.float16])
def test_assert_close_passes_exactly_where_numpy_says_close_and_finite(dtype: type) -> None:
    """Its quick path for finite floats gives NumPy's answer: every pair of edge values, and
    random arrays near each other, pass iff np.isclose holds everywhere and all are finite."""
    generator = np.random.default_rng(7)
    pairs = [(np.array([a]), np.array([b])) for a in EDGES for b in EDGES]
    for _ in range(200):
        b = generator.normal(size=5) * 10.0 ** generator.integers(-8, 8)
        a = b + generator.normal(size=5) * 10.0 ** generator.integers(-12, 0)
        pairs.append((a, b))
    for a, b in pairs:
        with np.errstate(all="ignore"):
            actual = a.astype(dtype)
        with np.errstate(all="ignore"):
            expected_pass = bool(
                (np.isclose(actual, b, rtol=1e-5, atol=1e-8) & np.isfinite(actual)).all()
            )
        try:
            assert_close(actual, b, what="f", rtol=1e-5, atol=1e-8)
            passed = True
        except CheckFailure:
            passed = False
        assert passed == expected_pass, (actual, b)


def test_close_arrays_pass_and_float32_is_enough() -> None:
    expected = np.sin(np.arange(12.0).reshape(3, 4))
    assert_close(expected.astype(np.float32), expected, what="f(3, 4)")


def test_first_differing_entry_with_count() -> None:
    expected = np.zeros((3, 4))
    actual = expected.copy()
    actual[1, 2], actual[2, 0] = 0.5, 0.25
    assert message(assert_close, actual, expected, what="f(3, 4)") == (
        "f(3, 4), entry [1, 2] should be 0; yours is 0.5 (1 more of its 12 entries differ)"
    )


def test_vectors_are_described_whole() -> None:
    assert message(
        assert_close, np.array([1.0, 0.0, 1.0, 0.0, 1.0, 0.0]), [0, 1] * 3, what="row 0"
    ) == ("row 0 should be [0, 1, 0, 1, …]; yours starts [1, 0, 1, 0, …]")
    assert message(assert_close, np.array([0.0, 1, 0, 1, 0, 2]), [0, 1] * 3, what="row 0") == (
        "row 0 should be [0, 1, 0, 1, …]; yours starts [0, 1, 0, 1, …] and entry 5 is 2 where 1 "
        "was expected"
    )


def test_shape_and_type_failures() -> None:
    assert message(assert_shape, np.zeros((16, 8)), (8, 16), what="f(8, 16)") == (
        "f(8, 16) should have shape (8, 16); yours has shape (16, 8) (rows and columns swapped: "
        "is it transposed?)"
    )
    assert message(assert_close, [[1.0]], [[1.0]], what="f()") == (
        "f() should return a NumPy array; yours returned a list (wrap the result in np.array(...))"
    )
    assert message(assert_close, np.array(["a"]), [1.0], what="f()") == (
        "f() should hold numbers; yours holds dtype <U1"
    )


def test_nan_is_pointed_out() -> None:
    text = message(assert_close, np.array([np.nan, 0.0]), [1.0, 0.0], what="normalise(s)")
    assert text.endswith("(your result contains nan)")


def test_nan_and_infinity_never_match_not_even_themselves() -> None:
    """Where both sides come from the submission (equivariance, consistency across T), a NaN
    output must not "agree" with itself and earn the points."""
    nan = np.full((2, 3), np.nan)
    with pytest.raises(CheckFailure, match="contains nan"):
        assert_close(nan, nan, what="scale(P @ X)")
    infinite = np.full(3, np.inf)
    with pytest.raises(CheckFailure):
        assert_close(infinite, infinite, what="normalise(S)")


def test_first_recognising_hint_is_appended_and_broken_hints_are_skipped() -> None:
    def broken(_: np.ndarray) -> str | None:
        raise IndexError("a hint written for another shape")

    def silent(_: np.ndarray) -> str | None:
        return None

    def swapped(array: np.ndarray) -> str | None:
        return "are sin and cos swapped?" if array[0] == 1 else None

    text = message(
        assert_close,
        np.array([1.0, 0.0]),
        [0.0, 1.0],
        what="row 0",
        hints=(broken, silent, swapped),
    )
    assert text == "row 0 should be [0, 1]; yours is [1, 0]: are sin and cos swapped?"


def test_assert_raises() -> None:
    def accepts_anything(x: object) -> np.ndarray:
        return np.zeros((0, 2))

    def complains_vaguely(x: object) -> None:
        raise ValueError("bad input")

    def not_written(x: object) -> None:
        raise NotImplementedError

    assert message(assert_raises, ValueError, accepts_anything, -1, what="f(-1)") == (
        "f(-1) should raise ValueError; it returned an array of shape (0, 2)"
    )
    assert "the message should name 'T'" in message(
        assert_raises, ValueError, complains_vaguely, -1, what="f(-1)", mentions="T"
    )
    with pytest.raises(NotImplementedError):  # a stub must still read as "not implemented yet"
        assert_raises(ValueError, not_written, -1, what="f(-1)")


def test_assert_unchanged() -> None:
    before = np.ones(3)
    assert_unchanged(before, before.copy(), what="f(X)")
    assert "modified the array it was given" in message(
        assert_unchanged, before, np.zeros(3), what="f(X)"
    )


def test_symbolic_counterexample_and_leftover_symbol() -> None:
    pos, w, k = sp.symbols("pos w k")
    assert_equivalent(
        sp.cos(w * pos) ** 2 + sp.sin(w * pos) ** 2, sp.Integer(1), what="e", symbols=(pos, w)
    )
    text = message(
        assert_equivalent,
        sp.cos(w * pos),
        sp.sin(w * pos),
        what="pe_pair(pos, w)[0]",
        symbols=(pos, w),
    )
    assert text.startswith("pe_pair(pos, w)[0] should equal sin(pos*w); at pos=")
    assert "yours is" in text and "but it should be" in text
    assert "should return a SymPy expression; yours returned a float" in message(
        assert_equivalent, 0.5, sp.cos(w * k), what="square_sum", symbols=(pos, w, k)
    )
    assert "uses symbols it was not given: x" in message(
        assert_equivalent, sp.Symbol("x"), sp.cos(w * k), what="r", symbols=(w, k)
    )
    leftover = sp.sin(w * pos) * sp.sin(w * (pos + k)) + sp.cos(w * pos) * sp.cos(w * (pos + k))
    assert message(assert_free_of, leftover, pos, what="square_sum").endswith("pos cancels")
    advised = message(assert_free_of, leftover, pos, what="square_sum", hint="use cos(A − B)")
    assert "still contains pos" in advised and advised.endswith("cancels (use cos(A − B))")
