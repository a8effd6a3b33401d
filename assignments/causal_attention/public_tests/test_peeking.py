"""Public tests for the no-peeking property: later tokens never change earlier outputs."""

import numpy as np
import pytest
import sympy as sp
from shared.attention_by_hand import attention_by_hand

from autograder.checks import CheckFailure, assert_close, numeric_values, short_repr

pytestmark = pytest.mark.part("peeking")


@pytest.mark.points(3)
def test_changing_the_future_leaves_the_past(student):
    """changing tokens 3 … 5 of a (6, 4) sequence leaves output rows 0 … 2 exactly as they were,
    and they are causal attention (returning X would also leave them)"""
    rng = np.random.default_rng(6)
    X = rng.normal(size=(6, 4))
    changed = X.copy()
    changed[3:] = rng.normal(size=(3, 4)) * 5
    before, after = student.causal_self_attention(X.copy()), student.causal_self_attention(changed)
    assert_close(after[:3], before[:3], what="rows 0 … 2 after changing tokens 3 … 5")
    expected = attention_by_hand(X, causal=True)
    assert_close(before[:3], expected[:3], what="rows 0 … 2 of causal_self_attention(X)")
    if np.allclose(after[3:], before[3:]):
        raise CheckFailure("rows 3 … 5 did not change although their own tokens did")


@pytest.mark.points(2)
def test_the_first_row_is_the_first_value(student):
    """row 0 of the output is V[0]: the first token can only attend to itself; row 1, which
    attends to tokens 0 and 1, is their weighted mean (not V[1] alone)"""
    X = np.random.default_rng(1).normal(size=(5, 3))
    out = student.causal_self_attention(X.copy())
    assert_close(out[0], X[0], what="row 0 of the output")
    assert_close(out[1], attention_by_hand(X[:2])[1], what="row 1 of the output")


@pytest.mark.points(3)
def test_row_t_is_full_attention_on_the_prefix(student):
    """row t equals unmasked attention on X[:t + 1], at its last row, for t = 0 … 4"""
    X = np.random.default_rng(9).normal(size=(5, 3))
    out = student.causal_self_attention(X.copy())
    for t in range(5):
        prefix = X[: t + 1]
        scores = prefix @ prefix.T / np.sqrt(3)
        weights = np.exp(scores - scores.max(axis=1, keepdims=True))
        full = weights / weights.sum(axis=1, keepdims=True) @ prefix
        assert_close(out[t], full[-1], what=f"row {t} against attention on X[:{t + 1}]")


@pytest.mark.points(2)
def test_symbolic_rows_hold_no_later_token(student):
    """for a symbolic (3, 2) X, row t is the formula and holds no symbol of a token after t"""
    X = sp.Matrix(3, 2, sp.symbols("x0:3_0:2", real=True))
    out = student.causal_attention_symbolic(X)
    if not isinstance(out, sp.MatrixBase) or out.shape != (3, 2):
        raise CheckFailure(
            f"causal_attention_symbolic(X) should be a 3×2 sympy.Matrix; yours is {short_repr(out)}"
        )
    for t in range(3):
        later = {symbol for s in range(t + 1, 3) for symbol in X.row(s)}
        for entry in range(2):
            leaked = sorted(map(str, later & out[t, entry].free_symbols))
            if leaked:
                raise CheckFailure(
                    f"row {t} of causal_attention_symbolic(X) still contains {', '.join(leaked)}: "
                    f"those tokens come after position {t}, so the mask must remove them, and "
                    f"the derivative of row {t} with respect to them must be 0"
                )
    point = np.random.default_rng(3).normal(size=(3, 2))
    at_point = dict(zip(X, point.ravel(), strict=True))
    values = numeric_values(out, at_point, what="causal_attention_symbolic(X)")
    assert_close(
        values,
        attention_by_hand(point, causal=True),
        what="causal_attention_symbolic(X) at a point",
    )
