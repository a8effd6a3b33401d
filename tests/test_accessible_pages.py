"""The pages an instructor and a student read, on hand-made results of the fixture course: one
status vocabulary everywhere, the parts in the rubric's order with their maxima, messages cut at
a word with "…", the nearest pairs under the similarity threshold, and (in headless Chromium)
no serious or critical axe-core violation on the class report, a feedback file and the
similarity report, each kept as a screenshot."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

import pytest
from browser import ARTIFACTS, axe_violations, offline_browser, open_page

from autograder.after_grading.similarity import compare
from autograder.after_grading.student_feedback import feedback_path, write_feedback
from autograder.course.course import Course
from autograder.course.rubric import AssignmentSpec
from autograder.grading.gradebook import Entry
from autograder.grading.results import SubmissionResult, TestResult
from autograder.report.html import known_mistakes, render_class_report, rubric_parts
from autograder.report.similarity_html import nearest_line, render_similarity
from autograder.report.terminal import render_class
from autograder.safe_text import shorten

HOSTILE = "<img src=x onerror=alert(1)>\x1b[2J"
LONG_HINT = (
    "the sum of squares loses its cross term: (a + b)**2 is a**2 + 2*a*b + b**2, and "
    "a proof by Pythagoras needs the two vectors at a right angle, so check the dot product "
    "first and only then drop the middle term, which vanishes exactly when u and v are "
    "orthogonal to each other"
)  # 260 characters: the table of frequent failures shows 200


def _test(name: str, part: str, status: str, points: float, **kw: object) -> TestResult:
    earned = points if status == "passed" else 0.0
    return TestResult(name, f"t::{name}", part, earned, points, status, "visible", **kw)  # type: ignore[arg-type]


def _result(student: str, statuses: tuple[str, str, str, str], **kw: object) -> SubmissionResult:
    """Four tests, the symbolic ones first (a result need not follow the rubric's order)."""
    tests = (
        _test("square_sum expands", "symbolic", statuses[0], 2, hint=LONG_HINT
              if statuses[0] == "failed" else None),
        _test("pythagoras proof", "symbolic", statuses[1], 2),
        _test("normalise([3, 4])", "numeric", statuses[2], 3,
              message="normalise([3, 4])[0] should be 0.6; yours is 0.43"
              if statuses[2] == "failed" else None),
        _test("scale keeps the direction", "numeric", statuses[3], 3),
    )  # fmt: skip
    score = sum(t.score for t in tests)
    result = SubmissionResult("vectors", student, "graded", score, 10, ("process",), 1.5, tests)
    return replace(result, **kw)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def entries() -> list[Entry]:
    results = [
        _result("ada", ("passed", "passed", "passed", "passed")),
        _result("ben", ("failed", "passed", "failed", "passed")),
        _result("lou", ("passed", "timeout", "passed", "passed")),
        _result(HOSTILE, ("failed", "failed", "passed", "not_implemented")),
        _result("eve", ("passed",) * 4, status="ungradable", tests=(), score=0,
                message="the notebook is not valid JSON"),
        _result("gus", ("passed",) * 4, status="grader_error", tests=(), score=0,
                message="the grader's runner did not finish"),
    ]  # fmt: skip
    return [Entry(r.submission, "hash", "run", r) for r in results]


def _report(entries: list[Entry], course: Course, links: dict[str, str] | None = None) -> str:
    return render_class_report(
        entries, title="vectors: class report", mistakes=known_mistakes(course, "vectors"),
        feedback_links=links, parts=rubric_parts(course, "vectors"),
    )  # fmt: skip


def test_shorten_cuts_at_a_word_and_says_so() -> None:
    assert shorten("the quick brown fox", 12) == "the quick…"
    assert shorten("the quick brown fox", 19) == "the quick brown fox"
    assert shorten("a, b, c, d, e", 8) == "a, b…"  # no dangling comma before the …
    assert shorten("one\ntwo   three", 20) == "one two three"
    assert shorten("x" * 30, 10) == "xxxxxxxxx…"  # one word too long: cut inside, still marked
    assert shorten("", 5) == ""


def test_a_looping_submission_reads_timed_out_in_every_table(
    entries: list[Entry], course: Course, spec: AssignmentSpec, tmp_path: Path
) -> None:
    page = _report(entries, course)
    students = page[page.index("<section id='students'") : page.index("<section id='histogram'")]
    assert "<th scope='row'>lou</th><td>timed out</td>" in students
    assert "<th scope='row'>ada</th><td>graded</td>" in students
    assert "<th scope='row'>eve</th><td>ungradable</td>" in students
    assert "<th scope='row'>gus</th><td>grader error</td>" in students
    not_graded = page[page.index("<section id='ungradable'") : page.index("<section id='slow")]
    assert "<th scope='row'>lou</th><td>timed out</td><td>1 of 4 tests timed out</td>" in (
        not_graded
    )
    assert "scope='row'>ada<" not in not_graded and "ben" not in not_graded
    summary = page[: page.index("<section id='students'")]
    assert "timed out (graded, but at least one test ran out of time" in summary
    assert ">timeout<" not in page and "grader_error" not in page
    table = render_class(spec, [e.result for e in entries])
    rows = {line.split()[0]: line for line in table.splitlines()[2:-1]}
    assert rows["lou"].endswith("  timed out") and rows["gus"].endswith("  grader error")
    assert table.splitlines()[-1] == (
        "6 submissions: 3 graded, 1 timed out, 1 ungradable, 1 grader error; mean 6.5 / 10 "
        "over the 4 scored"
    )  # ada 10, ben 5, lou 8 and the hostile name 3
    write_feedback(entries, spec, tmp_path, after_due=True, now=datetime.now(timezone.utc))
    lou = feedback_path(tmp_path, "vectors", "lou").read_text()
    assert "<span class='lost'>timed out</span>" in lou
    eve = feedback_path(tmp_path, "vectors", "gus", ".md").read_text()
    assert "hit a grader error" in eve and "Status: grader error." in eve


def test_parts_follow_the_rubric_each_with_its_maximum(
    entries: list[Entry], course: Course, spec: AssignmentSpec, tmp_path: Path
) -> None:
    page = _report(entries, course)
    head = page[page.index("<section id='students'") :]
    assert head.index("numeric (6)") < head.index("symbolic (4)")
    rates = page[page.index("<table id='test-rates'") :]
    assert rates.index("numeric (6): ") < rates.index("symbolic (4): ")
    # numeric: 8 runs, 6 passed (ben's normalise, the hostile name's scale lost); symbolic: 8
    # runs, 4 passed (lou's timeout, ben's and the hostile name's failures)
    assert "numeric (6): 75% of its tests passed" in rates
    assert "symbolic (4): 50% of its tests passed" in rates
    header = render_class(spec, [e.result for e in entries]).splitlines()[0]
    assert header.index("numeric (6)") < header.index("symbolic (4)")
    assert "total (10)" in header
    write_feedback(entries[:1], spec, tmp_path, after_due=True, now=datetime.now(timezone.utc))
    markdown = feedback_path(tmp_path, "vectors", "ada", ".md").read_text()
    assert markdown.index("| numeric (6) | scale, normalise and cosine | 6 / 6 |") < (
        markdown.index("| symbolic (4) | square\\_sum and a proof by Pythagoras | 4 / 4 |")
    )


def test_frequent_failures_are_cut_at_a_word(entries: list[Entry], course: Course) -> None:
    page = _report(entries, course)
    failures = page[page.index("<section id='failures'") : page.index("<section id='ungradable'")]
    cut = (
        "the sum of squares loses its cross term: (a + b)**2 is a**2 + 2*a*b + b**2, and a "
        "proof by Pythagoras needs the two vectors at a right angle, so check the dot product "
        "first and only then drop the…"
    )  # 199 characters: "middle" would make it 206
    assert f"<td>2</td><td>{cut}</td>" in failures
    assert "drop the middle" not in failures


def test_the_nearest_pairs_under_the_threshold_are_named() -> None:
    base = "\n".join(f"def f{n}(x):\n    return [v * {n} + x for v in range(x)]" for n in range(12))
    sources = {"ada": base, "ben": base.replace("+ x", "- x"), "cy": "print('hello')\n" * 3}
    comparison = compare(sources, threshold=1.01)  # nothing can reach it
    assert comparison.pairs == ()
    first = comparison.nearest[0]
    assert (first.first, first.second) == ("ada", "ben")
    assert comparison.nearest[0].score > 0.5
    line = nearest_line(comparison)
    assert line.startswith("the closest pair under it: ada and ben, ")
    assert line.endswith("% shared (under 101%)")
    page = render_similarity(comparison, sources, title="t")
    assert "No pair reaches the threshold." in page
    assert "(the closest pair under the threshold, ada and ben, shares " in page
    assert "<h2>Closest pairs under the threshold</h2>" in page


def test_the_pages_pass_axe_core(entries: list[Entry], course: Course, spec: AssignmentSpec,
                                 tmp_path: Path) -> None:  # fmt: skip
    feedback = tmp_path / "feedback"
    write_feedback(entries, spec, feedback, after_due=False, now=datetime.now(timezone.utc))
    report = tmp_path / "report.html"
    links = {
        e.student: feedback_path(feedback, "vectors", e.student).relative_to(tmp_path).as_posix()
        for e in entries
    }
    report.write_text(_report(entries, course, links), encoding="utf-8")
    base = "\n".join(f"def f{n}(x):\n    return [v * {n} + x for v in range(x)]" for n in range(12))
    other = "def total(y):\n    acc = 0\n    for i in range(y):\n        acc += i * i\n"
    sources = {"ada": base, HOSTILE: base, "ben": other * 3 + base.split("\ndef f2")[0]}
    similarity = tmp_path / "similarity.html"
    comparison = compare(sources, threshold=0.9)  # ben shares 80% of theirs: under it
    similarity.write_text(render_similarity(comparison, sources, title="vectors: similar"))
    assert any(HOSTILE in (p.first, p.second) for p in comparison.nearest)
    assert "<img src=x" not in similarity.read_text() + report.read_text()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pages = {
        "report": report,
        "feedback-before-due": feedback_path(feedback, "vectors", "ben"),
        "feedback-ungradable": feedback_path(feedback, "vectors", "eve"),
        "similarity": similarity,
    }
    found = {}
    with offline_browser() as context:
        for name, path in pages.items():
            page, visit = open_page(context, path)
            assert visit.problems == [], name
            found[name] = axe_violations(page)
            page.screenshot(path=str(ARTIFACTS / f"fixture-{name}.png"), full_page=True)
        page, _ = open_page(context, report)
        for image in page.eval_on_selector_all("img", "els => els.map(e => e.alt)"):
            assert len(image) > 60 and "plot" not in image.lower(), image  # a description
        assert page.locator("main section h2").count() == 9
        assert page.locator("header h1").count() == 1 and page.locator("nav a").count() == 9
    print(f"axe-core serious or critical violations per page: {found}")
    assert found == {name: [] for name in pages}
