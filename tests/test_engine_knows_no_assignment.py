"""The engine knows no assignment: nothing in `autograder/` names one, its lesson or its
functions. What one assignment needs (tests, catalogue, proof vocabulary, warm-up, preloads,
wording) lives in its folder and its rubric table; a missing extension point is added to the
engine, never a special case."""

from __future__ import annotations

import re
from pathlib import Path

import autograder

ENGINE = Path(autograder.__file__).resolve().parent
ASSIGNMENT_WORDS = re.compile(
    r"positional|sinusoid|relative_dot|permutation_matrix|attention|softmax|rotation_matrix|"
    r"pe_pair|lesson",
    re.IGNORECASE,
)
"""The real assignments' names, lessons and functions (the README's `git grep` is the same)."""


def test_no_engine_file_names_an_assignment() -> None:
    found = [
        f"{path.relative_to(ENGINE.parent)}:{number}: {line.strip()}"
        for path in sorted(ENGINE.rglob("*"))
        if path.is_file() and path.suffix in (".py", ".toml", ".txt", ".json", ".md")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if ASSIGNMENT_WORDS.search(line)
    ]
    assert found == []


def test_the_check_catches_a_mention() -> None:
    assert ASSIGNMENT_WORDS.search('hint = "the angle-difference identity for relative_dot"')
    assert not ASSIGNMENT_WORDS.search("def assert_free_of(expression, symbol, *, hint=None):")
