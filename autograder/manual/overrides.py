"""An instructor's override of one automatic test's or part's score, with its reason kept."""

from __future__ import annotations

import getpass
from pathlib import Path

from autograder.course.rubric import AssignmentSpec
from autograder.errors import ConfigError
from autograder.grading.gradebook import Gradebook
from autograder.manual.store import ManualStore, OverrideChange


def override(
    folder: Path,
    spec: AssignmentSpec,
    student: str,
    *,
    test: str | None,
    part: str | None,
    points: float,
    reason: str,
    who: str | None = None,
) -> OverrideChange:
    """Set `student`'s points for one test (by node id) or automatic part, within its maximum."""
    if (test is None) == (part is None):
        raise ConfigError("name either --test NODEID or --part PART")
    if not reason.strip():
        raise ConfigError("--reason must say why the score changes")
    with Gradebook(folder) as book:
        entries = {e.student: e for e in book.entries(spec.name)}
    entry = entries.get(student)
    if entry is None:
        raise ConfigError(f"{folder} holds no grade of {student!r} for {spec.name}")
    if test is not None:
        found = [t for t in entry.result.tests if t.nodeid == test]
        if not found:
            raise ConfigError(f"{student!r} has no test {test!r} in {spec.name}")
        before, most, kind, target = found[0].score, found[0].max_score, "test", test
    else:
        assert part is not None
        if part in {m.name for m in spec.manual}:
            raise ConfigError(f"{part!r} is graded by people: use `autograder manual import`")
        by_part = entry.result.part_scores()
        if part not in by_part:
            raise ConfigError(f"{spec.name} has no automatic part {part!r} graded for {student!r}")
        with ManualStore(folder) as store:
            tests = {o.target: o.points for o in store.overrides(spec.name).get(student, [])
                     if o.kind == "test"}  # fmt: skip
        before = sum(tests.get(t.nodeid, t.score) for t in entry.result.tests if t.part == part)
        most, kind, target = by_part[part][1], "part", part
    if not 0 <= points <= most:
        raise ConfigError(f"--points must be between 0 and {most:g}, got {points:g}")
    with ManualStore(folder) as store:
        return store.override(
            spec.name, student, kind=kind, target=target, points=points, before=before,
            who=who or _user(), reason=reason,
        )  # fmt: skip


def _user() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no user name (a container without one)
        return "unknown"
