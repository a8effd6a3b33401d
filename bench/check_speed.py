"""How long `autograder check` takes on the reference, against the floor it cannot beat.

The floor is a bare interpreter importing numpy, sympy and pytest: every check pays it once,
because the public tests run in a child process. `check` keeps the symbolic verdicts it learnt
in the user's cache for the next run (student/verdict_cache.py): the first figure is a check
run again (as a student does), the second one with an empty cache each time (a first run).
Checks run as on a student's machine, where Python keeps the bytecode it compiles (the kit's
modules, pytest's rewritten tests): PYTHONDONTWRITEBYTECODE, which some CI machines set, is
removed for the run (it would make every check compile the kit from source, about 0.1 s).
The floor, the check and the first check are timed in turns (one of each, N times), so that
each ratio compares runs made together. Prints medians and the ratios; asserts nothing.

    .venv/bin/python bench/check_speed.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from timing import medians_in_turns

from autograder.student.local_check import CheckTarget, locate, run_check

try:
    from autograder.student.verdict_cache import CACHE_ENV
except ImportError:  # the kit before it kept verdicts (an A/B run from an older worktree)
    CACHE_ENV = "AUTOGRADER_CACHE_DIR"

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
        print("PYTHONDONTWRITEBYTECODE was set: removed, as a student's Python keeps bytecode")
    target = locate(ROOT / "reference" / "positional_encoding.py")
    outcomes = len(run_check(target).outcomes)
    floor, check, first = medians_in_turns(
        [
            lambda: subprocess.run(
                [sys.executable, "-c", "import numpy, sympy, pytest"], check=True
            ),
            lambda: run_check(target),
            lambda: cold_check(target),
        ],
        runs,
    )
    print(f"public tests run by check:            {outcomes}")
    print(f"floor (python + numpy, sympy, pytest): {floor * 1000:7.0f} ms (median of {runs})")
    print(f"autograder check on the reference:    {check * 1000:7.0f} ms (median of {runs})")
    print(f"ratio check / floor:                  {check / floor:7.2f}")
    print(f"per public test beyond the floor:     {(check - floor) / outcomes * 1000:7.1f} ms")
    print(f"check with no verdict kept (a first): {first * 1000:7.0f} ms (median of {runs})")
    print(f"ratio first check / floor:            {first / floor:7.2f}")


def cold_check(target: CheckTarget) -> None:
    """A check with an empty cache of verdicts, as a student's first."""
    with tempfile.TemporaryDirectory() as cache:
        previous = os.environ.get(CACHE_ENV)
        os.environ[CACHE_ENV] = cache
        try:
            run_check(target)
        finally:
            if previous is None:
                del os.environ[CACHE_ENV]
            else:
                os.environ[CACHE_ENV] = previous


if __name__ == "__main__":
    main()
