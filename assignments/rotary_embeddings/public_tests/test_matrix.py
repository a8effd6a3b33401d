"""Public tests for `rope_matrix`: R_m is the rotation rope applies, orthogonal, and relative."""

import numpy as np
import pytest

from autograder.checks import assert_close, printed

pytestmark = pytest.mark.part("matrix")


def rotated_by_hand(x, m, base=10000.0):
    """x at position m, interleaved pairs each turned by m·base^(−2i/C): the tests' own oracle
    (a law such as R_mᵀ R_n = R_{n−m} holds for the identity too: each test checks a value)."""
    angles = m * base ** (-np.arange(0, len(x), 2) / len(x))
    out = np.empty(len(x))
    out[0::2] = x[0::2] * np.cos(angles) - x[1::2] * np.sin(angles)
    out[1::2] = x[0::2] * np.sin(angles) + x[1::2] * np.cos(angles)
    return out


@pytest.mark.points(3)
def test_rope_matrix_small(student):
    """rope_matrix(1, 4, base=100) has blocks [[0.54, −0.841], [0.841, 0.54]] and [[0.995, −0.1],
    [0.1, 0.995]] on its diagonal; the halves layout puts them on channels (0, 2) and (1, 3)"""
    assert_close(
        student.rope_matrix(1, 4, base=100.0),
        [[0.54, -0.841, 0, 0], [0.841, 0.54, 0, 0], [0, 0, 0.995, -0.1], [0, 0, 0.1, 0.995]],
        what="rope_matrix(1, 4, base=100)", **printed(3),
    )  # fmt: skip
    assert_close(
        student.rope_matrix(1, 4, base=100.0, layout="halves"),
        [[0.54, 0, -0.841, 0], [0, 0.995, 0, -0.1], [0.841, 0, 0.54, 0], [0, 0.1, 0, 0.995]],
        what="rope_matrix(1, 4, base=100, layout='halves')", **printed(3),
    )  # fmt: skip


@pytest.mark.points(3)
def test_rope_is_the_matrix_times_x(student):
    """rope(x[None], positions=[m])[0] = rope_matrix(m, 8) @ x for m = 0, 3, 17, both layouts;
    rope_matrix(3, 8) @ x turns each pair of x by 3·θ_i"""
    x = np.random.default_rng(4).normal(size=8)
    assert_close(
        student.rope_matrix(3, 8) @ x, rotated_by_hand(x, 3),
        what="rope_matrix(3, 8) @ x against each pair turned by 3·θ_i",
    )  # fmt: skip
    for layout in ("interleaved", "halves"):
        for m in (0, 3, 17):
            rotated = student.rope(x[None].copy(), positions=np.array([m]), layout=layout)
            assert_close(
                rotated[0], student.rope_matrix(m, 8, layout=layout) @ x,
                what=f"rope(x at position {m}, layout={layout!r}) against rope_matrix({m}, 8) @ x",
            )  # fmt: skip


@pytest.mark.points(2)
def test_rope_matrix_is_orthogonal(student):
    """R_5ᵀ R_5 = I for C = 6: a rotation keeps lengths and angles; and R_5 is no identity:
    its first column is (cos 5, sin 5, 0, 0, 0, 0), pair 0 turned by 5 rad"""
    R = student.rope_matrix(5, 6)
    assert_close(R.T @ R, np.eye(6), what="rope_matrix(5, 6).T @ rope_matrix(5, 6)")
    assert_close(
        R[:, 0], [np.cos(5), np.sin(5), 0, 0, 0, 0], what="the first column of rope_matrix(5, 6)"
    )


@pytest.mark.points(2)
def test_composition(student):
    """R_3ᵀ R_10 = R_7 for C = 6: only the difference of the positions is left; R_7's first
    block is [[cos 7, −sin 7], [sin 7, cos 7]]"""
    R3, R10, R7 = (student.rope_matrix(m, 6) for m in (3, 10, 7))
    assert_close(R3.T @ R10, R7, what="rope_matrix(3, 6).T @ rope_matrix(10, 6)")
    assert_close(
        R7[:2, :2], [[np.cos(7), -np.sin(7)], [np.sin(7), np.cos(7)]],
        what="the first block of rope_matrix(7, 6)",
    )  # fmt: skip


@pytest.mark.points(2)
def test_relative_property(student):
    """(R_m q)·(R_n k) = q·(R_{n−m} k) with rope itself, for (m, n) = (2, 9), (40, 47), (0, 7)
    (all three equal) and (9, 2), and each equals q · (k turned by (n − m)·θ_i)"""
    rng = np.random.default_rng(12)
    q, k = rng.normal(size=8), rng.normal(size=8)

    def rotated(x, m):
        return student.rope(x[None].copy(), positions=np.array([m]))[0]

    for m, n in ((2, 9), (40, 47), (0, 7), (9, 2)):
        assert_close(
            np.array([rotated(q, m) @ rotated(k, n)]), np.array([q @ rotated(k, n - m)]),
            what=f"(R_{m} q)·(R_{n} k) against q·(R_{n - m} k)",
        )  # fmt: skip
        assert_close(
            np.array([rotated(q, m) @ rotated(k, n)]), np.array([q @ rotated_by_hand(k, n - m)]),
            what=f"(R_{m} q)·(R_{n} k) against q · (k turned by {n - m}·θ_i)",
        )  # fmt: skip
