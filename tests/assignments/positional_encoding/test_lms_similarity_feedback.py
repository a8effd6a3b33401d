"""After grading the sample class: the LMS files for a made-up roster, each student's feedback,
and the similarity check with two disguised copies added to the class.

The LMS files are checked against the import formats as the LMSs document them:

- Canvas, "How do I import grades in the Gradebook?" (Canvas Instructor Guide,
  https://community.canvaslms.com/t5/Instructor-Guide/How-do-I-import-grades-in-the-Gradebook/ta-p/807)
  and a university's step-by-step version of it (https://teaching.resources.osu.edu/toolsets/
  carmencanvas/guides/calculating-final-grades/import-csv-file-carmen-grades): a CSV whose
  header holds Student, ID, SIS User ID, SIS Login ID and Section, then one column per
  assignment; an optional second row "Points Possible"; a student is found by their name, ID or
  SIS User ID; a blank score changes nothing.
- Moodle, "Grade import" (https://docs.moodle.org/en/Grade_import) and its importer,
  grade/import/csv/classes/load_data.php: a header row, then one row per user; the column
  chosen under "Identify user by" (user id, ID number, e-mail or username) must name an
  existing user on every row or the whole import stops; a grade is empty or "-" (no grade) or a
  number (unformat_float), and not above the grade item's maximum.
"""

from __future__ import annotations

import contextlib
import csv
import io
import re
import shutil
from html import escape
from pathlib import Path

import pytest

from autograder.after_grading.similarity import compare
from autograder.after_grading.student_feedback import feedback_path, write_feedback
from autograder.authoring.sample_class import sample_class
from autograder.cli import main
from autograder.course.assignment import Assignment
from autograder.course.course import Course
from autograder.grading.gradebook import Entry, Gradebook
from autograder.grading.results import SubmissionResult

HERE = Path(__file__).resolve().parent
ROSTER = HERE / "roster.csv"
COPIES = HERE / "disguised_copies"
FORMULA_START = ("=", "+", "-", "@")


@pytest.fixture(scope="module")
def out(
    tmp_path_factory: pytest.TempPathFactory,
    graded: dict[str, SubmissionResult],
    assignment: Assignment,
) -> Path:
    """A gradebook of the sample class (as `grade --out` records it, sources included)."""
    folder = tmp_path_factory.mktemp("out")
    with Gradebook(folder) as book:
        book.bind(assignment=assignment.name, rubric_hash="h")
        sources = {s.name: s.source for s in sample_class(assignment)}
        for name, result in sorted(graded.items()):
            source = sources[name]
            entry = Entry(name, "c", "r", result, 0.0, None, "k")
            book.record(entry, rubric_hash="h", kit_version="k", source=source)
    return folder


def _run(*argv: str) -> tuple[int, str]:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = main(list(argv))
    return code, printed.getvalue()


def canvas_problems(rows: list[list[str]], students: int) -> list[str]:
    """What Canvas's gradebook import would refuse or misread in `rows` (its documented format)."""
    problems = []
    head = rows[0]
    for column in ("Student", "ID", "SIS User ID", "SIS Login ID", "Section"):
        if column not in head:
            problems.append(f"no {column} column")
    if problems:
        return problems
    assignments = [i for i, h in enumerate(head) if i >= 5]
    if not assignments:
        problems.append("no assignment column")
    body = rows[1:]
    if body and body[0][0].strip() == "Points Possible":
        for i in assignments:
            if not re.fullmatch(r"\d+(\.\d+)?", body[0][i]):
                problems.append(f"points possible of {head[i]!r} is {body[0][i]!r}")
        body = body[1:]
    if len(body) != students:
        problems.append(f"{len(body)} student rows, expected {students}")
    for number, row in enumerate(body, start=2):
        if len(row) != len(head):
            problems.append(f"row {number} has {len(row)} cells")
            continue
        if not (row[0] or row[1] or row[2]):
            problems.append(f"row {number} names no student (name, ID or SIS User ID)")
        for i in assignments:
            if row[i] and not re.fullmatch(r"\d+(\.\d+)?", row[i]):
                problems.append(f"row {number}: score {row[i]!r} is not a number")
    return problems


