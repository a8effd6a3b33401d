"""Read `grading.toml` into a frozen Rubric, with errors that name the file, the key and the fix."""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import cached_property
from pathlib import Path
from typing import Any, Literal, NoReturn

from autograder.course.extensions import Extension, read_extensions
from autograder.course.rubric_schema import allowed
from autograder.errors import ConfigError
from autograder.sandbox.limits import Limits
from autograder.tolerance import DEFAULT_ATOL, DEFAULT_RTOL

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib


@dataclass(frozen=True)
class SymbolicPolicy:
    """How equivalence is decided; the rubric's `[assignments.NAME.symbolic]` table sets it."""

    screen_points: int = 50
    proof_timeout_s: float = 2.0
    undecided: Literal["full", "none"] = "full"
    """Credit when the screen passes but SymPy cannot prove equality in time."""
    exact: bool = False
    """Refuse floating-point numbers in answers (0.5 where 1/2 is meant)."""


@dataclass(frozen=True)
class Part:
    """A graded part of an assignment: a group of tests worth `points` in all."""

    name: str
    title: str
    points: float


@dataclass(frozen=True)
class ManualPart:
    """A part people grade (a written explanation): the notebook's manually graded cell."""

    name: str
    title: str
    points: float
    rubric: str
    """What earns the points: shown to graders, never used by the autograder."""
    answer_file: str | None = None
    """For .py, folder and zip submissions: the file beside the module holding the answer
    (a plain name such as `why_unit.md`); a notebook's answer is its cell with this grade_id."""


@dataclass(frozen=True)
class LatePolicy:
    """Lateness: after `due` plus the grace period, `penalty_per_day` percent of the
    assignment's full points (automatic and written) comes off the final grade per started day
    (after_grading/final_grade.py); after `cutoff_days` days late the score is zero."""

    due: datetime
    grace_minutes: float = 0.0
    penalty_per_day: float = 0.0
    cutoff_days: int | None = None
    extensions: tuple[Extension, ...] = ()
    """Students with their own due date (`extensions = "FILE"`, extensions.py): the grace
    period, the penalty and the cut-off count from it."""

    def due_for(self, student: str | None) -> datetime:
        """The due date of `student`: their extension's, or the rubric's."""
        return self._by_student.get(student, self.due) if student else self.due

    @cached_property
    def _by_student(self) -> dict[str, datetime]:
        """Each extended student's date, looked up once per policy (a class of 20,000)."""
        return {e.student: e.due for e in self.extensions}

    @property
    def last_due(self) -> datetime:
        """The latest due date of anyone: the rubric's, or the last extension's."""
        return max([self.due, *(e.due for e in self.extensions)])


@dataclass(frozen=True)
class AssignmentSpec:
    """One assignment: its name, the file a student submits, and its parts."""

    name: str
    title: str
    module: str
    parts: tuple[Part, ...]
    limits: Limits = field(default_factory=Limits)
    bubblewrap: str = "auto"
    """"auto" (use it where it works), "required" (refuse to grade without it) or "off"."""
    isolation: str = "confined"
    """"confined": refuse to grade where neither bubblewrap nor Landlock can confine the worker's
    file access; "unsafe": grade anyway, with the weaker layers each result lists."""
    rtol: float = DEFAULT_RTOL
    atol: float = DEFAULT_ATOL
    seed: int = 0
    """Seeds the hidden tests' random inputs; students never see it."""
    public_visibility: str = "visible"
    hidden_visibility: str = "after_due_date"
    score_before_due: str = "shown_tests"
    """What Gradescope shows as the score before the due date: "shown_tests" (the points of
    the tests shown at once; a regrade after the due date records the full score) or "hidden"
    (the whole result, score included, is shown only after the due date)."""
    symbolic: SymbolicPolicy = field(default_factory=SymbolicPolicy)
    late: LatePolicy | None = None
    attempts: str = "last"
    """Which of a student's attempts counts: "last", "best" (by final score) or
    "last_before_due" (their own due date; when none is before it, the earliest late one,
    with its penalty)."""
    never_lower: bool = False
    """A regrade that scores an attempt lower keeps the earlier result."""
    manual: tuple[ManualPart, ...] = ()
    """Graded by people, outside `max_score` (the automatic points)."""
    may_modify_inputs: tuple[str, ...] = ()
    """Functions allowed to modify the arrays they are given; every other public function of
    the student's module must leave them unchanged (a call that modifies one fails its test)."""
    preload: tuple[str, ...] = ()
    """Modules the assignment's tests or students' code import, imported once by the grader
    and its sandbox before any submission (beyond the kit's own list)."""

    @property
    def tolerance(self) -> dict[str, float]:
        return {"rtol": self.rtol, "atol": self.atol}

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
    install: str | None = None
    """Where students install the kit from (`[release] install`, a pip requirement); None: from
    the wheelhouse `release --wheelhouse` puts in each released folder."""

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
    reader.only_keys(data, "", allowed(""))
    assignments = reader.table(data, "assignments")
    if not assignments:
        reader.fail("assignments", "defines no assignment; add an [assignments.NAME] table")
    specs = tuple(
        _assignment(reader, name, reader.table(assignments, name, f"assignments.{name}"))
        for name in assignments
    )
    return Rubric(path=path, assignments=specs, install=_install(reader, data))


