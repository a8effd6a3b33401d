"""The trusted runner: an assignment's public and hidden tests, one submission after another.

Started by runners.py as `python -m autograder.grading.serve CONFIG_JSON`, so that the grader's
own process never holds test modules, the reference or student data. At start it imports pytest,
numpy, sympy, the reference and the catalogue, collects the tests once and starts the sandbox's
zygote. Then it serves requests, one JSON line each on stdin (a submission folder and a results
file):

1. the submission is copied into the inbox, from which the zygote makes the submission's
   fresh slot (seen as /tmp/submission inside the sandbox) at its first worker;
2. a child forked from the runner runs every collected test against it (fixtures start fresh
   in each child: the runner runs tests only in its rehearsal, whose fixtures end before the
   first child) and writes the outcomes, the worker's output to the results file, and the
   symbolic verdicts it learnt beside it;
3. the runner waits for the child within the submission's time limit, ends every worker process,
   removes the slot and empties the sandbox's /tmp through the zygote, empties the inbox, keeps
   the verdicts, and answers with one JSON line on stdout.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import importlib.util
import json
import os
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import IO, Any, Literal

import pytest

from autograder.checks import memo
from autograder.checks.context import CheckContext, activate
from autograder.course.assignment import Assignment
from autograder.course.course import Course
from autograder.course.rubric import AssignmentSpec
from autograder.course.solutions import solution_source
from autograder.diagnosis.disclosure import SHOWN_AT_ONCE
from autograder.diagnosis.mutant_match import MutantModels
from autograder.grading import pytest_compat
from autograder.grading.before_release import shown_results_file
from autograder.grading.proxy import StudentProxy
from autograder.grading.pytest_plugin import (
    GradingContext,
    input_watch,
    not_run_outcome,
    recorder,
)
from autograder.protocol.runner import (
    ChildResults,
    GradeReply,
    GradeRequest,
    Rehearsal,
    RunnerReady,
    RunnerStart,
)
from autograder.sandbox.client import StudentSession
from autograder.sandbox.cpu_share import CpuCgroup, make_cpu_cgroup, share_of_machine
from autograder.sandbox.isolation import Isolation, choose
from autograder.sandbox.limits import limit_address_space
from autograder.sandbox.reaper import die_with_parent, wait_for_exit
from autograder.sandbox.scratch import empty_tree, private_folder, remove_tree
from autograder.sandbox.worker import warm_up
from autograder.sandbox.zygote import Zygote, ZygoteFailed
from autograder.student.local_check import NO_PLUGIN_AUTOLOAD

UNUSED_PLUGINS = ("cacheprovider", "terminal", "faulthandler", "pastebin", "junitxml", "doctest",
                  "stepwise", "setuponly", "setupplan", "debugging", "unraisableexception",
                  "threadexception", "warnings", "logging")  # fmt: skip
"""Per-test work nobody reads when grading (outcomes come from the recorder). The plugins that
give tests fixtures (tmp_path, monkeypatch, capsys, recwarn) stay; `logging` goes (about 30 µs
a test) because its `caplog` could only see the grader's own records: the student's code logs
in its worker, never in the process that runs the tests."""
PRELOADED = ("numpy.random", "sympy.combinatorics", "sympy.sets.setexpr", "sympy.tensor.tensor",
             "secrets", "hmac", "difflib", "pprint")  # fmt: skip
"""Imported by the kit's checks (checks/) on first use: imported once here instead of in every
child. An assignment adds the modules its own tests import with the rubric's `preload` key."""
CHILD_ALLOWANCE_S = 60.0
"""Beyond the submission's own time budget: the grader's own checks (symbolic proofs)."""
CHILD_MEMORY_MB = 3072
"""Address space a test child may add to what it inherits: the checks of one submission use a
few hundred MiB; a reply or a message that would take gigabytes ends this child alone."""


