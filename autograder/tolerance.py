"""The kit's default numeric tolerance, in one place.

A rubric's `tolerance` table overrides it per assignment; `assert_close`, the diagnoses and a
notebook's checks use it otherwise. Loose enough that float32 answers pass; float64 is never
required.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

DEFAULT_RTOL = 1e-5
DEFAULT_ATOL = 1e-6
DEFAULT_TOLERANCE: Mapping[str, float] = MappingProxyType(
    {"rtol": DEFAULT_RTOL, "atol": DEFAULT_ATOL}
)
