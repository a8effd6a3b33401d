"""Whole classes: resume after a kill, shards that merge into the one-shot gradebook, lateness,
manifests, CSV export and the class report."""

from __future__ import annotations

import csv
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import datetime, timezone
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import pytest

from autograder.cli import main
from autograder.course.assignment import Assignment
from autograder.course.course import Course
from autograder.course.rubric import AssignmentSpec, LatePolicy
from autograder.errors import ConfigError
from autograder.grading.batch import Item, discover, late_penalty, shard
from autograder.grading.gradebook import FILE_NAME, Gradebook, merge
from autograder.grading.results import SubmissionResult
from autograder.report.batch import grade_class
from autograder.report.html import SECTIONS, render_class_report


@pytest.fixture
def small_class(tmp_path: Path, make_class: Callable[[Path, dict[str, str]], Path]) -> Path:
    """Six submissions: correct, buggy, and one that loops."""
    return make_class(tmp_path / "class", {
        "ada": "correct_vectorised", "ben": "correct_vectorised", "cy": "bug_normalise_by_sum",
        "dan": "hostile_infinite_loop", "eve": "correct_vectorised", "fay": "bug_normalise_by_sum",
    })  # fmt: skip


def rows(out: Path) -> list[tuple[str, str, float]]:
    """The recorded submissions; none while the grader is still creating the gradebook."""
    with sqlite3.connect(out / FILE_NAME) as db:
        try:
            return sorted(db.execute("SELECT student, run_id, score FROM submissions").fetchall())
        except sqlite3.OperationalError:  # the file exists, its tables not yet
            return []


def test_a_killed_batch_resumes_without_losing_or_repeating(
    small_class: Path, tmp_path: Path, course: Course
) -> None:
    out = tmp_path / "out"
    command = [
        sys.executable,
        "-m",
        "autograder",
        "grade",
        str(small_class),
        "--out",
        str(out),
        "--jobs",
        "2",
        "--course",
        str(course.root),
        "--assignment",
        "vectors",
    ]
    first = subprocess.Popen(
        command, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not (out / FILE_NAME).exists() or len(rows(out)) < 2):
        time.sleep(0.2)
    os.killpg(first.pid, signal.SIGKILL)
    first.wait()
    before = rows(out)
    assert 2 <= len(before) < 6, "the kill should land mid-batch"
    second = subprocess.run(command, capture_output=True, text=True, check=True)
    after = rows(out)
    assert [student for student, _, _ in after] == sorted(p.stem for p in small_class.iterdir())
    assert {r for r in after if r[0] in {b[0] for b in before}} == set(before)  # not regraded
    assert (
        f"{len(before)} submission(s) already graded with this rubric: current, not graded again"
        in second.stdout
    )
    assert len({run for student, run, _ in after if student not in {b[0] for b in before}}) == 1


def test_shards_merge_into_the_one_shot_gradebook(
    small_class: Path, tmp_path: Path, assignment: Assignment, spec: AssignmentSpec
) -> None:
    items = discover([small_class], module=spec.module)
    parts = [shard(items, i, 2) for i in (1, 2)]
    assert sorted(i.student for p in parts for i in p) == sorted(i.student for i in items)
    assert parts == [shard(items, i, 2) for i in (1, 2)]  # deterministic
    for number, part in enumerate(parts, start=1):
        grade_class(assignment, part, out=tmp_path / f"shard{number}", jobs=2)
    merge([tmp_path / "shard1", tmp_path / "shard2"], tmp_path / "merged")
    grade_class(assignment, items, out=tmp_path / "whole", jobs=2)
    with Gradebook(tmp_path / "merged") as merged, Gradebook(tmp_path / "whole") as whole:

        def summary(book: Gradebook) -> list[tuple[str, float, tuple[tuple[str, float], ...]]]:
            return [
                (e.student, e.final_score, tuple((t.nodeid, t.score) for t in e.result.tests))
                for e in book.entries()
            ]

        assert summary(merged) == summary(whole)
        assert merged.assignments() == whole.assignments() == {"vectors": assignment.grading_hash()}
    with sqlite3.connect(tmp_path / "shard2" / FILE_NAME) as db:
        db.execute("UPDATE assignments SET rubric_hash = 'another'")
    with pytest.raises(ConfigError, match="graded vectors under another rubric"):
        merge([tmp_path / "shard1", tmp_path / "shard2"], tmp_path / "refused")


