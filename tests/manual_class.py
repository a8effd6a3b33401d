"""A small graded class of the fixture course's `vectors`, made by hand for the manual-grading
tests: three students with known automatic scores and written answers (one hostile)."""

from __future__ import annotations

from pathlib import Path

from autograder.grading.gradebook import Entry, Gradebook
from autograder.grading.results import SubmissionResult, TestResult
from autograder.manual.store import ManualStore

HOSTILE_ANSWER = (
    '=HYPERLINK("http://evil.example/","x")\n\n'
    "<script>document.title='pwned'</script> <img src=x onerror=\"document.title='img'\">\n\n"
    "[click me](javascript:document.title='link') \x1b]52;c;cGF5bG9hZA==\x07\x1b[2J"
)
ANSWERS = {
    "ada": "A unit vector keeps only the **direction**: its length is 1.",
    "ben": "Because dividing by the norm makes the length one.",
    "cy": HOSTILE_ANSWER,
}
AUTOMATIC = {"ada": 10.0, "ben": 6.0, "cy": 4.0}
"""Each student's automatic score (of 10) in the results below."""
FAILING_NODE = "hidden_tests/test_h.py::test_normalise"


def result(student: str) -> SubmissionResult:
    score = AUTOMATIC[student]
    numeric = min(score, 6.0)
    tests = (
        TestResult("scale and cosine", "hidden_tests/test_h.py::test_scale", "numeric",
                   numeric, 6, "passed" if numeric == 6 else "failed", "visible"),
        TestResult("normalise", FAILING_NODE, "symbolic", score - numeric, 4,
                   "passed" if score == 10 else "failed", "visible"),
    )  # fmt: skip
    return SubmissionResult("vectors", student, "graded", score, 10, ("process",), 1.0, tests)


def build_class(folder: Path, rubric_hash: str = "rubric") -> Path:
    """A gradebook in `folder` with ada, ben and cy graded and their answers captured."""
    with Gradebook(folder) as book:
        book.bind(assignment="vectors", rubric_hash=rubric_hash)
        for student in ANSWERS:
            entry = Entry(student, "hash", "run", result(student), 0.0, None, "test")
            book.record(entry, rubric_hash=rubric_hash, kit_version="test")
    with ManualStore(folder) as store:
        for student, answer in ANSWERS.items():
            store.record_answers("vectors", student, {"why_unit": answer})
    return folder


ROSTER = "student_id,name,submission\n1,Ada,ada\n2,Ben,ben\n3,Cy,cy\n"
