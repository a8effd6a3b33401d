"""The similarity check on a generated class: every pair of N submissions compared.

Each submission is one of the sample class's four correct styles with its local names renamed
at random (so no two are the same text, though many share a style, which the check rightly
lists). Prints the whole comparison's time and the time per pair, as N grows (n²/2 pairs).
Run: .venv/bin/python bench/similarity_speed.py [--sizes 50 100 200]"""

from __future__ import annotations

import argparse
import io
import random
import re
import time
import tokenize
from pathlib import Path

from autograder.after_grading.similarity import compare
from autograder.authoring.sample_class import sample_class
from autograder.course.course import Course

ROOT = Path(__file__).resolve().parents[1]
STUB = ROOT / "student_template" / "positional_encoding" / "positional_encoding.py"
KEEP = {"T", "C", "base", "S", "axis", "X", "W_q", "W_k", "W_v", "k", "freq", "w", "pos", "perm"}


def renamed(source: str, rng: random.Random) -> str:
    """`source` with every assigned local name (not a parameter) renamed at random."""
    assigned = set(re.findall(r"^\s+([a-z_][a-z0-9_]*)\s*=", source, flags=re.M)) - KEEP
    names = {name: f"{name[:2]}{rng.randrange(10**6)}" for name in assigned}
    tokens = [
        t._replace(string=names.get(t.string, t.string)) if t.type == tokenize.NAME else t
        for t in tokenize.generate_tokens(io.StringIO(source).readline)
    ]
    return tokenize.untokenize(tokens)


def generated_class(size: int, seed: int = 0) -> dict[str, str]:
    rng = random.Random(seed)
    assignment = Course.load(ROOT).assignment("positional_encoding")
    styles = [s.source for s in sample_class(assignment) if s.name.startswith("correct_")]
    sources = {f"student_{n:04d}": renamed(rng.choice(styles), rng) for n in range(size)}
    return sources


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 100, 200])
    args = parser.parse_args()
    stub = STUB.read_text()
    print(f"{'submissions':>11} {'pairs':>7} {'seconds':>8} {'ms/pair':>8} {'listed':>7}")
    for size in args.sizes:
        sources = generated_class(size)
        n = len(sources)
        started = time.perf_counter()
        result = compare(sources, stub=stub)
        elapsed = time.perf_counter() - started
        pairs = n * (n - 1) // 2
        print(f"{n:>11} {pairs:>7} {elapsed:>8.2f} {1000 * elapsed / pairs:>8.3f} "
              f"{len(result.pairs):>7}")  # fmt: skip


if __name__ == "__main__":
    main()
