"""The class report, a student's feedback and the similarity report, opened in headless
Chromium with the network off: nothing fails to load or logs an error, every plot draws with a
real size, the links from the report to the feedback files resolve, axe-core finds no serious
or critical violation, and screenshots are kept
(build/test-artifacts/, or $AUTOGRADER_TEST_ARTIFACTS)."""

from __future__ import annotations

import os.path
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from browser import ARTIFACTS, axe_violations, offline_browser, open_page

from autograder.after_grading.similarity import compare
from autograder.after_grading.student_feedback import feedback_path, write_feedback
from autograder.authoring.sample_class import sample_class
from autograder.course.assignment import Assignment
from autograder.grading.gradebook import Entry
from autograder.grading.results import SubmissionResult
from autograder.report.html import KnownMistake, render_class_report
from autograder.report.similarity_html import render_similarity

COPIES = Path(__file__).resolve().parent / "disguised_copies"
IMAGES = """els => els.map(e => ({src: e.src.slice(0, 30), complete: e.complete,
    natural: [e.naturalWidth, e.naturalHeight],
    shown: [e.getBoundingClientRect().width, e.getBoundingClientRect().height]}))"""


@pytest.fixture(scope="module")
def pages(
    tmp_path_factory: pytest.TempPathFactory,
    graded: dict[str, SubmissionResult],
    assignment: Assignment,
) -> dict[str, Path]:
    """The report (linking to the feedback), the feedback files and the similarity report."""
    folder = tmp_path_factory.mktemp("after")
    entries = [Entry(name, "c", "r", result) for name, result in sorted(graded.items())]
    write_feedback(entries, assignment.spec, folder / "feedback", after_due=True,
                   now=datetime.now(timezone.utc))  # fmt: skip
    report = folder / "report" / "positional_encoding.html"
    report.parent.mkdir()
    links = {
        e.student: os.path.relpath(feedback_path(folder / "feedback", assignment.name, e.student),
                                   report.parent)
        for e in entries
    }  # fmt: skip
    mistakes = [KnownMistake(m.name, m.summary, m.hint) for m in assignment.load_catalogue()]
    report.write_text(render_class_report(entries, title="positional_encoding: class report",
                                          mistakes=mistakes, feedback_links=links,
                                          parts=assignment.spec.parts))  # fmt: skip
    sources = {s.name: s.source for s in sample_class(assignment)}
    sources.update({p.stem: p.read_text() for p in COPIES.glob("*.py")})
    stub = (assignment.release_dir / assignment.spec.module).read_text()
    similarity = folder / "similarity.html"
    similarity.write_text(render_similarity(compare(sources, stub=stub), sources, title="copies"))
    return {
        "report": report,
        "feedback": feedback_path(folder / "feedback", assignment.name, "bug_exponent_i"),
        "similarity": similarity,
    }


def test_report_and_feedback_in_a_real_browser(pages: dict[str, Path]) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with offline_browser() as context:
        page, visit = open_page(context, pages["report"])
        assert visit.problems == []
        assert axe_violations(page) == []
        images = page.eval_on_selector_all("img", IMAGES)
        assert len(images) == 3, images
        for image in images:
            assert image["complete"] and min(image["natural"]) > 0, image
            assert min(image["shown"]) > 50, image
        targets = page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)")
        assert len(targets) >= 18  # each student's row, and the mistakes' lists of students
        for target in targets:
            address = urlparse(target)
            assert address.scheme == "file", target
            assert Path(unquote(address.path)).is_file(), target
        tally = page.inner_text("#misconceptions")
        assert "exponent_i" in tally and "bug_exponent_i" in tally
        shot = ARTIFACTS / "class-report.png"
        page.screenshot(path=str(shot), full_page=True)
        print(f"\nscreenshot: {shot} ({shot.stat().st_size} bytes)")
        assert shot.stat().st_size > 20_000

        page.click("#students a[href*='bug_exponent_i']")
        page.wait_for_load_state("load")
        assert page.url.endswith("/positional_encoding/bug_exponent_i.html")
        assert "Feedback for bug_exponent_i" in page.inner_text("body")
        # 100 automatic points and a written part of 10 nobody has graded yet
        score = page.inner_text("#score")
        assert score.startswith("Score: 72 of 110 points (not graded yet: 1 written answer(s)")

        feedback, visit = open_page(context, pages["feedback"])
        assert visit.problems == []
        assert axe_violations(feedback) == []
        assert feedback.locator("table.tests tr").count() > 40  # a table per function
        shot = ARTIFACTS / "feedback.png"
        feedback.screenshot(path=str(shot), full_page=True)
        print(f"screenshot: {shot} ({shot.stat().st_size} bytes)")

        similar, visit = open_page(context, pages["similarity"])
        assert visit.problems == []
        assert axe_violations(similar) == []
        assert similar.locator("#pairs tr").count() == 3  # a header and the two copies
        similar.click("#pairs a")
        assert similar.locator("#pair-0 mark").count() > 0
        shot = ARTIFACTS / "similarity.png"
        similar.screenshot(path=str(shot), full_page=True)
        print(f"screenshot: {shot} ({shot.stat().st_size} bytes)")