def test_late_policy() -> None:
    policy = LatePolicy(due=datetime(2026, 12, 1, 23, 59, tzinfo=timezone.utc), grace_minutes=10,
                        penalty_per_day=10, cutoff_days=3)  # fmt: skip
    result = SubmissionResult(
        assignment="a",
        submission="s",
        status="graded",
        score=90.0,
        max_score=100.0,
        isolation=(),
        duration_s=1.0,
    )
    at = lambda text: datetime.fromisoformat(text)  # noqa: E731
    assert late_penalty(result, at("2026-12-02T00:05:00+00:00"), policy) == 0  # within grace
    assert late_penalty(result, at("2026-12-02T00:10:00+00:00"), policy) == 10  # one day started
    assert late_penalty(result, at("2026-12-04T12:00:00+00:00"), policy) == 30
    assert late_penalty(result, at("2026-12-05T12:00:00+00:00"), policy) == 90  # past the cut-off
    assert late_penalty(result, None, policy) == 0


def test_manifest_late_penalty_and_csv(
    small_class: Path, tmp_path: Path, course_copy: Course
) -> None:
    rubric = course_copy.root / "grading.toml"
    late = '[assignments.vectors.late]\ndue = "2026-12-01T23:59:00+00:00"\n'
    rubric.write_text(rubric.read_text() + "\n" + late + "penalty_per_day = 10\n")
    manifest = tmp_path / "manifest.csv"
    manifest.write_text(
        "student_id,path,submitted_at\n"
        f"ada,{small_class / 'ada.py'},2026-12-01T12:00:00+00:00\n"
        f"ben,{small_class / 'ben.py'},2026-12-03T08:00:00+00:00\n"
    )
    out = tmp_path / "out"
    assert (
        main(
            [
                "grade",
                "--manifest",
                str(manifest),
                "--out",
                str(out),
                "--course",
                str(course_copy.root),
                "--assignment",
                "vectors",
                "--jobs",
                "2",
            ]
        )
        == 0
    )
    assert (
        main(
            [
                "gradebook",
                str(out),
                "--csv",
                str(tmp_path / "grades.csv"),
                "--course",
                str(course_copy.root),
            ]
        )
        == 0
    )
    with (tmp_path / "grades.csv").open() as handle:
        table = {row["student"]: row for row in csv.DictReader(handle)}
    assert (table["ada"]["late_penalty"], table["ada"]["final_score"]) == ("0.0", "10.0")
    # two days late: 10% a day of the assignment's 12 points (10 automatic, 2 written)
    assert (table["ben"]["late_penalty"], table["ben"]["final_score"]) == ("2.4", "7.6")
    assert table["ben"]["numeric"] == "6.0" and table["ben"]["submitted_at"].startswith(
        "2026-12-03"
    )
    assert '"score": 8.0' in (out / "vectors" / "ben.results.json").read_text()  # shown now
    assert '"late_penalty": 2.4' in (out / "vectors" / "ben.json").read_text()


def test_discover_rules(tmp_path: Path, course: Course, spec: AssignmentSpec) -> None:
    single = tmp_path / "one"
    single.mkdir()
    (single / spec.module).write_text("x = 1\n")
    assert discover([single], module=spec.module) == [Item("one", single)]
    notebook = tmp_path / "gil"
    notebook.mkdir()
    (notebook / "work.ipynb").write_text("{}")
    assert discover([notebook], module=spec.module) == [Item("gil", notebook)]
    klass = tmp_path / "class"
    (klass / "dan").mkdir(parents=True)
    (klass / "eve.py").write_text("")
    (klass / "fay.ipynb").write_text("{}")
    (klass / ".hidden").write_text("")
    (klass / "notes.txt").write_text("")
    assert [i.student for i in discover([klass], module=spec.module)] == ["dan", "eve", "fay"]
    (klass / "eve.zip").write_text("")
    with pytest.raises(ConfigError, match="two submissions for the same student: eve"):
        discover([klass], module=spec.module)