def moodle_problems(
    rows: list[list[str]], identifier: str, known: set[str], maximum: float
) -> list[str]:
    """What Moodle's CSV grade import would refuse in `rows`, identifying users by the column
    `identifier`, given the users it knows (`known`) and each grade item's maximum."""
    head = rows[0]
    if identifier not in head:
        return [f"no {identifier} column to identify users by"]
    where = head.index(identifier)
    problems = []
    for number, row in enumerate(rows[1:], start=2):
        if len(row) <= 1:
            continue  # Moodle skips a line with no data
        if row[where] not in known:
            problems.append(f"row {number}: no user with {identifier} {row[where]!r}")
        for i, cell in enumerate(row):
            if i < 3 or cell in ("", "-"):
                continue
            try:
                value = float(cell)
            except ValueError:
                problems.append(f"row {number}: grade {cell!r} is not a number")
                continue
            if not 0 <= value <= maximum:
                problems.append(f"row {number}: grade {value} is outside 0…{maximum}")
    return problems


def _rows(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))


def _roster_rows() -> list[dict[str, str]]:
    with ROSTER.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_the_roster_is_eighteen_students_two_unmatched_on_each_side(
    graded: dict[str, SubmissionResult],
) -> None:
    roster = _roster_rows()
    assert len(roster) == 18 and len(graded) == 18
    names = {row["submission"] for row in roster}
    assert sorted(set(graded) - names) == ["hostile_orphan", "hostile_socket"]
    assert sorted(names - set(graded)) == ["", "hostile_sockets"]  # a near miss, not guessed


def _with_written_answers_graded(out: Path, tmp_path: Path, course: Course, points: str) -> Path:
    """A copy of the graded class whose written answers a teaching assistant graded, each
    `points`, through the grading sheet."""
    book = tmp_path / "with-written"
    shutil.copytree(out, book)
    sheet = tmp_path / "sheet.csv"
    root = ["--course", str(course.root), "--assignment", "positional_encoding"]
    assert _run("manual", "export", str(book), "--out", str(sheet), *root)[0] == 0
    rows = _rows(sheet)
    column = rows[0].index("points")
    for row in rows[1:]:
        row[column] = points
    with sheet.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    assert _run("manual", "import", str(book), str(sheet), *root)[0] == 0
    return book


def test_canvas_file_for_the_sample_class(
    out: Path, tmp_path: Path, course: Course, graded: dict[str, SubmissionResult]
) -> None:
    target = tmp_path / "canvas.csv"
    book = _with_written_answers_graded(out, tmp_path, course, "7")
    code, printed = _run("gradebook", str(book), "--lms", "canvas", "--roster", str(ROSTER),
                         "--out", str(target), "--course", str(course.root))  # fmt: skip
    assert code == 0
    assert "18 roster students, 16 with a graded submission, 1 assignment column(s)" in printed
    assert "2 submission(s) match no roster line (not in the file): hostile_orphan, " \
        "hostile_socket" in printed  # fmt: skip
    assert "2 roster student(s) without any graded submission (a blank cell): Quispe, Rosa " \
        "(20497), Rossi, Giulia (20498)" in printed  # fmt: skip
    rows = _rows(target)
    assert canvas_problems(rows, students=18) == []
    assert canvas_problems([r[:4] + r[5:] for r in rows], 18) == ["no Section column"]
    assert rows[0][5] == course.rubric.assignment("positional_encoding").title
    assert rows[1][5] == "110"  # 100 automatic and the written answer's 10
    scores = {row[1]: row[5] for row in rows[2:]}
    by_submission = {r["submission"]: r["student_id"] for r in _roster_rows()}
    for name, result in graded.items():
        if name in by_submission:
            assert float(scores[by_submission[name]]) == result.final_score + 7, name
    assert scores["20497"] == scores["20498"] == ""
    assert not [cell for row in rows for cell in row if cell.startswith(FORMULA_START)]
    assert rows[2 + 10][0] == '\'=HYPERLINK("http://grades.example","Kowalski")'


def test_moodle_file_for_the_sample_class(out: Path, tmp_path: Path, course: Course) -> None:
    target = tmp_path / "moodle.csv"
    code, _ = _run("gradebook", str(out), "--lms", "moodle", "--roster", str(ROSTER),
                   "--out", str(target), "--course", str(course.root))  # fmt: skip
    assert code == 0
    rows = _rows(target)
    roster = _roster_rows()
    emails = {r["email"] for r in roster}
    ids = {r["student_id"] for r in roster}
    assert moodle_problems(rows, "Email address", emails, 100) == []
    assert moodle_problems(rows, "ID number", ids, 100) == []
    assert moodle_problems(rows, "ID number", ids - {"20481"}, 100) == [
        "row 2: no user with ID number '20481'"
    ]
    assert len(rows) == 19
    assert not [cell for row in rows for cell in row if cell.startswith(FORMULA_START)]


