"""Points for functions defined in the current process: what a notebook's test cells print and
return, for nbgrader's partial credit."""

from __future__ import annotations

import runpy
import shutil
import types
from pathlib import Path

import pytest

from autograder.authoring.inline import part_points, run_public_part, run_whole
from autograder.course.course import Course
from autograder.course.rubric import AssignmentSpec
from autograder.errors import ConfigError


def test_part_points_are_the_rubric_points_and_failures_are_explained(
    course: Course, spec: AssignmentSpec, capsys: pytest.CaptureFixture[str]
) -> None:
    sample = course.assignment_dir(spec) / "sample_class" / "bug_sin_cos_swapped.py"
    namespace = runpy.run_path(str(sample))
    earned = {p.name: part_points(p.name, namespace, course=course.root) for p in spec.parts}
    printed = capsys.readouterr()
    # the kit's grade of this sample (tests/test_grade_sample_class.py): 80, all lost in encoding
    assert earned == {"encoding": 10.0, "attention": 25.0, "rotation": 15.0, "symbolic": 15.0,
                      "permutation": 15.0}  # fmt: skip
    assert "are sin and cos swapped?" in printed.out
    assert "encoding: 10 / 30 points" in printed.out
    assert printed.err == ""  # nbgrader gives a cell that writes to stderr no credit


def test_the_whole_reference_earns_full_marks_and_an_unknown_part_is_refused(
    course: Course, spec: AssignmentSpec
) -> None:
    namespace = runpy.run_path(str(course.reference_path(spec)))
    assert run_whole(course, None, namespace) == spec.max_score
    with pytest.raises(ConfigError, match="no part 'decoding'"):
        part_points("decoding", namespace, course=course.root)


def test_public_points_next_to_the_released_tests(
    tmp_path: Path, course: Course, spec: AssignmentSpec, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The student's notebook runs the public tests from the folder it was released in."""
    shutil.copytree(course.template_dir, tmp_path / "mine")
    monkeypatch.chdir(tmp_path / "mine")
    namespace = runpy.run_path(str(course.reference_path(spec)))
    outcomes = run_public_part("encoding", types.SimpleNamespace(**namespace))
    assert outcomes and all(o.status == "passed" and o.part == "encoding" for o in outcomes)
    public = sum(o.points or 0 for o in outcomes)
    assert 0 < public < spec.part("encoding").points  # the hidden tests hold the rest
    assert part_points("encoding", namespace, tests="public") == public
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match=r"no pytest\.ini above"):
        part_points("encoding", namespace, tests="public")
