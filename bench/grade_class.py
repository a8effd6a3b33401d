"""Grade a generated class three ways and compare: per-submission time, ratios, peak memory.

Generates N submissions cycling through every kind of the sample class, correct, buggy and
hostile, except the one that loops (and, for a second class, 5 % that loop into the call time
limit); `--without-hostile` keeps the correct and buggy kinds only. Then, on the same
submissions, it times:
  (a) the bare limit: each submission imported into this one process and the same public and
      hidden tests run on it in-process by pytest (no worker, no sandbox, no runner); hostile
      submissions cannot run without isolation (one ends the process, one patches numpy, one
      leaves a process behind), so the bare limit times the others only, each with SymPy's
      cache emptied first (as each worker starts); within it, the students' own code: the CPU
      time of importing each submission and inside the functions it defines, which, spread over
      two cores, bounds `--jobs 2` (`the students' own code on 2 cores`, for classes without
      hostile kinds; the bare limit's figures before this line was added kept SymPy's cache);
  (b) `autograder grade --jobs 1` and `--jobs 2`: the real command, as a separate process;
  (c) `nbgrader autograde` on the same submissions as notebooks whose test cells call the same
      checks (`autograder.authoring.inline.part_points`), one cell per rubric part (only with
      --nbgrader, and only for classes of at most --nbgrader-max submissions).
Peak memory is the largest sum of proportional set sizes (PSS: shared pages split between the
processes sharing them) over the grader and all its descendants, sampled every 50 ms. For the
looping class it also prints the time beyond the timeouts themselves (each timed-out call costs
the rubric's call limit). With --closed-form, every submission's relative_dot returns cos(w·k)
without SymPy's simplification: the same comparison without the students' own SymPy work.
Prints figures; asserts nothing.

    .venv/bin/python bench/grade_class.py --n 50 200 1000 --nbgrader
"""

from __future__ import annotations

import argparse
import csv
import functools
import itertools
import json
import os
import runpy
import subprocess
import sys
import tempfile
import threading
import time
import types
from pathlib import Path

import sympy

from autograder.authoring.inline import run_whole
from autograder.authoring.sample_class import sample_class
from autograder.authoring.solutions import solution_source
from autograder.course.course import Course
from autograder.sandbox.reaper import become_subreaper, end_children, process_table
from autograder.sandbox.worker import warm_up

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
ASSIGNMENT = "positional_encoding"
"""The assignment whose sample class this bench grades, scaled up to a class of --n."""
SAMPLES = {s.name: s.source for s in sample_class(Course.load(ROOT).assignment(ASSIGNMENT))}
"""The sample class, committed and generated (sample_class/expected.toml), and the template."""
TEMPLATE = "template"
"""Not a kind of the sample class: the released stub, every function raising
NotImplementedError. Grading it costs the kit what it spends when a submission computes nothing."""
SAMPLES[TEMPLATE] = (ROOT / "student_template" / ASSIGNMENT / f"{ASSIGNMENT}.py").read_text(
    encoding="utf-8"
)
LOOPING = "hostile_infinite_loop"
"""The kind that runs into the call time limit: only in the looping class."""
KINDS = tuple(sorted(name for name in SAMPLES if name not in (LOOPING, TEMPLATE)))
CORES = 2
"""The cores `--jobs 2` grades on: the students' own code spread over them is a floor for
`--jobs 2` (for a grader that runs each submission, reusing no submission's results for another)."""


def is_hostile(submission: str) -> bool:
    return "hostile_" in submission


def kinds_of(group: str) -> tuple[str, ...]:
    """The sample class's kinds in `group`: "all" but the looping one, "honest" (correct and
    buggy), "correct", "buggy", "hostile", or one kind's name ("template": the released stub)."""
    chosen = {
        "all": KINDS,
        "honest": tuple(k for k in KINDS if not is_hostile(k)),
        "correct": tuple(k for k in KINDS if k.startswith("correct_")),
        "buggy": tuple(k for k in KINDS if k.startswith("bug_")),
        "hostile": tuple(k for k in KINDS if is_hostile(k)),
    }.get(group, (group,) if group in SAMPLES else ())
    if not chosen:
        raise SystemExit(f"no kind or group of kinds called {group!r}")
    return chosen


