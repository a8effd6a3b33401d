"""Public tests for the SymPy functions: the pair, the rotation, and the cos(w·k) result."""

import numpy as np
import pytest
import sympy as sp

from autograder.checks import (
    CheckFailure,
    assert_close,
    assert_equivalent,
    assert_free_of,
    numeric_values,
    short_repr,
)

pytestmark = pytest.mark.part("symbolic")

ANGLE_DIFFERENCE = "the angle-difference identity cos(A − B) = cos A cos B + sin A sin B does it"

pos, k, w = sp.symbols("pos k w", real=True)


@pytest.mark.points(1)
def test_pe_pair(student):
    """pe_pair(pos, w) is (sin(w·pos), cos(w·pos))"""
    pair = student.pe_pair(pos, w)
    if not isinstance(pair, (tuple, list, sp.Tuple)) or len(pair) != 2:
        raise CheckFailure(
            f"pe_pair(pos, w) should return a pair (sin, cos); yours returned {short_repr(pair)}"
        )
    assert_equivalent(pair[0], sp.sin(w * pos), what="pe_pair(pos, w)[0]", symbols=(pos, w))
    assert_equivalent(pair[1], sp.cos(w * pos), what="pe_pair(pos, w)[1]", symbols=(pos, w))


@pytest.mark.points(1)
def test_rotation_matrix_symbolic(student):
    """rotation_matrix_symbolic(k, w) is [[cos kw, sin kw], [-sin kw, cos kw]]"""
    M = student.rotation_matrix_symbolic(k, w)
    if not isinstance(M, sp.MatrixBase) or M.shape != (2, 2):
        raise CheckFailure(
            "rotation_matrix_symbolic(k, w) should return a 2×2 sympy.Matrix; "
            f"yours is {short_repr(M)}"
        )
    expected = sp.Matrix([[sp.cos(k * w), sp.sin(k * w)], [-sp.sin(k * w), sp.cos(k * w)]])
    for row in range(2):
        for col in range(2):
            assert_equivalent(
                M[row, col],
                expected[row, col],
                what=f"rotation_matrix_symbolic(k, w)[{row}, {col}]",
                symbols=(k, w),
            )  # fmt: skip


@pytest.mark.points(1)
def test_symbolic_and_numeric_rotations_agree(student):
    """rotation_matrix_symbolic(3, 1/4) is [[cos 0.75, sin 0.75], [-sin 0.75, cos 0.75]]"""
    M = student.rotation_matrix_symbolic(sp.Integer(3), sp.Rational(1, 4))
    values = numeric_values(M, {}, what="rotation_matrix_symbolic(3, 1/4)")
    c, s = np.cos(0.75), np.sin(0.75)
    assert_close(values, [[c, s], [-s, c]], what="rotation_matrix_symbolic(3, 1/4)")


@pytest.mark.points(1)
def test_relative_dot_is_cos_wk(student):
    """relative_dot(pos, k, w) no longer contains pos and equals cos(w·k)"""
    result = student.relative_dot(pos, k, w)
    assert_equivalent(result, sp.cos(w * k), what="relative_dot(pos, k, w)", symbols=(pos, k, w))
    assert_free_of(result, pos, what="relative_dot(pos, k, w)", hint=ANGLE_DIFFERENCE)