INSTALL_REFUSED = re.compile(r"[\"'`$\\\x00-\x1f\x7f]")
"""What an install source may not hold: it is printed inside quotes in the students' README
and their workflow, where a quote, a `$` or a line break would run something else."""


def _install(reader: _Reader, data: Mapping[str, Any]) -> str | None:
    """`[release] install`: a pip requirement students install the kit from (a URL, a wheel's
    address, `git+https://…`, a package on the course's own index)."""
    if "release" not in data:
        return None
    table = reader.table(data, "release")
    reader.only_keys(table, "release", allowed("release"))
    if "install" not in table:
        return None
    install = reader.string(table, "install", "release").strip()
    if not install or INSTALL_REFUSED.search(install):
        reader.fail("release.install", "must be one pip requirement, with no quote, $, "
                    "backslash or line break")  # fmt: skip
    return install


ASSIGNMENT_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}")
"""An assignment's name is a folder name (assignments/NAME, student_template/NAME, NAME.zip)
and a gradebook key: letters, digits and underscores, starting with a letter."""


def _assignment(reader: _Reader, name: str, table: Mapping[str, Any]) -> AssignmentSpec:
    key = f"assignments.{name}"
    if not ASSIGNMENT_NAME.fullmatch(name):
        reader.fail(
            key,
            "an assignment's name names its folders: use letters, digits and underscores, "
            f"starting with a letter (at most 64), got {name!r}",
        )
    reader.only_keys(table, key, allowed("assignments.NAME"))
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
        reader.only_keys(part, part_key, allowed("assignments.NAME.parts.PART"))
        points = reader.number(part, "points", part_key)
        if points <= 0:
            reader.fail(f"{part_key}.points", f"must be positive, got {points}")
        parts.append(
            Part(name=part_name, title=reader.string(part, "title", part_key), points=points)
        )
    total = sum(part.points for part in parts)
    if "points" in table and reader.number(table, "points", key) != total:
        reader.fail(
            f"{key}.points",
            f"is {table['points']}, but its parts add up to {total:g}: change one or the other",
        )
    tolerance = reader.table(table, "tolerance", f"{key}.tolerance") if "tolerance" in table else {}
    reader.only_keys(tolerance, f"{key}.tolerance", allowed("assignments.NAME.tolerance"))
    visibility = (
        reader.table(table, "visibility", f"{key}.visibility") if "visibility" in table else {}
    )
    reader.only_keys(visibility, f"{key}.visibility", allowed("assignments.NAME.visibility"))
    score_before_due = (
        reader.string(visibility, "score_before_due", f"{key}.visibility")
        if "score_before_due" in visibility
        else "shown_tests"
    )
    if score_before_due not in SCORE_BEFORE_DUE:
        reader.fail(
            f"{key}.visibility.score_before_due",
            f"must be one of {', '.join(SCORE_BEFORE_DUE)}, got {score_before_due!r}",
        )
    limits, bubblewrap, isolation = _limits(reader, table, f"{key}.limits")
    seed = reader.number(table, "seed", key) if "seed" in table else 0
    attempts = reader.string(table, "attempts", key) if "attempts" in table else "last"
    if attempts not in ATTEMPT_RULES:
        reader.fail(
            f"{key}.attempts", f"must be one of {', '.join(ATTEMPT_RULES)}, got {attempts!r}"
        )
    never_lower = table.get("never_lower", False)
    if not isinstance(never_lower, bool):
        reader.fail(f"{key}.never_lower", f"must be true or false, got {never_lower!r}")
    return AssignmentSpec(
        name=name,
        title=reader.string(table, "title", key),
        module=module,
        parts=tuple(parts),
        limits=limits,
        bubblewrap=bubblewrap,
        isolation=isolation,
        rtol=reader.number(tolerance, "rtol", f"{key}.tolerance")
        if "rtol" in tolerance
        else DEFAULT_RTOL,
        atol=reader.number(tolerance, "atol", f"{key}.tolerance")
        if "atol" in tolerance
        else DEFAULT_ATOL,
        seed=int(seed),
        public_visibility=_visibility(reader, visibility, "public", f"{key}.visibility", "visible"),
        hidden_visibility=_visibility(
            reader, visibility, "hidden", f"{key}.visibility", "after_due_date"
        ),
        score_before_due=score_before_due,
        symbolic=_symbolic(reader, table, f"{key}.symbolic"),
        late=_late(reader, table, f"{key}.late"),
        attempts=attempts,
        never_lower=never_lower,
        manual=_manual(reader, table, f"{key}.manual", {part.name for part in parts}),
        preload=_preload(reader, table, f"{key}.preload"),
        may_modify_inputs=_names(reader, table, "may_modify_inputs", key),
    )


