"""Points for functions defined in the current process: what a notebook's test cells print and
return, for nbgrader's partial credit."""

from __future__ import annotations

import runpy
import shutil
import types
from pathlib import Path

import pytest

from autograder.authoring.inline import part_points, run_public_part, run_whole
from autograder.course.assignment import Assignment
from autograder.course.rubric import AssignmentSpec
from autograder.errors import ConfigError


def test_part_points_are_the_rubric_points_and_failures_are_explained(
    assignment: Assignment, spec: AssignmentSpec, capsys: pytest.CaptureFixture[str]
) -> None:
    namespace = runpy.run_path(str(assignment.sample_class / "bug_normalise_by_sum.py"))
    root = assignment.course.root
    earned = {
        p.name: part_points(p.name, namespace, course=root, assignment="vectors")
        for p in spec.parts
    }
    printed = capsys.readouterr()
    # the kit's grade of this sample (tests/test_grade_sample_class.py): 6, all lost in numeric
    assert earned == {"numeric": 2.0, "symbolic": 4.0}
    assert "normalise([3, 4]) should be [0.6, 0.8]; yours is [0.4286, 0.5714]" in printed.out
    assert "numeric: 2 / 6 points" in printed.out
    assert "normalise: " in printed.out  # grouped by function, as `autograder check` groups
    fix_first = "normalise: 3 of 4 failed\n  what to fix first: your results match 2 known"
    assert fix_first in printed.out
    assert printed.err == ""  # nbgrader gives a cell that writes to stderr no credit


def test_the_whole_reference_earns_full_marks_and_an_unknown_part_is_refused(
    assignment: Assignment, spec: AssignmentSpec
) -> None:
    namespace = runpy.run_path(str(assignment.reference))
    assert run_whole(assignment, namespace) == spec.max_score
    root = assignment.course.root
    with pytest.raises(ConfigError, match="no part 'decoding'"):
        part_points("decoding", namespace, course=root, assignment="vectors")
    with pytest.raises(ConfigError, match="name one with --assignment"):
        part_points("numeric", namespace, course=root)  # two assignments: which one?


def test_public_points_next_to_the_released_tests(
    tmp_path: Path, assignment: Assignment, spec: AssignmentSpec, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The student's notebook runs the public tests from the folder it was released in."""
    shutil.copytree(assignment.release_dir, tmp_path / "mine")
    monkeypatch.chdir(tmp_path / "mine")
    namespace = runpy.run_path(str(assignment.reference))
    outcomes = run_public_part("numeric", types.SimpleNamespace(**namespace))
    assert outcomes and all(o.status == "passed" and o.part == "numeric" for o in outcomes)
    public = sum(o.points or 0 for o in outcomes)
    assert 0 < public < spec.part("numeric").points  # the hidden tests hold the rest
    assert part_points("numeric", namespace, tests="public") == public
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match=r"no pytest\.ini above"):
        part_points("numeric", namespace, tests="public")
