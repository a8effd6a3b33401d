"""The wheel is the engine only: no assignment, no hidden test, no reference solution."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_wheel_holds_the_engine_and_nothing_secret(tmp_path: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "build",
            "--wheel",
            "--no-isolation",
            "--outdir",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("transformer_maths_autograder-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "autograder/cli.py" in names and "autograder/grading/pytest_plugin.py" in names
    for secret in ("reference/", "assignments/", "hidden_tests", "student_template/", "tests/"):
        assert not [name for name in names if secret in name], secret
    entry_points = next(name for name in names if name.endswith("entry_points.txt"))
    assert "autograder = autograder.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()
