"""Mutation testing of an assessment: every mutant of the reference that the tests can tell
from it must lose points in its own part (the parts of the tests about the function it changes).

The survey (mutant_survey.py, a process of its own) classifies the mutants and runs the tests on
each; here each is judged: *caught*, *equivalent* (its outputs equal the reference's within the
rubric's tolerance on the tests' calls and on random probes: dropped), *waived* (the
assignment's mutation_waivers.toml says why no test need catch it: an equivalence the probes
missed, or a leniency the instructor wants), or a *survivor*, which is a missing test.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from autograder.course.assignment import WAIVERS_FILE, Assignment
from autograder.errors import ConfigError

SURVEY_TIMEOUT_S = 1800.0


@dataclass(frozen=True)
class Survivor:
    """A mutant no test catches: what an instructor needs to write the missing test."""

    key: str
    function: str
    line: int
    change: str
    sentence: str
    """The docstring sentence of the function that the change most likely breaks."""
    unseen: bool
    """No test's inputs show it at all (only random probes do)."""

    def describe(self) -> str:
        where = "no test's inputs show it" if self.unseen else "no test of its part fails"
        return (
            f"line {self.line}, {self.function}: {self.change} [{self.key}] ({where}); "
            f"docstring: {self.sentence!r}"
        )


@dataclass(frozen=True)
class MutationReport:
    """One assignment's mutation testing, in figures and survivors."""

    mutants: int
    equivalent: int
    caught: int
    waived: int
    survivors: tuple[Survivor, ...]
    stale_waivers: tuple[str, ...] = ()
    rows: tuple[Mapping[str, Any], ...] = field(default=(), repr=False)

    @property
    def score(self) -> float:
        """Caught among the mutants the tests must catch (neither equivalent nor waived)."""
        must = self.caught + len(self.survivors)
        return 1.0 if must == 0 else self.caught / must

    def summary(self) -> str:
        return (
            f"mutation score {100 * self.score:.1f} %: {self.caught} of "
            f"{self.caught + len(self.survivors)} caught, {len(self.survivors)} surviving; "
            f"{self.mutants} mutants, {self.equivalent} equivalent, {self.waived} waived"
        )

    def problems(self) -> list[str]:
        found = [f"survivor: {s.describe()}" for s in self.survivors]
        found += [f"{WAIVERS_FILE} waives a mutant that no longer exists: {k}"
                  for k in self.stale_waivers]  # fmt: skip
        return found


def survey(assignment: Assignment) -> dict[str, Any]:
    """The survey's document for `assignment` (its own process: it runs the tests in itself)."""
    command = [sys.executable, "-m", "autograder.authoring.mutant_survey",
               str(assignment.course.root), assignment.name]  # fmt: skip
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=SURVEY_TIMEOUT_S, check=False
    )
    if done.returncode != 0:
        tail = "\n".join(done.stderr.strip().splitlines()[-8:])
        raise ConfigError(f"the mutant survey of {assignment.name} failed:\n{tail}")
    document = json.loads(done.stdout)
    if not isinstance(document, dict):
        raise ConfigError(f"the mutant survey of {assignment.name} printed no document")
    return document


def judge(
    document: Mapping[str, Any], waivers: Mapping[str, str], docstrings: Mapping[str, str]
) -> MutationReport:
    """Each mutant of the survey judged against its own part's tests and the waivers."""
    tests: Mapping[str, Mapping[str, Any]] = document["tests"]
    rows: Sequence[Mapping[str, Any]] = document["mutants"]
    parts_of: dict[str, set[str]] = {}
    for test in tests.values():
        if test.get("function") and test.get("part"):
            parts_of.setdefault(str(test["function"]), set()).add(str(test["part"]))
    equivalent = caught = waived = 0
    survivors: list[Survivor] = []
    for row in rows:
        if row["status"] == "equivalent":
            equivalent += 1
            continue
        own = parts_of.get(row["function"])
        failed = row.get("failed", [])
        if row["status"] == "seen" and any(
            own is None or tests.get(n, {}).get("part") in own or n not in tests for n in failed
        ):
            caught += 1
        elif row["key"] in waivers:
            waived += 1
        else:
            survivors.append(
                Survivor(
                    key=row["key"],
                    function=row["function"],
                    line=int(row["line"]),
                    change=row["change"],
                    sentence=broken_sentence(docstrings.get(row["function"], ""), row),
                    unseen=row["status"] == "unseen",
                )
            )
    keys = {row["key"] for row in rows}
    stale = tuple(sorted(k for k in waivers if k not in keys))
    return MutationReport(len(rows), equivalent, caught, waived, tuple(survivors), stale,
                          tuple(rows))  # fmt: skip


def mutation_testing(assignment: Assignment) -> MutationReport:
    """Survey and judge one assignment."""
    document = survey(assignment)
    return judge(document, assignment.load_waivers(), docstrings_of(assignment))


def docstrings_of(assignment: Assignment) -> dict[str, str]:
    """Each public function's docstring in the reference (and each constant's, where one
    follows it), read from the source."""
    tree = ast.parse(assignment.reference.read_text(encoding="utf-8"))
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            found[node.name] = ast.get_docstring(node) or ""
    return found


def broken_sentence(docstring: str, row: Mapping[str, Any]) -> str:
    """The docstring's sentence sharing the most names with the changed code (its first
    sentence when none does): where the instructor's missing test should look."""
    sentences = [s.strip() for s in re.split(r"(?<=[.;:])\s+", " ".join(docstring.split())) if s]
    if not sentences:
        return ""
    names = set(re.findall(r"[A-Za-z_]\w*", f"{row.get('before', '')} {row.get('after', '')}"))
    names -= {"np", "sp", "dtype", "float64", "axis", "keepdims", "True", "False", "None"}

    def shared(sentence: str) -> int:
        return len(names & set(re.findall(r"[A-Za-z_]\w*", sentence)))

    best = max(sentences, key=shared)
    return best if shared(best) else sentences[0]