def make_class(
    folder: Path,
    n: int,
    *,
    looping_share: float = 0.0,
    hostile: bool = True,
    kinds: tuple[str, ...] | None = None,
) -> Path:
    """N submissions named `sNNNN_KIND.py`, cycling through the sample class's kinds (or
    through `kinds`)."""
    folder.mkdir(parents=True)
    loops = round(n * looping_share)
    if kinds is None:
        kinds = kinds_of("all" if hostile else "honest")
    cycle = itertools.cycle(kinds)
    for number in range(n):
        kind = LOOPING if number % 20 == 0 and number // 20 < loops else next(cycle)
        (folder / f"s{number:04d}_{kind}.py").write_text(SAMPLES[kind], encoding="utf-8")
    return folder


CLOSED_FORM = """

def relative_dot(pos, k, w):  # added by the benchmark: the closed form, no SymPy simplification
    import sympy

    return sympy.cos(w * k)
"""


def closed_form_class(
    folder: Path, n: int, *, hostile: bool = True, kinds: tuple[str, ...] | None = None
) -> Path:
    """The same class as make_class, but every relative_dot returns cos(w·k) straight away:
    what grading costs beside the students' own SymPy simplification."""
    make_class(folder, n, hostile=hostile, kinds=kinds)
    for path in folder.glob("*.py"):
        path.write_text(path.read_text(encoding="utf-8") + CLOSED_FORM, encoding="utf-8")
    return folder


def bare_limit(course: Course, folder: Path) -> tuple[float, float, dict[str, float]]:
    """Seconds per submission, CPU seconds of the students' own code per submission, and each
    one's score: the same tests, in this process (the submissions that are not hostile:
    nothing would survive them here), after the assignment's warm-up, as in the kit's zygote.
    SymPy's cache is emptied before each submission (a worker starts with it empty; here the
    public and the hidden tests then share it, where the kit gives each its own worker).

    The students' own code is the CPU time of importing each submission and inside the
    functions it defines, as the tests call them: work any grader that runs each submission
    must do. It is a lower bound of what it costs in the kit's workers (a module this process
    imported once, as SciPy, costs a worker each time; one cache serves both tests here)."""
    assignment = course.assignment(ASSIGNMENT)
    warm_up(assignment.warm_up_source())
    scores, own = {}, 0.0
    started = time.perf_counter()
    paths = sorted(p for p in folder.glob("*.py") if not is_hostile(p.stem))
    for path in paths:
        sympy.core.cache.clear_cache()
        clock = [time.process_time()]
        namespace = runpy.run_path(str(path))
        clock[0] = time.process_time() - clock[0]
        timed = {name: _timed(value, clock) for name, value in namespace.items()}
        scores[path.stem] = run_whole(assignment, timed)
        own += clock[0]
    return (time.perf_counter() - started) / len(paths), own / len(paths), scores


def _timed(value: object, clock: list[float]) -> object:
    """`value`, or, if it is a function the submission defined, the same function adding the
    CPU time of each outer call to `clock[0]`. Calls between its own functions are not wrapped:
    `runpy.run_path` returns a copy of the module's globals, which its functions do not see."""
    if not isinstance(value, types.FunctionType) or value.__module__ != "<run_path>":
        return value

    @functools.wraps(value)
    def call(*args: object, **kwargs: object) -> object:
        started = time.process_time()
        try:
            return value(*args, **kwargs)
        finally:
            clock[0] += time.process_time() - started

    return call


class PeakMemory:
    """Samples the proportional memory (PSS) of a process and all its descendants."""

    def __init__(self, root: int) -> None:
        self.root = root
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> PeakMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(0.05):
            self.peak = max(self.peak, tree_pss(self.root))


