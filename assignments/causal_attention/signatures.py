"""Measured signatures of the causal-attention assignment: the course's attention knowledge
(shared/attention.py), mapped to this assignment's functions, and what a fresh position table
shows.

They run in the grader on the student's data (diagnose.observe), never student code.
"""

from __future__ import annotations

import numpy as np
from shared.attention import attention_signature, softmax_signature

from autograder.authoring import Call, Signature


def table_signature(call: Call, expected) -> str | None:
    """A table with the right shape and spread but other draws: another generator."""
    table = np.asarray(call.result, dtype=np.float64)
    want = np.asarray(expected, dtype=np.float64)
    if table.shape != want.shape or table.size < 16 or not np.isfinite(table).all():
        return None
    seed = call.argument(2, "seed")
    legacy = np.random.RandomState(seed).normal(0.0, 1.0, size=table.shape)
    if np.allclose(table, legacy * want.std() / max(legacy.std(), 1e-12), rtol=1e-3, atol=1e-6):
        return None  # a scale mistake: the engine's factor measure names it
    for draw in (legacy, np.random.RandomState(seed).normal(0.0, 0.02, size=table.shape)):
        if np.allclose(table / max(table.std(), 1e-12), draw / draw.std(), atol=1e-6):
            return (
                "your draws come from NumPy's legacy global generator (np.random.seed, "
                "np.random.normal): draw with np.random.default_rng(seed).normal(…)"
            )
    if abs(table.std() - want.std()) < 0.2 * want.std() and abs(table.mean()) < 0.2 * want.std():
        return (
            "your table has the right spread but other values: draw it exactly as the docstring "
            "says, np.random.default_rng(seed).normal(0, POSITION_SCALE, size=(max_len, C))"
        )
    return None


SIGNATURES = (
    Signature("masked_softmax", softmax_signature(mask="mask")),
    Signature("causal_self_attention", attention_signature(causal=True)),
    Signature("init_position_table", table_signature),
)