def main(argv: list[str]) -> int:
    config = RunnerStart.from_json(json.loads(argv[0]))
    die_with_parent()
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)  # whatever else is printed goes to stderr, never among the replies
    assignment = Course.load(Path(config.course)).assignment(config.assignment)
    spec = assignment.spec
    for name in PRELOADED:
        importlib.import_module(name)
    for name in spec.preload:
        try:
            importlib.import_module(name)
        except ImportError as error:  # the course's mistake: name it before any submission
            raise SystemExit(f"grading.toml [assignments.{spec.name}] preload: {error}") from None
    course = assignment.course
    hidden = [course.root, *(Path(p) for p in config.hide)]
    isolation = choose(
        hidden=hidden,
        bubblewrap=spec.bubblewrap,
        tmp_mb=spec.limits.disk_mb,
        isolation=spec.isolation,
    )
    cgroup = make_cpu_cgroup(config.cores or share_of_machine(1))
    try:
        return _serve(config, assignment, replace(isolation, cpu_cgroup=cgroup is not None),
                      cgroup, requests, replies)  # fmt: skip
    finally:
        if cgroup is not None:
            cgroup.remove()


def _serve(
    config: RunnerStart,
    assignment: Assignment,
    isolation: Isolation,
    cgroup: CpuCgroup | None,
    requests: IO[str],
    replies: IO[str],
) -> int:
    spec = assignment.spec
    warm_up_source = assignment.warm_up_source()
    inbox = private_folder("inbox")  # 0700: only this runner and its zygote read it
    zygote = Zygote(isolation, inbox, preload=spec.preload, warm_up=warm_up_source, cgroup=cgroup)
    zygote.launch()  # it starts in the sandbox while this process collects the tests
    try:  # here too (trusted code, and it warms this runner's checks): a broken warm-up is
        warm_up(warm_up_source)  # the course's mistake, named, not a zygote that dies
    except Exception as error:
        zygote.close_now()
        remove_tree(inbox)
        raise SystemExit(
            f"{assignment.warm_up_file} failed: {type(error).__name__}: {error}"
        ) from None
    activate(CheckContext(policy=spec.symbolic))  # every child inherits it, and its verdicts
    folder = assignment.folder
    tests = [str(path) for path in assignment.test_folders]
    context = grading_context(assignment, student=None, catalogue=config.catalogue)
    reference = assignment.reference
    rehearsal = (
        solution_source(reference.read_text(encoding="utf-8"), origin=str(reference))
        if config.rehearse
        else None
    )
    sys.path.insert(0, str(assignment.shared_folder.parent))  # tests' `from shared.X import`
    with zygote, tempfile.TemporaryDirectory() as scratch:
        loop = ServeLoop(spec, isolation, zygote, context, requests, replies, rehearsal)
        ini = Path(scratch) / "pytest.ini"
        ini.write_text("[pytest]\n", encoding="utf-8")
        unused = [part for name in UNUSED_PLUGINS for part in ("-p", f"no:{name}")]
        arguments = [*tests, "-c", str(ini), "--rootdir", str(folder),
                     "--confcutdir", str(folder),  # no conftest.py from above the assignment
                     "-p", "autograder.grading.pytest_plugin", "--import-mode=importlib",
                     "--capture=sys", *unused]  # fmt: skip
        os.environ.update(NO_PLUGIN_AUTOLOAD)  # read by pytest.main: only the plugins named
        try:
            code = pytest.main(arguments, plugins=[context, loop])
        finally:
            remove_tree(inbox)
    if not loop.served:
        raise SystemExit(f"pytest could not collect the tests (exit code {int(code)})")
    return 0


