"""The final grade (autograder/after_grading/final_grade.py): one definition, read when grades
are read. Lateness comes from the rubric and extensions as they are at that moment, never from
what `grade` recorded, and the gradebook CSV, the LMS file, the feedback and the class report
show the same number: automatic points with overrides, plus written answers, less a penalty that
is a share of the assignment's full points (10 automatic + 2 written in the fixture's `vectors`).
"""

from __future__ import annotations

import contextlib
import csv
import io
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

import pytest
from manual_class import result

from autograder.after_grading.final_grade import final_grade
from autograder.after_grading.student_feedback import feedback_path
from autograder.cli import main
from autograder.course.course import Course
from autograder.course.extensions import Extension
from autograder.course.rubric import AssignmentSpec, LatePolicy
from autograder.grading.batch import late_penalty
from autograder.grading.gradebook import FILE_NAME, Entry, Gradebook, attempt_key, merge
from autograder.manual.totals import ManualMark, Totals

UTC = timezone.utc
DUE = datetime(2026, 12, 1, 23, 59, tzinfo=UTC)
TWO_DAYS_LATE = "2026-12-03T08:00:00+00:00"  # 1 day 8 hours past DUE: two started days
ON_TIME = "2026-12-01T12:00:00+00:00"
LATE = '\n[assignments.vectors.late]\ndue = "2026-12-01T23:59:00Z"\npenalty_per_day = {per_day}\n'


def _entry(student: str, at: str, penalty: float = 0.0) -> Entry:
    when = datetime.fromisoformat(at)
    return Entry(student, f"hash-{student}", "run", result(student), penalty, at, "k",
                 attempt_key(when))  # fmt: skip


def _written(points: float | None) -> tuple[ManualMark, ...]:
    return (ManualMark("why_unit", "Why unit vectors", 2.0, points),)


def _totals(entry: Entry, points: float | None, automatic: float | None = None) -> Totals:
    return Totals(
        student=entry.student,
        status="graded",
        automatic=entry.result.score if automatic is None else automatic,
        automatic_max=10.0,
        late_penalty=0.0,  # what manual/ knew of lateness: the final grade reads none of it
        manual=_written(points),
    )


# the definition, on hand-made grades ------------------------------------------------------


def test_the_penalty_is_a_share_of_the_full_points_off_the_whole_grade(
    spec: AssignmentSpec,
) -> None:
    rubric = replace(spec, late=LatePolicy(DUE, penalty_per_day=10, cutoff_days=3))
    ada = _entry("ada", TWO_DAYS_LATE)  # 10 automatic points
    grade = final_grade(ada, rubric, _totals(ada, 2.0))
    assert (grade.earned, grade.maximum, grade.days_late) == (12.0, 12.0, 2)
    # 10% of the 12 points (automatic and written) a day, off the 12 earned
    assert (grade.late_penalty, grade.final) == (2.4, 9.6)
    # a written answer not graded yet counts 0 (and is named), the penalty is the same
    waiting = final_grade(ada, rubric, _totals(ada, None))
    assert (waiting.earned, waiting.late_penalty, waiting.final) == (10.0, 2.4, 7.6)
    assert [mark.part for mark in waiting.ungraded] == ["why_unit"]
    # never more than what was earned
    low = final_grade(ada, rubric, _totals(ada, 0.0, automatic=1.0))
    assert (low.late_penalty, low.final) == (1.0, 0.0)
    # past the cut-off, all of it
    gone = final_grade(_entry("ada", "2026-12-05T08:00:00+00:00"), rubric, _totals(ada, 2.0))
    assert (gone.days_late, gone.past_cutoff, gone.late_penalty, gone.final) == (4, True, 12, 0)
    # the student's own due date: on time by it
    extended = replace(rubric, late=replace(rubric.late, extensions=(  # type: ignore[type-var]
        Extension("ada", datetime(2026, 12, 3, 23, 59, tzinfo=UTC)),)))  # fmt: skip
    assert final_grade(ada, extended, _totals(ada, 2.0)).final == 12.0
    # no late policy: no penalty
    assert final_grade(ada, replace(rubric, late=None), _totals(ada, 2.0)).final == 12.0


