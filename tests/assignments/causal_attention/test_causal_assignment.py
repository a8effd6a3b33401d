"""The causal-attention assignment, end to end: its rubric, its sample class, its notebook, its
release and `autograder check` in it. The engine is the same one the first assignment uses."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote

import pytest

from autograder.authoring.notebook import instructor_notebook, student_notebook
from autograder.cli import main
from autograder.course.assignment import Assignment
from autograder.course.rubric import AssignmentSpec
from autograder.grading.results import SubmissionResult
from autograder.grading.runners import Runner, RunnerPool

ALL_PARTS = {"mask", "masked", "peeking", "order", "learned"}
DEPENDS_ON_THE_MASK = {"mask", "masked", "peeking", "order"}

VICTIM = "Zoë Ångström"
LOOK_ALIKE = "Zoë Ångström-d91ffefba54d6c10"
"""The spelling the kit gave VICTIM in file names before names like it got a digest too."""
LONG_NAME = "a" + "語" * 83 + "b"
EXPECTED: dict[str, tuple[float, set[str]]] = {
    "correct_vectorised": (100, set()),
    "correct_loops": (100, set()),
    "correct_float32": (100, set()),
    # np.triu: causal_mask's contract tests pass (3/15); every attention built on it is wrong,
    # but softmax's own masked tests and the counterexample (checked with the kit's attention)
    # still pass
    "bug_mask_upper": (48, DEPENDS_ON_THE_MASK),
    # k=-1: row 0 allows nothing, so causal attention raises where it should not
    "bug_mask_without_diagonal": (46, DEPENDS_ON_THE_MASK),
    # weights that no longer sum to 1, and a masked score of 0 that still attends
    "bug_renormalise_forgotten": (54, {"masked", "peeking", "order"}),
    "bug_mask_by_multiplying": (54, {"masked", "peeking", "order"}),
    "bug_symbolic_without_mask": (95, {"peeking"}),  # the SymPy tests, 2 + 3
    "bug_ravi_without_mask": (95, {"order"}),  # Ravi's two vectors are the same
    "bug_table_from_one": (94, {"learned"}),
    "bug_positions_wrap_around": (95, {"learned"}),  # only the ValueError tests catch it
    "bug_gradient_everywhere": (90, {"learned"}),
    "hostile_exit_at_import": (0, ALL_PARTS),
    # causal_self_attention never returns: everything built on it times out or is not run
    "hostile_infinite_loop": (58, {"masked", "peeking", "order"}),
    "hostile_memory_bomb": (89, {"learned"}),  # position_table_grad dies; the rest is right
    "hostile_socket": (100, set()),  # reaches no one; its functions are right
    "hostile_orphan": (100, set()),  # its process dies with the sandbox
    # names the kit must keep apart in every file it writes: a non-ASCII name (who wrote
    # causal_mask alone), a classmate who submits under that name's spelling, and a name of
    # 251 UTF-8 bytes
    VICTIM: (15, ALL_PARTS - {"mask"}),
    LOOK_ALIKE: (0, ALL_PARTS),
    LONG_NAME: (0, ALL_PARTS),
}


@pytest.fixture(scope="module")
def graded(assignment: Assignment) -> dict[str, SubmissionResult]:
    paths = sorted(assignment.sample_class.glob("*.py"))
    with RunnerPool(assignment, size=2) as runners:
        return {path.stem: runners.grade(path) for path in paths}


def test_the_rubric_table(spec: AssignmentSpec) -> None:
    assert spec.name == "causal_attention" and spec.module == "causal_attention.py"
    assert {p.name: p.points for p in spec.parts} == {
        "mask": 15, "masked": 25, "peeking": 20, "order": 15, "learned": 25,
    }  # fmt: skip
    assert spec.max_score == 100


def test_the_sample_class_is_every_expected_case(graded: dict[str, SubmissionResult]) -> None:
    assert set(graded) == set(EXPECTED)
    assert len(graded) >= 12


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_score_and_parts_lost(name: str, graded: dict[str, SubmissionResult]) -> None:
    result = graded[name]
    score, parts_lost = EXPECTED[name]
    assert result.status == "graded", result.message
    assert result.score == pytest.approx(score)
    lost = {part for part, (got, most) in result.part_scores().items() if got < most}
    assert lost == parts_lost


def test_each_bug_is_named_by_its_hint(graded: dict[str, SubmissionResult]) -> None:
    for name, words in [
        ("bug_mask_upper", "the wrong way"),
        ("bug_mask_without_diagonal", "no token may attend to itself"),
        ("bug_renormalise_forgotten", "without renormalising"),
        ("bug_mask_by_multiplying", "multiplying them by 0"),
        ("bug_symbolic_without_mask", "sums over every token"),
        ("bug_ravi_without_mask", "computed without the mask"),
        ("bug_table_from_one", "row 1 of the table"),
        ("bug_positions_wrap_around", "wrap around"),
        ("bug_gradient_everywhere", "every row of the table"),
    ]:
        hints = [t.hint or "" for t in graded[name].tests]
        assert any(words in hint for hint in hints), name


def test_the_kit_grades_the_notebook_versions(tmp_path: Path, assignment: Assignment) -> None:
    solved = tmp_path / "solved.ipynb"
    solved.write_text(instructor_notebook(assignment), encoding="utf-8")
    stub = tmp_path / "stub.ipynb"
    student = student_notebook(assignment)
    stub.write_text(student, encoding="utf-8")
    text = "".join("".join(cell["source"]) for cell in json.loads(student)["cells"])
    assert "np.tril" not in text and "BEGIN SOLUTION" not in text
    with Runner(assignment) as runner:
        assert runner.grade(solved).score == assignment.spec.max_score
        assert runner.grade(stub).score == 0


def test_check_in_the_released_folder(tmp_path: Path, assignment: Assignment) -> None:
    """`autograder check` exits 1 on the released stubs and 0 once the reference is in place."""
    folder = tmp_path / "released"
    shutil.copytree(assignment.release_dir, folder)

    def check() -> int:
        command = [sys.executable, "-m", "autograder", "check"]
        return subprocess.run(command, cwd=folder, capture_output=True, timeout=300).returncode

    assert check() == 1
    shutil.copy(assignment.reference, folder / assignment.spec.module)
    assert check() == 0


def test_the_symbolic_and_gradient_checks_say_what_is_wrong(
    graded: dict[str, SubmissionResult],
) -> None:
    symbolic = [t.message or "" for t in graded["bug_symbolic_without_mask"].tests if t.score == 0]
    assert symbolic and all("derivative" in m and "after position 0" in m for m in symbolic)
    gradient = {
        t.nodeid.split("::")[-1]: t.message or ""
        for t in graded["bug_gradient_everywhere"].tests
        if t.score == 0
    }
    finite = gradient["test_the_gradient_matches_finite_differences"]
    assert "against finite differences" in finite and "should be 0" in finite


def test_names_that_would_share_a_file_each_get_their_own(
    tmp_path: Path, assignment: Assignment, capsys: pytest.CaptureFixture[str]
) -> None:
    """The look-alike gets its own result file and feedback page (not the victim's), and the
    long name a page at all; the report links each to its own page."""
    folder = tmp_path / "class"
    folder.mkdir()
    for name in (VICTIM, LOOK_ALIKE, LONG_NAME):
        shutil.copy(assignment.sample_class / f"{name}.py", folder / f"{name}.py")
    out, feedback, course = tmp_path / "out", tmp_path / "feedback", assignment.course.root
    chosen = ["--course", str(course), "--assignment", assignment.name]
    assert main(["grade", str(folder), "--out", str(out), "--jobs", "2", *chosen]) == 0
    assert len(list((out / assignment.name).glob("*.results.json"))) == 3
    shown = ["--after-due", "--course", str(course)]
    assert main(["feedback", str(out), "--out", str(feedback), *shown]) == 0
    pages = sorted((feedback / assignment.name).glob("*.html"))
    assert len(pages) == 3 and all(len(p.name.encode()) <= 255 for p in pages)
    scores = {}
    for page in pages:
        text = page.read_text(encoding="utf-8")
        owner = next(name for name in (VICTIM, LOOK_ALIKE, LONG_NAME) if f">{name}<" in text)
        scores[owner] = re.search(r"Score: (\d+) / 100", text)[1]  # type: ignore[index]
    assert scores == {VICTIM: "15", LOOK_ALIKE: "0", LONG_NAME: "0"}
    report = tmp_path / "report.html"
    assert main(["report", str(out), "--html", str(report), "--feedback", str(feedback)]) == 0
    links = {
        unquote(html.unescape(link)) for link in re.findall(r"href='([^']+)'", report.read_text())
    }
    assert {(report.parent / link).resolve() for link in links} >= {p.resolve() for p in pages}
    capsys.readouterr()
