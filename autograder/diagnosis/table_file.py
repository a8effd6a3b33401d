"""Where a release's hint table lives and what it was built from, without numpy: `release`
and `release --check` read only this, so that the commands that never build a table (the
grader among them) import no numerical library for it (hint_table.py reads the table itself)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from autograder.course.assignment import CATALOGUE_FILE, WORDS_FILE, Assignment

SCHEMA = 1
FILE_NAME = "hints.json"
ENGINE_FILES = ("operators.py", "mutants.py", "fingerprints.py", "hint_table.py")
"""The kit's modules whose change changes a table (of autograder/diagnosis/)."""


def digest(assignment: Assignment, released_tests: dict[str, str]) -> str:
    """What a table depends on: the reference, the catalogue, the words, the released public
    tests ({name: content}), the tolerance and the kit's code that makes and reads tables."""
    hashed = hashlib.sha256(f"hint table {SCHEMA}".encode())
    hashed.update(repr(sorted(assignment.spec.tolerance.items())).encode())
    engine = Path(__file__).parent
    paths = [
        assignment.reference,
        assignment.folder / CATALOGUE_FILE,
        assignment.folder / WORDS_FILE,
    ]
    paths += [engine / name for name in ENGINE_FILES]
    for path in paths:
        content = path.read_bytes() if path.is_file() else b""
        hashed.update(path.name.encode() + b"\0" + content + b"\0")
    for name in sorted(released_tests):
        hashed.update(name.encode() + b"\0" + released_tests[name].encode() + b"\0")
    return hashed.hexdigest()


def digest_of(path: Path) -> str | None:
    """The digest a table at `path` was built from, read without its calls."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return str(data["digest"]) if isinstance(data, dict) else None
    except (OSError, ValueError, KeyError):
        return None