def test_the_recorded_penalty_is_never_read(spec: AssignmentSpec) -> None:
    rubric = replace(spec, late=LatePolicy(DUE, penalty_per_day=10))
    recorded = _entry("ada", ON_TIME, penalty=7.0)  # as if graded under a harsher policy
    assert final_grade(recorded, rubric, _totals(recorded, 2.0)).final == 12.0
    # and `grade` records the same share of the full points on the automatic points alone
    late = datetime.fromisoformat(TWO_DAYS_LATE)
    assert late_penalty(result("ada"), late, rubric.late, "ada", written_max=2.0) == 2.4


# the commands, on a graded class ----------------------------------------------------------


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def graded(tmp_path: Path, course_copy: Course) -> tuple[Course, Path]:
    """ada (10 automatic points, two days late) and ben (6, on time) graded under 10% a day
    with no extension, as `grade` would have recorded them; their written answers graded 2
    and 1 by people."""
    rubric = course_copy.root / "grading.toml"
    text = rubric.read_text(encoding="utf-8") + LATE.format(per_day=10)
    rubric.write_text(text + 'extensions = "extensions.csv"\n', encoding="utf-8")
    (course_copy.root / "extensions.csv").write_text("student,extra_days,reason\n")
    course = Course.load(course_copy.root)
    spec = course.rubric.assignment("vectors")
    out = tmp_path / "out"
    with Gradebook(out) as book:
        book.bind(assignment="vectors", rubric_hash=course.assignment("vectors").grading_hash())
        for entry in (_entry("ada", TWO_DAYS_LATE), _entry("ben", ON_TIME)):
            when = datetime.fromisoformat(str(entry.submitted_at))
            penalty = late_penalty(entry.result, when, spec.late, entry.student, written_max=2)
            entry = replace(entry, late_penalty=penalty)
            book.record(entry, rubric_hash=book.assignments()["vectors"], kit_version="k")
    from autograder.manual.store import ManualStore

    with ManualStore(out) as store:
        for student, attempt in (("ada", TWO_DAYS_LATE), ("ben", ON_TIME)):
            key = attempt_key(datetime.fromisoformat(attempt))
            store.record_answers("vectors", student, {"why_unit": "the direction"}, key)
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(
        "assignment,student,part,points,comment\nvectors,ada,why_unit,2,\nvectors,ben,why_unit,1,\n"
    )
    assert _run("manual", "import", str(out), str(sheet), "--course", str(course.root))[0] == 0
    return course, out


def _everywhere(course: Course, out: Path, tmp_path: Path) -> dict[str, dict[str, str]]:
    """Each student's grade as each output shows it, read now: the gradebook CSV's
    final_score and late_penalty, the Canvas file's cell, the feedback's headline."""
    root = ("--course", str(course.root))
    tmp_path.mkdir()
    table = tmp_path / "grades.csv"
    assert _run("gradebook", str(out), "--csv", str(table), *root)[0] == 0
    rows = {r["student"]: r for r in csv.DictReader(table.open(newline=""))}
    roster = tmp_path / "roster.csv"
    roster.write_text("student_id,name,submission\n1,Ada,ada\n2,Ben,ben\n")
    canvas = tmp_path / "canvas.csv"
    lms = ("--lms", "canvas", "--roster", str(roster), "--out", str(canvas))
    assert _run("gradebook", str(out), *lms, *root)[0] == 0
    cells = {row[1]: row[-1] for row in list(csv.reader(canvas.open(newline="")))[2:]}
    feedback = tmp_path / "feedback"
    assert _run("feedback", str(out), "--out", str(feedback), "--after-due", *root)[0] == 0
    seen = {}
    for student, number in (("ada", "1"), ("ben", "2")):
        page = feedback_path(feedback, "vectors", student, ".md").read_text(encoding="utf-8")
        headline = page.split("**Score: ", 1)[1].split(" of ", 1)[0]
        seen[student] = {
            "final_score": rows[student]["final_score"],
            "late_penalty": rows[student]["late_penalty"],
            "due": rows[student]["due"],
            "lms": cells[number],
            "feedback": headline,
            "page": page,
        }
    return seen


