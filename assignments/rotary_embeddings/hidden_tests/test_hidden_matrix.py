"""Hidden tests for `rope_matrix` and the relative property, at random positions and widths."""

import numpy as np
import pytest

from autograder.checks import assert_close, assert_raises

pytestmark = pytest.mark.part("matrix")


@pytest.mark.points(4)
def test_random_matrices(student, reference, tolerance, rng):
    """rope_matrix at random positions, widths, bases and layouts; an unknown layout refused"""
    for layout in ("interleaved", "halves"):
        for _ in range(2):
            m, C = int(rng.integers(0, 3000)), 2 * int(rng.integers(1, 6))
            base = float(rng.choice([50.0, 10000.0]))
            assert_close(
                student.rope_matrix(m, C, base=base, layout=layout),
                reference.rope_matrix(m, C, base=base, layout=layout),
                what="rope_matrix(m, C, base, layout)", **tolerance,
            )  # fmt: skip
    assert_raises(
        ValueError, student.rope_matrix, 1.0, 4, 10000.0, "rotate_half",
        what="rope_matrix with an unknown layout",
    )  # fmt: skip


@pytest.mark.points(4)
def test_random_relative_scores(student, reference, tolerance, rng):
    """(R_m q)·(R_n k) = q·(R_{n−m} k) with rope_matrix, at random q, k, m, n, and the score is
    the reference's (the identity satisfies the law alone)"""
    for _ in range(4):
        C = 2 * int(rng.integers(1, 6))
        q, k = rng.normal(size=C), rng.normal(size=C)
        m, n = (int(v) for v in rng.integers(0, 2000, size=2))
        Rm, Rn = student.rope_matrix(m, C), student.rope_matrix(n, C)
        assert_close(
            np.array([(Rm @ q) @ (Rn @ k)]), np.array([q @ (student.rope_matrix(n - m, C) @ k)]),
            what="(R_m q)·(R_n k) against q·(R_(n−m) k)", **tolerance,
        )  # fmt: skip
        expected = (reference.rope_matrix(m, C) @ q) @ (reference.rope_matrix(n, C) @ k)
        assert_close(
            np.array([(Rm @ q) @ (Rn @ k)]), np.array([expected]), what="(R_m q)·(R_n k)",
            **tolerance,
        )  # fmt: skip