def test_plain_csv_keeps_the_roster_columns(out: Path, tmp_path: Path, course: Course) -> None:
    target = tmp_path / "grades.csv"
    code, printed = _run("gradebook", str(out), "--lms", "csv", "--roster", str(ROSTER),
                         "--out", str(target), "--course", str(course.root))  # fmt: skip
    assert code == 0
    rows = _rows(target)
    assert rows[0] == ["student_id", "name", "email", "login", "sis_id", "section", "submission",
                       course.rubric.assignment("positional_encoding").title]  # fmt: skip
    # nobody graded the written answers yet: no cell looks final, and the command says why
    assert rows[1][:2] == ["20481", "Adeyemi, Tolu"] and rows[1][7] == ""
    assert "16 cell(s) left blank until their written answers are graded" in printed
    book = _with_written_answers_graded(out, tmp_path, course, "9.5")
    assert _run("gradebook", str(book), "--lms", "csv", "--roster", str(ROSTER),
                "--out", str(target), "--course", str(course.root))[0] == 0  # fmt: skip
    assert float(_rows(target)[1][7]) == 74 + 9.5


def test_similarity_flags_the_disguised_copies_and_no_distinct_correct_style(
    assignment: Assignment,
) -> None:
    sources = {s.name: s.source for s in sample_class(assignment)}
    sources.update({p.stem: p.read_text() for p in sorted(COPIES.glob("*.py"))})
    stub = (assignment.release_dir / assignment.spec.module).read_text()
    result = compare(sources, stub=stub)
    flagged = {(p.first, p.second) for p in result.pairs}
    assert flagged == {
        ("copy_renamed_variables", "correct_loops"),
        ("copy_reordered_functions", "correct_scipy"),
    }
    for pair in result.pairs:
        assert min(pair.similarity) > 0.85 and pair.regions[0] and pair.regions[1]
    styles = [name for name in sources if name.startswith("correct_")]
    assert len(styles) == 4 and not any(set(pair) <= set(styles) for pair in flagged)


def test_similarity_command_on_the_recorded_sources(
    out: Path, tmp_path: Path, course: Course
) -> None:
    with Gradebook(out) as book:
        assert len(book.sources("positional_encoding")) == 18
    page = tmp_path / "similarity.html"
    code, printed = _run("similarity", str(out), "--html", str(page),
                         "--course", str(course.root))  # fmt: skip
    assert code == 0 and "18 submissions of positional_encoding compared" in printed
    assert "<h1>positional_encoding: similar submissions</h1>" in page.read_text()


@pytest.mark.parametrize("after_due", [False, True])
def test_feedback_shows_no_hidden_input(
    graded: dict[str, SubmissionResult], assignment: Assignment, tmp_path: Path, after_due: bool
) -> None:
    entries = [Entry(n, "c", "r", r) for n, r in sorted(graded.items())]
    from datetime import datetime, timezone

    written = write_feedback(entries, assignment.spec, tmp_path, after_due=after_due,
                             now=datetime.now(timezone.utc))  # fmt: skip
    assert len(written) == 18
    for name, result in graded.items():
        page = feedback_path(tmp_path, assignment.name, name).read_text()
        markdown = feedback_path(tmp_path, assignment.name, name, ".md").read_text()
        public = {t.message for t in result.tests if not t.hidden}
        for test in result.tests:
            if test.hidden and test.message and test.message not in public:
                assert test.message not in markdown, (name, test.name)
                assert escape(test.message) not in page, (name, test.name)
            if not test.hidden and test.status == "not_implemented":  # one line per function
                assert "not implemented yet" in markdown, (name, test.name)
            elif not test.hidden and test.message and test.status != "passed":
                assert test.message.splitlines()[0] in markdown, (name, test.name)
            assert test.nodeid not in page and test.nodeid not in markdown
        hidden_titles = [t.name for t in result.tests if t.hidden]
        assert any(title in markdown for title in hidden_titles) is after_due or not hidden_titles
