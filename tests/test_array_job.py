"""`--shard auto/N` on a cluster: the shard from a Kubernetes, Slurm or AWS Batch array job's
environment, each way it can be wrong refused, and the quarter a task grades."""

from __future__ import annotations

from pathlib import Path

import pytest

from autograder.cli import main
from autograder.course.course import Course
from autograder.course.rubric import AssignmentSpec
from autograder.errors import ConfigError
from autograder.grading.array_job import (
    INDEX_VARIABLES,
    shard_and_source,
    shard_from_environment,
    shard_option,
)
from autograder.grading.batch import discover, shard
from autograder.grading.gradebook import Gradebook
from tests.conftest import ClassBuilder

# Kubernetes: JOB_COMPLETION_INDEX from 0, and no count in the environment.


def test_a_kubernetes_index_from_0_is_shard_1() -> None:
    assert shard_from_environment("auto/4", {"JOB_COMPLETION_INDEX": "0"}) == (1, 4)
    assert shard_from_environment("auto/4", {"JOB_COMPLETION_INDEX": "3"}) == (4, 4)


def test_kubernetes_without_a_count_asks_for_the_jobs_completions() -> None:
    with pytest.raises(ConfigError) as error:
        shard_from_environment("auto", {"JOB_COMPLETION_INDEX": "2"})
    assert str(error.value) == (
        "--shard auto: JOB_COMPLETION_INDEX=2 gives this task's index but not how many tasks "
        "there are: write --shard auto/N (the Job's completions)"
    )


def test_a_kubernetes_index_beyond_the_count_is_refused() -> None:
    with pytest.raises(ConfigError) as error:
        shard_from_environment("auto/4", {"JOB_COMPLETION_INDEX": "4"})
    assert str(error.value) == (
        "JOB_COMPLETION_INDEX=4 is task 5 of the array, beyond the 4 shards of --shard auto/4: "
        "the array must have exactly 4 tasks"
    )


# Slurm: SLURM_ARRAY_TASK_ID among MIN, MIN + STEP, …; COUNT tasks.


def slurm(task_id: int, low: int, high: int, step: int = 1) -> dict[str, str]:
    """What Slurm sets in a task of `--array=LOW-HIGH:STEP` (its MAX is the last id, which
    HIGH need not be: 0-15:4 is 0, 4, 8, 12)."""
    count = (high - low) // step + 1
    return {
        "SLURM_ARRAY_TASK_ID": str(task_id), "SLURM_ARRAY_TASK_MIN": str(low),
        "SLURM_ARRAY_TASK_MAX": str(low + (count - 1) * step),
        "SLURM_ARRAY_TASK_STEP": str(step), "SLURM_ARRAY_TASK_COUNT": str(count),
    }  # fmt: skip


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        (slurm(1, 1, 4), (1, 4)),  # --array=1-4: ids 1..4 are shards 1..4
        (slurm(4, 1, 4), (4, 4)),
        (slurm(0, 0, 3), (1, 4)),  # --array=0-3
        (slurm(0, 0, 15, step=4), (1, 4)),  # --array=0-15:4: ids 0, 4, 8, 12
        (slurm(8, 0, 15, step=4), (3, 4)),
        (slurm(12, 0, 15, step=4), (4, 4)),
    ],
)
def test_a_slurm_task_is_its_position_in_the_array(
    environ: dict[str, str], expected: tuple[int, int]
) -> None:
    assert shard_from_environment("auto", environ) == expected
    assert shard_from_environment("auto/4", environ) == expected


def test_slurm_without_count_is_refused() -> None:
    """MIN and MAX alone cannot tell --array=1,3,5 (three tasks) from --array=1-5 (five): taken
    as 1-5, the tasks would grade shards 1, 3 and 5 of 5, and shards 2 and 4 nobody."""
    environ = slurm(3, 1, 3, step=2)  # ids 1, 3, 5
    del environ["SLURM_ARRAY_TASK_COUNT"]
    del environ["SLURM_ARRAY_TASK_STEP"]  # as for a list of ids
    for spec in ("auto", "auto/3", "auto/5"):
        with pytest.raises(ConfigError) as error:
            shard_from_environment(spec, environ)
        assert "without SLURM_ARRAY_TASK_COUNT" in str(error.value)
        assert "write --shard I/N in each task" in str(error.value)


def test_a_count_that_disagrees_with_slurms_is_refused() -> None:
    with pytest.raises(ConfigError) as error:
        shard_from_environment("auto/3", slurm(2, 1, 4))
    assert str(error.value) == (
        "--shard auto/3, but SLURM_ARRAY_TASK_ID=2, SLURM_ARRAY_TASK_MIN=1, "
        "SLURM_ARRAY_TASK_MAX=4, SLURM_ARRAY_TASK_STEP=1, SLURM_ARRAY_TASK_COUNT=4 says the "
        "array has 4 tasks: write --shard auto/4, or --shard auto"
    )


