"""nbgrader's own commands, run for real on a course folder `autograder release --nbgrader`
wrote, and the automatic points nbgrader's gradebook recorded (the `nbgrader` extra)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent


def nbgrader(course_dir: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(
        [str(BIN / "nbgrader"), *arguments], cwd=course_dir, env=environment,
        capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done


def automatic_scores(course_dir: Path, name: str, students: dict[str, str]) -> dict[str, float]:
    from nbgrader.api import Gradebook  # type: ignore[import-untyped]  # the `nbgrader` extra

    with Gradebook(f"sqlite:///{course_dir / 'gradebook.db'}") as book:
        scores = {}
        for student in students:
            notebook = book.find_submission_notebook(name, name, student)
            scores[student] = sum(
                g.auto_score or 0.0 for g in notebook.grades if g.auto_score is not None
            )
    return scores
