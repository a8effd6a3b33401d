"""Hidden tests for the SymPy pair at other symbols and numbers."""

import numpy as np
import pytest
import sympy as sp

from autograder.checks import CheckFailure, assert_close, assert_equivalent, numeric_values

pytestmark = pytest.mark.part("symbolic")

u, v, phi = sp.symbols("u v phi", real=True)


@pytest.mark.points(3)
def test_rotate_pair_at_numbers(student, rng):
    """rotate_pair_symbolic at a random exact angle is the rotation of the pair"""
    angle = sp.Rational(int(rng.integers(1, 50)), 7)
    pair = student.rotate_pair_symbolic(sp.Integer(2), sp.Integer(-3), angle)
    values = numeric_values(pair, {}, what="rotate_pair_symbolic(2, -3, angle)")
    a = float(angle)
    expected = [[2 * np.cos(a) + 3 * np.sin(a)], [2 * np.sin(a) - 3 * np.cos(a)]]
    assert_close(np.real(values).reshape(2, 1), expected, what="rotate_pair_symbolic(2, -3, angle)")


@pytest.mark.points(4)
def test_pair_score_other_symbols(student):
    """pair_score_symbolic with q = (u, v) and k the first unit vector, at positions m and n"""
    m, n = sp.symbols("m n", real=True)
    score = student.pair_score_symbolic(u, v, sp.Integer(1), sp.Integer(0), m, n, phi)
    if not isinstance(score, sp.Basic):
        raise CheckFailure("pair_score_symbolic should return a SymPy expression")
    expected = u * sp.cos((n - m) * phi) + v * sp.sin((n - m) * phi)
    assert_equivalent(
        score, expected, what="pair_score_symbolic(u, v, 1, 0, m, n, φ)", symbols=(u, v, m, n, phi)
    )
