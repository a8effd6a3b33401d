"""Before results are released, nothing a student sees depends on a hidden test
(autograder/grading/before_release.py): each channel a student reads, built for two cases that
differ only in hidden results, is byte-identical before release and differs as it should after.

The cases: hidden tests passed, failed, never finished (the grader failed after the tests shown
at once), or slow. Every case is submitted a day late, so that a late penalty (capped by the
score) could carry the hidden tests' points too."""

from __future__ import annotations

import csv
import json
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from autograder.after_grading.student_feedback import write_feedback
from autograder.cli import main
from autograder.course.course import Course
from autograder.course.rubric import AssignmentSpec, LatePolicy
from autograder.gradescope.results import gradescope_results, render_gradescope
from autograder.grading.attempts import counted_attempt
from autograder.grading.batch import late_penalty
from autograder.grading.before_release import as_seen_before_release
from autograder.grading.gradebook import Entry, Gradebook, attempt_key
from autograder.grading.pytest_plugin import NOT_RUN
from autograder.grading.results import SubmissionResult, TestResult
from autograder.grading.runners import FAILED_AFTER_SHOWN

UTC = timezone.utc
DUE = datetime(2026, 12, 1, 23, 59, tzinfo=UTC)
POLICY = LatePolicy(DUE, penalty_per_day=50, cutoff_days=3)
"""Half the points a day late: 5 of 10, more than the 2 points of the tests shown at once."""
LATE_AT = "2026-12-02T12:00:00+00:00"
BEFORE = DUE + timedelta(days=2)
"""After the late submission, before the results are released (the due date plus the cut-off)."""
AFTER = DUE + timedelta(days=4)
HIDDEN_MESSAGE = "scale([7, 8], 9) should be [63, 72]; yours is [0, 0]"


def _tests(hidden: str, seconds: float) -> tuple[TestResult, ...]:
    """Two tests shown at once (one passes), then one shown after the due date and one never,
    as `hidden` left them: "pass", "fail" or "error" (not run: the grader failed first)."""
    shown = (
        TestResult("scale works", "public_tests/test_v.py::test_scale", "numeric", 2, 2,
                   "passed", "visible", duration_s=0.25, function="scale"),
        TestResult("normalise works", "public_tests/test_v.py::test_normalise", "numeric", 0, 2,
                   "failed", "visible", message="normalise([3, 4]) should be [0.6, 0.8]",
                   duration_s=0.25, function="normalise"),
    )  # fmt: skip

    def later(name: str, nodeid: str, part: str, points: float, visibility: str) -> TestResult:
        if hidden == "error":
            return TestResult(name, nodeid, part, 0, points, "error", visibility,
                              message=NOT_RUN, hidden=True)  # fmt: skip
        passed = hidden == "pass"
        return TestResult(
            name, nodeid, part, points if passed else 0, points,
            "passed" if passed else "failed", visibility,
            message=None if passed else HIDDEN_MESSAGE,
            hint=None if passed else "you scale by the sum of the vector",
            duration_s=seconds, hidden=True, function="scale",
        )  # fmt: skip

    return (
        *shown,
        later("random vectors", "hidden_tests/test_h.py::test_random", "numeric", 2,
              "after_due_date"),
        later("square_sum proved", "hidden_tests/test_h.py::test_proof", "symbolic", 4, "hidden"),
    )  # fmt: skip


def _result(hidden: str, seconds: float = 0.5, at: str = LATE_AT) -> SubmissionResult:
    tests = _tests(hidden, seconds)
    error = hidden == "error"
    result = SubmissionResult(
        "vectors", "ada", "grader_error" if error else "graded",
        round(sum(t.score for t in tests), 6), 10, ("process",), 1.0 + 2 * seconds, tests,
        message=f"the grader's checks failed (exit code 3)\n{FAILED_AFTER_SHOWN}" if error
        else None,
        output="shown at once\nprinted by a hidden test", shown_output="shown at once",
        submitted_at=at, failed_after_shown=error,
    )  # fmt: skip
    penalty = late_penalty(result, datetime.fromisoformat(at), POLICY, "ada")
    return replace(result, late_penalty=penalty)


def _entry(result: SubmissionResult, number: int = 1, counted: bool = True) -> Entry:
    at = result.submitted_at
    assert at is not None
    key = attempt_key(datetime.fromisoformat(at))
    return Entry("ada", f"hash-{at}", "run", result, result.late_penalty, at, "k", key, number,
                 counted)  # fmt: skip


CASES = {
    "hidden tests pass": _result("pass"),
    "hidden tests fail": _result("fail"),
    "the grader failed on the hidden tests": _result("error"),
    "hidden tests are slow": _result("pass", seconds=40.0),
}
BASE = "hidden tests pass"