def _names(reader: _Reader, table: Mapping[str, Any], name: str, key: str) -> tuple[str, ...]:
    names = table.get(name, [])
    if not isinstance(names, list) or not all(
        isinstance(n, str) and n.isidentifier() for n in names
    ):
        reader.fail(f"{key}.{name}", f"must be a list of function names, got {names!r}")
    return tuple(names)


def _preload(reader: _Reader, table: Mapping[str, Any], key: str) -> tuple[str, ...]:
    names = table.get("preload", [])
    if not isinstance(names, list) or not all(
        isinstance(name, str) and all(part.isidentifier() for part in name.split("."))
        for name in names
    ):
        reader.fail(key, f"must be a list of module names such as 'scipy.linalg', got {names!r}")
    return tuple(names)


def _manual(
    reader: _Reader, table: Mapping[str, Any], key: str, automatic: set[str]
) -> tuple[ManualPart, ...]:
    manual = reader.table(table, "manual", key) if "manual" in table else {}
    parts = []
    for name in manual:
        part_key = f"{key}.{name}"
        part = reader.table(manual, name, part_key)
        reader.only_keys(part, part_key, allowed("assignments.NAME.manual.PART"))
        if name in automatic:
            reader.fail(part_key, f"{name!r} is an automatic part already; name it differently")
        points = reader.number(part, "points", part_key)
        if points <= 0:
            reader.fail(f"{part_key}.points", f"must be positive, got {points}")
        parts.append(
            ManualPart(
                name=name,
                title=reader.string(part, "title", part_key),
                points=points,
                rubric=reader.string(part, "rubric", part_key),
                answer_file=_answer_file(reader, part, part_key),
            )
        )
    return tuple(parts)


_PLAIN_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}")


def _answer_file(reader: _Reader, part: Mapping[str, Any], key: str) -> str | None:
    """A plain relative file name: no folder, no leading dot, no `..`, at most 100 characters."""
    if "answer_file" not in part:
        return None
    name = part["answer_file"]
    if not isinstance(name, str) or not _PLAIN_NAME.fullmatch(name) or ".." in name:
        reader.fail(
            f"{key}.answer_file",
            f"must be a plain file name such as 'why_unit.md' (letters, digits, _ . -; no "
            f"folder), got {name!r}",
        )
    return name


LATE_KEYS = ("grace_minutes", "penalty_per_day", "cutoff_days")
ATTEMPT_RULES = ("last", "best", "last_before_due")


