"""What `check` knows of the models of mistakes, on the public tests' own inputs: shipped with
the release as data (`tests/hints.json`), never the reference, a model's code or a hidden input.

For every call the public tests make (as `check` makes them: the same seeds, the same order),
the table holds the key of its arguments, the projection of the reference's output, and the
projection of each model's output where it differs from the reference's: the catalogue's entries
and the reference's mutants, each with the words the grader would say. `check` names a model by
the grader's rule: it reproduces every known call of the function it names, at least one of
them wrong. Catalogue entries come first; mutants only where no entry fits; several mutants
that fit are all named, up to MAX_NAMED.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autograder.diagnosis.fingerprints import arguments_key, projection, same_projection

SCHEMA = 1
FILE_NAME = "hints.json"
MAX_NAMED = 3
MAX_BYTES = 8 * 1024 * 1024
"""A table larger than this is not read (the release is the instructor's; a bound all the same)."""


@dataclass(frozen=True)
class Model:
    """One model of a mistake, as check names it."""

    target: str
    kind: str
    """"catalogue" or "mutant"."""
    summary: str
    hint: str = ""


@dataclass(frozen=True)
class KnownCall:
    """One call of the public tests: its function, the reference's output, each model's."""

    name: str
    reference: dict[str, Any]
    models: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Model index -> its output's projection, where it differs from the reference's."""


@dataclass(frozen=True)
class HintTable:
    digest: str
    """What the table was built from (release --check compares it)."""
    rtol: float
    atol: float
    models: tuple[Model, ...]
    calls: dict[str, KnownCall]

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "digest": self.digest,
            "rtol": self.rtol,
            "atol": self.atol,
            "models": [vars(m) for m in self.models],
            "calls": {
                key: {
                    "name": c.name,
                    "reference": c.reference,
                    "models": [[i, p] for i, p in sorted(c.models.items())],
                }
                for key, c in sorted(self.calls.items())
            },
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HintTable:
        if data.get("schema") != SCHEMA:
            raise ValueError("a hint table of another schema")
        models = tuple(Model(**m) for m in data["models"])
        calls = {
            str(key): KnownCall(
                str(c["name"]), dict(c["reference"]), {int(i): dict(p) for i, p in c["models"]}
            )
            for key, c in data["calls"].items()
        }
        return cls(str(data["digest"]), float(data["rtol"]), float(data["atol"]), models, calls)


def write(table: HintTable, path: Path) -> None:
    path.write_text(json.dumps(table.to_json(), sort_keys=True, indent=0) + "\n", "utf-8")


def read(path: Path) -> HintTable | None:
    """The table at `path`, or None when there is none or it cannot be read."""
    try:
        if not path.is_file() or path.stat().st_size > MAX_BYTES:
            return None
        return HintTable.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def digest_of(path: Path) -> str | None:
    """The digest a table at `path` was built from, read without its calls."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return str(data["digest"]) if isinstance(data, dict) else None
    except (OSError, ValueError, KeyError):
        return None


@dataclass(frozen=True)
class StudentCall:
    """One call the student's module answered in check: its function, arguments and output
    (or exception), and whether it modified an argument."""

    name: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    result: Any
    raised: str | None = None
    modified: bool = False


def causes(table: HintTable, function: str, calls: Sequence[StudentCall]) -> list[Model]:
    """The models that reproduce every known call of `function` (at least one wrong): the
    catalogue's when any fits, else the mutants' (none when more than MAX_NAMED fit)."""
    known = []
    for call in calls:
        if call.name != function or call.modified:
            continue
        key = arguments_key(call.args, call.kwargs)
        entry = None if key is None else table.calls.get(key)
        if entry is not None and entry.name == function:
            mine = {"raised": call.raised} if call.raised else projection(call.result)
            known.append((entry, mine))
    if not any(
        not same_projection(mine, entry.reference, table.rtol, table.atol) for entry, mine in known
    ):
        return []
    fitting: dict[str, list[Model]] = {"catalogue": [], "mutant": []}
    for index, model in enumerate(table.models):
        if model.target != function and model.kind == "mutant":
            continue
        if all(
            same_projection(mine, entry.models.get(index, entry.reference), table.rtol, table.atol)
            for entry, mine in known
        ) and any(index in entry.models for entry, _ in known):
            fitting[model.kind].append(model)
    if fitting["catalogue"]:
        return fitting["catalogue"]
    named = list({m.summary: m for m in fitting["mutant"]}.values())
    return named if len(named) <= MAX_NAMED else []


def sentence(found: Sequence[Model]) -> str | None:
    """The hint for the models found, in the grader's words (grading/diagnose.describe)."""
    if not found:
        return None
    if len(found) == 1:
        advice = f": {found[0].hint}" if found[0].hint else ""
        return f"{found[0].target}: {found[0].summary}{advice}"
    targets = {m.target for m in found}
    if all(m.kind == "mutant" for m in found) and len(targets) == 1:
        named = "; or ".join(m.summary for m in found)
        return f"{found[0].target}: each of these changes gives exactly your numbers: {named}"
    one = len(targets) == 1
    named = "; or ".join(
        f"{'' if one else m.target + ': '}{m.summary}" + (f" ({m.hint})" if m.hint else "")
        for m in found
    )
    return (
        f"{found[0].target + ': ' if one else ''}your results match {len(found)} known "
        f"mistakes, which give the same numbers here: {named}"
    )
