"""The engine knows no assignment: nothing in `autograder/` names one, its lesson or its
functions. What one assignment needs (tests, catalogue, proof vocabulary, warm-up, preloads,
wording) lives in its folder and its rubric table; a missing extension point is added to the
engine, never a special case."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import autograder
from autograder.course.course import Course

ENGINE = Path(autograder.__file__).resolve().parent
REPOSITORY = Path(__file__).resolve().parents[1]
ASSIGNMENT_WORDS = re.compile(
    r"positional|sinusoid|relative_dot|permutation_matrix|attention|softmax|rotation_matrix|"
    r"pe_pair|lesson",
    re.IGNORECASE,
)
"""The real assignments' names, lessons and functions (docs/how-it-works/engine.md's `git grep`
searches the same)."""


def assignment_names() -> set[str]:
    """Every assignment of the repository's course: its name, its module's, and every public
    function and constant its reference defines (of four letters or more)."""
    names = set()
    for assignment in Course.load(REPOSITORY).assignments:
        names |= {assignment.name, assignment.spec.module_name}
        tree = ast.parse(assignment.reference.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names.add(node.name)
            targets = node.targets if isinstance(node, ast.Assign) else []
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return {name for name in names if not name.startswith("_") and len(name) >= 4}


def engine_lines() -> list[tuple[str, int, str]]:
    """Every line of every text file of the engine (whatever its suffix)."""
    lines = []
    for path in sorted(ENGINE.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        where = str(path.relative_to(ENGINE.parent))
        lines += [(where, n, line) for n, line in enumerate(text.splitlines(), start=1)]
    return lines


def test_no_engine_file_names_an_assignment() -> None:
    names = assignment_names()
    assert {"positional_encoding", "causal_attention", "causal_mask", "add_positions"} <= names
    by_name = re.compile(r"\b(" + "|".join(map(re.escape, sorted(names))) + r")\b", re.I)
    found = [
        f"{where}:{number}: {line.strip()}"
        for where, number, line in engine_lines()
        if ASSIGNMENT_WORDS.search(line) or by_name.search(line)
    ]
    assert found == []


def test_the_check_catches_a_mention() -> None:
    assert ASSIGNMENT_WORDS.search('hint = "the angle-difference identity for relative_dot"')
    names = assignment_names()
    assert "position_table_grad" in names and "POSITION_SCALE" in names
    assert not ASSIGNMENT_WORDS.search("def assert_free_of(expression, symbol, *, hint=None):")