def tree_pss(root: int) -> int:
    table = process_table()
    total, frontier = 0, [root]
    while frontier:
        pid = frontier.pop()
        total += _pss(pid)
        frontier += [child for child, (parent, _) in table.items() if parent == pid]
    return total


def _pss(pid: int) -> int:
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return 0
    for line in text.splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) * 1024
    return 0


def timed_grade(folder: Path, jobs: int) -> tuple[float, float, dict[str, float], float]:
    """(seconds per submission, peak MiB, scores, seconds spent waiting in call timeouts)."""
    n = len(list(folder.glob("*.py")))
    with tempfile.TemporaryDirectory() as out:
        command = [str(BIN / "autograder"), "grade", str(folder), "--out", out,
                   "--jobs", str(jobs), "--course", str(ROOT), "--format", "json",
                   "--assignment", ASSIGNMENT]  # fmt: skip
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        with PeakMemory(process.pid) as memory:
            _, errors = process.communicate()
        elapsed = time.perf_counter() - started
        if process.returncode not in (0, 1):
            raise SystemExit(f"grade failed: {errors.decode()[-2000:]}")
        scores, waited = {}, 0.0
        for result_file in (Path(out) / ASSIGNMENT).glob("*.json"):  # a folder per assignment
            result = json.loads(result_file.read_text())
            if "submission" not in result or result_file.name.endswith(".results.json"):
                continue  # Gradescope's results file, beside the kit's
            scores[result["submission"]] = result["score"]
            for test in result.get("tests", []):  # the first call that timed out, not the skipped
                message = test.get("message") or ""
                if "did not return within" in message and not message.startswith("not run"):
                    waited += float(message.split("within ")[1].split(" s")[0])
    return elapsed / n, memory.peak / 2**20, scores, waited


NBGRADER_CONFIG = """c = get_config()
c.CourseDirectory.root = {root!r}
c.CourseDirectory.course_id = "bench"
c.ExecutePreprocessor.timeout = 30
"""


def bench_notebook(course: Course, student_source: str | None) -> str:
    """An nbgrader notebook: one solution cell (the reference's, or a student's file) and a test
    cell per rubric part whose output is the part's points (nbgrader's partial credit)."""
    import nbformat

    spec = course.rubric.assignment(ASSIGNMENT)
    reference = course.assignment(ASSIGNMENT).reference
    solution = solution_source(reference.read_text(), origin=str(reference))
    solution = "\n".join(line for line in solution.splitlines() if "SOLUTION" not in line)
    code = student_source or solution
    cells = [nbformat.v4.new_code_cell(code)]
    cells[0].metadata["nbgrader"] = {"grade": False, "solution": True, "locked": False,
                                     "grade_id": "functions", "schema_version": 3}  # fmt: skip
    for part in spec.parts:
        cell = nbformat.v4.new_code_cell(
            "from autograder.authoring.inline import part_points\n"
            "### BEGIN HIDDEN TESTS\n"
            f"part_points({part.name!r}, globals(), assignment={ASSIGNMENT!r})\n"
            "### END HIDDEN TESTS"
        )
        cell.metadata["nbgrader"] = {"grade": True, "solution": False, "locked": True,
                                     "points": part.points, "grade_id": f"test_{part.name}",
                                     "schema_version": 3}  # fmt: skip
        cells.append(cell)
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}  # fmt: skip
    return str(nbformat.writes(notebook))