class ServeLoop:
    """A pytest plugin that replaces the test loop: collect once, then fork per submission."""

    def __init__(
        self,
        spec: AssignmentSpec,
        isolation: Isolation,
        zygote: Zygote,
        context: GradingContext,
        requests: IO[str],
        replies: IO[str],
        rehearsal: str | None = None,
    ) -> None:
        """`rehearsal`: a module's source (the reference's) graded once before serving."""
        self.spec = spec
        self.isolation = isolation
        self.zygote = zygote
        self.context = context
        self.requests = requests
        self.replies = replies
        self.rehearsal = rehearsal
        self.served = False

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> bool:
        self.served = True
        recorded = recorder(session.config)
        recorded.message_limit = self.spec.limits.output_kb * 1024
        recorded.order = {item.nodeid: n for n, item in enumerate(session.items)}
        session.items[:] = self.context.in_disclosure_order(session.items)
        self.zygote.start()  # launched before the collection: ready by now, or soon
        rehearsed = None if self.rehearsal is None else self._rehearse(session, self.rehearsal)
        gc.collect()
        gc.freeze()  # children share the collected session's pages instead of copying them
        self._reply(RunnerReady(len(session.items), rehearsed))
        for line in self.requests:
            started = time.monotonic()
            request_id = None
            try:
                request = GradeRequest.from_json(json.loads(line))
                request_id = request.id
                problem = self._grade(session, request)
            except Exception as error:  # the runner must answer, whatever went wrong
                problem = f"the runner failed: {type(error).__name__}: {error}"
            duration = round(time.monotonic() - started, 3)
            self._reply(GradeReply(request_id, problem, duration))
        return True

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> pytest.TestReport:
        """A report without pytest's rendered traceback (source lines, realpaths): outcomes
        come from the exception itself (feedback.explain), and no one reads the rendering."""
        when = call.when
        assert when != "collect"
        outcome: Literal["passed", "failed", "skipped"] = "passed"
        longrepr: Any = None
        if call.excinfo is not None:
            if call.excinfo.errisinstance(pytest.skip.Exception):
                outcome = "skipped"
                longrepr = (str(item.path), item.location[1], str(call.excinfo.value))
            else:
                outcome, longrepr = "failed", call.excinfo.exconly()
        return pytest_compat.bare_report(item, call, outcome, longrepr)

    def _reply(self, message: RunnerReady | GradeReply) -> None:
        self.replies.write(json.dumps(message.to_json()) + "\n")

    def _grade(self, session: pytest.Session, request: GradeRequest) -> str | None:
        """Grade one submission; None when its results are written, else what went wrong."""
        inbox = self.zygote.inbox
        results = Path(request.results)
        limit = self.spec.limits.submission_timeout_s + CHILD_ALLOWANCE_S
        try:
            _fill(inbox, Path(request.submission_dir))
            pid = os.fork()
            if pid == 0:
                self._child(session, inbox / request.module_file, results)
            code = _wait(pid, time.monotonic() + limit)
        finally:
            self._clear_slot()
        if code is None:
            return f"the grader's checks did not finish within {limit:g} s"
        if code != 0 or not results.is_file():
            failure = _failure_file(results)
            last = failure.read_text(encoding="utf-8").strip() if failure.is_file() else ""
            failure.unlink(missing_ok=True)
            tail = "\n".join(last.splitlines()[-12:])
            return f"the grader's checks failed (exit code {code})" + (f":\n{tail}" if tail else "")
        verdicts = _verdicts_file(results)
        memo.add(json.loads(verdicts.read_text(encoding="utf-8")))
        verdicts.unlink()
        return None

    def _child(self, session: pytest.Session, module: Path, results: Path) -> None:
        """In the forked child: run every test on the submission, write the results, exit."""
        code = 1
        try:
            os.setpgid(0, 0)  # the runner can end this child and its bounded helpers together
            die_with_parent()
            limit_address_space(CHILD_MEMORY_MB)
            student, shown_upto = self._run_tests(session, module, results)
            data = ChildResults(
                tests=tuple(recorder(session.config).final_outcomes()),
                isolation=tuple(self.isolation.layers),
                output=student.output.text(),
                shown_output=student.output.text(shown_upto),
                worker_events=tuple(student.events),
            )
            _verdicts_file(results).write_text(json.dumps(memo.learnt()), encoding="utf-8")
            results.write_text(json.dumps(data.to_json()), encoding="utf-8")
            code = 0
        except BaseException:  # the child reports, and never returns into the runner's loop
            with contextlib.suppress(BaseException):
                _failure_file(results).write_text(traceback.format_exc(), encoding="utf-8")
        finally:
            with contextlib.suppress(BaseException):
                sys.stderr.flush()
            os._exit(code)

    def _run_tests(
        self, session: pytest.Session, module: Path, results: Path | None = None
    ) -> tuple[StudentSession, int | None]:
        """Every collected test, on the submission at `module`, in this process; and where
        in its output the tests shown at once end (None: they are all there is)."""
        student = StudentSession(
            submission=module,
            module_name=self.spec.module_name,
            limits=self.spec.limits,
            isolation=self.isolation,
            zygote=self.zygote,
            on_disk_lost=None if results is None else _stop_as_grader_error(results),
        )
        self.context.student = StudentProxy(student)
        self.context.calls = student.calls
        self.context.reset()
        input_watch(session.config).reset()
        shown_upto = None
        with student:
            items = session.items
            group = None
            for index, item in enumerate(items):
                disclosure = self.context.disclosure(item)
                if disclosure != group:  # a worker that imports the module anew: it holds
                    student.fresh_worker()  # nothing of the calls of the group before
                    if group == SHOWN_AT_ONCE:
                        shown_upto = student.output.mark()
                    elif group is None and disclosure != SHOWN_AT_ONCE:
                        shown_upto = 0  # no test is shown at once: none of its output is
                    leaving_shown = group in (None, SHOWN_AT_ONCE) and disclosure != SHOWN_AT_ONCE
                    if results is not None and leaving_shown:
                        self._write_shown(session, items[index:], student, shown_upto, results)
                    group = disclosure
                following = items[index + 1] if index + 1 < len(items) else None
                item.ihook.pytest_runtest_protocol(item=item, nextitem=following)
        return student, shown_upto

    def _write_shown(
        self,
        session: pytest.Session,
        later: list[pytest.Item],
        student: StudentSession,
        shown_upto: int | None,
        results: Path,
    ) -> None:
        """Before the first test not shown at once runs, the results of those shown at once,
        the later tests listed as not run: what stands for the student until results are
        released if the grader fails from here on (grading/before_release.py)."""
        recorded = recorder(session.config)
        outcomes = [*recorded.final_outcomes(), *map(not_run_outcome, later)]
        last = len(recorded.order)
        outcomes.sort(key=lambda outcome: recorded.order.get(outcome.nodeid, last))
        output = student.output.text(shown_upto)
        data = ChildResults(
            tests=tuple(outcomes),
            isolation=tuple(self.isolation.layers),
            output=output,
            shown_output=output,
            worker_events=tuple(student.events),
        )
        shown = shown_results_file(results)
        written = shown.with_name(shown.name + ".part")
        written.write_text(json.dumps(data.to_json()), encoding="utf-8")
        written.replace(shown)  # whole or absent, whenever the child is stopped

    def _clear_slot(self) -> None:
        """End every worker process, remove the slot and empty the sandbox's /tmp (all through
        the zygote), and empty the inbox: nothing of one submission is left for the next."""
        with contextlib.suppress(ZygoteFailed):  # it is killed already (Zygote.end), with its
            self.zygote.end(None)  # sandbox; a new zygote replaces any slot it finds
        empty_tree(self.zygote.inbox)

    def _rehearse(self, session: pytest.Session, source: str) -> Rehearsal:
        """Grade `source` once here, in the runner itself, before serving any student.

        Much of what a child does on its first submission, libraries do lazily and once per
        process: pytest works out each test's location and fixtures, SymPy and NumPy build
        their tables. A child forked after the rehearsal inherits that work instead of redoing
        it and throwing it away (about a fifth of a child's CPU time). What the rehearsal
        leaves of a submission is cleared: its outcomes, the failed-test count, its fixtures
        and worker; the grader's own results stay (remembered verdicts, SymPy's cache of the
        checks' algebra), as they would from one test to the next. Returns how many tests the
        source passed, or why the rehearsal stopped.
        """
        recorded = recorder(session.config)
        summary = Rehearsal()
        try:
            module = self.zygote.inbox / self.spec.module
            module.write_text(source, encoding="utf-8")
            self._run_tests(session, module)
            passed = [o for o in recorded.outcomes.values() if o.status == "passed"]
            summary = Rehearsal(passed=len(passed), tests=len(session.items))
            with contextlib.suppress(Exception):  # priming only saves time, as the rest does
                self.context.prime_answers()
        except Exception as error:  # a rehearsal only saves time: serve without it
            summary = Rehearsal(failed=f"{type(error).__name__}: {error}")
        finally:
            with contextlib.suppress(Exception):
                pytest_compat.tear_down_fixtures(session)  # fixtures start fresh in children
            self._clear_slot()
            recorded.outcomes.clear()
            recorded.durations.clear()
            pytest_compat.forget_failures(session)
            self.context.student = None
            self.context.reset()  # no child inherits the reference's calls as evidence
            self.context.calls = []
            input_watch(session.config).reset()
            memo.add(memo.learnt())
        return summary


