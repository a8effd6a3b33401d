"""The author's loop over a sample class: each sample graded as `grade` grades a submission (in
the sandboxed runners), beside what expected.toml says of it, and the measured scores written
back for review (`autograder samples --scores [--update]`).

The course tests judge each sample with the same comparison, so a failing one reads
"sample bug_x: expected 53, got 52" rather than a bare assertion.
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from autograder.authoring.expected_update import Update, number, update_expected
from autograder.authoring.sample_class import EXPECTED_FILE, Sample, write_samples
from autograder.course.assignment import Assignment
from autograder.grading.runners import RunnerPool
from autograder.protocol.results import SubmissionResult
from autograder.safe_text import shorten
from autograder.status_words import submission_word

FEEDBACK_SHOWN = 1500
"""Characters of a sample's feedback a message quotes when a `says` fragment is missing."""


@dataclass(frozen=True)
class SampleScore:
    """A sample graded, beside what expected.toml says of it."""

    sample: Sample
    result: SubmissionResult

    @property
    def graded(self) -> bool:
        return self.result.status == "graded"

    @property
    def difference(self) -> float:
        """Measured minus expected."""
        return round(self.result.score - self.sample.score, 6)

    @property
    def score_agrees(self) -> bool:
        return self.graded and math.isclose(
            self.result.score, self.sample.score, rel_tol=1e-6, abs_tol=1e-9
        )

    @property
    def lost(self) -> tuple[str, ...]:
        """The parts that lost points, in the order the results list them."""
        parts = self.result.part_scores().items()
        return tuple(part for part, (got, most) in parts if got < most)

    @property
    def lost_agrees(self) -> bool:
        return set(self.lost) == self.sample.lost

    @property
    def feedback(self) -> str:
        """The messages and hints of the tests that lost points: what `says` must be in."""
        lost = [t for t in self.result.tests if t.score < t.max_score]
        return " ".join(f"{t.message or ''} {t.hint or ''}" for t in lost)

    @property
    def unsaid(self) -> tuple[str, ...]:
        """The `says` fragments the feedback does not hold."""
        return tuple(text for text in self.sample.says if text not in self.feedback)

    @property
    def agrees(self) -> bool:
        return self.score_agrees and self.lost_agrees and not self.unsaid

    def problems(self) -> list[str]:
        """Each way the sample differs from expected.toml, one line each, naming the sample:
        "sample bug_x: expected 53, got 52; tests that lost points: ..."."""
        name, expected = self.sample.name, number(self.sample.score)
        if not self.graded:
            said = f"; {self.result.message}" if self.result.message else ""
            return [f"sample {name}: expected {expected}, got {submission_word(self.result)}{said}"]
        problems = []
        if not self.score_agrees:
            failing = [t.nodeid for t in self.result.tests if t.score < t.max_score]
            listed = f"; tests that lost points: {', '.join(failing)}" if failing else ""
            problems.append(
                f"sample {name}: expected {expected}, got {number(self.result.score)}{listed}"
            )
        if not self.lost_agrees:
            problems.append(f"sample {name}: {self.lost_difference()}")
        if self.unsaid:
            missing = ", ".join(repr(text) for text in self.unsaid)
            problems.append(
                f"sample {name}: its feedback does not say {missing}; it says: "
                + (shorten(self.feedback, FEEDBACK_SHOWN) or "nothing")
            )
        return problems

    def lost_difference(self) -> str:
        """The parts that lost points beside expected.toml's `lost`."""
        measured = ", ".join(self.lost) or "no part"
        expected = ", ".join(sorted(self.sample.lost)) or "none"
        return f"loses points in {measured}; expected.toml's lost: {expected}"


def grade_samples(
    assignment: Assignment, samples: Sequence[Sample], *, jobs: int
) -> Iterator[SampleScore]:
    """Each sample graded by the assignment's sandboxed runners (as `grade` grades), in the
    order given, each yielded as soon as it and those before it are graded."""
    if not samples:
        return
    size = max(1, min(jobs, len(samples)))
    with tempfile.TemporaryDirectory(prefix="autograder-sample-scores-") as scratch:
        paths = write_samples(samples, Path(scratch))
        with RunnerPool(assignment, size=size) as runners, ThreadPoolExecutor(size) as pool:
            for sample, result in zip(samples, pool.map(runners.grade, paths), strict=True):
                yield SampleScore(sample, result)


def write_measured(assignment: Assignment, scores: Sequence[SampleScore]) -> list[str]:
    """Write into expected.toml the score (and parts lost) measured of every graded sample
    that differs; return their names. A sample that was not graded keeps its entry."""
    updates = {
        s.sample.name: Update(s.result.score, None if s.lost_agrees else s.lost)
        for s in scores
        if s.graded and not (s.score_agrees and s.lost_agrees)
    }
    if updates:
        path = assignment.sample_class / EXPECTED_FILE
        update_expected(path, updates, where=assignment.relative(path))
    return list(updates)
