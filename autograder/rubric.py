"""Read `grading.toml` into a frozen Rubric, with errors that name the file, the key and the fix."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from autograder.errors import ConfigError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib


@dataclass(frozen=True)
class Part:
    """A graded part of an assignment: a group of tests worth `points` in all."""

    name: str
    title: str
    points: float


@dataclass(frozen=True)
class AssignmentSpec:
    """One assignment: its name, the file a student submits, and its parts."""

    name: str
    title: str
    module: str
    parts: tuple[Part, ...]

    @property
    def module_name(self) -> str:
        """The import name of the student's module (`module` without `.py`)."""
        return self.module.removesuffix(".py")

    @property
    def max_score(self) -> float:
        return sum(part.points for part in self.parts)

    def part(self, name: str) -> Part:
        for part in self.parts:
            if part.name == name:
                return part
        known = ", ".join(p.name for p in self.parts)
        raise ConfigError(f"assignment {self.name!r} has no part {name!r}; its parts are {known}")


@dataclass(frozen=True)
class Rubric:
    """Everything `grading.toml` says, checked once."""

    path: Path
    assignments: tuple[AssignmentSpec, ...]

    def assignment(self, name: str | None = None) -> AssignmentSpec:
        """The assignment called `name`; with no name, the only one (an error if there are more)."""
        if name is None:
            if len(self.assignments) == 1:
                return self.assignments[0]
            raise ConfigError(
                f"{self.path} defines several assignments ({self._names()}): "
                "name one with --assignment"
            )
        for spec in self.assignments:
            if spec.name == name:
                return spec
        raise ConfigError(f"{self.path} has no assignment {name!r}; it defines {self._names()}")

    def assignment_for_module(self, filename: str) -> AssignmentSpec | None:
        """The assignment whose student module is called `filename`, if any."""
        return next((spec for spec in self.assignments if spec.module == filename), None)

    def _names(self) -> str:
        return ", ".join(spec.name for spec in self.assignments) or "none"


def load_rubric(path: Path) -> Rubric:
    """Parse and check `grading.toml` at `path`."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file; the kit needs a grading.toml rubric") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    reader = _Reader(path)
    reader.only_keys(data, "", {"assignments"})
    assignments = reader.table(data, "assignments")
    if not assignments:
        reader.fail("assignments", "defines no assignment; add an [assignments.NAME] table")
    specs = tuple(
        _assignment(reader, name, reader.table(assignments, name, f"assignments.{name}"))
        for name in assignments
    )
    return Rubric(path=path, assignments=specs)


def _assignment(reader: _Reader, name: str, table: Mapping[str, Any]) -> AssignmentSpec:
    key = f"assignments.{name}"
    reader.only_keys(table, key, {"title", "module", "parts"})
    module = reader.string(table, "module", key)
    if not module.endswith(".py") or "/" in module or not module[:-3].isidentifier():
        reader.fail(f"{key}.module", f"must be a Python file name such as 'x.py', got {module!r}")
    parts_table = reader.table(table, "parts", f"{key}.parts")
    if not parts_table:
        reader.fail(f"{key}.parts", "defines no part; add [assignments.NAME.parts.PART] tables")
    parts = []
    for part_name in parts_table:
        part_key = f"{key}.parts.{part_name}"
        part = reader.table(parts_table, part_name, part_key)
        reader.only_keys(part, part_key, {"title", "points"})
        points = reader.number(part, "points", part_key)
        if points <= 0:
            reader.fail(f"{part_key}.points", f"must be positive, got {points}")
        parts.append(
            Part(name=part_name, title=reader.string(part, "title", part_key), points=points)
        )
    return AssignmentSpec(
        name=name, title=reader.string(table, "title", key), module=module, parts=tuple(parts)
    )


@dataclass(frozen=True)
class _Reader:
    """Typed look-ups in parsed TOML that fail with the file and the dotted key."""

    path: Path

    def fail(self, key: str, problem: str) -> NoReturn:
        raise ConfigError(f"{self.path}: [{key}] {problem}")

    def only_keys(self, table: Mapping[str, Any], key: str, allowed: set[str]) -> None:
        unknown = sorted(set(table) - allowed)
        if unknown:
            where = f"[{key}]" if key else "the top level"
            raise ConfigError(
                f"{self.path}: unknown key {unknown[0]!r} in {where}; "
                f"the keys allowed there are {', '.join(sorted(allowed))}"
            )

    def table(self, table: Mapping[str, Any], name: str, key: str | None = None) -> dict[str, Any]:
        value = table.get(name)
        if not isinstance(value, dict):
            self.fail(key or name, f"must be a table, got {_kind(value)}")
        return dict(value)

    def string(self, table: Mapping[str, Any], name: str, key: str) -> str:
        value = table.get(name)
        if not isinstance(value, str) or not value:
            self.fail(f"{key}.{name}", f"must be a non-empty string, got {_kind(value)}")
        return str(value)

    def number(self, table: Mapping[str, Any], name: str, key: str) -> float:
        value = table.get(name)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.fail(f"{key}.{name}", f"must be a number, got {_kind(value)}")
        return float(value)


def _kind(value: object) -> str:
    return "nothing (the key is missing)" if value is None else f"{type(value).__name__} {value!r}"
