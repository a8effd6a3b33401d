"""The Gradescope autograder zip, run for real in a folder laid out like Gradescope's /autograder
(a temporary ROOT given to run_autograder in AUTOGRADER_ROOT)."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import zipfile
from pathlib import Path

import jsonschema
import pytest
from test_hostile_class import HIDDEN_MARK, RECORD_CALLS

import autograder
from autograder.cli import main
from autograder.course.assignment import Assignment
from autograder.course.course import Course
from autograder.course.rubric import AssignmentSpec
from autograder.gradescope.simulate import SCHEMA, run_autograder
from autograder.sandbox.confine import SCOPES_FROM_ABI, landlock_abi

SCOPES = ["landlock_scopes"] if landlock_abi() >= SCOPES_FROM_ABI else []
LATE = """
[assignments.vectors.late]
due = "2026-12-01T00:00:00+00:00"
penalty_per_day = 10
"""
PROBE = """
import pathlib, socket
ROOT = pathlib.Path({root!r})
try:
    seen = [str(p) for p in (ROOT / "source" / "course").rglob("*") if p.is_file()]
except OSError:
    seen = []
for name in ("source/course/grading.toml", "submission_metadata.json", "results/results.json"):
    try:
        text = (ROOT / name).read_text()
    except OSError as error:
        text = type(error).__name__
    print("PROBE", name, len(seen), "files;", text[:40])
try:
    socket.create_connection(("127.0.0.1", 47125), timeout=2)
    print("PROBE network reachable")
except OSError as error:
    print("PROBE network", type(error).__name__)
