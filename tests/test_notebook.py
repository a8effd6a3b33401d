"""The assignment as a notebook: the kit's release, and the real nbgrader round trip.

nbgrader's own commands run here (generate_assignment, autograde, generate_feedback) in a
temporary course folder written by `autograder release --nbgrader`; the kit grades the same
notebooks in its sandbox, and the automatic points must agree on every one.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autograder.authoring.notebook import instructor_notebook, student_notebook
from autograder.cli import main
from autograder.course.course import Course
from autograder.course.rubric import AssignmentSpec
from autograder.grading.runners import Runner

BIN = Path(sys.executable).parent
SWAP = (
    ("np.sin(angles[:, 0::2])", "np.COS"),
    ("np.cos(angles[:, 1::2])", "np.sin(angles[:, 1::2])"),
    ("np.COS", "np.cos(angles[:, 0::2])"),
)


def code_of(notebook_text: str, kind: str = "") -> str:
    cells = json.loads(notebook_text)["cells"]
    return "\n".join("".join(c["source"]) for c in cells if kind in ("", c["cell_type"]))


def test_the_students_notebook_has_stubs_public_tests_and_no_answers(
    course: Course, spec: AssignmentSpec, reference_line: str
) -> None:
    student = code_of(student_notebook(course, spec))
    instructor = code_of(instructor_notebook(course, spec))
    assert reference_line in instructor and reference_line not in student
    for secret in (
        "BEGIN SOLUTION",
        "HIDDEN TESTS",
        '"all"',
        str(course.root),
        "is permutation-equivariant",
    ):
        assert secret not in student, secret

    def stubs(text: str) -> int:
        return sum(line.strip() == "raise NotImplementedError()" for line in text.splitlines())

    module = (course.template_dir / spec.module).read_text(encoding="utf-8")
    assert stubs(code_of(student_notebook(course, spec), "code")) == stubs(module) == 9
    assert "RELATIVE_POSITION_PROOF: list[tuple[str, str]] = []" in student
    assert "YOUR ANSWER HERE" in student
    cells = json.loads(student_notebook(course, spec))["cells"]
    points = {c["metadata"]["nbgrader"]["grade_id"]: c["metadata"]["nbgrader"].get("points")
              for c in cells if "nbgrader" in c["metadata"]}  # fmt: skip
    assert {k: v for k, v in points.items() if v} == {
        **{f"test_{p.name}": p.points for p in spec.parts},
        "why_position": 10,
    }


@pytest.fixture(scope="module")
def reference_line() -> str:
    return "encoding[:, 0::2] = np.sin(angles[:, 0::2])"


def test_the_kit_grades_the_notebooks(tmp_path: Path, course: Course, spec: AssignmentSpec) -> None:
    solved = tmp_path / "solved.ipynb"
    solved.write_text(instructor_notebook(course, spec), encoding="utf-8")
    stub = tmp_path / "stub.ipynb"
    stub.write_text(student_notebook(course, spec), encoding="utf-8")
    with Runner(course, spec) as runner:
        assert runner.grade(solved).score == spec.max_score
        assert runner.grade(stub).score == 0


def nbgrader(course_dir: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(
        [str(BIN / "nbgrader"), *arguments], cwd=course_dir, env=environment,
        capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done


@pytest.mark.slow
def test_nbgrader_round_trip_agrees_with_the_kit(
    tmp_path: Path, course_copy: Course, spec: AssignmentSpec, reference_line: str
) -> None:
    course = course_copy
    course_dir = tmp_path / "nbgrader_course"
    assert main(["release", "--course", str(course_copy.root), "--nbgrader", str(course_dir)]) == 0
    name = spec.name
    source = course_dir / "source" / name / f"{name}.ipynb"
    assert (course_dir / "source" / name / "tests" / "test_encoding.py").is_file()
    nbgrader(course_dir, "generate_assignment", name, "--force")
    released = (course_dir / "release" / name / f"{name}.ipynb").read_text(encoding="utf-8")
    for secret in ("BEGIN SOLUTION", "HIDDEN TESTS", '"all"', reference_line):
        assert secret not in released, secret

    swapped = source.read_text(encoding="utf-8")
    for old, new in SWAP:
        swapped = swapped.replace(old, new)
    assert swapped != source.read_text(encoding="utf-8")
    notebooks = {"correct": source.read_text(encoding="utf-8"), "swapped": swapped,
                 "stub": released}  # fmt: skip
    for student, text in notebooks.items():
        folder = course_dir / "submitted" / student / name
        folder.mkdir(parents=True)
        (folder / f"{name}.ipynb").write_text(text, encoding="utf-8")

    started = time.monotonic()
    nbgrader(course_dir, "autograde", name, "--create")
    nbgrader_seconds = (time.monotonic() - started) / len(notebooks)
    nbgrader_scores = automatic_scores(course_dir, name, notebooks)

    started = time.monotonic()
    with Runner(course, spec) as runner:
        kit_scores = {
            student: runner.grade(course_dir / "submitted" / student / name / f"{name}.ipynb").score
            for student in notebooks
        }
    kit_seconds = (time.monotonic() - started) / len(notebooks)
    print(f"per notebook: nbgrader autograde {nbgrader_seconds:.2f} s, the kit {kit_seconds:.2f} s")

    encoding = spec.part("encoding").points
    assert nbgrader_scores == kit_scores
    assert kit_scores["correct"] == spec.max_score and kit_scores["stub"] == 0
    assert spec.max_score - encoding <= kit_scores["swapped"] < spec.max_score

    nbgrader(course_dir, "generate_feedback", name)
    feedback = course_dir / "feedback" / "swapped" / name / f"{name}.html"
    assert "are sin and cos swapped?" in feedback.read_text(encoding="utf-8")


def automatic_scores(course_dir: Path, name: str, students: dict[str, str]) -> dict[str, float]:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course_dir / 'gradebook.db'}") as book:
        scores = {}
        for student in students:
            notebook = book.find_submission_notebook(name, name, student)
            scores[student] = sum(
                g.auto_score or 0.0 for g in notebook.grades if g.auto_score is not None
            )
    return scores


def test_a_solved_student_notebook_runs_in_jupyter_with_its_public_checks(
    tmp_path: Path, course: Course, spec: AssignmentSpec
) -> None:
    """The student's path: the released notebook, solved, in a copy of the released folder."""
    import nbformat
    from nbclient import NotebookClient

    from autograder.authoring.notebook import HIDDEN

    solved = json.loads(instructor_notebook(course, spec))
    for cell in solved["cells"]:
        cell["source"] = HIDDEN.sub("", "".join(cell["source"]))  # as released: public only
    folder = tmp_path / "mine"
    shutil.copytree(course.template_dir, folder)
    notebook = nbformat.reads(json.dumps(solved), as_version=4)
    NotebookClient(notebook, timeout=300, resources={"metadata": {"path": str(folder)}}).execute()
    earned = {}
    for cell in notebook.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        assert not any(o.output_type == "error" for o in cell.get("outputs", [])), grade_id
        if grade_id.startswith("test_"):
            (result,) = [o for o in cell.outputs if o.output_type == "execute_result"]
            earned[grade_id] = float(result.data["text/plain"])
            assert "in the public checks" in "".join(o.get("text", "") for o in cell.outputs)
    assert set(earned) == {f"test_{part.name}" for part in spec.parts}
    for part in spec.parts:
        assert 0 < earned[f"test_{part.name}"] < part.points  # the hidden tests hold the rest


def test_a_wrong_directive_is_a_config_error_naming_the_file(
    course_copy: Course, spec: AssignmentSpec
) -> None:
    from autograder.errors import ConfigError

    source = course_copy.assignment_dir(spec) / "notebook.py"
    text = source.read_text(encoding="utf-8")
    source.write_text(text.replace("tests encoding", "tests encoding, rotation"), "utf-8")
    with pytest.raises(ConfigError, match=r"notebook\.py.*a test cell runs one part's tests"):
        student_notebook(course_copy, spec)
    source.write_text(
        text.replace("reference sinusoidal_encoding", "reference sinusoidal"), "utf-8"
    )
    with pytest.raises(ConfigError, match="the reference defines no sinusoidal"):
        student_notebook(course_copy, spec)
