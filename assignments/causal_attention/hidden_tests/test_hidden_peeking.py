"""Hidden tests for the no-peeking property: random sequences, batches, weights, SymPy."""

import numpy as np
import pytest
import sympy as sp

from autograder.checks import CheckFailure, assert_close, numeric_values

pytestmark = pytest.mark.part("peeking")


@pytest.mark.points(4)
def test_the_future_never_reaches_the_past(student, reference, tolerance, rng):
    """for random t, changing the tokens after t leaves the rows up to t, with weights, batches"""
    X = rng.normal(size=(3, 7, 4))
    W_q, W_k, W_v = (rng.normal(size=(4, 4)) for _ in range(3))
    t = int(rng.integers(0, 6))
    changed = X.copy()
    changed[:, t + 1 :] = rng.normal(size=changed[:, t + 1 :].shape) * 3
    before = student.causal_self_attention(X.copy(), W_q.copy(), W_k.copy(), W_v.copy())
    after = student.causal_self_attention(changed, W_q.copy(), W_k.copy(), W_v.copy())
    assert_close(
        before,
        reference.causal_self_attention(X, W_q, W_k, W_v),
        what="causal_self_attention(X, W…)",
        **tolerance,
    )
    assert_close(
        after[:, : t + 1],
        before[:, : t + 1],
        what=f"rows 0 … {t} after changing the tokens after {t}",
        **tolerance,
    )


@pytest.mark.points(3)
def test_prefixes_agree(student, reference, tolerance, rng):
    """the output on a prefix of X is the same prefix of the output on X"""
    X = rng.normal(size=(8, 3))
    whole = student.causal_self_attention(X.copy())
    assert_close(
        whole, reference.causal_self_attention(X), what="causal_self_attention(X)", **tolerance
    )
    for t in (0, 3, 6):
        assert_close(
            student.causal_self_attention(X[: t + 1].copy()),
            whole[: t + 1],
            what=f"the output on X[:{t + 1}]",
            **tolerance,
        )


@pytest.mark.points(3)
def test_symbolic_derivatives_of_the_past_vanish(student, rng):
    """for a symbolic X, row t is the formula and no later token's symbol appears in it"""
    X = sp.Matrix(4, 2, sp.symbols("y0:4_0:2", real=True))
    out = student.causal_attention_symbolic(X)
    if not isinstance(out, sp.MatrixBase) or out.shape != (4, 2):
        raise CheckFailure("causal_attention_symbolic(X) should be a 4×2 sympy.Matrix")
    for t in range(4):
        later = {symbol for s in range(t + 1, 4) for symbol in X.row(s)}
        leaked = sorted(map(str, later & set().union(*(out[t, j].free_symbols for j in range(2)))))
        if leaked:
            raise CheckFailure(
                f"row {t} still depends on {', '.join(leaked)}, tokens after position {t}: its "
                "derivative with respect to them is not 0"
            )
    point = rng.normal(size=(4, 2))
    at_point = dict(zip(X, point.ravel(), strict=True))
    values = numeric_values(out, at_point, what="causal_attention_symbolic(X)")
    expected = np.zeros((4, 2))
    for t in range(4):
        scores = point[: t + 1] @ point[t] / np.sqrt(2)
        weights = np.exp(scores - scores.max())
        expected[t] = weights / weights.sum() @ point[: t + 1]
    assert_close(values, expected, what="causal_attention_symbolic(X) at a random point")