def timed_nbgrader(folder: Path, scratch: Path) -> tuple[float, dict[str, float]]:
    """Seconds per notebook for `nbgrader autograde`, and each notebook's automatic score."""
    course = scratch / "nbgrader_course"
    source = course / "source" / "ps1"
    source.mkdir(parents=True)
    (course / "nbgrader_config.py").write_text(NBGRADER_CONFIG.format(root=str(course)))
    (source / "ps1.ipynb").write_text(bench_notebook(Course.load(ROOT), None))
    environment = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
                   "AUTOGRADER_COURSE": str(ROOT)}  # fmt: skip
    nbgrader = [str(BIN / "nbgrader")]
    subprocess.run([*nbgrader, "generate_assignment", "ps1", "--force"], cwd=course,
                   env=environment, check=True, capture_output=True)  # fmt: skip
    paths = sorted(folder.glob("*.py"))
    for path in paths:
        target = course / "submitted" / path.stem / "ps1"
        target.mkdir(parents=True)
        (target / "ps1.ipynb").write_text(bench_notebook(Course.load(ROOT), path.read_text()))
    become_subreaper()  # what nbgrader's kernels leave behind is adopted here, then ended
    started = time.perf_counter()
    with (scratch / "autograde.log").open("wb") as log:  # not a pipe: an orphan would hold it
        subprocess.run([*nbgrader, "autograde", "ps1", "--create"], cwd=course, env=environment,
                       stdout=subprocess.DEVNULL, stderr=log)  # fmt: skip
    elapsed = time.perf_counter() - started
    end_children()  # hostile_orphan's daemons: nbgrader has no sandbox to end them
    report = course / "grades.csv"
    subprocess.run([*nbgrader, "export", "--to", str(report)], cwd=course, env=environment,
                   check=True, capture_output=True)  # fmt: skip
    with report.open() as handle:
        scores = {row["student_id"]: float(row["raw_score"]) for row in csv.DictReader(handle)}
    return elapsed / len(paths), scores


NOT_COMPARABLE = ("    NOT COMPARABLE: nbgrader scored honest submissions otherwise (did its "
                  "notebooks fail?): its time and the ratio to it say nothing")  # fmt: skip


def _honest_disagree(kit: dict[str, float], other: dict[str, float]) -> bool:
    both = set(kit) & set(other)
    return any(abs(kit[k] - other[k]) > 1e-6 for k in both if not is_hostile(k))


