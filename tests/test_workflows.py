"""The GitHub Actions workflows: valid YAML, only commands that exist, and the student's run."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from autograder.cli import build_parser
from autograder.course.assignment import Assignment

ROOT = Path(__file__).resolve().parents[1]

WORKFLOWS = [ROOT / ".github" / "workflows" / "grade-class.yml",
             ROOT / "tests" / "fixtures" / "course" / "student_template" / "vectors" / ".github"
             / "workflows" / "check.yml"]  # fmt: skip
"""The instructor's workflow (this repository's), and the one every release gives students."""
EXPRESSION = re.compile(r"\$\{\{[^}]*\}\}")


def commands(workflow: Path) -> list[list[str]]:
    """Every `autograder ...` command the workflow runs, with ${{ }} replaced by a sample value."""
    data = yaml.safe_load(workflow.read_text(encoding="utf-8"))
    assert set(data) >= {"name", "jobs"} and (data.get("on") or data.get(True))
    found = []
    for job in data["jobs"].values():
        assert job["runs-on"] == "ubuntu-latest" and job["steps"]
        for step in job["steps"]:
            assert "run" in step or "uses" in step
            for part in re.split(r"&&|\n", step.get("run", "")):
                words = shlex.split(EXPRESSION.sub("1", part))
                if words and words[0] == "autograder":
                    found.append(words[1:])
    return found


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_workflows_are_valid_and_call_existing_commands(workflow: Path) -> None:
    found = commands(workflow)
    assert found
    parser = build_parser()
    for arguments in found:
        parsed = parser.parse_args(arguments)  # exits (a test failure) on an unknown verb or option
        assert callable(parsed.run)


def test_the_class_workflow_lets_bubblewrap_run_before_grading() -> None:
    """GitHub's Ubuntu 24.04 runners restrict user namespaces (AppArmor): the grading job lifts
    that restriction before `autograder grade`, so workers run under bwrap, not its fallback."""
    steps = yaml.safe_load(WORKFLOWS[0].read_text(encoding="utf-8"))["jobs"]["grade"]["steps"]
    runs = [step.get("run", "") for step in steps]
    allow = next(
        i for i, run in enumerate(runs) if "apparmor_restrict_unprivileged_userns=0" in run
    )
    grade = next(i for i, run in enumerate(runs) if run.startswith("autograder grade"))
    install = next(i for i, run in enumerate(runs) if "apt-get install -y bubblewrap" in run)
    assert install < allow < grade


def test_the_documentation_shows_the_instructor_workflow_as_it_is() -> None:
    """The GitHub Actions page includes the workflow file itself (pymdownx.snippets, whose
    `check_paths` fails the build on a missing file), in a YAML block: it cannot drift.
    tests/test_docs.py builds the pages and finds the workflow's steps in the HTML."""
    page = (ROOT / "docs" / "ci" / "github-actions.md").read_text(encoding="utf-8")
    included = WORKFLOWS[0].relative_to(ROOT).as_posix()
    assert f'```yaml\n--8<-- "{included}"\n```' in page


def test_the_student_workflow_runs_the_public_checks(
    tmp_path: Path, assignment: Assignment
) -> None:
    """The step runs for real in a copy of the release: red on the stubs, green when solved."""
    (found,) = commands(WORKFLOWS[1])
    repository = tmp_path / "student-repository"
    shutil.copytree(assignment.release_dir, repository)
    autograder = [sys.executable, "-m", "autograder", *found]
    stubs = subprocess.run(autograder, cwd=repository, capture_output=True, text=True)
    assert stubs.returncode == 1 and "not implemented yet" in stubs.stdout
    shutil.copy(assignment.reference, repository / assignment.spec.module)
    solved = subprocess.run(autograder, cwd=repository, capture_output=True, text=True)
    assert solved.returncode == 0, solved.stdout[-2000:]
