"""Grade submissions: lay each out privately, have the trusted runner test it, score the outcome."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import IO, Any, NoReturn

import autograder
from autograder.course.assignment import Assignment
from autograder.course.rubric import AssignmentSpec
from autograder.errors import AutograderError, ConfigError
from autograder.grading.before_release import shown_results_file
from autograder.grading.scoring import score_tests
from autograder.grading.submission import Ungradable, load_submission
from autograder.grading.turns import Turns
from autograder.protocol.messages import MessageError
from autograder.protocol.results import SubmissionResult
from autograder.protocol.runner import (
    ChildResults,
    GradeReply,
    GradeRequest,
    Rehearsal,
    RunnerReady,
    RunnerStart,
)
from autograder.safe_text import storable, storable_data
from autograder.sandbox.cpu_share import share_of_machine
from autograder.sandbox.scratch import private_folder, remove_tree

RETRIED_ALONE = "timeout-retried-alone"
"""In a result's isolation: graded again alone, after a call timed out on a busy machine."""
RUNNER_ALLOWANCE_S = 90.0
"""Beyond the submission's own time budget: the grader's own checks, and a runner's start."""
MAX_RESULTS_BYTES = 64 * 2**20
"""A results file is messages and output cut at their source: anything larger is not read."""


class Runner:
    """A long-lived trusted runner (serve.py) that grades submissions one after another.

    Started on first use; if it dies or stops answering it is killed, the submission it was
    grading is a grader_error, and the next one starts a fresh runner. One thread at a time."""

    def __init__(
        self,
        assignment: Assignment,
        *,
        hide: tuple[Path, ...] = (),
        rehearse: bool = False,
        cores: float | None = None,
        turns: Turns | None = None,
        catalogue: bool = True,
    ) -> None:
        """`rehearse`: grade the reference once at start, so that every submission after it
        costs less (worth it for a runner with 20 or more to grade: batch.REHEARSAL_PAYS_FROM);
        `cores`: the processors its submissions may use (None: the machine's); `turns`: shared
        with the runners grading beside it, for a grade again alone (turns.py); `catalogue`:
        False to judge without the assignment's catalogue and signatures (a measurement)."""
        self.catalogue = catalogue
        self.cores = cores
        self.turns = turns or Turns()
        self._starved = False
        """The last submission graded had a call time out for want of a processor."""
        self.assignment = assignment
        self.spec = assignment.spec
        self.hide = hide
        self.rehearse = rehearse
        self.rehearsal: Rehearsal | None = None
        """What the running process's rehearsal did, if it rehearsed."""
        self._process: subprocess.Popen[bytes] | None = None
        self._errors: IO[bytes] | None = None
        self._scratch = private_folder("grade")
        self._count = 0
        self._source: str | None = None

    def grade(self, path: Path) -> SubmissionResult:
        """The graded result of the submission at `path`: never raises for anything the
        submission holds or does; what went wrong is the result's status and message."""
        return self.grade_with_source(path)[0]

    def grade_with_source(self, path: Path) -> tuple[SubmissionResult, str | None]:
        """`grade`, and the student's module as it was read for grading (a notebook's code
        cells joined), or None when there was none to read: the similarity check's input.

        A submission a call of which timed out for want of a processor (the machine busy with
        the submissions graded beside it) is graded again alone, and that grade is its result."""
        with self.turns.shared():
            result, source = self._attempt(path)
        if not self._starved:
            return result, source
        with self.turns.alone():
            result, source = self._attempt(path)
        return replace(result, isolation=(*result.isolation, RETRIED_ALONE)), source

    def _attempt(self, path: Path) -> tuple[SubmissionResult, str | None]:
        self._starved = False
        self._source = None
        started = time.monotonic()
        student = storable(path.name if path.is_dir() else path.stem)
        try:
            result = self._grade(path, started)
        except ConfigError:  # the course is wrong (a test file that does not load): no student's
            raise  # result can be right, so grading stops and says what to fix
        except Exception as error:  # the class goes on: this submission records what happened
            detail = f"the grader failed on this submission: {type(error).__name__}: {error}"
            result = _unscored(self.spec, student, "grader_error", detail, started)
        return SubmissionResult.from_dict(storable_data(result.to_dict())), self._source

    def _grade(self, path: Path, started: float) -> SubmissionResult:
        try:
            submission = load_submission(path, module=self.spec.module)
        except Ungradable as reason:
            student = path.name if path.is_dir() else path.stem
            return _unscored(self.spec, student, "ungradable", str(reason), started)
        self._source = storable(submission.module_source)
        self._count += 1
        folder = Path(self._scratch) / f"submission-{self._count}"
        folder.mkdir()
        results = Path(self._scratch) / f"results-{self._count}.json"
        shown = shown_results_file(results)
        detail = None
        try:
            submission.write(folder, self.spec.module)
            request = GradeRequest(self._count, str(folder), str(results), self.spec.module)
            reply = GradeReply.from_json(
                self._ask(request, self.spec.limits.submission_timeout_s + RUNNER_ALLOWANCE_S)
            )
            problem = reply.problem
            if problem is not None or not results.is_file():
                detail = str(problem or "the runner answered without results")
            elif results.stat().st_size > MAX_RESULTS_BYTES:
                detail = f"the results are larger than {MAX_RESULTS_BYTES // 2**20} MiB"
            else:
                data = ChildResults.from_json(json.loads(results.read_text(encoding="utf-8")))
        except (RunnerFailed, MessageError) as failed:
            detail = str(failed)
        finally:
            remove_tree(folder)
            results.unlink(missing_ok=True)
            kept = _read_shown(shown)
        if detail is not None:
            if kept is None:
                return _unscored(self.spec, submission.id, "grader_error", detail, started)
            data, detail = kept, f"{detail}\n{FAILED_AFTER_SHOWN}"
        self._starved = "starved" in data.worker_events
        tests = score_tests(self.assignment.course.rubric, self.spec, data.tests)
        return SubmissionResult(
            assignment=self.spec.name,
            submission=submission.id,
            status="graded" if detail is None else "grader_error",
            score=round(sum(t.score for t in tests), 6),
            max_score=self.spec.max_score,
            isolation=data.isolation,
            duration_s=round(time.monotonic() - started, 3),
            tests=tests,
            message=detail,
            output=data.output,
            shown_output=data.shown_output,
            notes=submission.notes,
            failed_after_shown=detail is not None,
        )

    def close(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            assert process.stdin is not None and process.stdout is not None
            process.stdin.close()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                _kill(process)
            process.stdout.close()
        if self._errors is not None:
            self._errors.close()
            self._errors = None
        shutil.rmtree(self._scratch, ignore_errors=True)

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the process -------------------------------------------------------------------------

    def _start(self) -> None:
        self.launch()
        self.await_ready()

    def launch(self) -> None:
        """Start the runner process (without waiting for it to be ready).

        It runs this very engine (not whatever `autograder` the current folder may hold), from
        a neutral working folder. It dies with the thread that started it (Linux's parent-death
        signal), so a pool starts its runners from the main thread."""
        engine = str(Path(autograder.__file__).resolve().parents[1])
        path = os.pathsep.join([engine, *filter(None, [os.environ.get("PYTHONPATH")])])
        config = RunnerStart(
            course=str(self.assignment.course.root),
            assignment=self.assignment.name,
            hide=tuple(str(p) for p in self.hide),
            rehearse=self.rehearse,
            cores=self.cores,
            catalogue=self.catalogue,
        )
        self._errors = tempfile.TemporaryFile()  # noqa: SIM115 (kept open while the runner lives)
        self._process = subprocess.Popen(
            [sys.executable, "-m", "autograder.grading.serve", json.dumps(config.to_json())],
            cwd=self._scratch,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._errors,
            env={
                **os.environ,
                **SINGLE_THREADED,
                "PYTHONDONTWRITEBYTECODE": "1",
                "PYTHONPATH": path,
            },
            start_new_session=True,
        )

    def await_ready(self) -> None:
        """Wait until the runner has collected the tests (and rehearsed)."""
        first = self._read_reply(STARTUP_TIMEOUT_S, "start")
        try:
            self.rehearsal = RunnerReady.from_json(first).rehearsal
        except MessageError as error:
            self._fail(f"the grader's runner started wrongly: {error}")

    def _ask(self, request: GradeRequest, timeout_s: float) -> Any:
        if self._process is None or self._process.poll() is not None:
            self._start()
        assert self._process is not None and self._process.stdin is not None
        try:
            self._process.stdin.write(json.dumps(request.to_json()).encode() + b"\n")
            self._process.stdin.flush()
        except OSError:
            self._fail("the grader's runner stopped")
        return self._read_reply(timeout_s, "finish")

    def _read_reply(self, timeout_s: float, what: str) -> Any:
        assert self._process is not None and self._process.stdout is not None
        ready, _, _ = select.select([self._process.stdout], [], [], timeout_s)
        if not ready:
            self._fail(f"the grader's runner did not {what} within {timeout_s:g} s")
        line = self._process.stdout.readline()
        if not line:
            try:
                code: int | str = self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                code = "none"
            self._fail(f"the grader's runner failed (exit code {code})")
        try:
            return json.loads(line)
        except ValueError:
            self._fail(f"the grader's runner sent a line that is not JSON when asked to {what}")

    def _fail(self, problem: str) -> NoReturn:
        """Kill the runner (the next submission starts a new one) and report its last words."""
        process, self._process = self._process, None
        tail = ""
        if process is not None:
            _kill(process)
        if self._errors is not None:
            self._errors.seek(0)
            text = self._errors.read().decode("utf-8", "replace").strip()
            tail = "\n".join(text.splitlines()[-15:])
            self._errors.close()
            self._errors = None
        raise RunnerFailed(f"{problem}:\n{tail}" if tail else problem)


class RunnerFailed(AutograderError):
    """The runner died, or did not answer in time."""


STARTUP_TIMEOUT_S = 120.0
SINGLE_THREADED = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
"""The runner forks: numeric libraries must not hold thread pools (and jobs share the cores)."""


class RunnerPool:
    """`size` runners shared by as many threads: each grade takes an idle runner."""

    def __init__(
        self,
        assignment: Assignment,
        *,
        size: int,
        hide: tuple[Path, ...] = (),
        rehearse: bool = False,
        catalogue: bool = True,
    ) -> None:
        self._idle: queue.SimpleQueue[Runner] = queue.SimpleQueue()
        cores, turns = share_of_machine(size), Turns()  # each its share; one turn alone
        self._all = [
            Runner(
                assignment,
                hide=hide,
                rehearse=rehearse,
                cores=cores,
                turns=turns,
                catalogue=catalogue,
            )
            for _ in range(size)
        ]
        for runner in self._all:  # all start at once; each collects the tests in parallel
            runner.launch()
        for runner in self._all:
            with contextlib.suppress(RunnerFailed):  # its first submission restarts it and
                runner.await_ready()  # reports why when it cannot
            self._idle.put(runner)

    def grade(self, path: Path) -> SubmissionResult:
        return self.grade_with_source(path)[0]

    def grade_with_source(self, path: Path) -> tuple[SubmissionResult, str | None]:
        runner = self._idle.get()
        try:
            return runner.grade_with_source(path)
        finally:
            self._idle.put(runner)

    def close(self) -> None:
        for runner in self._all:
            runner.close()

    def __enter__(self) -> RunnerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def grade_submission(
    assignment: Assignment, path: Path, *, hide: tuple[Path, ...] = ()
) -> SubmissionResult:
    """The graded result of the submission at `path`, by a runner started for it alone."""
    with Runner(assignment, hide=hide) as runner:
        return runner.grade(path)


def _kill(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


FAILED_AFTER_SHOWN = (
    "It failed after the tests shown at once had run: their results stand for the student "
    "until results are released, and the next `grade` grades this submission again."
)


def _read_shown(shown: Path) -> ChildResults | None:
    """The results a test child kept of the tests shown at once before it ran any other
    (serve.py), when it kept them whole; the file is removed."""
    try:
        if not shown.is_file() or shown.stat().st_size > MAX_RESULTS_BYTES:
            return None
        return ChildResults.from_json(json.loads(shown.read_text(encoding="utf-8")))
    except (OSError, ValueError, MessageError):
        return None
    finally:
        shown.unlink(missing_ok=True)


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
