"""After grading, on results made by hand: what each student's feedback shows before and after
the due date, the roster and the LMS files, and the similarity of submissions."""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from autograder.after_grading.lms import CANVAS_COLUMNS, Column, write_lms_file
from autograder.after_grading.roster import match, read_roster
from autograder.after_grading.similarity import compare
from autograder.after_grading.student_feedback import (
    feedback_path,
    markdown_text,
    render_html,
    render_markdown,
    write_feedback,
)
from autograder.after_grading.visibility import (
    results_released_at,
    student_view,
    without_arguments,
)
from autograder.course.course import Course
from autograder.course.rubric import AssignmentSpec, LatePolicy
from autograder.errors import ConfigError
from autograder.grading.gradebook import Entry
from autograder.grading.results import SubmissionResult, TestResult

DUE = datetime(2026, 11, 20, 23, 59, tzinfo=timezone.utc)
HIDDEN_MESSAGE = "scale([3, 4], 2.5)[1] should be 10; yours is 8 (secret input 1234)"
HIDDEN_HINT = "you divide by the sum: scale([1, 2], g([5, 6], 7)) and norm(x, ord=1) differ"
HOSTILE_NAME = '<img src=x onerror=alert(1)>*bold* [link](http://x) =HYPERLINK("x")'


def _result(student: str = "ada", **changes: object) -> SubmissionResult:
    tests = (
        TestResult("public one passes", "public_tests/test_a.py::test_one", "numeric", 2, 2,
                   "passed", "visible"),
        TestResult("public two <fails>", "public_tests/test_a.py::test_two", "numeric", 0, 2,
                   "failed", "visible", message="expected <b>1</b>; yours is 2",
                   hint="normalise(v) sums to 1 <instead of> length 1"),
        TestResult("hidden random vectors", "hidden_tests/test_h.py::test_random", "numeric",
                   0, 2, "failed", "after_due_date", message=HIDDEN_MESSAGE, hint=HIDDEN_HINT,
                   hidden=True),
        TestResult("hidden never shown", "hidden_tests/test_h.py::test_never", "symbolic", 4, 4,
                   "passed", "hidden", hidden=True),
    )  # fmt: skip
    result = SubmissionResult("vectors", student, "graded", 6, 10, ("process",), 1.0, tests)
    return replace(result, **changes)  # type: ignore[arg-type]


def _entry(result: SubmissionResult, penalty: float = 0.0) -> Entry:
    return Entry(result.submission, "hash", "run", result, penalty, "2026-11-21T10:00:00+00:00")


def test_before_the_due_date_only_visible_tests_show() -> None:
    view = student_view(_result(), after_due=False)
    assert [s.test.name for s in view.shown] == ["public one passes", "public two <fails>"]
    assert (view.withheld, view.withheld_points) == (2, 6)
    assert view.shown_score == (2, 4)
    assert view.part_scores() == {"numeric": (2, 4)}


def test_after_the_due_date_hidden_tests_show_without_inputs() -> None:
    view = student_view(_result(), after_due=True)
    names = [s.test.name for s in view.shown]
    assert names == ["public one passes", "public two <fails>", "hidden random vectors"]
    assert view.withheld == 1  # visibility "hidden": never
    hidden = view.shown[2]
    assert hidden.message is None
    assert hidden.hint == "you divide by the sum: scale(…) and norm(…) differ"
    public = view.shown[1]
    assert public.message == "expected <b>1</b>; yours is 2"
    assert public.hint == "normalise(v) sums to 1 <instead of> length 1"


def test_without_arguments_leaves_no_argument_of_any_call() -> None:
    assert without_arguments("f(1, g(2, h(3)), 4) then k(x)[0]") == "f(…) then k(x)[0]"
    assert (
        without_arguments("g(f(x)) and g(f('s')), h([]), h({})") == "g(f(x)) and g(…), h(…), h(…)"
    )
    assert without_arguments("use causal_mask(T) as it is") == "use causal_mask(T) as it is"
    assert without_arguments("base^(−2i/C) (is the 2 applied twice?)") == (
        "base^(−2i/C) (is the 2 applied twice?)"
    )  # not calls: an operator or a space before the bracket
    assert without_arguments("a\x00b(1)\x01") == "ab(…)"


