"""Hidden tests for the SymPy functions: other symbols, expressions as arguments, the laws of M."""

import numpy as np
import pytest
import sympy as sp

from autograder.checks import (
    CheckFailure,
    assert_close,
    assert_equivalent,
    assert_free_of,
    numeric_values,
)

pytestmark = pytest.mark.part("symbolic")

ANGLE_DIFFERENCE = "the angle-difference identity cos(A − B) = cos A cos B + sin A sin B does it"

a, b, c = sp.symbols("a b c", real=True)


def matrix(value, what):
    if not isinstance(value, sp.MatrixBase) or value.shape != (2, 2):
        raise CheckFailure(
            f"{what} should return a 2×2 sympy.Matrix; yours returned {type(value).__name__}"
        )
    return value


@pytest.mark.points(1)
def test_pe_pair_with_expressions(student):
    """pe_pair of expressions substitutes them: sin(freq·pos), cos(freq·pos)"""
    pair = student.pe_pair(a + 1, 2 * b)
    if not isinstance(pair, (tuple, list, sp.Tuple)) or len(pair) != 2:
        raise CheckFailure(f"pe_pair should return a pair; yours returned {type(pair).__name__}")
    angle = 2 * b * (a + 1)
    assert_equivalent(pair[0], sp.sin(angle), what="pe_pair(a + 1, 2b)[0]", symbols=(a, b))
    assert_equivalent(pair[1], sp.cos(angle), what="pe_pair(a + 1, 2b)[1]", symbols=(a, b))


@pytest.mark.points(1)
def test_rotation_laws(student, tolerance, rng):
    """M(k)·pe_pair(pos) = pe_pair(pos + k), MᵀM = I, det M is one, M at no shift is I"""
    M = matrix(student.rotation_matrix_symbolic(b, c), "rotation_matrix_symbolic(b, c)")
    for _ in range(5):
        pos, k, w = (float(v) for v in rng.uniform(-3, 3, size=3))
        R = numeric_values(M, {b: k, c: w}, what="rotation_matrix_symbolic(k, w)")
        here = [np.sin(w * pos), np.cos(w * pos)]
        there = [np.sin(w * (pos + k)), np.cos(w * (pos + k))]
        at = f"at k={k:.3g}, w={w:.3g}"
        assert_close(R @ here, there, what=f"M·pe_pair(pos) for pos={pos:.3g} {at}", **tolerance)
        assert_close(R.T @ R, np.eye(2), what=f"MᵀM {at}", **tolerance)
        assert_close(np.array(np.linalg.det(R)), 1.0, what=f"det M {at}", **tolerance)
    zero = numeric_values(M, {b: 0.0, c: 1.3}, what="rotation_matrix_symbolic(0, w)")
    assert_close(zero, np.eye(2), what="rotation_matrix_symbolic(0, w)", **tolerance)


@pytest.mark.points(1)
def test_relative_dot_other_symbols(student):
    """relative_dot(a, b, c) = cos(c·b) with no a left"""
    result = student.relative_dot(a, b, c)
    assert_equivalent(result, sp.cos(b * c), what="relative_dot(a, b, c)", symbols=(a, b, c))
    assert_free_of(result, a, what="relative_dot(a, b, c)", hint=ANGLE_DIFFERENCE)


@pytest.mark.points(1)
def test_symbolic_matches_numeric_rotation(student, reference, tolerance, rng):
    """rotation_matrix_symbolic at random rational k, w equals rotation_matrix"""
    for _ in range(3):
        k, w = sp.Rational(int(rng.integers(-20, 20)), 4), sp.Rational(int(rng.integers(1, 40)), 8)
        M = matrix(student.rotation_matrix_symbolic(k, w), f"rotation_matrix_symbolic({k}, {w})")
        values = numeric_values(M, {}, what=f"rotation_matrix_symbolic({k}, {w})")
        assert_close(
            values,
            reference.rotation_matrix(float(k), float(w)),
            what=f"rotation_matrix_symbolic({k}, {w})",
            **tolerance,
        )


@pytest.mark.points(2)
def test_relative_property_from_your_own_pe_pair(student):
    """pe_pair(pos, w) · pe_pair(pos + k, w), formed from your pe_pair, is cos(w·k): pos cancels"""
    pos, k, w = sp.symbols("pos k w", real=True)
    here, there = student.pe_pair(pos, w), student.pe_pair(pos + k, w)
    for value, name in ((here, "pe_pair(pos, w)"), (there, "pe_pair(pos + k, w)")):
        if not isinstance(value, (tuple, list, sp.Tuple)) or len(value) != 2:
            raise CheckFailure(
                f"{name} should return a pair; yours returned {type(value).__name__}"
            )
    assert_equivalent(here[0], sp.sin(w * pos), what="pe_pair(pos, w)[0]", symbols=(pos, w))
    assert_equivalent(here[1], sp.cos(w * pos), what="pe_pair(pos, w)[1]", symbols=(pos, w))
    dot = here[0] * there[0] + here[1] * there[1]
    assert_equivalent(
        dot, sp.cos(w * k), what="pe_pair(pos, w) · pe_pair(pos + k, w)", symbols=(pos, k, w)
    )
