"""Turn a reference solution into student stubs by replacing its marked solution regions.

A region runs from a `# BEGIN SOLUTION` line to the next `# END SOLUTION` line at the same
indentation (nbgrader's `### BEGIN SOLUTION` spelling works too). Inside a function the region
becomes `raise NotImplementedError()`; at module level every assignment in it keeps its name and
annotation and gets an empty value of the same kind (`[]`, `()`, `{}`, `""`, or `None`).
"""

from __future__ import annotations

import ast
import textwrap

from autograder.course.solutions import BEGIN as _BEGIN
from autograder.course.solutions import END as _END
from autograder.course.solutions import solution_source as solution_source
from autograder.errors import ConfigError

FUNCTION_STUB = ("# YOUR CODE HERE", "raise NotImplementedError()")
_EMPTY_VALUES = {ast.List: "[]", ast.Tuple: "()", ast.Dict: "{}", ast.Set: "set()"}


def strip_solutions(source: str, *, origin: str) -> str:
    """Return `source` with every solution region replaced by its stub.

    Raises ConfigError, naming `origin` and the line, for an unmatched or nested marker, for a
    module-level region that holds anything but assignments, or when the result is not valid
    Python.
    """
    lines = source.splitlines(keepends=True)
    output: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        begin = _BEGIN.match(line.rstrip("\r\n"))
        if _END.match(line.rstrip("\r\n")):
            raise ConfigError(
                f"{origin}:{index + 1}: END SOLUTION without a BEGIN SOLUTION above it"
            )
        if begin is None:
            output.append(line)
            index += 1
            continue
        end = _find_end(lines, index, begin["indent"], origin)
        region = "".join(lines[index + 1 : end])
        output.extend(_stub(region, begin["indent"], origin=origin, line=index + 1))
        index = end + 1
    stubbed = "".join(output)
    try:
        ast.parse(stubbed, filename=origin)
    except SyntaxError as error:
        raise ConfigError(
            f"{origin}: the stubbed file is not valid Python ({error.msg}, line {error.lineno}); "
            "check that each solution region covers whole statements"
        ) from None
    return stubbed


def has_solution_regions(source: str) -> bool:
    return any(_BEGIN.match(line) for line in source.splitlines())


def _find_end(lines: list[str], begin: int, indent: str, origin: str) -> int:
    for index in range(begin + 1, len(lines)):
        text = lines[index].rstrip("\r\n")
        if _BEGIN.match(text):
            raise ConfigError(
                f"{origin}:{index + 1}: BEGIN SOLUTION inside the region opened at line "
                f"{begin + 1}; close that one with END SOLUTION first"
            )
        end = _END.match(text)
        if end is not None:
            if end["indent"] != indent:
                raise ConfigError(
                    f"{origin}:{index + 1}: END SOLUTION is indented differently from its "
                    f"BEGIN SOLUTION at line {begin + 1}"
                )
            return index
    raise ConfigError(f"{origin}:{begin + 1}: BEGIN SOLUTION has no END SOLUTION below it")


def _stub(region: str, indent: str, *, origin: str, line: int) -> list[str]:
    if indent:
        return [f"{indent}{text}\n" for text in FUNCTION_STUB]
    return [f"{text}\n" for text in _empty_assignments(region, origin=origin, line=line)]


def _empty_assignments(region: str, *, origin: str, line: int) -> list[str]:
    """Module-level regions define constants: keep each name, empty its value."""
    code = textwrap.dedent(region)
    try:
        statements = ast.parse(code).body
    except SyntaxError as error:
        message = f"{origin}:{line}: the solution region is not valid Python: {error.msg}"
        raise ConfigError(message) from None
    stubs = []
    for statement in statements:
        if isinstance(statement, ast.AnnAssign) and statement.value is not None:
            target = ast.get_source_segment(code, statement.target)
            annotation = ast.get_source_segment(code, statement.annotation)
            stubs.append(f"{target}: {annotation} = {_empty_value(statement.value)}")
        elif isinstance(statement, ast.Assign):
            targets = " = ".join(str(ast.get_source_segment(code, t)) for t in statement.targets)
            stubs.append(f"{targets} = {_empty_value(statement.value)}")
        else:
            raise ConfigError(
                f"{origin}:{line}: a module-level solution region may hold only assignments "
                f"(found {type(statement).__name__} at its line {statement.lineno}); put code "
                "inside a function"
            )
    return stubs


def _empty_value(value: ast.expr) -> str:
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return '""'
    return _EMPTY_VALUES.get(type(value), "None")
