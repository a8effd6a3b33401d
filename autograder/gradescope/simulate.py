"""Gradescope's run, simulated: a folder laid out like /autograder, the exported zip unpacked in
it, `run_autograder` run for real, and results.json checked against Gradescope's schema
(results.schema.json, written from Gradescope's documented format). The kit's tests and the
course tests use it; it needs the `course` extra (jsonschema)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import autograder

SCHEMA = json.loads((Path(__file__).parent / "results.schema.json").read_text(encoding="utf-8"))


def run_autograder(
    archive: Path,
    root: Path,
    files: dict[str, str],
    created_at: str,
    *,
    bubblewrap: str = "auto",
    python: str = sys.executable,
    due_date: str = "2026-12-01T00:00:00+00:00",
) -> dict[str, Any]:
    """results.json of `files` submitted at `created_at`, graded after `due_date` has passed
    (every result released) unless it is still to come."""
    with zipfile.ZipFile(archive) as unzipped:
        unzipped.extractall(root / "source")
    rubric = root / "source" / "course" / "grading.toml"
    text = rubric.read_text(encoding="utf-8")
    rubric.write_text(text.replace('bubblewrap = "auto"', f'bubblewrap = "{bubblewrap}"'))
    for name in ("run_autograder", "setup.sh"):
        (root / "source" / name).chmod(0o755)
    (root / "submission").mkdir()
    for name, text in files.items():
        (root / "submission" / name).write_text(text, encoding="utf-8")
    metadata = {
        "created_at": created_at,
        "assignment": {"title": "vectors", "due_date": due_date},
        "users": [],
    }
    (root / "submission_metadata.json").write_text(json.dumps(metadata), encoding="utf-8")
    root.chmod(0o755)
    environment = {**os.environ, "AUTOGRADER_ROOT": str(root), "AUTOGRADER_PYTHON": python}
    if python != sys.executable:  # an interpreter of its own: this checkout's engine, by path
        environment["PYTHONPATH"] = str(Path(autograder.__file__).resolve().parents[1])
    done = subprocess.run(
        ["bash", str(root / "source" / "run_autograder")], env=environment,
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    import jsonschema  # type: ignore[import-untyped]  # the `course` extra

    results: dict[str, Any] = json.loads(
        (root / "results" / "results.json").read_text(encoding="utf-8")
    )
    jsonschema.validate(results, SCHEMA)
    return results