def _spec(spec: AssignmentSpec, late: LatePolicy | None) -> AssignmentSpec:
    return replace(spec, late=late)


@pytest.mark.parametrize(
    ("late", "now", "shown"),
    [
        (None, DUE + timedelta(days=400), False),  # no due date: held back until --after-due
        (LatePolicy(DUE), DUE - timedelta(minutes=1), False),
        (LatePolicy(DUE), DUE + timedelta(minutes=1), True),
        (LatePolicy(DUE, grace_minutes=30), DUE + timedelta(minutes=10), False),
        (LatePolicy(DUE, cutoff_days=3), DUE + timedelta(days=2), False),  # late work still due
        (LatePolicy(DUE, cutoff_days=3), DUE + timedelta(days=3, seconds=1), True),
    ],
)
def test_the_due_date_comes_from_the_late_policy(
    tmp_path: Path, spec: AssignmentSpec, late: LatePolicy | None, now: datetime, shown: bool
) -> None:
    write_feedback([_entry(_result())], _spec(spec, late), tmp_path, now=now)
    page = feedback_path(tmp_path, "vectors", "ada").read_text()
    assert ("hidden random vectors" in page) is shown
    assert ("2 more tests (6 points)" in page) is not shown
    assert "hidden never shown" not in page


def test_results_released_at() -> None:
    assert results_released_at(None) is None
    policy = LatePolicy(DUE, grace_minutes=15, cutoff_days=2)
    assert results_released_at(policy) == DUE + timedelta(days=2, minutes=15)


def test_the_switch_overrides_the_date(tmp_path: Path, spec: AssignmentSpec) -> None:
    before = DUE - timedelta(days=1)
    write_feedback([_entry(_result())], _spec(spec, LatePolicy(DUE)), tmp_path,
                   after_due=True, now=before)  # fmt: skip
    assert "hidden random vectors" in feedback_path(tmp_path, "vectors", "ada").read_text()
    write_feedback([_entry(_result())], _spec(spec, LatePolicy(DUE)), tmp_path,
                   after_due=False, now=DUE + timedelta(days=9))  # fmt: skip
    assert "hidden random vectors" not in feedback_path(tmp_path, "vectors", "ada").read_text()


@pytest.mark.parametrize("after_due", [False, True])
def test_no_hidden_test_input_reaches_any_feedback_file(
    tmp_path: Path, spec: AssignmentSpec, after_due: bool
) -> None:
    write_feedback([_entry(_result())], spec, tmp_path, after_due=after_due, now=DUE)
    for suffix in (".html", ".md"):
        text = feedback_path(tmp_path, "vectors", "ada", suffix).read_text()
        for secret in ("1234", "[3, 4]", "2.5", "[5, 6]", "ord=1", "test_random", "hidden_tests"):
            assert secret not in text, (suffix, secret)


def test_score_and_late_penalty(tmp_path: Path, spec: AssignmentSpec) -> None:
    """The penalty is the rubric's now (25% of the 4 points a day, one day late), whatever
    the entry recorded."""
    result = _result(tests=_result().tests[:2], score=2, max_score=4)
    automatic_only = replace(spec, late=LatePolicy(DUE, penalty_per_day=25), manual=())
    write_feedback([_entry(result, penalty=0.5)], automatic_only, tmp_path, now=DUE)
    page = feedback_path(tmp_path, "vectors", "ada", ".md").read_text()
    assert "**Score: 1 of 4 points**" in page
    line = "Late penalty: 1 points off 2 (1 day late at 25% of the 4 points a day); final score 1."
    assert line.replace("(", "\\(") not in page  # not over-escaped
    assert line in page
    assert "Due 2026-11-20T23:59:00+00:00." in page
    assert "| numeric (6) | scale, normalise and cosine | 2 / 4 |" in page
    # before the results are released, with tests held back, the penalty is said, not its
    # points (they are capped by the score of the tests held back)
    late = _spec(spec, LatePolicy(DUE, penalty_per_day=25))
    write_feedback([_entry(_result())], late, tmp_path, after_due=False, now=DUE)
    page = feedback_path(tmp_path, "vectors", "ada", ".md").read_text()
    assert "Submitted late: a late penalty applies, counted with every test's result." in page
    assert "1 points" not in page
    assert "Score:" not in page
    assert (
        "**Score so far (tests shown now): 2 of 4 points; 6 more points are graded by tests "
        "not shown yet**" in page
    )
    assert "| numeric (6) | scale, normalise and cosine | 2 / 4 (tests shown now) |" in page