DISK_LOST_EXIT = 75
"""A test child's exit code when it stopped its submission for the room the disk lost."""


def _stop_as_grader_error(results: Path) -> Callable[[str], None]:
    """End the test child at once, saying why: the submission becomes a grader error (graded
    again by the next run), not a score, since the room may have gone to another submission
    graded at the same time."""

    def stop(message: str) -> None:
        with contextlib.suppress(OSError):
            _failure_file(results).write_text(
                f"the grader stopped this submission: {message}; it is graded again by the "
                "next run (with --jobs 1 if another submission took the room)",
                encoding="utf-8",
            )
        os._exit(DISK_LOST_EXIT)

    return stop


def _verdicts_file(results: Path) -> Path:
    """Where a child leaves the verdicts it learnt, for the runner alone."""
    return results.with_name(results.name + ".verdicts")


def _failure_file(results: Path) -> Path:
    """Where a child that could not write its results leaves its traceback."""
    return results.with_name(results.name + ".failure")


def _fill(inbox: Path, source: Path) -> None:
    """Copy the submission's folder into the (empty) inbox; the zygote copies it into a slot."""
    for entry in source.iterdir():
        target = inbox / entry.name
        if entry.is_dir():
            shutil.copytree(entry, target, symlinks=False)
        else:
            shutil.copyfile(entry, target)


