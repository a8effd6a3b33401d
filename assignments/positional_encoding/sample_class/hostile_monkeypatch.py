# Sample submission: hostile: patches numpy's comparisons to always pass, then returns garbage.
"""If the grader compared results with numpy in this process, everything would "pass"."""

import numpy as np
import numpy.testing
import sympy as sp


def _always(*args, **kwargs):
    return True


def _never_fails(*args, **kwargs):
    return None


np.allclose = _always
np.array_equal = _always
np.isclose = lambda a, b, *args, **kwargs: np.ones(np.broadcast(a, b).shape, dtype=bool)
numpy.testing.assert_allclose = _never_fails
numpy.testing.assert_array_equal = _never_fails
numpy.testing.assert_array_almost_equal = _never_fails


def sinusoidal_encoding(T, C, base=10000.0):
    return np.full((1, 1), 7.0)


def softmax(S, axis=-1):
    return np.full((1, 1), 7.0)


def self_attention(X, W_q=None, W_k=None, W_v=None):
    return np.full((1, 1), 7.0)


def rotation_matrix(k, freq):
    return np.full((1, 1), 7.0)


def shift_matrix(k, C, base=10000.0):
    return np.full((1, 1), 7.0)


def pe_pair(pos, w):
    return (sp.Integer(7), sp.Integer(7))


def rotation_matrix_symbolic(k, w):
    return sp.Matrix([[7, 7], [7, 7]])


def relative_dot(pos, k, w):
    return sp.Integer(7) + pos


def permutation_matrix(perm):
    return np.full((1, 1), 7.0)


RELATIVE_POSITION_PROOF = []
PERMUTATION_PROOF = []
