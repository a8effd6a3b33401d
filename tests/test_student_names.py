"""Names the kit must keep apart in every file it writes: a non-ASCII name, a classmate who
submits under that name's spelling with a digest (as the kit once spelt such names), and a name
of 251 UTF-8 bytes. Each gets its own result file and feedback page, and the report links each
to its own page."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote

import pytest

from autograder.cli import main
from autograder.course.assignment import Assignment

VICTIM = "Zoë Ångström"
LOOK_ALIKE = "Zoë Ångström-d91ffefba54d6c10"
LONG_NAME = "a" + "語" * 83 + "b"
SUBMITS = {
    VICTIM: "correct_vectorised",
    LOOK_ALIKE: "bug_normalise_by_sum",
    LONG_NAME: "bug_normalise_by_sum",
}
SCORES = {VICTIM: "10", LOOK_ALIKE: "6", LONG_NAME: "6"}


def test_names_that_would_share_a_file_each_get_their_own(
    tmp_path: Path,
    assignment: Assignment,
    make_class: Callable[[Path, dict[str, str]], Path],
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert len(LONG_NAME.encode()) == 251
    folder = make_class(tmp_path / "class", SUBMITS)
    out, feedback, course = tmp_path / "out", tmp_path / "feedback", assignment.course.root
    chosen = ["--course", str(course), "--assignment", assignment.name]
    assert main(["grade", str(folder), "--out", str(out), "--jobs", "2", *chosen]) == 0
    assert len(list((out / assignment.name).glob("*.results.json"))) == 3
    shown = ["--after-due", "--course", str(course)]
    assert main(["feedback", str(out), "--out", str(feedback), *shown]) == 0
    pages = sorted((feedback / assignment.name).glob("*.html"))
    assert len(pages) == 3 and all(len(p.name.encode()) <= 255 for p in pages)
    scores = {}
    for page in pages:
        text = page.read_text(encoding="utf-8")
        owner = next(name for name in SUBMITS if f">{name}<" in text)
        scores[owner] = re.search(r"Score: ([\d.]+) of ", text)[1]  # type: ignore[index]
    assert scores == SCORES
    report = tmp_path / "report.html"
    assert main(["report", str(out), "--html", str(report), "--feedback", str(feedback)]) == 0
    links = {
        unquote(html.unescape(link)) for link in re.findall(r"href='([^']+)'", report.read_text())
    }
    assert {(report.parent / link).resolve() for link in links} >= {p.resolve() for p in pages}
    capsys.readouterr()