class _Sections(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.sections: list[str] = []
        self.images: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "section":
            self.sections.append(values.get("id") or "")
        if tag == "img":
            self.images.append(values.get("src") or "")


def test_the_class_report_has_every_section_and_plot(
    small_class: Path, tmp_path: Path, assignment: Assignment, spec: AssignmentSpec
) -> None:
    out = tmp_path / "out"
    grade_class(assignment, discover([small_class], module=spec.module), out=out, jobs=2)
    assert main(["report", str(out), "--html", str(tmp_path / "report.html")]) == 0
    page = (tmp_path / "report.html").read_text()
    parser = _Sections()
    parser.feed(page)
    assert tuple(parser.sections) == SECTIONS
    assert len(parser.images) == 3
    assert all(
        re.fullmatch(r"data:image/png;base64,[A-Za-z0-9+/=]{2000,}", src) for src in parser.images
    )
    assert "divides by the sum of the entries" in page
    assert "http" not in page.replace("http-equiv", "")
    with Gradebook(out) as book:
        assert "fay" in render_class_report(book.entries(), title="t")


def test_the_grading_command_leaves_the_numerical_libraries_to_its_runners(
    tmp_path: Path, course: Course, assignment: Assignment
) -> None:
    """The process that hands out submissions and keeps the gradebook never imports numpy,
    sympy or pytest: its runners do. Importing them cost it about 0.4 s of CPU, on the cores
    the runners need, and about 50 MiB of the batch's peak memory."""
    sample = assignment.sample_class / "correct_vectorised.py"
    probe = (
        "import sys\n"
        "from autograder.cli import main\n"
        f"code = main(['grade', {str(sample)!r}, '--out', {str(tmp_path / 'out')!r},\n"
        f"             '--course', {str(course.root)!r}, '--format', 'json',\n"
        "             '--assignment', 'vectors'])\n"
        "print(code, sorted(m for m in ('numpy', 'sympy', 'pytest') if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.splitlines()[-1] == "0 []", done.stdout + done.stderr
    assert (tmp_path / "out" / "vectors" / "correct_vectorised.json").is_file()


def test_one_gradebook_holds_every_assignment_side_by_side(
    tmp_path: Path, course: Course, make_class: Callable[[Path, dict[str, str]], Path]
) -> None:
    """Two assignments graded into one --out folder: one gradebook with both assignments'
    rows, result files in a folder per assignment, one CSV row per student with each
    assignment's columns, a report per assignment; regrading one leaves the other's rows."""
    out, series = tmp_path / "out", course.assignment("series")
    vectors_class = make_class(
        tmp_path / "v", {"ada": "correct_vectorised", "ben": "bug_normalise_by_sum"}
    )
    series_class = tmp_path / "s"
    series_class.mkdir()
    shutil.copy(series.sample_class / "correct_loops.py", series_class / "ada.py")
    shutil.copy(series.sample_class / "bug_sums_exclusive.py", series_class / "cy.py")
    for name, folder in (("vectors", vectors_class), ("series", series_class)):
        command = ["grade", str(folder), "--out", str(out), "--course", str(course.root),
                   "--assignment", name, "--jobs", "2"]  # fmt: skip
        assert main(command) == 0
    with Gradebook(out) as book:
        assert set(book.assignments()) == {"vectors", "series"}
        assert [(e.assignment, e.student, e.final_score) for e in book.entries()] == [
            ("series", "ada", 10.0), ("series", "cy", 6.0),
            ("vectors", "ada", 10.0), ("vectors", "ben", 6.0),
        ]  # fmt: skip
    assert (out / "vectors" / "ada.json").is_file() and (out / "series" / "ada.json").is_file()
    table_file = tmp_path / "grades.csv"
    assert (
        main(["gradebook", str(out), "--csv", str(table_file), "--course", str(course.root)]) == 0
    )
    with table_file.open() as handle:
        table = {row["student"]: row for row in csv.DictReader(handle)}
    assert (table["ada"]["series:score"], table["ada"]["vectors:score"]) == ("10.0", "10.0")
    assert (table["ben"]["series:score"], table["ben"]["vectors:numeric"]) == ("", "2.0")
    assert (table["cy"]["series:sums"], table["cy"]["vectors:status"]) == ("2.0", "")
    reports = tmp_path / "reports"
    assert main(["report", str(out), "--html", str(reports)]) == 0
    assert sorted(p.name for p in reports.iterdir()) == ["series.html", "vectors.html"]
    command = ["grade", str(series_class), "--out", str(out), "--course", str(course.root),
               "--assignment", "series", "--regrade", "--jobs", "1"]  # fmt: skip
    assert main(command) == 0
    with Gradebook(out) as book:
        assert [e.student for e in book.entries("vectors")] == ["ada", "ben"]


class _FullDisk:
    """A gradebook whose disk is full for its first `full_for` writes."""

    def __init__(self, full_for: int) -> None:
        self.full_for = full_for
        self.tries = 0
        self.recorded: list[object] = []

    def record(self, entry: object, **_: object) -> None:
        self.tries += 1
        if self.tries <= self.full_for:
            raise sqlite3.OperationalError("database or disk is full")
        self.recorded.append(entry)


def test_a_gradebook_write_waits_for_room_and_never_stops_the_batch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from autograder.grading import batch

    monkeypatch.setattr(batch, "DISK_FULL_RETRIES_S", (0.0, 0.0, 0.0))
    entry = SimpleNamespace(student="ada")
    book = _FullDisk(full_for=2)  # a slot filled the disk; it is removed before the third try
    assert batch.record_when_there_is_room(book, entry, "rubric", None) is None  # type: ignore[arg-type]
    assert book.tries == 3 and book.recorded == [entry]
    stuck = _FullDisk(full_for=99)
    problem = batch.record_when_there_is_room(stuck, entry, "rubric", None)  # type: ignore[arg-type]
    assert stuck.tries == 4 and problem is not None
    assert problem.startswith("ada: not recorded, the disk of the gradebook is full")
    assert "run grade again" in problem
