"""Time spent in symbolic checks and proofs: the reference's, and adversarial inputs'.

Prints, for the reference, the time of every test in the symbolic part and of the two proof
tests (from one real grading run), and for adversarial expressions the time each check takes to
refuse them. Asserts nothing.

    .venv/bin/python bench/symbolic_speed.py
"""

from __future__ import annotations

import time
from pathlib import Path

import sympy as sp

from autograder.checks import CheckFailure, assert_equivalent
from autograder.course.course import Course
from autograder.grading.runners import grade_submission

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENT = "positional_encoding"
"""The assignment whose symbolic checks this bench times."""


def main() -> None:
    assignment = Course.load(ROOT).assignment(ASSIGNMENT)
    started = time.perf_counter()
    result = grade_submission(assignment, assignment.reference)
    total = time.perf_counter() - started
    symbolic = [t for t in result.tests if t.part == "symbolic" or "PROOF" in t.name]
    spent = sum(t.duration_s for t in symbolic)
    points = f"{sum(t.score for t in symbolic):g}/{sum(t.max_score for t in symbolic):g} points"
    print(f"reference graded in {total:.2f} s end to end; {len(symbolic)} symbolic and proof tests")
    print(f"  took {spent:.3f} s together ({points}); the slowest:")
    for test in sorted(symbolic, key=lambda t: -t.duration_s)[:4]:
        print(f"    {test.duration_s:6.3f} s  {test.name[:70]}")
    print("adversarial and typical expressions, checked directly:")
    w, k, pos = sp.symbols("w k pos", real=True)
    dot = sp.sin(w * pos) * sp.sin(w * (pos + k)) + sp.cos(w * pos) * sp.cos(w * (pos + k))
    cases = {
        "relative_dot of the reference": sp.trigsimp(sp.expand_trig(sp.expand(dot))),
        "the unsimplified dot product": dot,
        "a wrong answer, cos(w*k + pos)": sp.cos(w * k + pos),
        "a 10^5-node expression": sp.Add(
            *[sp.Symbol(f"x{i}") for i in range(100_000)], evaluate=False
        ),
        "an expression nested 5000 deep": _nested(w, 5000),
        "10**(10**12) + w": sp.Add(sp.Pow(10, 10**12, evaluate=False), w, evaluate=False),
    }
    for name, expression in cases.items():
        started = time.perf_counter()
        try:
            assert_equivalent(expression, sp.cos(w * k), what="e", symbols=(w, k, pos))
            verdict = "accepted"
        except CheckFailure as failure:
            verdict = f"refused: {str(failure)[:60]}…"
        print(f"  {name:<34} {time.perf_counter() - started:6.3f} s  {verdict}")


def _nested(symbol: sp.Symbol, depth: int) -> sp.Basic:
    expression: sp.Basic = symbol
    for _ in range(depth):
        expression = sp.sin(expression, evaluate=False)
    return expression


if __name__ == "__main__":
    main()