"""


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory, module_course_copy: Course) -> Path:
    course = module_course_copy.root
    rubric = course / "grading.toml"
    rubric.write_text(rubric.read_text(encoding="utf-8") + LATE, encoding="utf-8")
    out = tmp_path_factory.mktemp("export")
    assert main(["export", "gradescope", "--out", str(out), "--course", str(course)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["series.zip", "vectors.zip"]
    return out / "vectors.zip"


def test_the_zip_holds_what_gradescope_runs(archive: Path) -> None:
    names = zipfile.ZipFile(archive).namelist()
    hidden = "course/assignments/vectors/hidden_tests/test_hidden_numeric.py"
    for needed in ("setup.sh", "run_autograder", "engine/pyproject.toml", "course/grading.toml",
                   "course/reference/vectors.py", "course/assignments/vectors/proof_domain.py",
                   hidden):  # fmt: skip
        assert needed in names, needed
    assert not any("series" in name for name in names)  # one assignment per zip
    assert '--assignment "vectors"' in zipfile.ZipFile(archive).read("run_autograder").decode()
    engine = Path(autograder.__file__).resolve().parent
    packaged = {
        n.removeprefix("engine/autograder/") for n in names if n.startswith("engine/autograder/")
    }
    every_file = {
        p.relative_to(engine).as_posix()
        for p in engine.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    assert packaged == every_file and {"cli.py", "gradescope/run.py"} <= packaged
    assert not any("/sample_class/" in name for name in names)  # the folder, not the module
    for script in ("setup.sh", "run_autograder"):
        text = zipfile.ZipFile(archive).read(script).decode()
        assert subprocess.run(["bash", "-n"], input=text, text=True).returncode == 0
    assert (
        "pip install --quiet /autograder/source/engine"
        in zipfile.ZipFile(archive).read("setup.sh").decode()
    )


def test_a_correct_submission_on_time_and_one_late(
    tmp_path: Path, archive: Path, assignment: Assignment, spec: AssignmentSpec
) -> None:
    reference = assignment.reference.read_text(encoding="utf-8")
    on_time = run_autograder(
        archive, tmp_path / "a", {spec.module: reference}, "2026-11-30T10:00:00+00:00"
    )
    assert on_time["score"] == 10 and all(t["status"] == "passed" for t in on_time["tests"])
    late = run_autograder(
        archive, tmp_path / "b", {spec.module: reference}, "2026-12-02T12:00:00+00:00"
    )
    # 10 % a day of the full 12 points (10 automatic, 2 written), two days: 2.4 off
    assert late["score"] == 7.6 and "late: 2.4 points off 10" in late["output"]


def test_before_the_due_date_the_score_counts_only_the_tests_shown(
    tmp_path: Path, archive: Path, assignment: Assignment, spec: AssignmentSpec
) -> None:
    """Gradescope shows the top-level score at once: before the due date it is the visible
    tests' points alone (the hidden ones are held back by their visibility), the full score
    once a regrade runs after it; or the whole result waits, by the rubric."""
    reference = assignment.reference.read_text(encoding="utf-8")
    early = run_autograder(
        archive, tmp_path / "a", {spec.module: reference}, "2026-11-30T10:00:00+00:00",
        due_date="2999-01-01T00:00:00+00:00",
    )  # fmt: skip
    visible = [t for t in early["tests"] if t["visibility"] == "visible"]
    assert 0 < len(visible) < len(early["tests"])
    assert early["score"] == sum(t["score"] for t in visible) == 8 < spec.max_score
    assert early["output"].startswith("Score so far (tests shown now): 8 of 8 points")
    assert early["visibility"] == "visible"
    held = tmp_path / "held"
    archive_text = zipfile.ZipFile(archive)
    archive_text.extractall(held)
    rubric = held / "course" / "grading.toml"
    rubric.write_text(
        rubric.read_text(encoding="utf-8")
        + '\n[assignments.vectors.visibility]\nscore_before_due = "hidden"\n',
        encoding="utf-8",
    )
    rezipped = tmp_path / "held.zip"
    with zipfile.ZipFile(rezipped, "w") as target:
        for path in sorted(held.rglob("*")):
            if path.is_file():
                target.write(path, path.relative_to(held).as_posix())
    waiting = run_autograder(
        rezipped, tmp_path / "b", {spec.module: reference}, "2026-11-30T10:00:00+00:00",
        due_date="2999-01-01T00:00:00+00:00",
    )  # fmt: skip
    assert (waiting["score"], waiting["visibility"]) == (10, "after_due_date")


def test_a_call_recorder_learns_no_hidden_input_from_gradescope(
    tmp_path: Path, archive: Path, assignment: Assignment, spec: AssignmentSpec
) -> None:
    """A submission that repeats every call it saw in every exception and print: before the
    due date and after it, results.json (messages, hints, the printed output it carries) holds
    no input of a hidden test, and the score before it counts the visible tests alone."""
    correct = (assignment.sample_class / "correct_vectorised.py").read_text(encoding="utf-8")
    recorder = correct + "\n" + RECORD_CALLS
    for due_date in ("2999-01-01T00:00:00+00:00", "2000-01-01T00:00:00+00:00"):
        results = run_autograder(
            archive, tmp_path / due_date[:4], {spec.module: recorder}, "2026-11-30T10:00:00+00:00",
            due_date=due_date,
        )  # fmt: skip
        text = json.dumps(results)
        assert "calls so far" in text and HIDDEN_MARK not in text
        visible = sum(t["score"] for t in results["tests"] if t["visibility"] == "visible")
        assert results["score"] == (visible if due_date.startswith("2999") else 3)


def test_a_buggy_and_a_crashing_submission(
    tmp_path: Path, archive: Path, assignment: Assignment, spec: AssignmentSpec
) -> None:
    samples = assignment.sample_class
    buggy = run_autograder(
        archive, tmp_path / "a", {spec.module: (samples / "bug_normalise_by_sum.py").read_text()},
        "2026-11-30T10:00:00+00:00",
    )  # fmt: skip
    assert buggy["score"] == 6
    assert any("divides by the sum of the entries" in t["output"] for t in buggy["tests"])
    crashing = run_autograder(
        archive, tmp_path / "b", {spec.module: "import os\nos._exit(3)\n"},
        "2026-11-30T10:00:00+00:00",
    )  # fmt: skip
    assert crashing["score"] == 0 and "exit" in json.dumps(crashing["tests"][0])


@pytest.mark.parametrize(("bubblewrap", "layers"), [
    ("auto", ["process", "rlimits", "bwrap", *SCOPES, "seccomp", "unprivileged_user"]),
    ("off", ["process", "rlimits", "landlock", *SCOPES, "seccomp"]),
])  # fmt: skip
def test_the_student_process_cannot_read_the_course(
    tmp_path: Path,
    archive: Path,
    assignment: Assignment,
    spec: AssignmentSpec,
    unprivileged_python: str | None,
    bubblewrap: str,
    layers: list[str],
) -> None:
    """Neither the course, nor the submission's metadata (earlier results, hidden tests' scores
    included), nor the results folder, nor the network: with bwrap, and with Landlock and
    seccomp where a container forbids bwrap."""
    root = tmp_path / "gs"
    probe = assignment.reference.read_text(encoding="utf-8") + PROBE.format(root=str(root))
    with socket.create_server(("127.0.0.1", 47125), reuse_port=True):
        # Gradescope's interpreter (/autograder/venv) is open to every user; so must this one be
        assert unprivileged_python, "no interpreter every user may run: make test prepares one"
        results = run_autograder(
            archive, root, {spec.module: probe}, "2026-11-30T10:00:00+00:00",
            bubblewrap=bubblewrap, python=unprivileged_python,
        )  # fmt: skip
    printed = results["extra_data"]["student_output"]
    assert results["extra_data"]["isolation"][: len(layers)] == layers
    # what the worker of the visible tests printed (the hidden tests' own imports it again)
    assert printed.count("PROBE") == 4 and "PROBE network reachable" not in printed
    for name in ("grading.toml", "submission_metadata.json", "results.json"):
        assert re.search(rf"PROBE \S*{name} 0 files; (PermissionError|FileNotFoundError)", printed)
    assert "created_at" not in printed and "[assignments" not in printed
    assert results["score"] == 10


def test_results_json_is_written_even_when_python_cannot_start(
    tmp_path: Path, archive: Path
) -> None:
    root = tmp_path / "gs"
    with zipfile.ZipFile(archive) as unzipped:
        unzipped.extractall(root / "source")
    (root / "submission").mkdir()
    environment = {**os.environ, "AUTOGRADER_ROOT": str(root), "AUTOGRADER_PYTHON": "/bin/false"}
    done = subprocess.run(["bash", str(root / "source" / "run_autograder")], env=environment,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0
    results = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    jsonschema.validate(results, SCHEMA)
    assert results["score"] == 0 and "tell your instructor" in results["output"]