def _wait(pid: int, deadline: float) -> int | None:
    """The child's exit code; None after killing it (with its group) at the deadline."""
    code = wait_for_exit(pid, deadline)
    if code is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    return code


def grading_context(
    assignment: Assignment, *, student: Any, catalogue: bool = True, mutants: bool = True
) -> GradingContext:
    """What the tests' fixtures hand out when the grader runs them: `student` (set per
    submission when None here), the reference, the rubric's tolerance and seed, the catalogue
    and signatures (unless `catalogue` is False), the reference's mutants as models of
    mistakes (made here, once, before any child is forked), and which tests are hidden."""
    spec = assignment.spec
    reference = assignment.load_reference()
    source = solution_source(assignment.reference.read_text(encoding="utf-8"), origin="reference")
    return GradingContext(
        student=student,
        reference=reference,
        tolerance=spec.tolerance,
        seed=spec.seed,
        catalogue=assignment.load_catalogue() if catalogue else (),
        signatures=assignment.load_signatures() if catalogue else (),
        mutant_models=MutantModels(reference, source, assignment.load_words()) if mutants else None,
        hidden_tests=assignment.hidden_tests,
        default_visibility=(spec.public_visibility, spec.hidden_visibility),
        may_modify_inputs=frozenset(spec.may_modify_inputs),
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
