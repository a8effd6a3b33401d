"""Public tests for part "order": with the mask, reordering the tokens changes their vectors."""

import numpy as np
import pytest
from shared.attention_by_hand import attention_by_hand

from autograder.checks import CheckFailure, assert_close, assert_shape, printed

pytestmark = pytest.mark.part("order")


@pytest.mark.points(5)
def test_ravi_in_both_orders(student):
    """Ravi is [2, 0] in "Ravi saw Meera" but [1.888, 0.112] in "Meera saw Ravi" """
    both = assert_shape(student.ravi_in_both_orders(), (2, 2), what="ravi_in_both_orders()")
    assert_close(both, [[2.0, 0.0], [1.888, 0.112]], what="ravi_in_both_orders()", **printed(3))
    ravi, meera = [2.0, 0.0], [0.0, 2.0]  # the same numbers, from your own attention, in full
    yours = [
        student.causal_self_attention(np.array([ravi, meera]))[0],
        student.causal_self_attention(np.array([meera, ravi]))[1],
    ]
    assert_close(
        both,
        np.array(yours),
        what="ravi_in_both_orders() against your own causal_self_attention on the same tokens "
        "(typed-in numbers are not computed ones)",
    )


@pytest.mark.points(5)
def test_the_counterexample_breaks_equivariance(student):
    """EQUIVARIANCE_COUNTEREXAMPLE (X, perm): causal attention of P X is not P · (that of X)"""
    value = student.EQUIVARIANCE_COUNTEREXAMPLE
    try:
        rows, perm = value
        X = np.asarray(rows, dtype=float)
        order = [int(p) for p in perm]
    except (TypeError, ValueError):
        raise CheckFailure(
            "EQUIVARIANCE_COUNTEREXAMPLE should be (X as a list of rows, perm as a list of indices)"
        ) from None
    if X.ndim != 2 or X.shape[0] < 2 or sorted(order) != list(range(X.shape[0])):
        raise CheckFailure(
            f"perm must reorder all {X.shape[0] if X.ndim == 2 else '?'} rows of X (an ordering "
            "of 0 … T−1), and X must hold at least two tokens"
        )
    if np.allclose(
        attention_by_hand(X[order], causal=True),
        attention_by_hand(X, causal=True)[order],
        atol=1e-6,
    ):
        raise CheckFailure(
            "with your X and perm, causal attention of P X equals P · causal attention of X: "
            "that is no counterexample (try tokens that attend to each other differently)"
        )
