"""The rubric's schema is what the reader does: every key the reader accepts is documented, with
the reader's own default and choices, and every documented key is read into the rubric."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from autograder.course.rubric import AssignmentSpec, Rubric, load_rubric
from autograder.course.rubric_schema import PLACEHOLDERS, SCHEMA, Key, Table, children
from autograder.errors import ConfigError
from autograder.sandbox.limits import Limits

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

NAMES = {"NAME": "demo"}
"""What stands for each placeholder in the rubrics written here (PART depends on the table)."""
DUE = datetime(2026, 12, 1, 23, 59, tzinfo=timezone.utc)
REQUIRED_TABLES: dict[str, dict[str, Any]] = {
    "assignments.NAME": {"title": "Demo", "module": "demo.py"},
    "assignments.NAME.parts.PART": {"title": "One", "points": 10},
    "assignments.NAME.late": {"due": DUE},
    "assignments.NAME.manual.PART": {"title": "Why", "points": 5, "rubric": "5: says why"},
}
"""What a table must hold to load, where it must hold anything."""


def spec(rubric: Rubric) -> AssignmentSpec:
    return rubric.assignment("demo")


Reading = Callable[[Rubric], Any]
LIMIT_NAMES = tuple(f.name for f in dataclasses.fields(Limits))
"""The sandbox's numeric limits, each a key of the limits table."""


def _limits(name: str) -> Reading:
    return lambda r: getattr(spec(r).limits, name)


READ: dict[tuple[str, str], Reading] = {
    ("release", "install"): lambda r: r.install,
    ("assignments.NAME", "title"): lambda r: spec(r).title,
    ("assignments.NAME", "module"): lambda r: spec(r).module,
    ("assignments.NAME", "points"): lambda r: spec(r).max_score,
    ("assignments.NAME", "seed"): lambda r: spec(r).seed,
    ("assignments.NAME", "preload"): lambda r: spec(r).preload,
    ("assignments.NAME", "may_modify_inputs"): lambda r: spec(r).may_modify_inputs,
    ("assignments.NAME", "attempts"): lambda r: spec(r).attempts,
    ("assignments.NAME", "never_lower"): lambda r: spec(r).never_lower,
    ("assignments.NAME.parts.PART", "title"): lambda r: spec(r).parts[0].title,
    ("assignments.NAME.parts.PART", "points"): lambda r: spec(r).parts[0].points,
    ("assignments.NAME.tolerance", "rtol"): lambda r: spec(r).rtol,
    ("assignments.NAME.tolerance", "atol"): lambda r: spec(r).atol,
    ("assignments.NAME.symbolic", "screen_points"): lambda r: spec(r).symbolic.screen_points,
    ("assignments.NAME.symbolic", "proof_timeout_s"): lambda r: spec(r).symbolic.proof_timeout_s,
    ("assignments.NAME.symbolic", "undecided"): lambda r: spec(r).symbolic.undecided,
    ("assignments.NAME.symbolic", "exact"): lambda r: spec(r).symbolic.exact,
    ("assignments.NAME.visibility", "public"): lambda r: spec(r).public_visibility,
    ("assignments.NAME.visibility", "hidden"): lambda r: spec(r).hidden_visibility,
    ("assignments.NAME.visibility", "score_before_due"): lambda r: spec(r).score_before_due,
    **{("assignments.NAME.limits", name): _limits(name) for name in LIMIT_NAMES},
    ("assignments.NAME.limits", "bubblewrap"): lambda r: spec(r).bubblewrap,
    ("assignments.NAME.limits", "isolation"): lambda r: spec(r).isolation,
    ("assignments.NAME.late", "due"): lambda r: spec(r).late.due,
    ("assignments.NAME.late", "grace_minutes"): lambda r: spec(r).late.grace_minutes,
    ("assignments.NAME.late", "penalty_per_day"): lambda r: spec(r).late.penalty_per_day,
    ("assignments.NAME.late", "cutoff_days"): lambda r: spec(r).late.cutoff_days,
    ("assignments.NAME.late", "extensions"): lambda r: [
        (e.student, e.due) for e in spec(r).late.extensions
    ],
    ("assignments.NAME.manual.PART", "title"): lambda r: spec(r).manual[0].title,
    ("assignments.NAME.manual.PART", "points"): lambda r: spec(r).manual[0].points,
    ("assignments.NAME.manual.PART", "rubric"): lambda r: spec(r).manual[0].rubric,
    ("assignments.NAME.manual.PART", "answer_file"): lambda r: spec(r).manual[0].answer_file,
}
"""Where the rubric holds each key's value, written by hand: the reader's side of the schema."""

