"""What the isolation tests do when this machine cannot give a configuration."""

from __future__ import annotations

import os

import pytest


def unavailable(reason: str) -> None:
    """A configuration this machine cannot give: skipped, saying why, on a developer's machine;
    a failure in CI (root, bubblewrap installed, a current kernel), where every one must run."""
    if os.environ.get("CI"):
        raise AssertionError(f"CI must run every configuration: {reason}")
    pytest.skip(f"configuration not available here: {reason}")
