"""Which shard a task of a cluster's array job grades: `--shard auto/N` read from its environment.

Each scheduler numbers its array's tasks in an environment variable of its own:

- a Kubernetes Indexed Job (`completionMode: Indexed`) sets `JOB_COMPLETION_INDEX`, from 0 to
  `completions` - 1, and no variable holds `completions`
  (https://kubernetes.io/docs/tasks/job/indexed-parallel-processing-static);
- a Slurm job array (`sbatch --array=1-4`, or `0-15:4` with a step) sets `SLURM_ARRAY_TASK_ID`,
  and `SLURM_ARRAY_TASK_MIN`, `_MAX`, `_STEP` and `_COUNT` describe the whole array
  (https://slurm.schedmd.com/job_array.html);
- an AWS Batch array job sets `AWS_BATCH_JOB_ARRAY_INDEX`, from 0, and the parent's size in
  `AWS_BATCH_JOB_ARRAY_SIZE` (https://docs.aws.amazon.com/batch/latest/userguide/job_env_vars.html).

The first task (index 0, or Slurm's lowest id) grades shard 1/N: the same students as
`--shard 1/N`. Anything the environment says that does not add up is refused, never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from autograder.errors import ConfigError
from autograder.safe_text import printable, short_repr

MAX_DIGITS = 7
"""The most digits of an index or a count: Slurm's largest MaxArraySize is 4,000,001."""
_WHOLE = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")  # ASCII digits only: no sign, space, 1e9 or ²
KUBERNETES, SLURM, AWS_BATCH = (
    "JOB_COMPLETION_INDEX",
    "SLURM_ARRAY_TASK_ID",
    "AWS_BATCH_JOB_ARRAY_INDEX",
)
INDEX_VARIABLES = (KUBERNETES, SLURM, AWS_BATCH)


@dataclass(frozen=True)
class ArrayTask:
    """One task of an array job: its position in the array (from 0), the array's size when the
    environment states it, and the variables that said so (for messages and logs)."""

    position: int
    count: int | None
    source: str


def shard_option(text: str, environ: Mapping[str, str]) -> tuple[int, int, str | None]:
    """`--shard`'s value as (index from 1, count, the variables read): `I/N` as written (no
    variable), `auto[/N]` from `environ`."""
    if text == "auto" or text.startswith("auto/"):
        return shard_and_source(text, environ)
    index, _, count = text.partition("/")
    if not (_WHOLE.fullmatch(index) and _WHOLE.fullmatch(count)):
        raise ConfigError(
            f"--shard {printable(short_repr(text))}: write I/N (e.g. --shard 2/4), or auto/N in an "
            "array job (Kubernetes, Slurm, AWS Batch)"
        )
    return int(index), int(count), None


def shard_from_environment(spec: str, environ: Mapping[str, str]) -> tuple[int, int]:
    """`--shard auto` or `auto/N` as (index from 1, count), from the array job's variables."""
    index, count, _ = shard_and_source(spec, environ)
    return index, count


def shard_and_source(spec: str, environ: Mapping[str, str]) -> tuple[int, int, str]:
    """As `shard_from_environment`, with the variables it read (`SLURM_ARRAY_TASK_ID=3, …`)."""
    written = _written_count(spec)
    task = array_task(environ)
    if written is not None and task.count is not None and written != task.count:
        raise ConfigError(
            f"--shard {spec}, but {task.source} says the array has {task.count} tasks: write "
            f"--shard auto/{task.count}, or --shard auto"
        )
    count = written if written is not None else task.count
    if count is None:
        size = "the Job's completions" if KUBERNETES in task.source else "the array's size"
        raise ConfigError(
            f"--shard auto: {task.source} gives this task's index but not how many tasks there "
            f"are: write --shard auto/N ({size})"
        )
    if task.position >= count:
        raise ConfigError(
            f"{task.source} is task {task.position + 1} of the array, beyond the {count} "
            f"shards of --shard {spec}: the array must have exactly {count} tasks"
        )
    return task.position + 1, count, task.source


def _written_count(spec: str) -> int | None:
    """N of `auto/N`, None for `auto`."""
    if spec == "auto":
        return None
    written = spec.removeprefix("auto/")
    if not _WHOLE.fullmatch(written) or int(written) < 1:
        raise ConfigError(
            f"--shard {printable(repr(spec))}: write auto/N with N the array's number of tasks "
            "(at least 1), e.g. --shard auto/4"
        )
    return int(written)