def _late(reader: _Reader, table: Mapping[str, Any], key: str) -> LatePolicy | None:
    if "late" not in table:
        return None
    given = reader.table(table, "late", key)
    reader.only_keys(given, key, allowed("assignments.NAME.late"))
    due = given.get("due")
    example = "a date and time such as 2026-12-01T23:59:00Z"
    if isinstance(due, str):
        try:
            due = datetime.fromisoformat(due)
        except ValueError:
            reader.fail(f"{key}.due", f"must be {example}, got {due!r}")
    if not isinstance(due, datetime):
        reader.fail(f"{key}.due", f"must be {example}, got {_kind(due)}")
    numbers = {name: reader.number(given, name, key) for name in LATE_KEYS if name in given}
    if any(value < 0 for value in numbers.values()):
        reader.fail(key, "grace_minutes, penalty_per_day and cutoff_days cannot be negative")
    cutoff = numbers.get("cutoff_days")
    due = due if due.tzinfo else due.replace(tzinfo=timezone.utc)
    extensions: tuple[Extension, ...] = ()
    if "extensions" in given:
        written = reader.string(given, "extensions", key)
        extensions = read_extensions(reader.path.parent / written, due)
    return LatePolicy(
        due=due,
        grace_minutes=numbers.get("grace_minutes", 0.0),
        penalty_per_day=numbers.get("penalty_per_day", 0.0),
        cutoff_days=None if cutoff is None else int(cutoff),
        extensions=extensions,
    )


def _symbolic(reader: _Reader, table: Mapping[str, Any], key: str) -> SymbolicPolicy:
    if "symbolic" not in table:
        return SymbolicPolicy()
    given = reader.table(table, "symbolic", key)
    reader.only_keys(given, key, allowed("assignments.NAME.symbolic"))
    points = reader.number(given, "screen_points", key) if "screen_points" in given else 50
    timeout = reader.number(given, "proof_timeout_s", key) if "proof_timeout_s" in given else 2.0
    undecided = reader.string(given, "undecided", key) if "undecided" in given else "full"
    if points < 1 or timeout <= 0:
        reader.fail(key, "screen_points and proof_timeout_s must be positive")
    if undecided not in ("full", "none"):
        reader.fail(f"{key}.undecided", f"must be full or none, got {undecided!r}")
    exact = given.get("exact", False)
    if not isinstance(exact, bool):
        reader.fail(f"{key}.exact", f"must be true or false, got {exact!r}")
    return SymbolicPolicy(
        exact=exact,
        screen_points=int(points),
        proof_timeout_s=timeout,
        undecided="full" if undecided == "full" else "none",
    )


VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")
SCORE_BEFORE_DUE = ("shown_tests", "hidden")


def _visibility(
    reader: _Reader, table: Mapping[str, Any], name: str, key: str, default: str
) -> str:
    if name not in table:
        return default
    value = reader.string(table, name, key)
    if value not in VISIBILITIES:
        reader.fail(f"{key}.{name}", f"must be one of {', '.join(VISIBILITIES)}, got {value!r}")
    return value


def _limits(reader: _Reader, table: Mapping[str, Any], key: str) -> tuple[Limits, str, str]:
    if "limits" not in table:
        return Limits(), "auto", "confined"
    given = reader.table(table, "limits", key)
    fields = set(Limits().to_dict())
    reader.only_keys(given, key, allowed("assignments.NAME.limits"))
    values: dict[str, Any] = {}
    for name in sorted(fields & set(given)):
        number = reader.number(given, name, key)
        if number <= 0:
            reader.fail(f"{key}.{name}", f"must be positive, got {number:g}")
        values[name] = number if name.endswith("_s") and "cpu" not in name else int(number)
    bubblewrap = reader.string(given, "bubblewrap", key) if "bubblewrap" in given else "auto"
    if bubblewrap not in ("auto", "required", "off"):
        reader.fail(f"{key}.bubblewrap", f"must be auto, required or off, got {bubblewrap!r}")
    isolation = reader.string(given, "isolation", key) if "isolation" in given else "confined"
    if isolation not in ("confined", "unsafe"):
        reader.fail(f"{key}.isolation", f"must be confined or unsafe, got {isolation!r}")
    return Limits(**values), bubblewrap, isolation


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