def test_ungradable_and_grader_errors_say_why(tmp_path: Path, spec: AssignmentSpec) -> None:
    broken = _result("bo", status="ungradable", tests=(), score=0,
                     message="the notebook is not valid JSON")  # fmt: skip
    failed = _result("cy", status="grader_error", tests=(), score=0, message="runner died")
    write_feedback([_entry(broken), _entry(failed)], spec, tmp_path, now=DUE)
    assert "could not be graded: the notebook is not valid JSON" in (
        feedback_path(tmp_path, "vectors", "bo").read_text()
    )
    assert "it will be graded again" in feedback_path(tmp_path, "vectors", "cy", ".md").read_text()


def test_student_text_is_escaped_in_html_and_markdown(tmp_path: Path, spec: AssignmentSpec) -> None:
    entry = _entry(_result(HOSTILE_NAME))
    write_feedback([entry], spec, tmp_path, now=DUE)
    page = feedback_path(tmp_path, "vectors", HOSTILE_NAME).read_text()
    assert "<img" not in page and "<b>1</b>" not in page and "<fails>" not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "default-src 'none'" in page  # nothing loads, nothing runs
    markdown = feedback_path(tmp_path, "vectors", HOSTILE_NAME, ".md").read_text()
    assert "\\<img src=x onerror=alert(1)\\>\\*bold\\* \\[link\\](http://x)" in markdown
    outside_code = re.sub(r"```text\n.*?\n *```", "", markdown, flags=re.S)
    assert "<" not in outside_code.replace("\\<", "")
    assert "    ```text\n    expected <b>1</b>; yours is 2\n    ```" in markdown  # literal
    assert feedback_path(tmp_path, "vectors", HOSTILE_NAME).parent == tmp_path / "vectors"


def test_markdown_blocks_hold_any_backticks() -> None:
    sheet_message = "```\n# not a heading\n```"
    result = _result()
    tests = (replace(result.tests[1], message=sheet_message),)
    from autograder.after_grading.student_feedback import make_sheet

    sheet = make_sheet(_entry(replace(result, tests=tests)), _spec_stub(), after_due=False,
                       released=None)  # fmt: skip
    markdown = render_markdown(sheet)
    assert "    ````text\n    ```\n    # not a heading\n    ```\n    ````" in markdown
    assert "<pre>```\n# not a heading\n```</pre>" in render_html(sheet)
    assert markdown_text("1. two\nlines") == "1\\. two lines"


def _spec_stub() -> AssignmentSpec:
    return AssignmentSpec("vectors", "Vectors", "vectors.py", ())


# The roster and the LMS files ------------------------------------------------------------


ROSTER = """student_id,name,email,login,section,submission
101,"Lovelace, Ada",ada@example.org,ada,A,ada
102,=HYPERLINK("http://evil"),ben@example.org,ben,A,ben
103,"Young, Cy",cy@example.org,cy,B,Cy
104,"No Show, Dee",dee@example.org,dee,B,
"""


def _roster(tmp_path: Path, text: str = ROSTER) -> Path:
    path = tmp_path / "roster.csv"
    path.write_text(text, encoding="utf-8")
    return path


