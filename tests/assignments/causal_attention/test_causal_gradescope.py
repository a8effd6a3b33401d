"""The causal-attention assignment on Gradescope: its zip, run as Gradescope runs it."""

from __future__ import annotations

import zipfile
from pathlib import Path

from gradescope_run import run_autograder

from autograder.cli import main
from autograder.course.assignment import Assignment


def test_its_zip_grades_the_reference_and_a_mistake(tmp_path: Path, assignment: Assignment) -> None:
    out = tmp_path / "causal_attention.zip"
    course = assignment.course.root
    command = ["export", "gradescope", "--out", str(out), "--course", str(course),
               "--assignment", "causal_attention"]  # fmt: skip
    assert main(command) == 0
    names = zipfile.ZipFile(out).namelist()
    assert "course/assignments/causal_attention/hidden_tests/test_hidden_learned.py" in names
    assert not any("positional_encoding" in name for name in names)
    module = assignment.spec.module
    reference = run_autograder(
        out, tmp_path / "a", {module: assignment.reference.read_text(encoding="utf-8")},
        "2026-12-01T10:00:00+00:00",
    )  # fmt: skip
    assert reference["score"] == 100
    wrong = (assignment.sample_class / "bug_table_from_one.py").read_text(encoding="utf-8")
    buggy = run_autograder(out, tmp_path / "b", {module: wrong}, "2026-12-01T10:00:00+00:00")
    assert buggy["score"] == 94
    assert any("row 1 of the table" in t["output"] for t in buggy["tests"])
