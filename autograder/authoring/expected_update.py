"""Measured scores written into a sample class's expected.toml, in place, for the author to
review (`git diff`): only the `score` and `lost` lines of the samples that changed are
rewritten; every comment, blank line and other key stays as it was.

The file is edited line by line, then read back: unless it now says exactly what was asked and
nothing else changed, nothing is written and the entry is named (an unusual layout, such as a
dotted key, is left to the author's hand).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autograder.errors import ConfigError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_ANY_HEADER = re.compile(r"\s*\[")


@dataclass(frozen=True)
class Update:
    """What a sample's entry must say now: its score, and the parts it loses (None: as is)."""

    score: float
    lost: Sequence[str] | None = None


def number(value: float) -> str:
    """A score as expected.toml and the messages write it: 46, 45.5 (never 4.6e+01)."""
    written = f"{value:.6f}".rstrip("0").rstrip(".")
    return "0" if written == "-0" else written


def update_expected(path: Path, updates: Mapping[str, Update], *, where: str) -> None:
    """Rewrite `path` (named `where` in messages) with each sample's new score and parts lost.

    Raises ConfigError naming the entry when it cannot be changed in place, before writing."""
    text = path.read_text(encoding="utf-8")
    before = tomllib.loads(text)
    lines = text.splitlines(keepends=True)
    for name, update in updates.items():
        lines = _updated(lines, name, update, f"{where} [{name}]")
    after_text = "".join(lines)
    wanted = {name: dict(entry) for name, entry in before.items()}
    for name, update in updates.items():
        wanted[name]["score"] = _read_back(number(update.score))
        if update.lost is not None:
            wanted[name].pop("lost", None)
            if update.lost:
                wanted[name]["lost"] = list(update.lost)
    try:
        after = tomllib.loads(after_text)
    except tomllib.TOMLDecodeError:
        after = {}
    if after != wanted:
        changed = [n for n in updates if after.get(n) != wanted[n]] or list(updates)
        raise ConfigError(
            f"{where} [{changed[0]}]: its entry cannot be updated in place (write its table "
            'as `["NAME"]` followed by `score = N` and `lost = [...]` lines, or edit it by '
            "hand); nothing was written"
        )
    path.write_text(after_text, encoding="utf-8")


def _read_back(written: str) -> Any:
    return tomllib.loads(f"x = {written}")["x"]


def _updated(lines: list[str], name: str, update: Update, where: str) -> list[str]:
    start, end = _table(lines, name, where)
    body = lines[start:end]
    score_at = _key_line(body, "score")
    if score_at is None:
        raise ConfigError(f"{where}: no `score = ...` line to update")
    body[score_at] = _with_value(body[score_at], "score", number(update.score))
    if update.lost is not None:
        new_lost = "[" + ", ".join(json.dumps(p, ensure_ascii=False) for p in update.lost) + "]"
        lost_at = _key_line(body, "lost")
        indent = body[score_at][: len(body[score_at]) - len(body[score_at].lstrip())]
        if lost_at is not None:
            closing = _closing_line(body, lost_at, where)
            if not update.lost:  # losing nothing is the default: the key goes
                kept = []
            elif closing == lost_at:
                kept = [_with_value(body[lost_at], "lost", new_lost)]
            else:  # a multi-line array becomes one line
                kept = [f"{indent}lost = {new_lost}\n"]
            body[lost_at : closing + 1] = kept
        elif update.lost:
            body.insert(score_at + 1, f"{indent}lost = {new_lost}\n")
    return lines[:start] + body + lines[end:]


def _table(lines: list[str], name: str, where: str) -> tuple[int, int]:
    """The lines of `[name]`'s key/value pairs: after its header, up to the next header."""
    spellings = [re.escape(f'"{name}"'), re.escape(f"'{name}'")]
    if _BARE_KEY.fullmatch(name):
        spellings.append(re.escape(name))
    header = re.compile(rf"\s*\[\s*(?:{'|'.join(spellings)})\s*\]\s*(?:#.*)?$")
    found = [i for i, line in enumerate(lines) if header.match(line)]
    if len(found) != 1:
        raise ConfigError(f'{where}: no table header ["{name}"] of its own to update')
    start = found[0] + 1
    end = next((i for i in range(start, len(lines)) if _ANY_HEADER.match(lines[i])), len(lines))
    return start, end


def _key_line(body: list[str], key: str) -> int | None:
    pattern = re.compile(rf"\s*{key}\s*=")
    return next((i for i, line in enumerate(body) if pattern.match(line)), None)


def _closing_line(body: list[str], at: int, where: str) -> int:
    """The line where the array opened on line `at` closes (part names hold no bracket)."""
    for index in range(at, len(body)):
        if "]" in body[index].split("#", 1)[0]:
            return index
    raise ConfigError(f"{where}: its `lost` array does not close")


def _with_value(line: str, key: str, value: str) -> str:
    """`line` (`key = OLD  # comment`) with `value` in place of OLD, its comment kept."""
    match = re.match(rf"(\s*{key}\s*=\s*)(.*?)(\s*#.*)?(\r?\n)?$", line)
    assert match is not None  # _key_line found `key =` at its start
    return f"{match.group(1)}{value}{match.group(3) or ''}{match.group(4) or ''}"