def test_an_extension_or_a_new_policy_shows_everywhere_without_grading_again(
    graded: tuple[Course, Path], tmp_path: Path
) -> None:
    course, out = graded
    before = _everywhere(course, out, tmp_path / "before")
    ada, ben = before["ada"], before["ben"]
    # 10 + 2 earned, less 10% of 12 a day for two days; the same number in every output
    assert (ada["final_score"], ada["late_penalty"], ada["lms"], ada["feedback"]) == (
        "9.6", "2.4", "9.6", "9.6",
    )  # fmt: skip
    assert (
        "Late penalty: 2.4 points off 12 (2 days late at 10% of the 12 points a day); final "
        "score 9.6." in ada["page"]
    )
    assert (ben["final_score"], ben["lms"], ben["feedback"]) == ("7.0", "7", "7")

    # an extension added to extensions.csv, and nothing graded again
    (course.root / "extensions.csv").write_text("student,extra_days,reason\nada,2,illness\n")
    now = _everywhere(course, out, tmp_path / "extended")["ada"]
    assert (now["final_score"], now["late_penalty"], now["lms"], now["feedback"]) == (
        "12.0", "0.0", "12", "12",
    )  # fmt: skip
    assert now["due"] == "2026-12-03T23:59:00+00:00"
    assert "Late penalty" not in now["page"] and "(your extension)" in now["page"]
    with Gradebook(out) as book:  # reading brought the recorded penalty up to date too
        assert [(e.student, e.run_id, e.late_penalty) for e in book.entries("vectors")] == [
            ("ada", "run", 0.0), ("ben", "run", 0.0)]  # fmt: skip

    # the extension withdrawn and the rubric's late policy changed: 25% of 12 a day
    (course.root / "extensions.csv").write_text("student,extra_days,reason\n")
    rubric = course.root / "grading.toml"
    rubric.write_text(rubric.read_text().replace("penalty_per_day = 10", "penalty_per_day = 25"))
    harsher = _everywhere(Course.load(course.root), out, tmp_path / "harsher")["ada"]
    assert (harsher["final_score"], harsher["late_penalty"], harsher["lms"]) == ("6.0", "6.0", "6")
    assert harsher["feedback"] == "6"


def test_the_class_report_shows_the_same_final_grade(
    graded: tuple[Course, Path], tmp_path: Path
) -> None:
    course, out = graded
    (course.root / "extensions.csv").write_text("student,extra_days,reason\nada,2,illness\n")
    report = tmp_path / "report.html"
    assert _run("report", str(out), "--html", str(report), "--course", str(course.root))[0] == 0
    page = report.read_text(encoding="utf-8")
    assert "<td>ada</td><td>10 / 10</td><td></td><td>why_unit: 2</td><td></td><td>12 / 12</td>" in (
        page
    )
    assert "final score (of 12)" in page


def test_a_report_without_the_course_says_its_penalties_are_as_recorded(
    graded: tuple[Course, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, out = graded
    monkeypatch.chdir(tmp_path)  # no grading.toml here or above
    report = tmp_path / "report.html"
    code, _, err = _run("report", str(out), "--html", str(report))
    assert code == 0
    assert "vectors: no course describes it here" in err
    assert "late penalties (as the last grade run recorded them)" in report.read_text()


def test_grades_made_under_other_tests_are_named_when_read(
    graded: tuple[Course, Path], tmp_path: Path
) -> None:
    course, out = graded
    with Gradebook(out) as book:
        book.record(_entry("ben", ON_TIME), rubric_hash="an earlier rubric", kit_version="k")
    code, _, err = _run("gradebook", str(out), "--csv", str(tmp_path / "g.csv"),
                        "--course", str(course.root))  # fmt: skip
    assert code == 0
    assert (
        "vectors: 1 student(s) were graded under other tests, reference or rubric than the "
        "course's now; run `autograder grade ... --out" in err
    )


def test_shards_that_saw_different_extensions_merge(tmp_path: Path) -> None:
    """A recorded penalty is not part of the grade: two shards that hold one student alike
    but for the penalty their extension files gave merge (the merged one is read again)."""
    for folder, penalty in (("one", 2.4), ("two", 0.0)):
        with Gradebook(tmp_path / folder) as book:
            book.bind(assignment="vectors", rubric_hash="r")
            entry = _entry("ada", TWO_DAYS_LATE, penalty)
            entry = replace(entry, result=replace(entry.result, late_penalty=penalty))
            book.record(entry, rubric_hash="r", kit_version="k")
    assert merge([tmp_path / "one", tmp_path / "two"], tmp_path / "merged") == 1
    assert (tmp_path / "merged" / FILE_NAME).is_file()
