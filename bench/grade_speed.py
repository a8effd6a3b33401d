"""How long `autograder grade` takes per submission: alone, and in a runner already started.

Grading one submission alone starts two interpreters (the trusted runner with pytest, and the
sandbox's zygote with numpy and sympy); their floor is two bare interpreters importing those.
In a batch, each runner starts once and every further submission costs a fork of the runner
and of the zygote: the warm figure. Prints medians and ratios; asserts nothing.

    .venv/bin/python bench/grade_speed.py [--runs N]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from timing import median_seconds

from autograder.course.course import Course
from autograder.grading.runners import Runner, grade_submission

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENT = "positional_encoding"
"""The assignment whose reference this bench grades."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    assignment = Course.load(ROOT).assignment(ASSIGNMENT)
    reference = assignment.reference
    result = grade_submission(assignment, reference)

    def floor() -> None:
        for imports in ("numpy, sympy, pytest", "numpy, sympy"):
            subprocess.run([sys.executable, "-c", f"import {imports}"], check=True)

    floor_s = median_seconds(floor, runs)
    grade_s = median_seconds(lambda: grade_submission(assignment, reference), runs)
    print(f"tests per submission:                  {len(result.tests)}")
    print(f"isolation layers:                      {', '.join(result.isolation)}")
    print(f"floor (two interpreter start-ups):     {floor_s * 1000:7.0f} ms (median of {runs})")
    print(f"grade the reference, end to end:       {grade_s * 1000:7.0f} ms (median of {runs})")
    print(f"ratio grade / floor:                   {grade_s / floor_s:7.2f}")
    per_test_ms = (grade_s - floor_s) / len(result.tests) * 1000
    print(f"per test beyond the floor:             {per_test_ms:7.1f} ms")
    with Runner(assignment) as runner:
        runner.grade(reference)
        warm_s = median_seconds(lambda: runner.grade(reference), runs)
    print(f"the next one, in a started runner:     {warm_s * 1000:7.0f} ms (median of {runs})")
    print(f"per test, in a started runner:         {warm_s / len(result.tests) * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
