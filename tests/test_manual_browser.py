"""The grading page in headless Chromium: three answers graded with the keyboard alone, a rubric
item applied to two and then changed, the new totals in the gradebook, the feedback and a Canvas
file; a second grader's stale save shown as a conflict; the same done with the mouse (Next and
Previous, the list of answers and their status, the save's status beside Save, the rubric's
levels on their lines, an answer left as released shown as none); axe-core finds nothing
serious."""

from __future__ import annotations

import contextlib
import csv
import io
import re
from dataclasses import replace
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
from autograder.grading.written_answers import ANSWER_PLACEHOLDER
from autograder.manual.store import ManualStore
from autograder.manual.totals import class_totals

RUBRIC = (
    "2: says a unit vector keeps only the direction,\n"
    "    and why the length no longer matters.\n"
    "1: says the length becomes one, not why.\n"
    "0: missing."
)


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
    """Wait for the save's status beside Save (no wait_for_function: the CSP forbids eval)."""
    expect(page.locator("#status")).to_have_text(text)


def _item_status(page: Any, text: str) -> None:
    expect(page.locator("#item-status")).to_have_text(text)


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
        _item_status(page, "Added rubric item: Keeps only the direction (2).")
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
        _item_status(page, "Saved item 1: 1.5 points; every answer it is applied to changed.")
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
        _item_status(page, "Added rubric item: An item (0).")
        page.keyboard.press("u")
        page.keyboard.press("u")  # cy: the hostile answer
        assert axe_violations(page) == []
        assert errors == []
        # visible focus: the focused control has an outline
        page.keyboard.press("p")
        outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
        assert outline == "solid"


def test_grading_with_the_mouse_the_list_and_the_save_status(
    tmp_path: Path, spec: AssignmentSpec
) -> None:
    out = build_class(tmp_path / "out")
    with ManualStore(out) as store:  # ben handed the notebook back with the cell as released
        store.record_answers("vectors", "ben", {"why_unit": f"{ANSWER_PLACEHOLDER}\n"})
    levels = replace(spec, manual=(replace(spec.manual[0], rubric=RUBRIC),))
    with grading_server(out, levels) as (origin, token), local_browser(origin) as (context, no):
        page, errors = _open(context(), origin, token)
        picks = page.locator("#answer-list button")
        expect(picks).to_have_text(
            ["ada: not graded yet", "ben: no answer (0 points)", "cy: not graded yet"]
        )
        expect(picks.nth(0)).to_have_attribute("aria-current", "true")
        expect(page.locator("#save")).to_be_in_viewport()  # no scrolling to Save (1200 × 900)
        expect(page.locator("#next")).to_be_in_viewport()
        # the rubric's levels keep their lines (and the indent of a level's second line)
        assert page.inner_text("#rubric-text") == RUBRIC
        # Next and Previous, by the mouse; the buttons keep the focus to be pressed again
        expect(page.locator("#previous")).to_be_disabled()
        page.click("#next")
        expect(page.locator("#answer-heading")).to_have_text("Answer 2: ben, Why unit vectors")
        left = f"No answer: the answer was left as released (“{ANSWER_PLACEHOLDER}”) or blank"
        expect(page.locator("#answer-text")).to_have_text(re.compile("^" + re.escape(left)))
        expect(picks.nth(1)).to_have_attribute("aria-current", "true")
        expect(picks.nth(0)).not_to_have_attribute("aria-current", "true")
        expect(page.locator("#next")).to_be_focused()
        page.click("#next")
        expect(page.locator("#answer-heading")).to_have_text(re.compile("^Answer 3: cy"))
        expect(page.locator("#next")).to_be_disabled()
        page.click("#previous")
        page.click("#previous")
        expect(page.locator("#answer-heading")).to_have_text(re.compile("^Answer 1: ada"))
        # the list opens any answer
        picks.nth(2).click()
        expect(page.locator("#answer-heading")).to_have_text(re.compile("^Answer 3: cy"))
        # the save's status, beside Save, in a polite live region, where the grader looks
        status = page.locator("#status")
        assert (status.get_attribute("role"), status.get_attribute("aria-live")) == (
            "status", "polite")  # fmt: skip
        page.fill("#adjustment", "1")
        _status(page, "Not saved yet.")
        page.click("#save")
        _status(page, "Saved: cy, 1 points.")
        expect(status).to_be_in_viewport()
        save, said = page.locator("#save").bounding_box(), status.bounding_box()
        assert 0 <= said["x"] - (save["x"] + save["width"]) < 40  # just right of the button
        middle = save["y"] + save["height"] / 2
        assert said["y"] <= middle <= said["y"] + said["height"]  # on its line
        expect(picks.nth(2)).to_have_text("cy: graded, 1 of 2")
        expect(page.locator("#progress")).to_have_text(
            "Answer 3 of 3; 1 graded, 1 with no answer (0 points), 1 not graded yet."
        )
        # what is typed and not saved stays with its answer, and the list says so
        picks.nth(0).click()
        page.fill("#comment", "Half done")
        page.click("#next")
        expect(picks.nth(0)).to_have_text("ada: not graded yet; changes not saved")
        page.click("#previous")
        expect(page.locator("#comment")).to_have_value("Half done")
        _status(page, "Not saved yet: your changes to this answer were kept; save them with s.")
        # the keys still work beside the buttons: u finds the one answer left to grade
        page.locator("#answer").focus()
        page.keyboard.press("j")
        expect(page.locator("#answer-heading")).to_have_text(re.compile("^Answer 2: ben"))
        page.keyboard.press("u")
        expect(page.locator("#answer-heading")).to_have_text(re.compile("^Answer 1: ada"))
        page.keyboard.press("s")
        _status(page, "Saved: ada, 0 points.")
        expect(picks.nth(0)).to_have_text("ada: graded, 0 of 2")
        (ARTIFACTS / "manual").mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "manual" / "grading-page-list.png"), full_page=True)
        assert axe_violations(page) == []
        assert errors == [] and no == []
    assert class_totals(out, spec)["ada"].manual[0].comment == "Half done"
