"""Hidden test of rope's cost: a long, wide input within the rubric's time for one call.

RoPE costs O(T·C): cos and sin of a (T, C/2) table, broadcast over the channels. A (C, C)
rotation built and applied per position costs O(T·C²): it gives the right numbers on small
inputs and, on this one, runs out of the call's time limit ([limits] call_timeout_s in
grading.toml: 8 s) or of memory (each matrix is 512 MiB). Measured on one core: the reference
0.03 s, a Python loop over every position and pair 1 s, a (C, C) matrix per position 30 s; so
even a busy machine keeps each on its side of the limit. Its own file, after the other tests
of rope: a function that ran out of time is not called again in the same worker.
"""

import pytest

from autograder.checks import CheckFailure, assert_close
from autograder.protocol.faults import StudentTimeout

pytestmark = pytest.mark.part("rope")

T, C = 64, 8192


@pytest.mark.points(4)
def test_long_and_wide_input_in_time(student, reference, tolerance, rng):
    """rope on a long and wide sequence returns within the time limit of one call"""
    small = rng.normal(size=(6, 8))
    assert_close(student.rope(small.copy()), reference.rope(small), what="rope(X)", **tolerance)
    X = rng.normal(size=(T, C))
    try:
        out = student.rope(X.copy())
    except (StudentTimeout, MemoryError):
        raise CheckFailure(
            "rope ran out of time or memory on a long and wide input: RoPE is O(T·C) with cos "
            "and sin broadcast over the channels; a (C, C) matrix per position is O(T·C²)"
        ) from None
    assert_close(out, reference.rope(X), what="rope(X) on a long and wide input", **tolerance)
