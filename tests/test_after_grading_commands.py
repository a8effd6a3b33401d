"""The after-grading commands on a class graded for real: a .py, a folder, a zip, a notebook
and a hostile name, then `feedback`, `report --feedback`, `similarity` and `gradebook --lms`."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re
import zipfile
from html import unescape
from pathlib import Path
from urllib.parse import unquote

import pytest

from autograder.after_grading.student_feedback import feedback_path
from autograder.cli import main
from autograder.course.course import Course
from autograder.grading.batch import discover
from autograder.grading.gradebook import Gradebook
from autograder.report.batch import grade_class

HOSTILE = "<b>=1+1 [x](y) &amp;"


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory, course: Course) -> Path:
    assignment = course.assignment("vectors")
    correct = (assignment.sample_class / "correct_vectorised.py").read_text()
    buggy = (assignment.sample_class / "bug_normalise_by_sum.py").read_text()
    klass = tmp_path_factory.mktemp("class")
    (klass / "ada.py").write_text(correct)
    (klass / "ben").mkdir()
    (klass / "ben" / "vectors.py").write_text(buggy)
    with zipfile.ZipFile(klass / "cy.zip", "w") as archive:
        archive.writestr("cy/vectors.py", correct)
    cells = [{"cell_type": "code", "source": correct, "metadata": {}, "outputs": [],
              "execution_count": None}]  # fmt: skip
    book = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (klass / "dee.ipynb").write_text(json.dumps(book))
    (klass / f"{HOSTILE}.py").write_text(buggy)
    (klass / "eve.ipynb").write_text("{not a notebook")
    folder = tmp_path_factory.mktemp("out")
    items = discover([klass], module=assignment.spec.module)
    grade_class(assignment, items, out=folder, jobs=2)
    return folder


def _run(*argv: str) -> tuple[int, str]:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = main(list(argv))
    return code, printed.getvalue()


STUDENTS = ["ada", "ben", "cy", "dee", "eve", HOSTILE]


def test_feedback_for_every_kind_of_submission(out: Path, course: Course) -> None:
    target = out / "feedback"
    code, printed = _run("feedback", str(out), "--out", str(target), "--assignment", "vectors",
                         "--course", str(course.root))  # fmt: skip
    assert code == 0 and "feedback for 6 students (HTML, Markdown)" in printed
    for student in STUDENTS:
        page = feedback_path(target, "vectors", student).read_text()
        assert feedback_path(target, "vectors", student, ".md").is_file()
        assert "<b>=1+1" not in page
    ada = feedback_path(target, "vectors", "ada").read_text()
    assert (
        "Score so far (tests shown now): 8 of 8 points; 2 more points" in ada
        and "2 more tests (2 points)" in ada
    )
    assert "could not be graded" in feedback_path(target, "vectors", "eve").read_text()
    ben = feedback_path(target, "vectors", "ben", ".md").read_text()
    assert (
        "**What to fix first:** your results match" in ben
        and "Score so far (tests shown now):" in ben
    )
    assert ben.count("divides by the sum of the entries") == 2  # normalise's, and cosine's
    assert "(same cause as above)" in ben
    after = out / "after"
    _run("feedback", str(out), "--out", str(after), "--after-due", "--course", str(course.root))
    # the final grade is out of the assignment's 12 points: 10 automatic, 2 written
    assert "Score: 10 of 12 points" in feedback_path(after, "vectors", "dee").read_text()


def test_every_kind_of_submission_keeps_its_source(out: Path, course: Course) -> None:
    with Gradebook(out) as book:
        sources = book.sources("vectors")
    assert sorted(sources) == sorted(set(STUDENTS) - {"eve"})  # eve's notebook does not parse
    assert sources["ada"] == sources["cy"] and "def normalise" in sources["dee"]
    page = out / "similarity.html"
    code, printed = _run("similarity", str(out), "--html", str(page), "--assignment", "vectors",
                         "--course", str(course.root))  # fmt: skip
    assert code == 0 and "5 submissions of vectors compared" in printed
    assert "; the closest pair under it: " in printed.splitlines()[0]  # how near the rest came
    text = page.read_text()
    assert "ada (100%) and cy (100%)" in text and "<b>=1+1" not in text


def test_the_report_links_each_student_to_their_feedback(out: Path, course: Course) -> None:
    _run("feedback", str(out), "--out", str(out / "fb"), "--course", str(course.root))
    report = out / "report" / "vectors.html"
    report.parent.mkdir(exist_ok=True)
    code, _ = _run("report", str(out), "--html", str(report), "--assignment", "vectors",
                   "--feedback", str(out / "fb"), "--course", str(course.root))  # fmt: skip
    assert code == 0
    page = report.read_text()
    links = re.findall(r"href='([^']+)'", page)
    assert len([link for link in links if link.endswith(".html")]) >= len(STUDENTS)
    for link in links:
        if link.startswith("#"):  # the table of contents: a section of the page itself
            assert f"<section id='{link[1:]}'" in page, link
            continue
        assert (report.parent / unquote(unescape(link))).resolve().is_file(), link
    assert "<b>=1+1" not in page and "&lt;b&gt;=1+1 [x](y) &amp;amp;" in page
    tally = page[page.index("<section id='misconceptions'") :]
    assert "<td>2</td><td>normalise_by_sum</td><td>divides by the sum of the entries</td>" in tally


def test_lms_csv_for_the_class(out: Path, course: Course, tmp_path: Path) -> None:
    roster = tmp_path / "roster.csv"
    roster.write_text(
        "student_id,name,email,submission\n1,Ada,a@x,ada\n2,Ben,b@x,ben\n3,Zoe,z@x,zoe\n"
    )
    target = tmp_path / "grades.csv"
    code, printed = _run("gradebook", str(out), "--lms", "csv", "--roster", str(roster),
                         "--out", str(target), "--course", str(course.root))  # fmt: skip
    assert code == 0
    assert f"4 submission(s) match no roster line (not in the file): {HOSTILE}, cy, dee, eve" \
        in printed  # fmt: skip
    assert "1 roster student(s) without any graded submission (a blank cell): Zoe (3)" in printed
    assert "(no column) for: series" in printed  # the course's other assignment, not graded
    rows = list(csv.reader(target.open(newline="")))
    assert rows[0][-1] == course.rubric.assignment("vectors").title  # one column per graded one
    # vectors' written answer is left as released in these submissions: no answer, 0 points,
    # and nothing for a TA to wait on, so the automatic points are the whole grade; Zoe has none
    assert [row[-1] for row in rows[1:]] == ["10", "6", ""]
    assert "left blank until their written answers are graded" not in printed


def test_the_commands_refuse_what_they_cannot_use(tmp_path: Path, course: Course) -> None:
    assert main(["feedback", str(tmp_path), "--out", str(tmp_path / "f"),
                 "--course", str(course.root)]) == 2  # fmt: skip
    assert main(["gradebook", str(tmp_path), "--lms", "canvas",
                 "--course", str(course.root)]) == 2  # fmt: skip