@pytest.fixture
def late_spec(spec: AssignmentSpec) -> AssignmentSpec:
    """The fixture's assignment without its written part: the penalty is then a share of the
    10 automatic points alone, as the cases' recorded penalties are."""
    return replace(spec, late=POLICY, attempts="best", manual=())


def _feedback(
    folder: Path, spec: AssignmentSpec, entry: Entry, now: datetime, history: tuple[Entry, ...] = ()
) -> bytes:
    """The student's feedback files (HTML, then Markdown) as written at `now`."""
    [page] = write_feedback([entry], spec, folder, now=now, attempts={"ada": list(history)})
    return page.read_bytes() + b"\0" + page.with_suffix(".md").read_bytes()


def test_the_cases_differ_in_hidden_results_alone() -> None:
    """The premise of every test here: what the tests shown at once gave is the same."""
    base = CASES[BASE]
    for result in CASES.values():
        assert result.tests[:2] == base.tests[:2]
        assert (result.shown_output, result.notes, result.submitted_at) == (
            base.shown_output, base.notes, base.submitted_at)  # fmt: skip
    penalties = {name: r.late_penalty for name, r in CASES.items()}
    assert penalties == {  # capped by the score: the points would tell the hidden tests
        "hidden tests pass": 5, "hidden tests fail": 2,
        "the grader failed on the hidden tests": 0, "hidden tests are slow": 5,
    }  # fmt: skip


def test_feedback_files_depend_on_no_hidden_test_before_release(
    tmp_path: Path, late_spec: AssignmentSpec
) -> None:
    before = {
        name: _feedback(tmp_path / f"before-{n}", late_spec, _entry(result), BEFORE)
        for n, (name, result) in enumerate(CASES.items())
    }
    for name, files in before.items():
        assert files == before[BASE], name
    text = before[BASE].decode()
    assert "Submitted late: a late penalty applies, counted with every test's result." in text
    assert "Score so far (tests shown now): 2 of 4 points" in text
    assert "grader" not in text and "5 points" not in text
    after = {
        name: _feedback(tmp_path / f"after-{n}", late_spec, _entry(result), AFTER)
        for n, (name, result) in enumerate(CASES.items())
    }
    assert after["hidden tests fail"] != after[BASE]
    assert b"A late penalty of 5 points applies." in after[BASE]
    assert b"A late penalty of 2 points applies." in after["hidden tests fail"]
    failed = after["the grader failed on the hidden tests"].decode()
    assert "hit a grader error" in failed and "it will be graded again" in failed
    assert "exit code" not in failed  # the detail is the instructor's
    assert after["hidden tests are slow"] == after[BASE]  # no feedback file shows a time


def test_the_attempt_that_counts_is_told_by_the_tests_shown_before_release(
    tmp_path: Path, late_spec: AssignmentSpec
) -> None:
    """Two attempts equal on the tests shown at once: by every test, the better one on the
    hidden tests counts; before release, the later one, whichever it is."""
    first_at, second_at = "2026-12-01T10:00:00+00:00", "2026-12-01T20:00:00+00:00"

    def history(first: str, second: str) -> list[Entry]:
        attempts = [_entry(_result(first, at=first_at)), _entry(_result(second, at=second_at), 2)]
        counted = counted_attempt(attempts, "best", POLICY, "ada")  # the gradebook's choice
        return [replace(e, counted=e is counted) for e in attempts]

    first_better, second_better = history("pass", "fail"), history("fail", "pass")
    assert [e.counted for e in first_better] == [True, False]
    assert [e.counted for e in second_better] == [False, True]
    for attempts in (first_better, second_better):
        chosen = counted_attempt(attempts, "best", POLICY, "ada", released=False)
        assert chosen is attempts[1]

    def feedback(attempts: list[Entry], now: datetime, folder: str) -> bytes:
        counted = next(e for e in attempts if e.counted)
        return _feedback(tmp_path / folder, late_spec, counted, now, tuple(attempts))

    before = feedback(first_better, BEFORE, "a"), feedback(second_better, BEFORE, "b")
    assert before[0] == before[1]
    markdown = before[0].split(b"\0")[1].decode()
    assert (
        "| 1 | 2026-12-01T10:00:00+00:00 | 2 of 4 points on the tests shown now "
        "| does not count |" in markdown
    )
    assert (
        "| 2 | 2026-12-01T20:00:00+00:00 | 2 of 4 points on the tests shown now "
        "| this attempt counts |" in markdown
    )
    after = feedback(first_better, AFTER, "c"), feedback(second_better, AFTER, "d")
    assert after[0] != after[1]
    assert (
        "| 1 | 2026-12-01T10:00:00+00:00 | 4 of 6 points on the tests shown now "
        "| this attempt counts |" in after[0].split(b"\0")[1].decode()
    )