@pytest.mark.parametrize(
    ("environ", "says"),
    [
        (slurm(6, 0, 15, step=4), "this task's id is not one of the array's"),
        (slurm(0, 1, 4), "this task's id is not one of the array's"),
        (  # --array=1,2,7: three tasks, not one range
            {
                "SLURM_ARRAY_TASK_ID": "7",
                "SLURM_ARRAY_TASK_MIN": "1",
                "SLURM_ARRAY_TASK_MAX": "7",
                "SLURM_ARRAY_TASK_STEP": "1",
                "SLURM_ARRAY_TASK_COUNT": "3",
            },
            "the array is not one range with one step",
        ),
        ({"SLURM_ARRAY_TASK_ID": "2"}, "without SLURM_ARRAY_TASK_MIN"),
        (slurm(2, 1, 4) | {"SLURM_ARRAY_TASK_STEP": "0"}, "does not describe an array"),
    ],
)
def test_a_slurm_environment_that_does_not_add_up_is_refused(
    environ: dict[str, str], says: str
) -> None:
    with pytest.raises(ConfigError, match=says):
        shard_from_environment("auto", environ)


# AWS Batch: AWS_BATCH_JOB_ARRAY_INDEX from 0, AWS_BATCH_JOB_ARRAY_SIZE.


def test_an_aws_batch_index_from_0_with_the_arrays_size() -> None:
    environ = {"AWS_BATCH_JOB_ARRAY_INDEX": "0", "AWS_BATCH_JOB_ARRAY_SIZE": "4"}
    assert shard_from_environment("auto", environ) == (1, 4)
    assert shard_from_environment("auto/4", environ) == (1, 4)
    assert shard_from_environment("auto", environ | {"AWS_BATCH_JOB_ARRAY_INDEX": "3"}) == (4, 4)
    with pytest.raises(ConfigError, match="says the array has 4 tasks: write --shard auto/4"):
        shard_from_environment("auto/8", environ)


def test_aws_batch_without_its_size_asks_for_it() -> None:
    with pytest.raises(ConfigError, match=r"write --shard auto/N \(the array's size\)$"):
        shard_from_environment("auto", {"AWS_BATCH_JOB_ARRAY_INDEX": "1"})
    assert shard_from_environment("auto/2", {"AWS_BATCH_JOB_ARRAY_INDEX": "1"}) == (2, 2)


# Several schedulers, none, and hostile values.


def test_no_array_job_in_the_environment_says_which_variables_it_reads() -> None:
    with pytest.raises(ConfigError) as error:
        shard_from_environment("auto/4", {"HOME": "/home/x"})
    assert str(error.value) == (
        "--shard auto: no array job's index in the environment (JOB_COMPLETION_INDEX of a "
        "Kubernetes Indexed Job, SLURM_ARRAY_TASK_ID of a Slurm job array, "
        "AWS_BATCH_JOB_ARRAY_INDEX of an AWS Batch array job); elsewhere write --shard I/N"
    )


def test_two_schedulers_that_agree_are_one_task_and_two_that_disagree_are_refused() -> None:
    agreeing = {"JOB_COMPLETION_INDEX": "1"} | slurm(2, 1, 4)
    assert shard_and_source("auto", agreeing) == (
        2, 4,
        "JOB_COMPLETION_INDEX=1; SLURM_ARRAY_TASK_ID=2, SLURM_ARRAY_TASK_MIN=1, "
        "SLURM_ARRAY_TASK_MAX=4, SLURM_ARRAY_TASK_STEP=1, SLURM_ARRAY_TASK_COUNT=4",
    )  # fmt: skip
    with pytest.raises(ConfigError) as error:
        shard_from_environment(
            "auto/4", {"JOB_COMPLETION_INDEX": "1", "AWS_BATCH_JOB_ARRAY_INDEX": "2"}
        )
    assert str(error.value) == (
        "--shard auto: JOB_COMPLETION_INDEX=1 and AWS_BATCH_JOB_ARRAY_INDEX=2 name different "
        "tasks: unset the variables of the scheduler this job does not run under, or write "
        "--shard I/N"
    )
    sizes = {"AWS_BATCH_JOB_ARRAY_INDEX": "1", "AWS_BATCH_JOB_ARRAY_SIZE": "8"} | slurm(2, 1, 4)
    with pytest.raises(ConfigError, match="name different tasks"):
        shard_from_environment("auto", sizes)


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("-1", "'-1'"),
        ("1e9", "'1e9'"),
        (" 2", "' 2'"),
        ("2\n", r"'2\n'"),
        ("", "''"),
        ("99999999999999999999", "'99999999999999999999'"),
        ("²", "'²'"),  # a digit to str.isdigit, not to int()
        ("٣", "'٣'"),  # an Arabic-Indic three: int() reads it, a shard index must not
        ("1\x1b]0;pwned\x07", r"'1\x1b]0;pwned\x07'"),  # sets a terminal's title: escaped
    ],
)
@pytest.mark.parametrize("variable", INDEX_VARIABLES)
def test_an_index_that_is_not_a_whole_number_is_refused(
    variable: str, value: str, shown: str
) -> None:
    with pytest.raises(ConfigError) as error:
        shard_from_environment("auto/4", {variable: value, "SLURM_ARRAY_TASK_MIN": "0"})
    assert str(error.value) == (
        f"--shard auto: {variable}={shown} is not a whole number of at most 7 digits"
    )