def test_matching_is_exact_and_lists_both_sides(tmp_path: Path) -> None:
    students = read_roster(_roster(tmp_path))
    matching = match(students, ["ada", "ben", "cy", "zed"])
    assert [s.student_id for s in matching.matched] == ["101", "102"]
    # "Cy" is not "cy": never guessed
    assert [s.student_id for s in matching.without_submission] == ["103", "104"]
    assert matching.unmatched_submissions == ("cy", "zed")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("id,name\n1,a\n", "has no student_id, submission column"),
        ("student_id,name,submission\n1,a,x\n1,b,y\n", "lists student_id '1' twice"),
        ("student_id,name,submission\n1,a,x\n2,b,x\n", "two students the submission name 'x'"),
        ("student_id,name,submission\n,a,x\n", "line 2: student_id is empty"),
        ("", "has no student_id, name, submission column"),
    ],
)
def test_a_bad_roster_is_refused_with_its_line(tmp_path: Path, text: str, problem: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(problem)):
        read_roster(_roster(tmp_path, text))


def test_a_roster_that_is_not_text_or_too_large(tmp_path: Path) -> None:
    path = tmp_path / "roster.csv"
    path.write_bytes(b"student_id,name,submission\n1,\xff\xfe,x\n")
    with pytest.raises(ConfigError, match="not UTF-8"):
        read_roster(path)
    path.write_bytes(b"student_id,name,submission\n" + b"x" * (9 * 2**20))
    with pytest.raises(ConfigError, match="larger than 8 MiB"):
        read_roster(path)
    path.write_bytes("\ufeffStudent_ID , Name,submission\n7,Ana,ana\n".encode())
    assert read_roster(path)[0].student_id == "7"  # a spreadsheet's BOM and spacing


def _columns() -> list[Column]:
    ada = _entry(_result("ada", score=7.5), penalty=1)  # final 6.5
    ben = _entry(_result("ben", score=10))
    dee = _entry(_result("zed", status="grader_error", tests=(), score=0))
    return [
        Column("Vectors", 10, {"ada": ada, "ben": ben, "zed": dee}),
        Column("-2+3 Series", 10, {"ben": _entry(_result("ben", score=3))}),
    ]


def test_canvas_file(tmp_path: Path) -> None:
    matching = match(read_roster(_roster(tmp_path)), ["ada", "ben", "zed"])
    export = write_lms_file(tmp_path / "canvas.csv", "canvas", matching, _columns())
    rows = list(csv.reader((tmp_path / "canvas.csv").open(encoding="utf-8", newline="")))
    assert tuple(rows[0][:5]) == CANVAS_COLUMNS
    assert rows[0][5:] == ["Vectors", "'-2+3 Series"]
    assert rows[1] == ["Points Possible", "", "", "", "", "10", "10"]
    assert rows[2] == ["Lovelace, Ada", "101", "", "ada", "A", "6.5", ""]
    assert rows[3] == ['\'=HYPERLINK("http://evil")', "102", "", "ben", "A", "10", "3"]
    assert [r[1] for r in rows[2:]] == ["101", "102", "103", "104"]
    assert export.blank["Vectors"] == ("103", "104")
    assert export.grader_errors["Vectors"] == ("zed",)


def test_moodle_file_and_zero_for_the_missing(tmp_path: Path) -> None:
    matching = match(read_roster(_roster(tmp_path)), ["ada", "ben"])
    write_lms_file(tmp_path / "m.csv", "moodle", matching, _columns(), missing="zero")
    rows = list(csv.reader((tmp_path / "m.csv").open(encoding="utf-8", newline="")))
    assert rows[0] == ["ID number", "Email address", "Full name", "Vectors", "'-2+3 Series"]
    assert rows[1] == ["101", "ada@example.org", "Lovelace, Ada", "6.5", "0"]
    assert rows[4] == ["104", "dee@example.org", "No Show, Dee", "0", "0"]


# Similarity ------------------------------------------------------------------------------