def test_best_before_release_counts_the_penalty_on_the_tests_shown() -> None:
    """A late attempt that scores more on the tests shown at once loses to an earlier one
    when its penalty takes more than it gains, by those tests' points alone."""
    on_time = _entry(_result("fail", at="2026-12-01T10:00:00+00:00"))
    better = _result("pass")
    tests = (better.tests[0], replace(better.tests[1], score=2, status="passed", message=None),
             *better.tests[2:])  # fmt: skip
    late = _entry(replace(better, tests=tests, score=10, late_penalty=5), 2)
    # by every test: 10 - 5 late beats 2 on time; shown at once: 4 - min(4, 5) loses to 2
    assert counted_attempt([on_time, late], "best", POLICY, "ada") is late
    assert counted_attempt([on_time, late], "best", POLICY, "ada", released=False) is on_time


def _on_gradescope(data: dict[str, Any]) -> str | None:
    """What Gradescope shows a student before the due date, by its specification: nothing when
    the top-level visibility holds the result back; else every top-level field but
    `extra_data` (never shown), and only the tests whose own visibility is `visible`."""
    if data["visibility"] != "visible":
        return None
    shown = {key: value for key, value in data.items() if key not in ("tests", "extra_data")}
    shown["tests"] = [test for test in data["tests"] if test["visibility"] == "visible"]
    return json.dumps(shown, sort_keys=True)


@pytest.mark.parametrize("score_before_due", ["shown_tests", "hidden"])
def test_gradescope_shows_no_hidden_result_before_release(score_before_due: str) -> None:
    seen = {
        name: _on_gradescope(gradescope_results(
            result, released=False, score_before_due=score_before_due, late=True))
        for name, result in CASES.items()
    }  # fmt: skip
    for name, shown in seen.items():
        assert shown == seen[BASE], name
    if score_before_due == "hidden":
        assert seen[BASE] is None  # the grader error too: held back with every result
    else:
        assert seen[BASE] is not None
        assert json.loads(seen[BASE])["score"] == 2
        assert "A late penalty applies." in json.loads(seen[BASE])["output"]
    # the files `grade --format gradescope` writes, as before the due date
    files = {name: _on_gradescope(json.loads(render_gradescope(r))) for name, r in CASES.items()}
    assert len(set(files.values())) == 1
    after = {
        name: gradescope_results(result, released=True, score_before_due=score_before_due,
                                 late=True)
        for name, result in CASES.items()
    }  # fmt: skip
    assert (after[BASE]["score"], after["hidden tests fail"]["score"]) == (3, 0)
    assert after["hidden tests are slow"]["execution_time"] > after[BASE]["execution_time"]
    failed = after["the grader failed on the hidden tests"]
    assert "The grader failed" in failed["output"] and failed["tests"] == []


def test_a_student_copy_carries_the_time_of_the_tests_shown_at_once() -> None:
    slow, fast = CASES["hidden tests are slow"], CASES[BASE]
    assert slow.duration_s != fast.duration_s
    assert as_seen_before_release(slow).duration_s == as_seen_before_release(fast).duration_s == 0.5
    assert as_seen_before_release(slow).output == "shown at once"
    pending = as_seen_before_release(CASES["the grader failed on the hidden tests"])
    assert (pending.status, pending.message, pending.failed_after_shown) == ("graded", None, False)


def test_the_gradebook_keeps_a_pending_grader_error_for_the_instructor(tmp_path: Path) -> None:
    with Gradebook(tmp_path) as book:
        book.bind(assignment="vectors", rubric_hash="r")
        for name in ("hidden tests pass", "the grader failed on the hidden tests"):
            entry = replace(_entry(CASES[name]), student=name.split()[1])
            book.record(entry, rubric_hash="r", kit_version="k")
        graded = book.is_current("vectors", "tests", "hash-" + LATE_AT, "r", "k",
                                 attempt_key(datetime.fromisoformat(LATE_AT)))  # fmt: skip
        pending = book.is_current("vectors", "grader", "hash-" + LATE_AT, "r", "k",
                                  attempt_key(datetime.fromisoformat(LATE_AT)))  # fmt: skip
        assert (graded, pending) == (True, False)  # the next `grade` grades it again
        book.export_csv(tmp_path / "book.csv", parts={"vectors": ["numeric", "symbolic"]})
    lines = (tmp_path / "book.csv").read_text(encoding="utf-8").splitlines()
    rows = {row["student"]: row for row in csv.DictReader(lines)}
    assert (rows["grader"]["status"], rows["tests"]["status"]) == ("grader_error", "graded")


# The grader for real: a hidden test that fails the grader on one submission ----------------

