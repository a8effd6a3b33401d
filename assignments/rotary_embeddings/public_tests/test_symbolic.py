"""Public tests for one pair in SymPy, and the proof: every step's verdict is shown.

The statement, its symbols and the laws a step may cite are in `proof_domain.py` (next to your
module), which the `proof_domain` fixture loads."""

import pytest
import sympy as sp

from autograder.checks import (
    CheckFailure,
    assert_equivalent,
    assert_free_of,
    short_repr,
)
from autograder.checks.proof import assert_proof

pytestmark = pytest.mark.part("symbolic")

ANGLE_DIFFERENCE = (
    "the angle-difference law cos(A − B) = cos A cos B + sin A sin B (and its sine) does it"
)

x0, x1, a = sp.symbols("x0 x1 a", real=True)
q0, q1, k0, k1, m, r, theta = sp.symbols("q0 q1 k0 k1 m r theta", real=True)


@pytest.mark.points(3)
def test_rotate_pair_symbolic(student):
    """rotate_pair_symbolic(x0, x1, a) is [x0 cos a − x1 sin a, x0 sin a + x1 cos a]"""
    pair = student.rotate_pair_symbolic(x0, x1, a)
    if not isinstance(pair, sp.MatrixBase) or pair.shape != (2, 1):
        raise CheckFailure(
            f"rotate_pair_symbolic(x0, x1, a) should be a 2×1 sympy.Matrix; yours is "
            f"{short_repr(pair)}"
        )
    expected = (x0 * sp.cos(a) - x1 * sp.sin(a), x0 * sp.sin(a) + x1 * sp.cos(a))
    for row in range(2):
        assert_equivalent(
            pair[row], expected[row], what=f"rotate_pair_symbolic(x0, x1, a)[{row}]",
            symbols=(x0, x1, a),
        )  # fmt: skip


@pytest.mark.points(4)
def test_pair_score_depends_on_n_minus_m_only(student):
    """pair_score_symbolic(q0, q1, k0, k1, m, m + r, θ) is q·(R_r k) and holds no m"""
    score = student.pair_score_symbolic(q0, q1, k0, k1, m, m + r, theta)
    expected = q0 * (k0 * sp.cos(r * theta) - k1 * sp.sin(r * theta)) + q1 * (
        k0 * sp.sin(r * theta) + k1 * sp.cos(r * theta)
    )
    what = "pair_score_symbolic(q0, q1, k0, k1, m, m + r, θ)"
    assert_equivalent(score, expected, what=what, symbols=(q0, q1, k0, k1, m, r, theta))
    assert_free_of(score, m, what=what, hint=ANGLE_DIFFERENCE)


@pytest.mark.points(6)
def test_relative_score_proof(student, proof_domain):
    """RELATIVE_SCORE_PROOF: (R_m q)·(R_{m+r} k) = q·(R_r k) for one pair, one law per step"""
    assert_proof(
        student.RELATIVE_SCORE_PROOF, proof_domain.RELATIVE_SCORE, what="RELATIVE_SCORE_PROOF"
    )
