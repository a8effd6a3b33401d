"""Public tests for learned positions: the table, adding it, and where its gradient goes."""

import numpy as np
import pytest

from autograder.checks import CheckFailure, assert_close, assert_raises, assert_shape, printed

pytestmark = pytest.mark.part("learned")


@pytest.mark.points(3)
def test_a_fresh_table(student):
    """init_position_table(4, 3, seed=0): row 0 is [0.0025, -0.0026, 0.0128] (scale 0.02)"""
    table = assert_shape(
        student.init_position_table(4, 3, seed=0), (4, 3), what="init_position_table(4, 3, 0)"
    )
    assert_close(table[0], [0.0025, -0.0026, 0.0128], what="row 0 of the table", **printed(4))
    assert_close(table, np.random.default_rng(0).normal(0, 0.02, size=(4, 3)), what="the table")


@pytest.mark.points(3)
def test_positions_are_added_row_by_row(student):
    """add_positions(tok_emb (3, 2), table (5, 2)) is tok_emb + table[:3], batches too"""
    tok = np.arange(6.0).reshape(3, 2)
    table = np.arange(10.0).reshape(5, 2) / 10
    assert_close(
        student.add_positions(tok.copy(), table.copy()), tok + table[:3], what="add_positions"
    )
    batch = np.stack([tok, -tok])
    assert_close(
        student.add_positions(batch.copy(), table.copy()),
        batch + table[:3],
        what="add_positions(batch)",
    )


@pytest.mark.points(2)
def test_a_learned_table_cannot_extrapolate(student):
    """10 tokens and a table of max_len 8 raise ValueError naming T and max_len"""
    table = np.zeros((8, 4))
    assert_raises(
        ValueError, student.add_positions, np.zeros((10, 4)), table,
        what="add_positions with T = 10 > max_len = 8", mentions="max_len",
    )  # fmt: skip


@pytest.mark.points(3)
def test_unseen_positions_get_no_gradient(student):
    """position_table_grad(grad_out (3, 2), max_len 5): rows 0 … 2 are grad_out, rows 3, 4 are 0"""
    grad_out = np.array([[1.0, -1.0], [0.5, 2.0], [3.0, 0.0]])
    grad = assert_shape(
        student.position_table_grad(grad_out.copy(), 5), (5, 2), what="position_table_grad"
    )
    assert_close(grad[:3], grad_out, what="rows 0 … 2 of the gradient")
    if np.any(grad[3:] != 0):
        raise CheckFailure(
            "rows 3 and 4 of the gradient should be exactly 0: no sequence reached those "
            "positions, so nothing flows back to them"
        )


@pytest.mark.points(1)
def test_a_batch_sums_its_gradients(student):
    """for a batch (2, 3, 2), row t of the gradient is the sum of the batch's rows t"""
    grad_out = np.random.default_rng(5).normal(size=(2, 3, 2))
    grad = student.position_table_grad(grad_out.copy(), 4)
    assert_close(grad[:3], grad_out.sum(axis=0), what="rows 0 … 2 for a batch")