ORIGINAL = """
def normalise(v):
    total = 0.0
    for value in v:
        total += value * value
    length = total ** 0.5
    if length == 0:
        raise ValueError("cannot normalise the zero vector")
    return [value / length for value in v]


def scale(v, factor):
    out = []
    for value in v:
        out.append(value * factor)
    return out


def cosine(u, v):
    dot = 0.0
    for left, right in zip(u, v):
        dot += left * right
    unit_u, unit_v = normalise(u), normalise(v)
    if not unit_u or len(unit_u) != len(unit_v):
        raise ValueError("cosine needs two vectors of one length")
    return dot / (sum(a * a for a in u) ** 0.5 * sum(b * b for b in v) ** 0.5)
"""


def test_renamed_and_reordered_copies_are_flagged_and_the_stub_is_not() -> None:
    renamed = (
        ORIGINAL.replace("total", "acc").replace("value", "x").replace("length", "n")
        .replace("out", "res")
    )  # fmt: skip
    functions = ORIGINAL.strip().split("\n\n\n")
    reordered = "\n\n\n".join(reversed(functions))
    other = "def normalise(v):\n    v = np.asarray(v)\n    return v / np.linalg.norm(v)\n"
    sources = {"ada": ORIGINAL, "ben": renamed, "cy": reordered, "dan": other}
    result = compare(sources, threshold=0.6)
    pairs = {(p.first, p.second) for p in result.pairs}
    assert pairs == {("ada", "ben"), ("ada", "cy"), ("ben", "cy")}
    # the same code as the released stub is not evidence
    stubbed = compare(sources, stub=ORIGINAL, threshold=0.6)
    assert stubbed.pairs == ()
    assert result.compared == 4


def test_hostile_sources_are_compared_in_bounded_time_and_shown_escaped() -> None:
    from autograder.report.similarity_html import render_similarity

    script = "</pre><script>alert(1)</script>\n" + ORIGINAL
    sources = {
        "brackets": "(" * 300_000,
        "nul": "\x00" * 50_000 + ORIGINAL,
        "unterminated": "'''" + "x = 1\n" * 40_000,
        "one_line": "x=1;" * 100_000,
        "script": script,
        "copy": ORIGINAL,
        "empty": "",
        "blank": "   \n\n",
    }
    result = compare(sources)
    assert result.compared == 6  # the empty ones are not compared
    # the NUL padding holds no code: what is left is ORIGINAL, as in the other two
    assert {(p.first, p.second) for p in result.pairs} == {
        ("copy", "nul"),
        ("copy", "script"),
        ("nul", "script"),
    }
    page = render_similarity(result, sources, title="<t>")
    assert "<script>" not in page and "&lt;/pre&gt;&lt;script&gt;" in page
    assert "<h1>&lt;t&gt;</h1>" in page


SIMILARITY_OF_THE_SAMPLES = """
import json, sys
from pathlib import Path
from autograder.after_grading.similarity import compare
folder = Path(sys.argv[1])
sources = {p.stem: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.py"))}
found = compare(sources, threshold=0.99)
print(json.dumps([[p.first, p.second, p.score, p.shared] for p in found.nearest]))
"""


def test_similarity_is_the_same_in_every_process(course_copy: Course) -> None:
    """Fingerprints are hashed the same in every process (Python's own `hash` is seeded anew
    in each): a pair near the threshold cannot appear in one run and vanish in the next."""
    folder = course_copy.root / "assignments" / "vectors" / "sample_class"
    runs = []
    for seed in ("1", "2", "3"):
        done = subprocess.run(
            [sys.executable, "-c", SIMILARITY_OF_THE_SAMPLES, str(folder)],
            capture_output=True, text=True, check=True, timeout=120,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )  # fmt: skip
        runs.append(json.loads(done.stdout))
    assert runs[0] == runs[1] == runs[2]
    names = [(first, second) for first, second, _, _ in runs[0]]
    assert ("bug_normalise_by_sum", "hostile_infinite_loop") in names  # the two nearest kinds
    assert all(0 < score < 0.99 for _, _, score, _ in runs[0])
