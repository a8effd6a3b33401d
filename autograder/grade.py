"""Grade one submission: lay it out privately, run the trusted runner on it, score the outcome."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

import autograder
from autograder.course import Course
from autograder.results import SubmissionResult, TestOutcome
from autograder.rubric import AssignmentSpec
from autograder.sandbox.isolation import hand_to_worker
from autograder.scoring import score_tests
from autograder.submission import Ungradable, load_submission

RUNNER_ALLOWANCE_S = 60.0
"""Beyond the submission's own time budget: starting the runner and its workers."""


def grade_submission(
    course: Course, spec: AssignmentSpec, path: Path, *, hide: tuple[Path, ...] = ()
) -> SubmissionResult:
    """The graded result of the submission at `path`; ConfigError when tests and rubric disagree."""
    started = time.monotonic()
    try:
        submission = load_submission(path, module=spec.module)
    except Ungradable as reason:
        return _unscored(
            spec, path.stem if path.is_file() else path.name, "ungradable", str(reason), started
        )
    with tempfile.TemporaryDirectory(prefix="autograder-grade-") as scratch:
        root = Path(scratch)
        workdir = root / "submission"
        workdir.mkdir()
        root.chmod(0o755)  # the worker may run as an unprivileged user: let it reach its folder
        module_path = submission.write(workdir, spec.module)
        hand_to_worker(workdir)
        results = root / "results.json"
        config = {
            "course": str(course.root),
            "assignment": spec.name,
            "submission": str(module_path),
            "results": str(results),
            "hide": [str(p) for p in hide],
        }
        completed, problem = _run_runner(
            config, spec.limits.submission_timeout_s + RUNNER_ALLOWANCE_S, cwd=root
        )
        if problem is not None or not results.is_file():
            detail = problem or f"the runner ended without results: {completed}"
            return _unscored(spec, submission.id, "grader_error", detail, started)
        data = json.loads(results.read_text(encoding="utf-8"))
        shutil.rmtree(workdir, ignore_errors=True)
    outcomes = tuple(TestOutcome.from_dict(o) for o in data["tests"])
    tests = score_tests(course.rubric, spec, outcomes)
    return SubmissionResult(
        assignment=spec.name,
        submission=submission.id,
        status="graded",
        score=round(sum(t.score for t in tests), 6),
        max_score=spec.max_score,
        isolation=tuple(data["isolation"]),
        duration_s=round(time.monotonic() - started, 3),
        tests=tests,
        output=data["output"],
        notes=submission.notes,
    )


def _run_runner(
    config: Mapping[str, object], timeout_s: float, *, cwd: Path
) -> tuple[str, str | None]:
    """Run the runner to completion; (its last output, a problem or None).

    It runs this very engine (not whatever `autograder` the current folder may hold), from a
    neutral working folder."""
    engine = str(Path(autograder.__file__).resolve().parents[1])
    path = os.pathsep.join([engine, *filter(None, [os.environ.get("PYTHONPATH")])])
    process = subprocess.Popen(
        [sys.executable, "-m", "autograder.runner", json.dumps(config)],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": path},
        start_new_session=True,
    )
    try:
        output, _ = process.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return "", f"the grader's runner did not finish within {timeout_s:g} s"
    text = output.decode("utf-8", "replace").strip()
    tail = "\n".join(text.splitlines()[-15:])
    if process.returncode != 0:
        return tail, f"the grader's runner failed (exit code {process.returncode}):\n{tail}"
    return tail, None


def _unscored(
    spec: AssignmentSpec, student: str, status: str, message: str, started: float
) -> SubmissionResult:
    return SubmissionResult(
        assignment=spec.name,
        submission=student,
        status=status,  # type: ignore[arg-type]
        score=0.0,
        max_score=spec.max_score,
        isolation=(),
        duration_s=round(time.monotonic() - started, 3),
        message=message,
    )
