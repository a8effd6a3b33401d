"""The documentation's cluster recipes (docs/ci/clusters.md): a valid Kubernetes Indexed Job and
a Slurm array script whose `autograder` commands exist, with as many tasks as `--shard auto/N`
says, and a merge after."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import yaml

from autograder.cli import build_parser

RECIPES = Path(__file__).resolve().parents[1] / "docs" / "ci" / "clusters.md"


def blocks(language: str) -> list[str]:
    """The page's fenced code blocks in `language`."""
    text = RECIPES.read_text(encoding="utf-8")
    return re.findall(rf"^```{language}\n(.*?)^```", text, flags=re.DOTALL | re.MULTILINE)


def autograder_commands(script: str) -> list[list[str]]:
    """The arguments of each `autograder` (or `.venv/bin/autograder`) command in a shell text."""
    joined = script.replace("\\\n", " ")
    found = []
    for part in re.split(r"&&|\n|'", joined):
        words = shlex.split(part, comments=True) if part.strip() else []
        if words and words[0].endswith("autograder"):
            found.append(words[1:])
    return found


def test_the_kubernetes_job_is_indexed_with_one_pod_per_shard() -> None:
    (manifest,) = [b for b in blocks("yaml") if "completionMode: Indexed" in b]
    job = yaml.safe_load(manifest)
    assert job["kind"] == "Job" and job["spec"]["completionMode"] == "Indexed"
    (container,) = job["spec"]["template"]["spec"]["containers"]
    arguments = container["command"]
    assert arguments[:2] == ["autograder", "grade"]
    assert arguments[arguments.index("--shard") + 1] == f"auto/{job['spec']['completions']}"
    out = arguments[arguments.index("--out") + 1]
    assert out == "/shared/shard-$(JOB_COMPLETION_INDEX)"  # Kubernetes expands $(VAR) in a command
    build_parser().parse_args([a.replace("$(JOB_COMPLETION_INDEX)", "0") for a in arguments[1:]])


def test_the_slurm_array_has_one_task_per_shard_and_a_dependent_merge() -> None:
    (script,) = [b for b in blocks("bash") if "#SBATCH --array=" in b]
    array = re.search(r"#SBATCH --array=(\d+)-(\d+)\n", script)
    assert array is not None
    low, high = map(int, array.groups())
    (grade,) = autograder_commands(
        script.replace("$SLURM_CPUS_PER_TASK", "8").replace("$SLURM_ARRAY_TASK_ID", "1")
    )
    assert grade[0] == "grade" and grade[grade.index("--shard") + 1] == f"auto/{high - low + 1}"
    build_parser().parse_args(grade)
    (submit,) = [b for b in blocks("bash") if "--dependency=afterany:" in b]
    assert "jobid=$(sbatch --parsable grade-class.sbatch)" in submit
    assert "--dependency=afterany:$jobid" in submit
    merge, export = autograder_commands(submit)
    assert merge[:2] == ["gradebook", "merge"] and export[0] == "gradebook"
    for arguments in (merge, export):
        build_parser().parse_args(arguments)
