"""Hidden tests for learned positions: other seeds and shapes, and a finite-difference check."""

import numpy as np
import pytest

from autograder.checks import CheckFailure, assert_close, assert_raises

pytestmark = pytest.mark.part("learned")


@pytest.mark.points(3)
def test_other_seeds_and_shapes(student, rng):
    """init_position_table at random (max_len, C, seed): the documented generator and scale"""
    for _ in range(2):
        max_len, C, seed = (
            int(rng.integers(1, 30)),
            int(rng.integers(1, 9)),
            int(rng.integers(0, 10**6)),
        )
        assert_close(
            student.init_position_table(max_len, C, seed),
            np.random.default_rng(seed).normal(0, 0.02, size=(max_len, C)),
            what=f"init_position_table({max_len}, {C}, {seed})",
        )
    assert_raises(
        ValueError,
        student.init_position_table,
        0,
        4,
        1,
        what="init_position_table(0, 4, 1)",
        mentions="max_len",
    )
    odd_counts = (((4.0, 3), "max_len"), ((True, 3), "max_len"), ((4, 2.0), "C"))
    for (max_len, C), name in odd_counts:  # counts are integers, not floats or bools
        assert_raises(
            ValueError,
            student.init_position_table,
            max_len,
            C,
            1,
            what="init_position_table with a count that is not an integer",
            mentions=name,
        )


@pytest.mark.points(3)
def test_no_wrapping_no_clipping(student, reference, tolerance, rng):
    """T = max_len works; one position more raises; widths must agree"""
    table = rng.normal(size=(6, 3))
    tok = rng.normal(size=(6, 3))
    assert_close(
        student.add_positions(tok.copy(), table.copy()),
        tok + table,
        what="T = max_len",
        **tolerance,
    )
    assert_raises(
        ValueError,
        student.add_positions,
        np.zeros((7, 3)),
        table,
        what="T = max_len + 1",
        mentions="max_len",
    )
    assert_raises(
        ValueError,
        student.add_positions,
        np.zeros((2, 4)),
        table,
        what="a width of 4 for a table of width 3",
    )
    assert_raises(
        ValueError,
        student.add_positions,
        np.zeros((2, 4)),
        np.zeros((6, 1)),
        what="a width of 4 for a table of width 1 (which NumPy would broadcast)",
    )


@pytest.mark.points(4)
def test_the_gradient_matches_finite_differences(student, rng):
    """the loss sum(G * add_positions(tok, table)): its finite-difference gradient in the table"""
    T, max_len, C = 4, 7, 3
    tok, table, G = (
        rng.normal(size=(2, T, C)),
        rng.normal(size=(max_len, C)),
        rng.normal(size=(2, T, C)),
    )

    def loss(t: np.ndarray) -> float:
        return float(np.sum(G * (tok + t[:T])))

    numeric = np.zeros_like(table)
    for index in np.ndindex(table.shape):
        step = np.zeros_like(table)
        step[index] = 1e-6
        numeric[index] = (loss(table + step) - loss(table - step)) / 2e-6
    grad = student.position_table_grad(G.copy(), max_len)
    assert_close(
        grad, numeric, what="position_table_grad against finite differences", rtol=1e-5, atol=1e-6
    )
    if np.any(np.asarray(grad)[T:] != 0):
        raise CheckFailure("rows past T must be exactly 0, not merely small")


@pytest.mark.points(3)
def test_random_gradients(student, reference, tolerance, rng):
    """random (T, C) and batched gradients, max_len above T"""
    for shape, max_len in (((5, 4), 9), ((3, 5, 4), 5)):
        grad_out = rng.normal(size=shape)
        assert_close(
            student.position_table_grad(grad_out.copy(), max_len),
            reference.position_table_grad(grad_out, max_len),
            what=f"position_table_grad(grad_out {shape}, {max_len})", **tolerance,
        )  # fmt: skip
