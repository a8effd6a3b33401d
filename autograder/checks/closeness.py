"""`np.allclose` for the checks and the diagnosis, which ask it thousands of times a submission.

NumPy's own spends most of its time, on the small arrays of tests, in Python: broadcasting,
type promotion, an error-state context, masks for infinities. For two finite floating arrays
of one shape its answer is the test `|a - b| <= atol + rtol·|b|` on every entry, worked out
here in a few array operations; anything else (infinities, NaNs, other kinds, broadcasting) is
NumPy's own call, so the answer is always NumPy's.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def all_close(a: Any, b: Any, rtol: float, atol: float, *, equal_nan: bool = False) -> bool:
    """np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan), faster on finite floats."""
    if (
        type(a) is np.ndarray
        and type(b) is np.ndarray
        and a.shape == b.shape
        and a.dtype.kind == "f"
        and b.dtype.kind == "f"
        and np.isfinite(a).all()
        and np.isfinite(b).all()
    ):
        with np.errstate(over="ignore"):  # a difference too large to hold is not close
            return bool((np.abs(a - b) <= atol + rtol * np.abs(b)).all())
    return bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))
