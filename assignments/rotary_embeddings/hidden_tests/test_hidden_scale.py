"""Hidden test of rope's cost: a long, wide input within the rubric's time for one call.

RoPE costs O(T·C): cos and sin of a (T, C/2) table, broadcast over the channels. A (C, C)
rotation built and applied per position costs O(T·C²): it gives the right numbers on small
inputs and, on this one, cannot even be built: each matrix is 2 GiB, beyond the worker's
memory (1 GiB of address space), so it fails at once whatever the machine's speed. (At
C = 8192 a matrix was 512 MiB and the call took 5 to 30 s against the 8 s limit: on an idle
machine it finished in time.) Measured on one core: the reference 0.06 s, a Python loop over
every position and pair 2 s, within [limits] call_timeout_s (grading.toml: 8 s). Its own
file, after the other tests of rope: a function that ran out of time is not called again in
the same worker.
"""

import pytest

from autograder.checks import CheckFailure, assert_close
from autograder.protocol.faults import StudentRaised, StudentTimeout

pytestmark = pytest.mark.part("rope")

T, C = 64, 16384


@pytest.mark.points(4)
def test_long_and_wide_input_in_time(student, reference, tolerance, rng):
    """rope on a long and wide sequence returns within the time limit of one call"""
    small = rng.normal(size=(6, 8))
    assert_close(student.rope(small.copy()), reference.rope(small), what="rope(X)", **tolerance)
    X = rng.normal(size=(T, C))
    try:
        out = student.rope(X.copy())
    except (StudentTimeout, MemoryError, StudentRaised) as error:
        if isinstance(error, StudentRaised) and not error.kind.endswith("MemoryError"):
            raise  # NumPy's own _ArrayMemoryError comes back as the student's code's error
        raise CheckFailure(
            "rope ran out of time or memory on a long and wide input: RoPE is O(T·C) with cos "
            "and sin broadcast over the channels; a (C, C) matrix per position is O(T·C²)"
        ) from None
    assert_close(out, reference.rope(X), what="rope(X) on a long and wide input", **tolerance)
