"""Grade a generated class and compare with the bare limit: per-submission time and peak memory.

Generates N submissions from the sample class's correct and buggy kinds (and, for the second
class, 5 % that loop into the time limit), then times on the same submissions:
  (a) the bare limit: each module imported in this process and the hidden suites' main numeric
      checks run on it against the reference, with no isolation at all;
  (b) `grade_class` with jobs=1 and jobs=2 (the real path: runner, worker, sandbox, gradebook).
Peak memory is the largest sum of resident memory over the grader and all its descendants,
sampled every 50 ms. nbgrader's figure is not measured here yet (it is not installed in this
environment). Prints medians and ratios; asserts nothing.

    .venv/bin/python bench/grade_class.py [--n 50] [--skip-jobs1]
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import os
import shutil
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

from autograder.batch import discover, grade_class
from autograder.course import Course
from autograder.sandbox.reaper import process_table

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("correct_vectorised", "correct_loops", "correct_float32", "bug_sin_cos_swapped",
         "bug_exponent_i", "bug_no_sqrt_scaling", "bug_transposed_rotation")  # fmt: skip


def make_class(folder: Path, n: int, *, looping_share: float = 0.0) -> Path:
    samples = ROOT / "assignments" / "positional_encoding" / "sample_class"
    folder.mkdir(parents=True)
    loops = round(n * looping_share)
    kinds = itertools.cycle(KINDS)
    for number in range(n):
        kind = "hostile_infinite_loop" if number < loops else next(kinds)
        shutil.copy(samples / f"{kind}.py", folder / f"s{number:04d}_{kind}.py")
    return folder


def bare_limit(folder: Path, reference: object) -> float:
    """Seconds per submission: import it here and run the main numeric checks, unisolated."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(6, 4))
    started = time.perf_counter()
    paths = sorted(folder.glob("*.py"))
    for path in paths:
        spec = importlib.util.spec_from_file_location(f"bare_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
        spec.loader.exec_module(module)  # type: ignore[union-attr]
        for args in [(8, 16), (5, 3), (100, 16), (7, 12)]:
            np.allclose(module.sinusoidal_encoding(*args), reference.sinusoidal_encoding(*args))
        np.allclose(module.self_attention(X), reference.self_attention(X))
        np.allclose(module.softmax(X * 1e4), reference.softmax(X * 1e4))
        np.allclose(module.rotation_matrix(3, 0.1), reference.rotation_matrix(3, 0.1))
        np.allclose(module.shift_matrix(3, 16), reference.shift_matrix(3, 16))
        np.allclose(module.permutation_matrix([2, 0, 1]), reference.permutation_matrix([2, 0, 1]))
    return (time.perf_counter() - started) / len(paths)


class PeakMemory:
    """Samples the resident memory of this process and all its descendants."""

    def __init__(self) -> None:
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
            self.peak = max(self.peak, _tree_rss(os.getpid()))


def _tree_rss(root: int) -> int:
    table = process_table()
    total, frontier = 0, [root]
    while frontier:
        pid = frontier.pop()
        total += table.get(pid, (0, 0))[1]
        frontier += [child for child, (parent, _) in table.items() if parent == pid]
    return total


def timed_grade(course: Course, folder: Path, jobs: int) -> tuple[float, float]:
    spec = course.rubric.assignment()
    items = discover([folder], module=spec.module)
    with tempfile.TemporaryDirectory() as out, PeakMemory() as memory:
        started = time.perf_counter()
        grade_class(course, spec, items, out=Path(out), jobs=jobs, formats=())
        elapsed = time.perf_counter() - started
    return elapsed / len(items), memory.peak / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=50)
    parser.add_argument("--skip-jobs1", action="store_true")
    args = parser.parse_args()
    course = Course.load(ROOT)
    spec = course.rubric.assignment()
    reference_spec = importlib.util.spec_from_file_location(
        "reference", course.reference_path(spec)
    )
    reference = importlib.util.module_from_spec(reference_spec)  # type: ignore[arg-type]
    reference_spec.loader.exec_module(reference)  # type: ignore[union-attr]
    print(f"machine: {os.cpu_count()} cores; class of {args.n} submissions")
    with tempfile.TemporaryDirectory() as scratch:
        for label, share in (("no timeouts", 0.0), ("5 % looping", 0.05)):
            folder = make_class(
                Path(scratch) / label.replace(" ", "_").replace("%", "pc"),
                args.n,
                looping_share=share,
            )
            bare = bare_limit(folder, reference) if share == 0 else float("nan")
            print(f"\n{label}:")
            if share == 0:
                print(f"  bare limit (no isolation):   {bare * 1000:8.1f} ms per submission")
            one = None
            if not args.skip_jobs1:
                one, memory = timed_grade(course, folder, 1)
                print(f"  grade --jobs 1:              {one * 1000:8.1f} ms per submission", end="")
                print(f", peak {memory:.0f} MiB")
            two, memory = timed_grade(course, folder, 2)
            print(f"  grade --jobs 2:              {two * 1000:8.1f} ms per submission", end="")
            print(f", peak {memory:.0f} MiB")
            if one:
                print(f"  jobs 2 vs jobs 1:            {one / two:8.2f}x faster")
            if share == 0:
                print(f"  jobs 2 vs bare limit:        {two / bare:8.1f}x slower")


if __name__ == "__main__":
    main()
