"""Grade an assignment's independent corpus (corpus.py) through the real grading path."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from autograder.authoring import corpus
from autograder.authoring.solutions import solution_source
from autograder.course.assignment import Assignment
from autograder.grading.runners import RunnerPool


def grade_corpus(assignment: Assignment, folder: Path) -> list[corpus.Judged]:
    variants = corpus.load_corpus(assignment)
    solution = solution_source(assignment.reference.read_text(encoding="utf-8"), origin="ref")
    paths = corpus.corpus_files(variants, solution, folder)
    with RunnerPool(assignment, size=2) as runners, ThreadPoolExecutor(2) as pool:
        results = list(pool.map(runners.grade, [paths[v.name] for v in variants]))
    return [corpus.judge(v, r) for v, r in zip(variants, results, strict=True)]