def agreement(kit: dict[str, float], other: dict[str, float]) -> str:
    """How the kit's scores compare with another grader's on the submissions both graded:
    on the honest ones they must agree; on the hostile ones a grader without isolation may be
    fooled (each hostile kind that scored differently is named once)."""
    both = sorted(set(kit) & set(other))
    honest = [k for k in both if not is_hostile(k)]
    differ = [k for k in honest if abs(kit[k] - other[k]) > 1e-6]
    text = f"{len(honest) - len(differ)}/{len(honest)} scores agree"
    if differ:
        shown = ", ".join(f"{k}: {kit[k]:g} vs {other[k]:g}" for k in differ[:5])
        text += f" (differ: {shown})"
    fooled: dict[str, str] = {}
    for k in both:
        kind = k.split("_", 1)[1]
        if is_hostile(k) and abs(kit[k] - other[k]) > 1e-6:
            fooled.setdefault(kind, f"{kind} {other[k]:g} (the kit: {kit[k]:g})")
    if fooled:
        text += "; hostile kinds scored differently there: " + ", ".join(fooled.values())
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[50])
    parser.add_argument("--nbgrader", action="store_true", help="also time nbgrader autograde")
    parser.add_argument("--nbgrader-max", type=int, default=50)
    parser.add_argument("--jobs1-max", type=int, default=200, help="skip --jobs 1 above this N")
    parser.add_argument("--bare-max", type=int, default=200, help="skip the bare limit above")
    parser.add_argument("--looping-max", type=int, default=200, help="the 5 %% looping class up to")
    parser.add_argument("--without-hostile", action="store_true",
                        help="a class of the correct and buggy kinds only")  # fmt: skip
    parser.add_argument("--closed-form", action="store_true",
                        help="a class whose relative_dot skips SymPy (what the kit costs beside "
                             "the students' own simplification)")  # fmt: skip
    args = parser.parse_args()
    course = Course.load(ROOT)
    hostile = not args.without_hostile
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    nbgrader: tuple[int, float] | None = None  # (class size, seconds per notebook)
    with tempfile.TemporaryDirectory() as scratch:
        for n in args.n:
            looping = [("5 % looping", 0.05)] if n <= args.looping_max else []
            if args.closed_form:
                looping = []
            classes = [("no timeouts", 0.0), *looping]
            for label, share in classes:
                name = f"n{n}_" + label.replace(" ", "_").replace("%", "pc")
                if args.closed_form:
                    folder = closed_form_class(Path(scratch) / name, n, hostile=hostile)
                else:
                    folder = make_class(
                        Path(scratch) / name, n, looping_share=share, hostile=hostile
                    )
                print(f"\n{label}, {n} submissions:")
                figures: dict[str, float] = {}
                bare_scores: dict[str, float] = {}
                if share == 0 and n <= args.bare_max:
                    figures["bare"], figures["own"], bare_scores = bare_limit(course, folder)
                    print(f"  bare limit (one process, no isolation): {figures['bare'] * 1e3:7.1f}"
                          f" ms, over the {len(bare_scores)} that are not hostile")  # fmt: skip
                    print(f"    the students' own code within it:     {figures['own'] * 1e3:7.1f}"
                          " ms of CPU (importing it, inside its functions)")  # fmt: skip
                for jobs in (1, 2):
                    if jobs == 1 and n > args.jobs1_max:
                        continue
                    per, peak, scores, waited = timed_grade(folder, jobs)
                    figures[f"jobs{jobs}"] = per
                    line = f"  autograder grade --jobs {jobs}:            {per * 1e3:7.1f} ms"
                    line += f", peak {peak:.0f} MiB (PSS)"
                    if waited:
                        beyond = per - waited / jobs / n
                        figures[f"beyond{jobs}"] = beyond
                        line += f"; {beyond * 1e3:.1f} ms beyond {waited:g} s of call timeouts"
                    print(line)
                    if bare_scores and jobs == 2:
                        print(f"    vs the bare limit: {agreement(scores, bare_scores)}")
                if args.nbgrader and share == 0 and n <= args.nbgrader_max:
                    per, nb_scores = timed_nbgrader(folder, Path(scratch) / f"nb{n}")
                    figures["nbgrader"], nbgrader = per, (n, per)
                    print(f"  nbgrader autograde:                     {per * 1e3:7.1f} ms")
                    print(f"    vs autograder grade: {agreement(scores, nb_scores)}")
                    if _honest_disagree(scores, nb_scores):
                        print(NOT_COMPARABLE)
                _ratios(figures, nbgrader, honest=not hostile)


def _ratios(figures: dict[str, float], nbgrader: tuple[int, float] | None, *, honest: bool) -> None:
    """`honest`: the class has no hostile kinds, so the bare limit timed every submission."""
    two = figures.get("beyond2", figures.get("jobs2"))
    if "jobs1" in figures and "jobs2" in figures:
        print(f"  jobs 2 vs jobs 1:        {figures['jobs1'] / figures['jobs2']:6.2f}x faster")
    if "bare" in figures and two:
        print(f"  jobs 2 vs bare limit:    {two / figures['bare']:6.2f}x the bare limit's time")
    per_notebook = figures.get("nbgrader", nbgrader[1] if nbgrader else None)
    if per_notebook and two:
        print(f"  jobs 2 vs nbgrader:      {per_notebook / two:6.1f}x faster" + (
            "" if "nbgrader" in figures or nbgrader is None  # nbgrader ran on a smaller class
            else f" (nbgrader's {per_notebook * 1e3:.0f} ms per notebook, measured at "
            f"{nbgrader[0]})"))  # fmt: skip
    if per_notebook and "own" in figures and honest:  # both figures over the same submissions
        floor = figures["own"] / CORES
        print(f"  the students' own code on {CORES} cores: {floor * 1e3:6.1f} ms a submission, "
              f"{per_notebook / floor:.1f}x nbgrader: the most a grader that runs each "
              "submission can reach")  # fmt: skip


if __name__ == "__main__":
    main()
