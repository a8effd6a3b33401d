"""The positional-encoding assignment without its new ingredient: every position taken as 0.

`autograder validate` grades the reference with each of these in place of its function (and all
of them at once) and fails when a test of that function gives it points: a law a constant
encoding or the identity satisfies (a shift by k is a rotation, PE(pos)·PE(pos + k) holds no
pos) must not earn the position's points. Each is what a student who left position out would
write: the same formula at position 0 (no shift, no rotation), checking nothing. They use the
module's own names (np, sp). Attention and permutations carry no position: not here.
"""

import numpy as np
import sympy as sp

INGREDIENT = "the position"


def encoding_at_position_zero(T, C, base=10000.0):
    # sin(0) = 0 in the even columns, cos(0) = 1 in the odd ones, on every row
    encoding = np.zeros((T, C))
    encoding[:, 1::2] = 1.0
    return encoding


def rotation_by_nothing(k, freq):
    return np.eye(2)


def shift_by_nothing(k, C, base=10000.0):
    return np.eye(C)


def pair_at_position_zero(pos, w):
    return (sp.Integer(0), sp.Integer(1))


def symbolic_rotation_by_nothing(k, w):
    return sp.eye(2)


def dot_at_position_zero(pos, k, w):
    return sp.Integer(1)


TRIVIAL = {
    "sinusoidal_encoding": encoding_at_position_zero,
    "rotation_matrix": rotation_by_nothing,
    "shift_matrix": shift_by_nothing,
    "pe_pair": pair_at_position_zero,
    "rotation_matrix_symbolic": symbolic_rotation_by_nothing,
    "relative_dot": dot_at_position_zero,
}
