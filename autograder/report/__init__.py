"""Renderers of a SubmissionResult: one module per format, each a pure function to text."""

from __future__ import annotations

from collections.abc import Callable

from autograder.gradescope.results import render_gradescope
from autograder.protocol.results import SubmissionResult
from autograder.report.junit import render_junit
from autograder.report.kit_json import render_json

Renderer = Callable[[SubmissionResult], str]
FORMATS: dict[str, tuple[str, Renderer]] = {
    "json": (".json", render_json),
    "gradescope": (".results.json", render_gradescope),
    "junit": (".junit.xml", render_junit),
}
"""format name → (file suffix, renderer)."""

__all__ = ["FORMATS", "render_gradescope", "render_json", "render_junit"]
