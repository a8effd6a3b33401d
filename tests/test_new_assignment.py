"""`autograder new`: a new assignment in one command, which passes `release`, `validate` and
the course tests as it is; every name that is taken or not a plain folder name is refused
before anything is written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.authoring.new_assignment import new_assignment
from autograder.authoring.release import check_release, write_release
from autograder.authoring.validate import validate
from autograder.cli import main
from autograder.course.course import Course
from autograder.errors import ConfigError


def test_a_new_course_gets_an_assignment_that_passes_everything(tmp_path: Path) -> None:
    made = new_assignment(tmp_path, "demo_assignment")
    course = Course.load(tmp_path)
    assignment = course.assignment("demo_assignment")
    assert {p.relative_to(tmp_path).as_posix() for p in made.files} == {
        "grading.toml",
        "reference/demo_assignment.py",
        "assignments/demo_assignment/README.md",
        "assignments/demo_assignment/public_tests/test_demo_assignment.py",
        "assignments/demo_assignment/hidden_tests/test_hidden_demo_assignment.py",
        "assignments/demo_assignment/sample_class/correct_loops.py",
        "assignments/demo_assignment/sample_class/expected.toml",
    }
    assert assignment.spec.module == "demo_assignment.py" and assignment.spec.max_score == 10
    write_release(assignment)
    check_release(assignment)
    assert [f"{v.name}: {v.problem}" for v in validate(assignment) if not v.ok] == []
    environment = {**os.environ, "AUTOGRADER_COURSE": str(tmp_path)}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
               "--pyargs", "autograder.authoring.course_tests"]  # fmt: skip
    done = subprocess.run(
        command, cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert " passed" in done.stdout and "failed" not in done.stdout


def test_a_second_assignment_is_appended_and_a_taken_name_refused(tmp_path: Path) -> None:
    new_assignment(tmp_path, "first")
    new_assignment(tmp_path, "second")
    assert [a.name for a in Course.load(tmp_path).assignments] == ["first", "second"]
    before = (tmp_path / "grading.toml").read_text(encoding="utf-8")
    with pytest.raises(ConfigError, match="exists already"):
        new_assignment(tmp_path, "first")
    (tmp_path / "reference" / "third.py").write_text("x = 1\n")
    with pytest.raises(ConfigError, match=r"exists already: reference/third\.py"):
        new_assignment(tmp_path, "third")
    assert (tmp_path / "grading.toml").read_text(encoding="utf-8") == before


@pytest.mark.parametrize(
    "name",
    ["../escape", "a/b", "Capital", "with space", "1st", "", "x" * 65, "shared", "tests",
     "naïve", "dot.ted", "-dash", "semi;colon", "tab\there", "new\nline", "."],
)  # fmt: skip
def test_a_name_that_is_not_a_plain_folder_name_is_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(ConfigError, match="not a plain assignment name"):
        new_assignment(tmp_path, name)
    assert list(tmp_path.iterdir()) == []


def test_from_an_existing_assignment_everything_is_renamed(course_copy: Course) -> None:
    made = new_assignment(course_copy.root, "vectors_two", copy_of="vectors")
    course = Course.load(course_copy.root)
    copy = course.assignment("vectors_two")
    original = course.assignment("vectors")
    assert copy.spec.module == "vectors_two.py"
    assert [p.name for p in copy.spec.parts] == [p.name for p in original.spec.parts]
    assert copy.spec.manual == original.spec.manual and copy.spec.seed == original.spec.seed
    readme = (copy.folder / "README.md").read_text(encoding="utf-8")
    assert "vectors_two.py" in readme and "`vectors.py`" not in readme
    assert (copy.folder / "sample_class" / "expected.toml").is_file()
    assert all(p.exists() for p in made.files)
    write_release(copy)
    check_release(copy)


def test_from_an_unknown_assignment_is_refused(course_copy: Course) -> None:
    with pytest.raises(ConfigError, match="--from nowhere: no such assignment"):
        new_assignment(course_copy.root, "fresh", copy_of="nowhere")
    assert not (course_copy.root / "assignments" / "fresh").exists()


def test_the_commands_new_and_samples(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    course = tmp_path / "course"
    course.mkdir()
    assert main(["new", "first", "--course", str(course)]) == 0
    assert "wrote grading.toml" in capsys.readouterr().out
    assert main(["new", "first", "--course", str(course)]) == 2
    assert "exists already" in capsys.readouterr().err
    assert main(["new", "../up", "--course", str(course)]) == 2
    out = tmp_path / "samples"
    (out / "first").mkdir(parents=True)
    (out / "first" / "stale.py").write_text("x = 1\n")
    assert main(["samples", "--out", str(out), "--course", str(course)]) == 0
    assert sorted(p.name for p in (out / "first").iterdir()) == [
        "correct_loops.py", "hostile_exit_at_import.py", "hostile_infinite_loop.py",
    ]  # fmt: skip
