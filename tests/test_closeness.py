"""The diagnosis's `all_close` answers exactly as `np.allclose` does, on the values a submission
can send: ordinary and huge floats, infinities, NaNs, float32 against float64, integers,
broadcasting shapes and empty arrays."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from autograder.checks.closeness import all_close

SPECIAL = [0.0, -0.0, 1.0, -1.0, 1e-7, 1e308, -1e308, np.inf, -np.inf, np.nan, 5e-324]


def pairs() -> list[tuple[np.ndarray, np.ndarray]]:
    generator = np.random.default_rng(7)
    found = []
    for shape in [(), (1,), (3,), (4, 5), (0,), (2, 0, 3)]:
        base = generator.normal(size=shape)
        for noise in (0.0, 1e-9, 1e-6, 1e-5, 1e-3, 1.0):
            found.append((base + noise * generator.normal(size=shape), base))
    for x, y in itertools.product(SPECIAL, repeat=2):
        found.append((np.array([1.0, x]), np.array([1.0, y])))
    base = generator.normal(size=(3, 4))
    found += [
        (base.astype(np.float32), base),
        (base, base.astype(np.float32)),
        (base.astype(np.float16), base),
        (np.arange(6).reshape(2, 3), np.arange(6.0).reshape(2, 3)),
        (base, base[0]),  # broadcasting
        (base[:1], base),
        (base * (1 + 2e-5), base),
        (base + 2e-6, base),
    ]
    return found


@pytest.mark.parametrize("equal_nan", [False, True])
def test_all_close_is_numpys_answer(equal_nan: bool) -> None:
    for rtol, atol in [(1e-5, 1e-6), (0.0, 0.0), (1e-3, 0.0), (0.0, 1e-3)]:
        for a, b in pairs():
            with np.errstate(all="ignore"):
                expected = bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))
            got = all_close(a, b, rtol, atol, equal_nan=equal_nan)
            assert got == expected, (a, b, rtol, atol)


def test_python_values_are_numpys_too() -> None:
    assert all_close([1.0, 2.0], [1.0, 2.0], 1e-5, 1e-6)
    assert not all_close(1.0, 1.1, 1e-5, 1e-6)
