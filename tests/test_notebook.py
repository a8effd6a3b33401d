"""The assignment as a notebook: the kit's release, and the real nbgrader round trip.

nbgrader's own commands run here (generate_assignment, autograde, generate_feedback) in a
temporary course folder written by `autograder release --nbgrader`; the kit grades the same
notebooks in its sandbox, and the automatic points must agree on every one.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from autograder.authoring.nbgrader_run import automatic_scores, nbgrader
from autograder.authoring.notebook import instructor_notebook, student_notebook
from autograder.cli import main
from autograder.course.assignment import Assignment
from autograder.course.course import Course
from autograder.course.rubric import AssignmentSpec
from autograder.grading.runners import Runner

BY_SUM = ("return v / norm", "return v / v.sum()")
"""The reference's normalise, made to divide by the sum of the entries."""


def code_of(notebook_text: str, kind: str = "") -> str:
    cells = json.loads(notebook_text)["cells"]
    return "\n".join("".join(c["source"]) for c in cells if kind in ("", c["cell_type"]))


def test_the_students_notebook_has_stubs_public_tests_and_no_answers(
    assignment: Assignment, spec: AssignmentSpec, reference_line: str
) -> None:
    student = code_of(student_notebook(assignment))
    instructor = code_of(instructor_notebook(assignment))
    assert reference_line in instructor and reference_line not in student
    for secret in (
        "BEGIN SOLUTION",
        "HIDDEN TESTS",
        '"all"',
        str(assignment.course.root),
        "keeps only the direction",
    ):
        assert secret not in student, secret

    def stubs(text: str) -> int:
        return sum(line.strip() == "raise NotImplementedError()" for line in text.splitlines())

    module = (assignment.release_dir / spec.module).read_text(encoding="utf-8")
    assert stubs(code_of(student_notebook(assignment), "code")) == stubs(module) == 4
    assert "PYTHAGORAS_PROOF: list[tuple[str, str]] = []" in student
    assert "YOUR ANSWER HERE" in student
    cells = json.loads(student_notebook(assignment))["cells"]
    points = {c["metadata"]["nbgrader"]["grade_id"]: c["metadata"]["nbgrader"].get("points")
              for c in cells if "nbgrader" in c["metadata"]}  # fmt: skip
    assert {k: v for k, v in points.items() if v} == {
        **{f"test_{p.name}": p.points for p in spec.parts},
        "why_unit": 2,
    }


@pytest.fixture(scope="module")
def reference_line() -> str:
    return "return v / norm"


def test_the_kit_grades_the_notebooks(
    tmp_path: Path, assignment: Assignment, spec: AssignmentSpec
) -> None:
    solved = tmp_path / "solved.ipynb"
    solved.write_text(instructor_notebook(assignment), encoding="utf-8")
    stub = tmp_path / "stub.ipynb"
    stub.write_text(student_notebook(assignment), encoding="utf-8")
    with Runner(assignment) as runner:
        assert runner.grade(solved).score == spec.max_score
        assert runner.grade(stub).score == 0


@pytest.mark.slow
def test_nbgrader_round_trip_agrees_with_the_kit(
    tmp_path: Path, course_copy: Course, spec: AssignmentSpec, reference_line: str
) -> None:
    course_dir = tmp_path / "nbgrader_course"
    command = ["release", "--course", str(course_copy.root), "--nbgrader", str(course_dir)]
    assert main(command) == 2  # one assignment's nbgrader course: which one?
    assert main([*command, "--assignment", "vectors"]) == 0
    name = spec.name
    source = course_dir / "source" / name / f"{name}.ipynb"
    assert (course_dir / "source" / name / "tests" / "test_numeric.py").is_file()
    assert (course_dir / "source" / name / "proof_domain.py").is_file()  # the public proofs
    nbgrader(course_dir, "generate_assignment", name, "--force")
    released = (course_dir / "release" / name / f"{name}.ipynb").read_text(encoding="utf-8")
    for secret in ("BEGIN SOLUTION", "HIDDEN TESTS", '"all"', reference_line):
        assert secret not in released, secret

    by_sum = source.read_text(encoding="utf-8").replace(*BY_SUM)
    assert by_sum != source.read_text(encoding="utf-8")
    notebooks = {"correct": source.read_text(encoding="utf-8"), "by_sum": by_sum,
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
    with Runner(course_copy.assignment("vectors")) as runner:
        kit_scores = {
            student: runner.grade(course_dir / "submitted" / student / name / f"{name}.ipynb").score
            for student in notebooks
        }
    kit_seconds = (time.monotonic() - started) / len(notebooks)
    print(f"per notebook: nbgrader autograde {nbgrader_seconds:.2f} s, the kit {kit_seconds:.2f} s")

    numeric = spec.part("numeric").points
    assert nbgrader_scores == kit_scores
    assert kit_scores["correct"] == spec.max_score and kit_scores["stub"] == 0
    assert spec.max_score - numeric <= kit_scores["by_sum"] < spec.max_score

    nbgrader(course_dir, "generate_feedback", name)
    feedback = course_dir / "feedback" / "by_sum" / name / f"{name}.html"
    assert "yours is [0.4286, 0.5714]" in feedback.read_text(encoding="utf-8")


def test_a_solved_student_notebook_runs_in_jupyter_with_its_public_checks(
    tmp_path: Path, assignment: Assignment, spec: AssignmentSpec
) -> None:
    """The student's path: the released notebook, solved, in a copy of the released folder."""
    import nbformat
    from nbclient import NotebookClient

    from autograder.authoring.notebook import HIDDEN

    solved = json.loads(instructor_notebook(assignment))
    for cell in solved["cells"]:
        cell["source"] = HIDDEN.sub("", "".join(cell["source"]))  # as released: public only
    folder = tmp_path / "mine"
    shutil.copytree(assignment.release_dir, folder)
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


def test_a_wrong_directive_is_a_config_error_naming_the_file(course_copy: Course) -> None:
    from autograder.errors import ConfigError

    vectors = course_copy.assignment("vectors")
    source = vectors.notebook_source
    text = source.read_text(encoding="utf-8")
    source.write_text(text.replace("tests numeric", "tests numeric, symbolic"), "utf-8")
    with pytest.raises(ConfigError, match=r"notebook\.py.*a test cell runs one part's tests"):
        student_notebook(vectors)
    source.write_text(text.replace("reference scale,", "reference scaled,"), "utf-8")
    with pytest.raises(ConfigError, match="the reference defines no scaled"):
        student_notebook(vectors)
