"""Hidden tests for part "order": reordering changes each token's causal output."""

import numpy as np
import pytest

from autograder.checks import CheckFailure, assert_close

pytestmark = pytest.mark.part("order")


@pytest.mark.points(5)
def test_equivariance_fails_for_random_sequences(student, reference, tolerance, rng):
    """a random sequence reversed: the outputs are right, and not the reversed outputs"""
    X = rng.normal(size=(5, 3))
    forward = student.causal_self_attention(X.copy())
    backward = student.causal_self_attention(X[::-1].copy())
    assert_close(
        forward, reference.causal_self_attention(X), what="causal_self_attention(X)", **tolerance
    )
    assert_close(
        backward,
        reference.causal_self_attention(X[::-1]),
        what="causal_self_attention(reversed X)",
        **tolerance,
    )
    if np.allclose(backward, forward[::-1]):
        raise CheckFailure(
            "reversing the tokens only reversed the outputs: the mask should prevent that"
        )