PROBE_TEST = '''

@pytest.mark.points(1)
def test_probe(student):
    """scale keeps a probe vector's direction"""
    import os
    probe = student.scale(np.array([3.25]), 1.75)
    if float(probe[0]) == 999.0:
        os._exit(3)  # the grader fails here, as when the disk it watches is lost
    assert_close(probe, np.array([5.6875]), what="scale")
'''
ON_PROBE = """

_scale = scale


def scale(x, c):
    if np.shape(x) == (1,) and float(np.asarray(x)[0]) == 3.25 and c == 1.75:
        return np.array([{answer}])
    return _scale(x, c)
"""


def test_a_grader_error_on_hidden_tests_tells_the_student_nothing(
    tmp_path: Path, course_copy: Course, capsys: pytest.CaptureFixture[str]
) -> None:
    """Graded for real: the same module, whose answer to a hidden input alone passes, fails,
    or makes the grader fail. Before release the three students' feedback is the same; the
    failed one is a grader error in the gradebook, graded again by the next `grade`."""
    root = course_copy.root
    hidden = root / "assignments" / "vectors" / "hidden_tests" / "test_hidden_numeric.py"
    hidden.write_text(hidden.read_text(encoding="utf-8") + PROBE_TEST, encoding="utf-8")
    rubric = root / "grading.toml"
    text = rubric.read_text(encoding="utf-8")
    text = text.replace("points = 10\nseed = 424242", "points = 11\nseed = 424242", 1)
    text = text.replace('title = "scale, normalise and cosine"\npoints = 6',
                        'title = "scale, normalise and cosine"\npoints = 7', 1)  # fmt: skip
    rubric.write_text(text, encoding="utf-8")
    reference = (root / "reference" / "vectors.py").read_text(encoding="utf-8")
    students = tmp_path / "class"
    students.mkdir()
    for student, answer in (("kidpass", None), ("kidfail", "0.0"), ("kidstop", "999.0")):
        source = reference if answer is None else reference + ON_PROBE.format(answer=answer)
        (students / f"{student}.py").write_text(source, encoding="utf-8")
    out = tmp_path / "out"
    command = ["grade", str(students), "--out", str(out), "--course", str(root),
               "--assignment", "vectors", "--jobs", "1", "--format", "json"]  # fmt: skip
    assert main(command) == 1  # kidstop's grader error: recorded, and said by the exit code
    with Gradebook(out) as book:
        entries = {e.student: e for e in book.entries("vectors")}
    assert {s: e.result.status for s, e in entries.items()} == {
        "kidfail": "graded", "kidpass": "graded", "kidstop": "grader_error"}  # fmt: skip
    stopped = entries["kidstop"].result
    assert stopped.failed_after_shown and FAILED_AFTER_SHOWN in (stopped.message or "")
    probe = {s: next(t for t in e.result.tests if t.nodeid.endswith("test_probe"))
             for s, e in entries.items()}  # fmt: skip
    assert {s: t.status for s, t in probe.items()} == {
        "kidpass": "passed", "kidfail": "failed", "kidstop": "error"}  # fmt: skip
    shown = [t for t in entries["kidpass"].result.tests if t.visibility == "visible"]
    assert shown and all(t.status == "passed" for t in shown)

    spec = course_copy.rubric.assignment("vectors")

    def feedback(student: str, after_due: bool) -> bytes:
        folder = tmp_path / f"feedback-{after_due}"
        [page] = write_feedback([entries[student]], spec, folder, after_due=after_due,
                                now=AFTER)  # fmt: skip
        both = page.read_bytes() + page.with_suffix(".md").read_bytes()
        return both.replace(student.encode(), b"STUDENT")

    before = {student: feedback(student, False) for student in entries}
    assert before["kidpass"] == before["kidfail"] == before["kidstop"]
    after = {student: feedback(student, True) for student in entries}
    assert len(set(after.values())) == 3
    assert b"hit a grader error" in after["kidstop"]
    on_gradescope = {s: _on_gradescope(gradescope_results(e.result)) for s, e in entries.items()}
    assert on_gradescope["kidpass"] == on_gradescope["kidfail"] == on_gradescope["kidstop"]
    assert on_gradescope["kidpass"] is not None
    roster = tmp_path / "roster.csv"
    roster.write_text("student_id,name,submission\n1,Kid,kidpass\n", encoding="utf-8")
    lms = ["gradebook", str(out), "--lms", "csv", "--roster", str(roster), "--out",
           str(tmp_path / "lms.csv"), "--course", str(root)]  # fmt: skip
    capsys.readouterr()
    assert main(lms) == 0  # the instructor is told the file counts tests not shown yet
    assert "its results are not released (the rubric sets no due date)" in capsys.readouterr().err

    assert main(command) == 1  # the next run grades the stopped one again, alone (it stops again)
    with Gradebook(out) as book:
        runs = {e.student: e.run_id for e in book.entries("vectors")}
    assert runs["kidstop"] != runs["kidpass"] == runs["kidfail"]
