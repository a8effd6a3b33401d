"""The grading page in headless Chromium: three answers graded with the keyboard alone, a rubric
item applied to two and then changed, the new totals in the gradebook, the feedback and a Canvas
file; a second grader's stale save shown as a conflict; axe-core finds nothing serious."""

from __future__ import annotations

import contextlib
import csv
import io
import re
from pathlib import Path
from typing import Any

from browser import ARTIFACTS, axe_violations
from manual_class import ROSTER, build_class
from manual_page import grading_server, local_browser
from playwright.sync_api import expect

from autograder.after_grading.student_feedback import feedback_path
from autograder.cli import main
from autograder.course.course import Course
from autograder.course.rubric import AssignmentSpec
from autograder.manual.totals import class_totals


def _open(context: Any, origin: str, token: str) -> tuple[Any, list[str]]:
    errors: list[str] = []
    page = context.new_page()
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{origin}/?token={token}", wait_until="load")
    expect(page.locator("#progress")).to_have_text(re.compile(r"^Answer 1 of 3;"))
    assert page.url == f"{origin}/"  # the token left the address bar
    assert page.title().startswith("Grading written answers: Vectors: scaling")  # from /api/state
    return page, errors


def _status(page: Any, text: str) -> None:
    """Wait for the page's status line (no wait_for_function: the page's CSP forbids eval)."""
    expect(page.locator("#status")).to_have_text(text)


def _replace_value(page: Any, text: str) -> None:
    page.keyboard.press("Control+A")
    page.keyboard.type(text)


def test_grading_with_the_keyboard_alone(
    tmp_path: Path, course: Course, spec: AssignmentSpec
) -> None:
    out = build_class(tmp_path / "out")
    with grading_server(out, spec) as (origin, token), local_browser(origin) as (context, refused):
        first = context()
        page, errors = _open(first, origin, token)
        keys = page.keyboard
        # a rubric item: n, its comment, Tab, its points, Enter
        keys.press("n")
        keys.type("Keeps only the direction")
        keys.press("Tab")
        _replace_value(page, "2")
        keys.press("Enter")
        _status(page, "Added rubric item: Keeps only the direction (2).")
        keys.press("1")  # applied to ada's answer, and saved
        _status(page, "Saved: ada, 2 points.")
        keys.press("j")
        assert "ben" in page.inner_text("#answer-heading")
        keys.press("1")  # and to ben's
        _status(page, "Saved: ben, 2 points.")
        keys.press("u")  # the next not graded yet: cy
        assert "cy" in page.inner_text("#answer-heading")
        keys.press("p")
        _replace_value(page, "1")
        keys.press("Escape")
        keys.press("c")
        keys.type("Say why the length matters.")
        keys.press("Control+Enter")
        _status(page, "Saved: cy, 1 points.")
        assert page.inner_text("#progress").endswith("3 graded, 0 not graded yet.")
        # cy's hostile answer is text: no script ran, no image loaded, no javascript: link
        assert page.title().startswith("Grading written answers")
        assert page.locator("#answer-text img, #answer-text script").count() == 0
        assert page.locator("#answer-text a").count() == 0
        assert "<script>" in page.inner_text("#answer-text")
        # the item is worth 1.5 now: ada and ben change with it
        keys.press("r")
        _replace_value(page, "1.5")
        keys.press("Enter")
        _status(page, "Saved item 1: 1.5 points; every answer it is applied to changed.")
        (ARTIFACTS / "manual").mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "manual" / "grading-page.png"), full_page=True)
        assert errors == [] and refused == []

        # a second grader with the page open since before ada's next save
        second = context()
        other, _ = _open(second, origin, token)
        keys.press("Escape")  # out of the item's field
        keys.press("k")
        keys.press("k")
        assert "ada" in page.inner_text("#answer-heading")
        keys.press("c")
        keys.type("Clear.")
        keys.press("Control+Enter")
        _status(page, "Saved: ada, 1.5 points.")
        other.keyboard.press("p")
        _replace_value(other, "0.5")
        other.keyboard.press("Enter")
        _status(other, "Conflict: not saved.")
        conflict = other.inner_text("#conflict-text")
        assert "Theirs (ta): 1.5 points, comment “Clear.”" in conflict
        assert "Yours: 2 points" in conflict and "Nothing was overwritten." in conflict
        assert other.is_visible("#conflict")

        # without the token, the page says where to find it and shows no answer
        stranger = context().new_page()
        assert stranger.goto(f"{origin}/").status == 200
        expect(stranger.locator("#progress")).to_have_text(re.compile("needs its token"))
        assert stranger.inner_text("#answer-text") == ""

    totals = class_totals(out, spec)
    assert [totals[s].manual[0].points for s in ("ada", "ben", "cy")] == [1.5, 1.5, 1.0]
    assert [totals[s].total for s in ("ada", "ben", "cy")] == [11.5, 7.5, 5.0]
    root = ("--course", str(course.root))
    roster = tmp_path / "roster.csv"
    roster.write_text(ROSTER)
    canvas = tmp_path / "canvas.csv"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["gradebook", str(out), "--lms", "canvas", "--roster", str(roster),
                     "--out", str(canvas), *root]) == 0  # fmt: skip
        assert main(["feedback", str(out), "--out", str(tmp_path / "fb"), *root]) == 0
    assert [row[-1] for row in list(csv.reader(canvas.open(newline="")))[2:]] == [
        "11.5",
        "7.5",
        "5",
    ]
    ada = feedback_path(tmp_path / "fb", "vectors", "ada").read_text()
    assert (
        "<th scope='row'>why_unit (2, graded by people)</th><td>Why unit vectors</td>"
        "<td>1.5 / 2</td>" in ada
    )
    assert "Comment on Why unit vectors: Clear." in ada


def test_the_grading_page_has_no_serious_accessibility_violation(
    tmp_path: Path, spec: AssignmentSpec
) -> None:
    out = build_class(tmp_path / "out")
    with grading_server(out, spec) as (origin, token), local_browser(origin) as (context, _):
        page, errors = _open(context(), origin, token)
        page.keyboard.press("n")
        page.keyboard.type("An item")
        page.keyboard.press("Enter")
        _status(page, "Added rubric item: An item (0).")
        page.keyboard.press("u")
        page.keyboard.press("u")  # cy: the hostile answer
        assert axe_violations(page) == []
        assert errors == []
        # visible focus: the focused control has an outline
        page.keyboard.press("p")
        outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
        assert outline == "solid"