def array_task(environ: Mapping[str, str]) -> ArrayTask:
    """This task of the array job, from whichever schedulers' variables are set (all agreeing)."""
    readers = {KUBERNETES: _kubernetes, SLURM: _slurm, AWS_BATCH: _aws_batch}
    tasks = [read(environ) for name, read in readers.items() if name in environ]
    if not tasks:
        raise ConfigError(
            "--shard auto: no array job's index in the environment (JOB_COMPLETION_INDEX of a "
            "Kubernetes Indexed Job, SLURM_ARRAY_TASK_ID of a Slurm job array, "
            "AWS_BATCH_JOB_ARRAY_INDEX of an AWS Batch array job); elsewhere write --shard I/N"
        )
    first = tasks[0]
    for other in tasks[1:]:
        counts = {t.count for t in (first, other) if t.count is not None}
        if other.position != first.position or len(counts) > 1:
            raise ConfigError(
                f"--shard auto: {first.source} and {other.source} name different tasks: unset "
                "the variables of the scheduler this job does not run under, or write --shard I/N"
            )
    count = next((t.count for t in tasks if t.count is not None), None)
    return ArrayTask(first.position, count, "; ".join(t.source for t in tasks))


def _kubernetes(environ: Mapping[str, str]) -> ArrayTask:
    index = _whole(environ, KUBERNETES)
    return ArrayTask(index, None, _shown(environ, KUBERNETES))


def _aws_batch(environ: Mapping[str, str]) -> ArrayTask:
    index = _whole(environ, AWS_BATCH)
    size_name = "AWS_BATCH_JOB_ARRAY_SIZE"
    size = _whole(environ, size_name) if size_name in environ else None
    if size is not None and size < 1:
        raise ConfigError(f"--shard auto: {_shown(environ, size_name)} is not an array's size")
    return ArrayTask(index, size, _shown(environ, AWS_BATCH, size_name))


def _slurm(environ: Mapping[str, str]) -> ArrayTask:
    """The position of Slurm's task id among the array's ids: (id - min) / step."""
    names = [f"SLURM_ARRAY_TASK_{key}" for key in ("ID", "MIN", "MAX", "STEP", "COUNT")]
    task_id, low, high, step, count = (
        _whole(environ, name) if name in environ else None for name in names
    )
    source = _shown(environ, *names)
    assert task_id is not None  # read only when SLURM_ARRAY_TASK_ID is set
    if low is None:
        raise ConfigError(
            f"--shard auto: {source} without SLURM_ARRAY_TASK_MIN, so the position of this task "
            "in the array is unknown: write --shard I/N"
        )
    step = 1 if step is None else step
    if step < 1 or count == 0:
        raise ConfigError(f"--shard auto: {source} does not describe an array")
    offset = task_id - low
    if offset < 0 or offset % step:
        raise ConfigError(
            f"--shard auto: {source}: this task's id is not one of the array's "
            "(min, min + step, …): write --shard I/N"
        )
    if high is not None and count is not None and high != low + (count - 1) * step:
        raise ConfigError(
            f"--shard auto: {source}: the array is not one range with one step (e.g. "
            "--array=1,2,7): submit --array=1-N, or write --shard I/N in each task"
        )
    if count is None:  # without it, an array such as --array=1,3,5 cannot be told apart
        # from 1-5, and the shards of its missing ids would go ungraded
        raise ConfigError(
            f"--shard auto: {source} without SLURM_ARRAY_TASK_COUNT, so whether the array is "
            "one range with one step is unknown: write --shard I/N in each task"
        )
    return ArrayTask(offset // step, count, source)


def _whole(environ: Mapping[str, str], name: str) -> int:
    """The variable `name` as a whole number, or a ConfigError that shows what it holds."""
    value = environ[name]
    if not _WHOLE.fullmatch(value):
        raise ConfigError(
            f"--shard auto: {name}={printable(short_repr(value))} is not a whole number of at most "
            f"{MAX_DIGITS} digits"
        )
    return int(value)


def _shown(environ: Mapping[str, str], *names: str) -> str:
    """`NAME=value, …` for the variables of `names` that are set (their values already read)."""
    return ", ".join(f"{name}={printable(environ[name])}" for name in names if name in environ)
