"""The kit's own result JSON (schema 1): the source every other format is rendered from."""

from __future__ import annotations

import json

from autograder.protocol.results import SubmissionResult


def render_json(result: SubmissionResult) -> str:
    return json.dumps(result.to_dict(), indent=2, ensure_ascii=False) + "\n"
