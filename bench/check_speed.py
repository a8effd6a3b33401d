"""How long `autograder check` takes on the reference, against the floor it cannot beat.

The floor is a bare interpreter importing numpy, sympy and pytest: every check pays it once,
because the public tests run in a child process. Prints medians and the ratio; asserts nothing.

    .venv/bin/python bench/check_speed.py [--runs N]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from timing import median_seconds

from autograder.student.local_check import locate, run_check

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    target = locate(ROOT / "reference" / "positional_encoding.py")
    outcomes = len(run_check(target).outcomes)
    floor = median_seconds(
        lambda: subprocess.run([sys.executable, "-c", "import numpy, sympy, pytest"], check=True),
        runs,
    )
    check = median_seconds(lambda: run_check(target), runs)
    print(f"public tests run by check:            {outcomes}")
    print(f"floor (python + numpy, sympy, pytest): {floor * 1000:7.0f} ms (median of {runs})")
    print(f"autograder check on the reference:    {check * 1000:7.0f} ms (median of {runs})")
    print(f"ratio check / floor:                  {check / floor:7.2f}")
    print(f"per public test beyond the floor:     {(check - floor) / outcomes * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
