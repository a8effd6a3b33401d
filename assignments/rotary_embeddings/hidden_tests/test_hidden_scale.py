"""Hidden test of rope's cost: a long, wide input within the rubric's time for one call.

RoPE costs O(T·C): cos and sin of a (T, C/2) table, broadcast over the channels. A (C, C)
rotation built and applied per position costs O(T·C²), some 200 times more here: it gives the
right numbers on small inputs and runs out of the call's time limit on this one
([limits] call_timeout_s in grading.toml; the reference takes a small fraction of it, even on a
busy machine). Its own file, after the other tests of rope: a function that ran out of time is
not called again in the same worker.
"""

import pytest

from autograder.checks import CheckFailure, assert_close
from autograder.protocol.faults import StudentTimeout

pytestmark = pytest.mark.part("rope")

T, C = 512, 4096


@pytest.mark.points(4)
def test_long_and_wide_input_in_time(student, reference, tolerance, rng):
    """rope on a long and wide sequence returns within the time limit of one call"""
    small = rng.normal(size=(6, 8))
    assert_close(student.rope(small.copy()), reference.rope(small), what="rope(X)", **tolerance)
    X = rng.normal(size=(T, C))
    try:
        out = student.rope(X.copy())
    except StudentTimeout:
        raise CheckFailure(
            "rope did not return in time on a long and wide input: RoPE is O(T·C) with cos and "
            "sin broadcast over the channels; a (C, C) matrix per position is O(T·C²)"
        ) from None
    assert_close(out, reference.rope(X), what="rope(X) on a long and wide input", **tolerance)
