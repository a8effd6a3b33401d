"""Scratch folders of a killed grader are removed by the next one; a live owner's are kept."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from autograder.scratch import private_folder, remove_stale


def test_folders_of_dead_owners_go_and_the_living_stay() -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    root = Path(tempfile.gettempdir())
    stale = root / f"autograder-testkind-{dead.stdout.strip()}-abc"
    (stale / "inside").mkdir(parents=True)
    living = root / f"autograder-testkind-{os.getpid()}-def"
    living.mkdir()
    other_kind = root / f"autograder-otherkind-{dead.stdout.strip()}-ghi"
    other_kind.mkdir()
    try:
        made = private_folder("testkind")
        assert made.name.startswith(f"autograder-testkind-{os.getpid()}-") and made.is_dir()
        assert not stale.exists() and living.exists() and other_kind.exists()
        assert remove_stale("otherkind") == 1 and not other_kind.exists()
    finally:
        for folder in (living, other_kind, made):
            if folder.exists():
                folder.rmdir()
