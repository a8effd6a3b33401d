"""The kit's layers, read from its source: no two subpackages import each other, directly or
round a longer cycle, and the sandbox (the code nearest the student's) and the bottom layer
import nothing of the kit above them. Every import counts, inside functions and under
TYPE_CHECKING too: each is a dependency someone has to keep working."""

from __future__ import annotations

import ast
import itertools
from collections.abc import Mapping
from pathlib import Path

import autograder

PACKAGE = Path(autograder.__file__).parent
BOTTOM = {"protocol", "errors", "safe_text", "__init__"}
"""The bottom layer: the data that crosses between processes, the kit's exceptions, and its
safe text; `__init__` is the package itself (its version)."""


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, module: str | None = None) -> set[str]:
    """Every module of the kit `path` imports, anywhere in it (relative imports resolved, as
    from `module`: by default the module `path` is)."""
    module = module or _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            found.add(source)
            found.update(f"{source}.{alias.name}" for alias in node.names)
    return {name for name in found if name == "autograder" or name.startswith("autograder.")}


def _unit(module: str) -> str:
    """The subpackage (or top-level module) a module of the kit belongs to."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _existing(module: str) -> bool:
    """A module or package of the kit (not a name imported from one)."""
    relative = Path(*module.split(".")[1:]) if "." in module else Path()
    return (PACKAGE / relative).with_suffix(".py").is_file() or (
        PACKAGE / relative / "__init__.py"
    ).is_file()


def unit_graph() -> dict[str, dict[str, set[str]]]:
    """{unit: {unit it imports: the files that do}}, between different units only."""
    graph: dict[str, dict[str, set[str]]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        source = _unit(_module_name(path))
        graph.setdefault(source, {})
        for target in filter(_existing, _imports(path)):
            if _unit(target) != source:
                name = str(path.relative_to(PACKAGE.parent))
                graph[source].setdefault(_unit(target), set()).add(name)
    return graph


def find_cycle(graph: Mapping[str, Mapping[str, object]]) -> list[str] | None:
    """A cycle of the graph as the list of its nodes (the first repeated at the end), or None."""
    state: dict[str, str] = {}  # "open" while on the current path, "done" once explored

    def visit(node: str, path: list[str]) -> list[str] | None:
        state[node] = "open"
        for target in sorted(graph.get(node, {})):
            if state.get(target) == "open":
                return [*path[path.index(target) :], target] if target in path else [node, target]
            if target not in state and (cycle := visit(target, [*path, target])) is not None:
                return cycle
        state[node] = "done"
        return None

    for start in sorted(graph):
        if start not in state and (cycle := visit(start, [start])) is not None:
            return cycle
    return None


def test_the_cycle_finder_finds_a_cycle_and_only_a_cycle() -> None:
    assert find_cycle({"a": {"b": 1}, "b": {"c": 1}, "c": {}}) is None
    assert find_cycle({"a": {"b": 1, "c": 1}, "b": {"c": 1}, "c": {}}) is None  # a diamond
    assert find_cycle({"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}}) == ["a", "b", "c", "a"]
    assert find_cycle({"x": {"a": 1}, "a": {"b": 1}, "b": {"a": 1}}) == ["a", "b", "a"]
    assert find_cycle({"a": {"a": 1}}) == ["a", "a"]


def test_the_graph_reader_sees_imports_in_functions_and_relative_ones(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "def f():\n    from autograder.report import FORMATS\n    import autograder.checks\n"
        "from ..sandbox import codec\nfrom . import scoring\nimport numpy\n",
        encoding="utf-8",
    )
    assert _imports(probe, "autograder.grading.probe") == {
        "autograder.report", "autograder.report.FORMATS", "autograder.checks",
        "autograder.sandbox", "autograder.sandbox.codec", "autograder.grading",
        "autograder.grading.scoring",
    }  # fmt: skip


def test_no_two_subpackages_import_each_other() -> None:
    graph = unit_graph()
    cycle = find_cycle(graph)
    if cycle is not None:
        steps = [f"{a} -> {b}: {sorted(graph[a][b])}" for a, b in itertools.pairwise(cycle)]
        raise AssertionError("the subpackages import each other:\n" + "\n".join(steps))


def test_the_sandbox_imports_only_the_bottom_layer() -> None:
    graph = unit_graph()
    above = {unit: files for unit, files in graph["sandbox"].items() if unit not in BOTTOM}
    assert above == {}, f"the sandbox imports the kit above its bottom layer: {above}"


def test_the_bottom_layer_imports_nothing_above_it() -> None:
    graph = unit_graph()
    for unit in BOTTOM:
        above = {target: files for target, files in graph[unit].items() if target not in BOTTOM}
        assert above == {}, f"{unit} imports the kit above the bottom layer: {above}"


def test_the_judgement_knows_no_pytest() -> None:
    """The hint engine (diagnosis/) is plain code over recorded calls: the pytest plugin records
    and asks, so the same judgement serves grade, check and a notebook without pytest."""
    importing = [
        str(path.relative_to(PACKAGE.parent))
        for path in sorted((PACKAGE / "diagnosis").rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, (ast.Import, ast.ImportFrom))
        and any(
            name.split(".")[0] in ("pytest", "_pytest")
            for name in (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
            )
        )
    ]
    assert importing == []