GIVEN: dict[tuple[str, str], tuple[Any, Any]] = {
    ("release", "install"): ("course-kit==1.0", "course-kit==1.0"),
    ("assignments.NAME", "title"): ("Another title", "Another title"),
    ("assignments.NAME", "module"): ("other.py", "other.py"),
    ("assignments.NAME", "points"): (10, 10.0),
    ("assignments.NAME", "seed"): (7, 7),
    ("assignments.NAME", "preload"): (["json.decoder"], ("json.decoder",)),
    ("assignments.NAME", "may_modify_inputs"): (["scale"], ("scale",)),
    ("assignments.NAME", "never_lower"): (True, True),
    ("assignments.NAME.parts.PART", "title"): ("Part one", "Part one"),
    ("assignments.NAME.parts.PART", "points"): (10, 10.0),
    ("assignments.NAME.tolerance", "rtol"): (0.01, 0.01),
    ("assignments.NAME.tolerance", "atol"): (0.02, 0.02),
    ("assignments.NAME.symbolic", "screen_points"): (12, 12),
    ("assignments.NAME.symbolic", "proof_timeout_s"): (0.5, 0.5),
    ("assignments.NAME.symbolic", "exact"): (True, True),
    **{("assignments.NAME.limits", name): (3, 3) for name in LIMIT_NAMES},
    ("assignments.NAME.late", "due"): (DUE, DUE),
    ("assignments.NAME.late", "grace_minutes"): (15, 15.0),
    ("assignments.NAME.late", "penalty_per_day"): (10, 10.0),
    ("assignments.NAME.late", "cutoff_days"): (4, 4),
    ("assignments.NAME.late", "extensions"): (
        "extensions.csv",
        [("ada", datetime(2026, 12, 3, 23, 59, tzinfo=timezone.utc))],
    ),
    ("assignments.NAME.manual.PART", "title"): ("Why it holds", "Why it holds"),
    ("assignments.NAME.manual.PART", "points"): (4, 4.0),
    ("assignments.NAME.manual.PART", "rubric"): ("4: the argument", "4: the argument"),
    ("assignments.NAME.manual.PART", "answer_file"): ("why.md", "why.md"),
}
"""A value other than the default for each key without choices, and what the rubric then holds."""


def documented() -> list[tuple[Table, Key]]:
    return [(table, key) for table in SCHEMA for key in table.keys]


def concrete(table: Table) -> list[str]:
    """The table's path with its placeholders named (PART: `one`, or `why` for a written one)."""
    part = "why" if "manual" in table.segments else "one"
    return [NAMES.get(s, part if s == "PART" else s) for s in table.segments]


def rubric_text(values: dict[str, dict[str, Any]]) -> str:
    """TOML with a dotted key per value: {"assignments.NAME.limits": {"cpu_s": 3}}."""
    lines = []
    for path, keys in values.items():
        prefix = ".".join(concrete(next(t for t in SCHEMA if t.path == path)))
        for name, value in keys.items():
            dotted = f"{prefix}.{name}" if prefix else name
            lines.append(f"{dotted} = {toml_value(value)}")
    return "\n".join(lines) + "\n"


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return repr(value)


def load(tmp_path: Path, changes: dict[str, dict[str, Any]]) -> Rubric:
    """A rubric with every table (each as little as it must hold), then `changes` on top."""
    values: dict[str, dict[str, Any]] = {
        t.path: dict(REQUIRED_TABLES.get(t.path, {})) for t in SCHEMA if t.keys
    }
    for path, keys in changes.items():
        values.setdefault(path, {}).update(keys)
    (tmp_path / "extensions.csv").write_text("student,extra_days,reason\nada,2,ill\n")
    path = tmp_path / "grading.toml"
    path.write_text(rubric_text({p: v for p, v in values.items() if v}), encoding="utf-8")
    return load_rubric(path)


def test_every_documented_key_is_read_into_the_rubric() -> None:
    assert set(READ) == {(table.path, key.name) for table, key in documented()}


@pytest.mark.parametrize("table", SCHEMA, ids=lambda t: t.path or "top level")
def test_the_reader_allows_exactly_the_documented_keys(table: Table, tmp_path: Path) -> None:
    """An unknown key is refused, and the refusal lists the keys the reference documents."""
    listed = {key.name for key in table.keys} | {
        child.segments[-2 if child.segments[-1] in PLACEHOLDERS else -1]
        for child in children(table.path)
    }
    with pytest.raises(ConfigError) as refused:
        load(tmp_path, {table.path: {"unknown_key": 1}})
    assert f"the keys allowed there are {', '.join(sorted(listed))}" in str(refused.value)


@pytest.mark.parametrize(
    ("table", "key"),
    [(t, k) for t, k in documented() if k.default is not None],
    ids=lambda x: getattr(x, "name", None) or getattr(x, "path", None),
)
def test_the_documented_default_is_the_readers(table: Table, key: Key, tmp_path: Path) -> None:
    default = tomllib.loads(f"value = {key.default}")["value"]
    read = READ[(table.path, key.name)](load(tmp_path, {}))
    assert read == (tuple(default) if isinstance(default, list) else default)


@pytest.mark.parametrize(
    ("table", "key"),
    [(t, k) for t, k in documented() if not k.choices],
    ids=lambda x: getattr(x, "name", None) or getattr(x, "path", None),
)
def test_a_documented_key_given_is_read(table: Table, key: Key, tmp_path: Path) -> None:
    written, held = GIVEN[(table.path, key.name)]
    rubric = load(tmp_path, {table.path: {key.name: written}})
    assert READ[(table.path, key.name)](rubric) == held


@pytest.mark.parametrize(
    ("table", "key"),
    [(t, k) for t, k in documented() if k.choices],
    ids=lambda x: getattr(x, "name", None) or getattr(x, "path", None),
)
def test_the_documented_choices_are_the_readers(table: Table, key: Key, tmp_path: Path) -> None:
    for choice in key.choices:
        rubric = load(tmp_path, {table.path: {key.name: choice}})
        assert READ[(table.path, key.name)](rubric) == choice
    with pytest.raises(ConfigError, match=rf"\.{key.name}\] must be"):
        load(tmp_path, {table.path: {key.name: "not_a_choice"}})


def test_every_table_and_key_says_what_it_means() -> None:
    for table in SCHEMA:
        assert table.meaning.endswith(".")
        for key in table.keys:
            assert key.meaning.endswith(".") and key.kind
            assert key.required or key.default is not None or key.when_absent, key.name
