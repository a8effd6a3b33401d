"""Where the kit's own time goes while it grades: cProfile in the runner and in every test child.

Grades N copies of each named kind of the sample class in one runner (rehearsed, as a batch's
runner is), with `profiling/sitecustomize.py` on the runner's PYTHONPATH: it profiles the runner
and each test child it forks. Prints, per kind, the test child's top costs per submission (own
time and cumulative time) and the runner's serve loop per submission. cProfile slows what it
measures (about 1.5x to 2x here), so read the shares, not the milliseconds. The worker (the
student's code, in the sandbox) is not profiled: its time shows as the test child waiting.
Prints figures; asserts nothing.

    .venv/bin/python bench/profile_grading.py --n 10 --kinds correct_vectorised bug_exponent_i
"""

from __future__ import annotations

import argparse
import io
import os
import pstats
import tempfile
from pathlib import Path

from grade_class import ASSIGNMENT, ROOT, SAMPLES

from autograder.course.course import Course
from autograder.grading.runners import Runner

HOOK = Path(__file__).resolve().parent / "profiling"
WAITING = ("select.poll", "method 'poll'", "posix.read", "posix.waitpid", "select.select",
           "method 'recv", "method 'acquire'")  # fmt: skip
"""Functions in which a process waits for another (the worker, the child): not its own work."""


def profile_kind(kind: str, n: int, top: int) -> None:
    assignment = Course.load(ROOT).assignment(ASSIGNMENT)
    with tempfile.TemporaryDirectory(dir=os.environ.get("KEEP_PROFILES")) as scratch:
        profiles = Path(scratch) / "profiles"
        profiles.mkdir()
        os.environ["AUTOGRADER_PROFILE_DIR"] = str(profiles)
        os.environ["PYTHONPATH"] = str(HOOK)
        submissions = Path(scratch) / "class"
        submissions.mkdir()
        runner = Runner(assignment, rehearse=True)
        scores = set()
        try:
            for number in range(n):
                path = submissions / f"s{number:03d}_{kind}.py"
                path.write_text(SAMPLES[kind], encoding="utf-8")
                scores.add(runner.grade(path).score)
        finally:
            runner.close()
        children = sorted(profiles.glob("child-*.prof"))
        print(f"\n## {kind}: {n} submissions, score {sorted(scores)}, {len(children)} test "
              "children profiled")  # fmt: skip
        child = pstats.Stats(*map(str, children))
        own = child.total_tt  # type: ignore[attr-defined]
        waiting = sum(
            row[2]
            for func, row in child.stats.items()  # type: ignore[attr-defined]
            if any(w in pstats.func_std_string(func) for w in WAITING)
        )
        print(f"test child: {own * 1e3 / n:.1f} ms per submission under the profiler, of which "
              f"{waiting * 1e3 / n:.1f} ms waiting for the worker")  # fmt: skip
        for order in ("tottime", "cumulative"):
            print(f"\n### test child, top {top} by {order} (seconds for all {n} submissions)")
            print(_top(child, order, top))
        runner_file = next(profiles.glob("runner-*.prof"), None)
        if runner_file is not None:
            stats = pstats.Stats(str(runner_file))
            print(f"### runner: its serve loop's steps ({n} submissions, rehearsal apart)")
            stats.sort_stats("cumulative")
            print(_callees(stats, "_grade"))


def _top(stats: pstats.Stats, order: str, top: int) -> str:
    buffer = io.StringIO()
    stats.stream = buffer  # type: ignore[attr-defined]
    stats.sort_stats(order).print_stats(top)
    lines = buffer.getvalue().splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("ncalls"))
    return "\n".join(_shorter(line) for line in lines[start:] if line.strip())


def _callees(stats: pstats.Stats, name: str) -> str:
    buffer = io.StringIO()
    stats.stream = buffer  # type: ignore[attr-defined]
    stats.print_callees(name)
    return "\n".join(_shorter(line) for line in buffer.getvalue().splitlines() if line.strip())


def _shorter(line: str) -> str:
    for prefix in (str(ROOT) + "/", str(Path(os.__file__).parent) + "/"):
        line = line.replace(prefix, "")
    return line.replace(".venv/lib/python3.11/site-packages/", "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10)
    parser.add_argument("--kinds", nargs="+", default=["correct_vectorised", "bug_exponent_i"])
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    for kind in args.kinds:
        profile_kind(kind, args.n, args.top)


if __name__ == "__main__":
    main()
