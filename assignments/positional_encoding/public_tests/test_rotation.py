"""Public tests for `rotation_matrix` and `shift_matrix`: a shift by k is a fixed rotation."""

import numpy as np
import pytest

from autograder.checks import assert_close, assert_raises, assert_shape, printed

pytestmark = pytest.mark.part("rotation")


def transposed_rotation(R: np.ndarray) -> str | None:
    theta = 3 * 0.1
    if np.allclose(R, [[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]]):
        return "your matrix is the transpose: it shifts by -k; the sin(kf) sits top right"
    return None


@pytest.mark.points(1)
def test_rotation_matrix_entries(student):
    """rotation_matrix(3, 0.1) is [[cos 0.3, sin 0.3], [-sin 0.3, cos 0.3]]"""
    R = student.rotation_matrix(3, 0.1)
    assert_close(
        R, [[0.9553, 0.2955], [-0.2955, 0.9553]], what="rotation_matrix(3, 0.1)",
        **printed(4), hints=(transposed_rotation,),
    )  # fmt: skip


@pytest.mark.points(2)
def test_lesson_check_at_four_positions(student):
    """C = 8, pair i = 1, k = 3: R @ PE(pos) = PE(pos + 3) for pos = 0, 2, 5, 7 (episode 04.04)"""
    freq = 1 / 10000 ** (2 * 1 / 8)
    R = assert_shape(student.rotation_matrix(3, freq), (2, 2), what="rotation_matrix(3, 0.1)")
    lesson = {0: [0.2955, 0.9553], 2: [0.4794, 0.8776], 5: [0.7174, 0.6967], 7: [0.8415, 0.5403]}
    for pos, shifted in lesson.items():
        pair = np.array([np.sin(pos * freq), np.cos(pos * freq)])
        assert_close(
            R @ pair, shifted, what=f"R @ PE({pos}) for pair 1", **printed(4),
            hints=(lambda _: transposed_rotation(R),),
        )  # fmt: skip


@pytest.mark.points(1)
def test_rotation_is_orthogonal(student):
    """Rᵀ R = I and rotation_matrix(0, f) = I: a rotation keeps lengths (and has the right angle)"""
    for k, freq in [(0, 0.7), (5, 0.01), (-2, 1.3)]:
        R = assert_shape(
            student.rotation_matrix(k, freq), (2, 2), what=f"rotation_matrix({k}, {freq})"
        )
        assert_close(R.T @ R, np.eye(2), what=f"Rᵀ R for rotation_matrix({k}, {freq})")
        c, s = np.cos(k * freq), np.sin(k * freq)
        assert_close(R, [[c, s], [-s, c]], what=f"rotation_matrix({k}, {freq})")
    assert_close(student.rotation_matrix(0, 0.7), np.eye(2), what="rotation_matrix(0, 0.7)")


@pytest.mark.points(2)
def test_shift_matrix_shifts_every_position(student):
    """shift_matrix(3, 16) @ PE[pos] = PE[pos + 3] for every pos"""
    M = assert_shape(student.shift_matrix(3, 16), (16, 16), what="shift_matrix(3, 16)")
    pos = np.arange(20)[:, None]
    pair = np.arange(16) // 2
    angles = pos / 10000 ** (2 * pair / 16)
    PE = np.where(np.arange(16) % 2 == 0, np.sin(angles), np.cos(angles))
    for p in (0, 4, 16):
        assert_close(M @ PE[p], PE[p + 3], what=f"shift_matrix(3, 16) @ PE[{p}]")


@pytest.mark.points(1)
def test_shift_matrix_refuses_odd_C(student):
    """shift_matrix(1, 5) raises ValueError: the last sine has no cosine partner"""
    assert_raises(ValueError, student.shift_matrix, 1, 5, what="shift_matrix(1, 5)")
