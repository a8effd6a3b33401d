"""The reference solution as a finished submission: its `# BEGIN SOLUTION` / `# END SOLUTION`
marker lines removed, every solution kept. The grader's runner rehearses on it and `autograder
validate` makes it wrong in one place; autograder.authoring.solutions turns the same regions
into the student's stubs (and keeps `solution_source` importable there)."""

from __future__ import annotations

import ast
import re

from autograder.errors import ConfigError

BEGIN = re.compile(r"^(?P<indent>[ \t]*)#+ *BEGIN SOLUTION *$")
END = re.compile(r"^(?P<indent>[ \t]*)#+ *END SOLUTION *$")


def solution_source(source: str, *, origin: str) -> str:
    """`source` with its marker lines removed and every solution kept: the reference as a
    student's finished module (the base that `autograder validate` makes wrong in one place)."""
    lines = source.splitlines(keepends=True)
    kept = [
        line
        for line in lines
        if not (BEGIN.match(line.rstrip("\r\n")) or END.match(line.rstrip("\r\n")))
    ]
    result = "".join(kept)
    try:
        ast.parse(result, filename=origin)
    except SyntaxError as error:
        raise ConfigError(f"{origin}: not valid Python without its markers ({error.msg})") from None
    return result