def test_a_huge_index_is_refused_in_a_short_message() -> None:
    with pytest.raises(ConfigError) as error:  # past int()'s own limit of 4300 digits
        shard_from_environment("auto/4", {"JOB_COMPLETION_INDEX": "9" * 5000})
    message = str(error.value)
    assert message.startswith("--shard auto: JOB_COMPLETION_INDEX='999")
    assert "..." in message and len(message) < 160


@pytest.mark.parametrize("size", ["0", "-4", "4.0", "1e3", " 4"])
def test_a_size_that_is_not_a_count_is_refused(size: str) -> None:
    with pytest.raises(ConfigError, match="AWS_BATCH_JOB_ARRAY_SIZE"):
        shard_from_environment(
            "auto", {"AWS_BATCH_JOB_ARRAY_INDEX": "0", "AWS_BATCH_JOB_ARRAY_SIZE": size}
        )


@pytest.mark.parametrize("spec", ["auto/0", "auto/-1", "auto/", "auto/four", "auto/1e9", "auto/ 4"])
def test_a_written_count_that_is_not_a_count_is_refused(spec: str) -> None:
    with pytest.raises(ConfigError, match="write auto/N with N the array's number of tasks"):
        shard_from_environment(spec, {"JOB_COMPLETION_INDEX": "0"})


def test_the_option_reads_i_of_n_as_written_and_auto_from_the_environment() -> None:
    assert shard_option("2/4", {"JOB_COMPLETION_INDEX": "0"}) == (2, 4, None)
    assert shard_option("auto/4", {"JOB_COMPLETION_INDEX": "0"}) == (1, 4, "JOB_COMPLETION_INDEX=0")
    for bad in ("²/4", "2/4 ", "two/4", "2", "auto4", "-1/4"):
        with pytest.raises(ConfigError, match="write I/N"):
            shard_option(bad, {})


# The command: each scheduler's third variable picks the same students as --shard k/4.

CLASS = {"cal": 1, "ada": 2, "ben": 3, "eli": 4, "kim": 4}
"""Five students and the shard of 4 each lands in (sha256 of the name, modulo 4, plus 1)."""


def test_the_class_lands_in_the_stated_shards(
    tmp_path: Path, make_class: ClassBuilder, spec: AssignmentSpec
) -> None:
    folder = make_class(tmp_path / "class", dict.fromkeys(CLASS, "correct_vectorised"))
    items = discover([folder], module=spec.module)
    for k in (1, 2, 3, 4):
        assert {i.student for i in shard(items, k, 4)} == {s for s, n in CLASS.items() if n == k}


@pytest.mark.parametrize(
    ("environ", "quarter", "said"),
    [
        ({"JOB_COMPLETION_INDEX": "0"}, {"cal"}, "shard 1/4 from JOB_COMPLETION_INDEX=0: 1 of 5"),
        (
            slurm(3, 1, 4),
            {"ben"},
            "shard 3/4 from SLURM_ARRAY_TASK_ID=3, SLURM_ARRAY_TASK_MIN=1, "
            "SLURM_ARRAY_TASK_MAX=4, SLURM_ARRAY_TASK_STEP=1, SLURM_ARRAY_TASK_COUNT=4: 1 of 5",
        ),
        (
            {"AWS_BATCH_JOB_ARRAY_INDEX": "3", "AWS_BATCH_JOB_ARRAY_SIZE": "4"},
            {"eli", "kim"},
            "shard 4/4 from AWS_BATCH_JOB_ARRAY_INDEX=3, AWS_BATCH_JOB_ARRAY_SIZE=4: 2 of 5",
        ),
    ],
    ids=["kubernetes", "slurm", "aws-batch"],
)
def test_grade_shard_auto_grades_the_tasks_quarter(
    environ: dict[str, str],
    quarter: set[str],
    said: str,
    tmp_path: Path,
    make_class: ClassBuilder,
    course: Course,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name in INDEX_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    folder = make_class(tmp_path / "class", dict.fromkeys(CLASS, "correct_vectorised"))
    out = tmp_path / "out"
    code = main(["grade", str(folder), "--shard", "auto/4", "--out", str(out), "--jobs", "1",
                 "--course", str(course.root), "--assignment", "vectors"])  # fmt: skip
    assert code == 0
    with Gradebook(out) as book:
        assert {entry.student for entry in book.entries("vectors")} == quarter
    assert capsys.readouterr().err.splitlines()[0] == f"autograder: {said} submissions"
