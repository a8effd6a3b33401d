"""A term's rules on hand-made results: extensions, attempts and which one counts, regrades
kept in the gradebook's history, and the hostile files an instructor may be handed."""

from __future__ import annotations

import csv
import json
import sqlite3
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from autograder.after_grading.student_feedback import write_feedback
from autograder.after_grading.visibility import results_released_at
from autograder.course.extensions import Extension, read_extensions
from autograder.course.rubric import AssignmentSpec, LatePolicy, load_rubric
from autograder.errors import ConfigError
from autograder.gradescope.run import own_late_policy, results_released
from autograder.grading.attempts import counted_attempt
from autograder.grading.batch import (
    MAX_ATTEMPTS_PER_STUDENT,
    Item,
    discover,
    late_penalty,
    unlisted_attempts,
)
from autograder.grading.gradebook import FILE_NAME, Entry, Gradebook, attempt_key, merge
from autograder.grading.regrades import changes, describe, write_changes_csv
from autograder.grading.results import SubmissionResult, TestResult
from autograder.safe_text import printable

UTC = timezone.utc
DUE = datetime(2026, 12, 1, 23, 59, tzinfo=UTC)
FORMULA = '=HYPERLINK("http://x","click")'


def _result(student: str, score: float, *, random_passes: bool = True) -> SubmissionResult:
    tests = (
        TestResult("scale works", "public_tests/test_v.py::test_scale", "numeric",
                   score - (1 if random_passes else 0), score - (1 if random_passes else 0),
                   "passed", "visible"),
        TestResult("random vectors", "hidden_tests/test_v.py::test_random", "numeric",
                   1 if random_passes else 0, 1, "passed" if random_passes else "failed",
                   "after_due_date", hidden=True),
    )  # fmt: skip
    return SubmissionResult("vectors", student, "graded", score, 10, ("process",), 1.0, tests)


def _entry(student: str, score: float, at: str, penalty: float = 0.0, **kw: object) -> Entry:
    when = datetime.fromisoformat(at)
    return Entry(student, f"hash-{at}", "run1", _result(student, score, **kw), penalty,  # type: ignore[arg-type]
                 when.isoformat(), "k", attempt_key(when))  # fmt: skip


# extensions -------------------------------------------------------------------------------


def test_extensions_give_each_student_their_own_due_date(tmp_path: Path) -> None:
    path = tmp_path / "extensions.csv"
    path.write_text(
        "student,due,extra_days,reason\n"
        "ben,,2,illness\n"
        "cy,2026-12-05T12:00:00,,exchange\n"  # no zone: UTC
        f'"{FORMULA.replace(chr(34), chr(34) * 2)}",,0.5,\n',
        encoding="utf-8",
    )
    extensions = read_extensions(path, DUE)
    assert extensions == (
        Extension("ben", datetime(2026, 12, 3, 23, 59, tzinfo=UTC), "illness"),
        Extension("cy", datetime(2026, 12, 5, 12, 0, tzinfo=UTC), "exchange"),
        Extension(FORMULA, datetime(2026, 12, 2, 11, 59, tzinfo=UTC), ""),
    )
    policy = LatePolicy(DUE, penalty_per_day=10, cutoff_days=2, extensions=extensions)
    assert policy.due_for("ben") == datetime(2026, 12, 3, 23, 59, tzinfo=UTC)
    assert policy.due_for("ada") == DUE
    assert policy.last_due == datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
    result = _result("x", 10)
    late = datetime(2026, 12, 3, 8, 0, tzinfo=UTC)
    assert late_penalty(result, late, policy, "ada") == 2.0  # two days started
    assert late_penalty(result, late, policy, "ben") == 0.0  # before ben's own date
    assert late_penalty(result, datetime(2026, 12, 4, 8, 0, tzinfo=UTC), policy, "ben") == 1.0
    assert late_penalty(result, datetime(2026, 12, 6, 8, 0, tzinfo=UTC), policy, "ben") == 10.0
    assert late_penalty(result, datetime(2026, 12, 2, 11, 0, tzinfo=UTC), policy, FORMULA) == 0
    # held back for everyone until the last extension (cy's) plus the cut-off
    assert results_released_at(policy) == datetime(2026, 12, 7, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("student,due,extra_days\nben,2026-12-03T00:00:00,2\n", r":2: give either due or"),
        ("student,due,extra_days\nben,,\n", r":2: give either due or"),
        ("student,due\nben,next tuesday\n", r":2: due 'next tuesday' is not a date"),
        ("student,extra_days\nben,-1\n", r":2: extra_days '-1' must be a number"),
        ("student,extra_days\nben,nan\n", r":2: extra_days 'nan' must be a number"),
        ("student,extra_days\nben,1\nada,1\nben,2\n", r":4: 'ben' is listed twice"),
        ("student,due,days\nben,,1\n", r":1: the columns must be student, due or extra_days"),
        ("name,due\nben,2026-12-03\n", r":1: the columns must be"),
    ],
)
def test_a_bad_extensions_file_is_refused_with_its_line(
    tmp_path: Path, text: str, problem: str
) -> None:
    path = tmp_path / "extensions.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=rf"extensions.csv{problem}"):
        read_extensions(path, DUE)


def test_a_huge_or_missing_extensions_file_is_refused(tmp_path: Path) -> None:
    huge = tmp_path / "huge.csv"
    huge.write_bytes(b"student,extra_days\n" + b"x" * (3 * 2**20))
    with pytest.raises(ConfigError, match=r"huge.csv is larger than 2 MiB"):
        read_extensions(huge, DUE)
    with pytest.raises(ConfigError, match=r"the extensions file .*absent.csv does not exist"):
        read_extensions(tmp_path / "absent.csv", DUE)


def _rubric(tmp_path: Path, table: str, late: str = "") -> Path:
    path = tmp_path / "grading.toml"
    path.write_text(
        f'[assignments.v]\ntitle = "t"\nmodule = "v.py"\n{table}\n'
        f'[assignments.v.parts.p]\ntitle = "p"\npoints = 10\n{late}',
        encoding="utf-8",
    )
    return path


def test_the_rubric_reads_extensions_attempts_and_never_lower(tmp_path: Path) -> None:
    (tmp_path / "ext.csv").write_text("student,extra_days,reason\nben,1,flu\n")
    late = '[assignments.v.late]\ndue = "2026-12-01T23:59:00Z"\nextensions = "ext.csv"\n'
    spec = load_rubric(_rubric(tmp_path, 'attempts = "best"\nnever_lower = true', late))
    spec_v = spec.assignment("v")
    assert (spec_v.attempts, spec_v.never_lower) == ("best", True)
    assert spec_v.late is not None
    assert spec_v.late.extensions == (
        Extension("ben", datetime(2026, 12, 2, 23, 59, tzinfo=UTC), "flu"),
    )
    defaults = load_rubric(_rubric(tmp_path, "")).assignment("v")
    assert (defaults.attempts, defaults.never_lower, defaults.late) == ("last", False, None)
    with pytest.raises(ConfigError, match=r"\[assignments.v.attempts\] must be one of last, best"):
        load_rubric(_rubric(tmp_path, 'attempts = "first"'))
    with pytest.raises(ConfigError, match=r"\[assignments.v.never_lower\] must be true or false"):
        load_rubric(_rubric(tmp_path, 'never_lower = "yes"'))
    missing = late.replace("ext.csv", "none.csv")
    with pytest.raises(ConfigError, match=r"extensions file .*none.csv does not exist"):
        load_rubric(_rubric(tmp_path, "", missing))


# attempts ---------------------------------------------------------------------------------


def test_which_attempt_counts() -> None:
    ben_due = Extension("ben", datetime(2026, 12, 3, 23, 59, tzinfo=UTC))
    policy = LatePolicy(DUE, grace_minutes=10, penalty_per_day=10, extensions=(ben_due,))
    early = _entry("ada", 6, "2026-12-01T12:00:00+00:00")
    in_grace = _entry("ada", 7, "2026-12-02T00:05:00+00:00")
    late = _entry("ada", 10, "2026-12-02T12:00:00+00:00", penalty=1.0)
    assert counted_attempt([early, in_grace, late], "last", policy, "ada") is late
    assert counted_attempt([early, in_grace, late], "best", policy, "ada") is late  # 9 > 7 > 6
    assert counted_attempt([early, in_grace, late], "last_before_due", policy, "ada") is in_grace
    worse_late = replace(late, late_penalty=4.0)  # final 6: as good as `early`, and later
    assert counted_attempt([early, worse_late], "best", policy, "ada") is worse_late
    # all late: the earliest late one, with its penalty
    first_late, second_late = late, _entry("ada", 10, "2026-12-04T12:00:00+00:00", 3.0)
    chosen = counted_attempt([first_late, second_late], "last_before_due", policy, "ada")
    assert chosen is first_late
    # ben's own date makes his second attempt on time
    ben = [
        _entry("ben", 6, "2026-12-01T12:00:00+00:00"),
        _entry("ben", 10, "2026-12-03T08:00:00+00:00"),
    ]
    assert counted_attempt(ben, "last_before_due", policy, "ben") is ben[1]


def test_a_manifest_lists_attempts_bounded_per_student(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("")
    manifest = tmp_path / "manifest.csv"
    manifest.write_text(
        "student_id,path,submitted_at\n"
        "ada,a.py,2026-12-01T12:00:00+00:00\nada,a.py,2026-12-01T13:00:00+01:00\n"
    )
    with pytest.raises(ConfigError, match=r"manifest.csv:3: a second row for 'ada' with the same"):
        discover([], module="v.py", manifest=manifest)  # the same moment, in another zone
    start = datetime(2026, 12, 1, 12, tzinfo=UTC)
    rows = "".join(
        f"=cmd|x,a.py,{(start + timedelta(seconds=n)).isoformat()}\n" for n in range(10_000)
    )
    manifest.write_text("student_id,path,submitted_at\n" + rows)
    line = MAX_ATTEMPTS_PER_STUDENT + 2
    with pytest.raises(ConfigError, match=rf":{line}: more than 100 attempts of '=cmd\|x'"):
        discover([], module="v.py", manifest=manifest)
    manifest.write_text("student_id,path,submitted_at\n" + rows.splitlines(keepends=True)[0])
    assert [i.attempt for i in discover([], module="v.py", manifest=manifest)] == [
        "2026-12-01T12:00:00.000000Z"
    ]


def test_the_gradebook_keeps_every_attempt_and_gives_one_entry_per_student(
    tmp_path: Path,
) -> None:
    with Gradebook(tmp_path / "out") as book:
        book.bind(assignment="vectors", rubric_hash="r1")
        first = _entry("ada", 6, "2026-12-01T12:00:00+00:00")
        second = _entry("ada", 10, "2026-12-02T12:00:00+00:00", penalty=1.0)
        for entry in (second, first):  # the order they finish in does not matter
            book.record(entry, rubric_hash="r1", kit_version="k", source=f"# {entry.attempt}")
        [counted] = book.entries("vectors")
        assert (counted.attempt, counted.attempt_number, counted.final_score) == (
            second.attempt, 2, 9.0,
        )  # fmt: skip  # the last counts by default
        book.set_counted("vectors", "ada", first.attempt)
        [counted] = book.entries("vectors")
        assert (counted.attempt_number, counted.final_score, counted.counted) == (1, 6.0, True)
        history = book.attempts("vectors")["ada"]
        assert [(e.attempt_number, e.counted, e.final_score) for e in history] == [
            (1, True, 6.0), (2, False, 9.0)
        ]  # fmt: skip
        assert book.sources("vectors") == {"ada": f"# {first.attempt}"}
        assert book.is_current("vectors", "ada", second.content_hash, "r1", "k", second.attempt)
        assert not book.is_current("vectors", "ada", second.content_hash, "r1", "k", "")
        book.set_penalty("vectors", "ada", second.attempt, 3.0)
        assert book.attempts("vectors")["ada"][1].late_penalty == 3.0
        assert book.attempts("vectors")["ada"][1].result.late_penalty == 3.0
    merge([tmp_path / "out"], tmp_path / "merged")
    with Gradebook(tmp_path / "merged") as merged:
        kept = merged.attempts("vectors")["ada"]
        assert [(e.attempt_number, e.counted, e.final_score) for e in kept] == [
            (1, True, 6.0), (2, False, 7.0)
        ]  # fmt: skip


def test_a_regrade_keeps_the_earlier_result_and_says_what_changed(tmp_path: Path) -> None:
    name = FORMULA + "\x1b[31m"
    with Gradebook(tmp_path / "out") as book:
        book.bind(assignment="vectors", rubric_hash="r1")
        before = _entry(name, 10, "2026-12-01T12:00:00+00:00")
        book.record(before, rubric_hash="r1", kit_version="k")
        assert changes(book, "vectors") == []  # nothing regraded yet
        after = replace(before, run_id="run2", result=_result(name, 9, random_passes=False))
        assert book.record(after, rubric_hash="r2", kit_version="k") is True
        [change] = changes(book, "vectors")
        assert (change.before, change.after, change.kept_earlier, change.counted) == (
            10, 9, False, True,
        )  # fmt: skip
        assert [(t.name, t.before, t.after) for t in change.tests] == [
            ("random vectors", (1, "passed"), (0, "failed"))
        ]
        assert describe(change)[0] == f"{name} (attempt 1): 10 → 9 / 10"
        assert "\x1b" not in printable(describe(change)[0])  # what the command prints
        assert describe(change)[1] == "  random vectors: 1 passed → 0 failed"
        [earlier] = book.history("vectors")
        assert (earlier.result.score, earlier.outcome, earlier.by_run) == (10, "replaced", "run2")
        assert book.entries("vectors")[0].final_score == 9
        # never_lower: a lower regrade is refused, and said so
        lower = replace(before, run_id="run3", result=_result(name, 5))
        assert book.record(lower, rubric_hash="r3", kit_version="k", never_lower=True) is False
        assert book.entries("vectors")[0].final_score == 9
        assert book.is_current("vectors", name, before.content_hash, "r3", "k", before.attempt)
        [change] = changes(book, "vectors")
        assert (change.before, change.after, change.kept_earlier) == (9, 5, True)
        assert describe(change)[0].endswith("9 → 5 / 10, never_lower: the earlier result is kept")
        write_changes_csv([change], tmp_path / "changes.csv")
    merge([tmp_path / "out"], tmp_path / "merged")  # the history goes along
    with Gradebook(tmp_path / "merged") as merged:
        assert [(e.result.score, e.outcome) for e in merged.history("vectors")] == [
            (10, "replaced"), (5, "refused")
        ]  # fmt: skip
        assert changes(merged, "vectors") == [change]
    with (tmp_path / "changes.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [row["test"] for row in rows] == ["scale works", "random vectors"]
    assert rows[0]["student"] == "'" + name and rows[0]["kept_earlier"] == "True"
    assert (rows[0]["score_before"], rows[0]["score_after"]) == ("9", "5")
    assert (rows[1]["test_before"], rows[1]["test_after"]) == ("0 failed", "1 passed")


def test_a_gradebook_of_the_previous_schema_is_refused_by_name(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / FILE_NAME) as db:
        db.executescript(
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
            "INSERT INTO meta VALUES ('schema', '2');"
            "CREATE TABLE assignments (name TEXT PRIMARY KEY, rubric_hash TEXT NOT NULL);"
            "CREATE TABLE submissions (assignment TEXT, student TEXT);"
        )
    with pytest.raises(ConfigError, match=r"older kit \(one attempt per student.*new --out"):
        Gradebook(tmp_path)


# feedback ---------------------------------------------------------------------------------


def test_feedback_lists_the_attempts_and_when_the_last_extension_ends(
    tmp_path: Path, spec: AssignmentSpec
) -> None:
    extension = Extension("ada", datetime(2026, 12, 4, 23, 59, tzinfo=UTC))
    late = LatePolicy(DUE, penalty_per_day=10, extensions=(extension,))
    rubric = replace(spec, late=late, attempts="last_before_due")
    first = replace(_entry("ada", 6, "2026-12-01T12:00:00+00:00"), counted=True)
    second = replace(_entry("ada", 10, "2026-12-05T12:00:00+00:00", penalty=1.0),
                     attempt_number=2, counted=False)  # fmt: skip
    now = datetime(2026, 12, 3, tzinfo=UTC)
    [page] = write_feedback([first], rubric, tmp_path, now=now, attempts={"ada": [first, second]})
    markdown = page.with_suffix(".md").read_text(encoding="utf-8")
    assert "Due 2026-12-04T23:59:00+00:00 (your extension)." in markdown
    assert (
        "1 more tests (1 points) are graded too; their results are held back until "
        "2026-12-04T23:59:00+00:00, when the last extension ends."
    ) in markdown
    assert (
        "| 1 | 2026-12-01T12:00:00+00:00 | 5 of 5 points on the tests shown now "
        "| this attempt counts |" in markdown
    )
    assert (
        "| 2 | 2026-12-05T12:00:00+00:00 | 9 of 9 points on the tests shown now | does not count |"
        in markdown
    )
    html = page.read_text(encoding="utf-8")
    assert (
        "<th scope='row'>1</th><td>2026-12-01T12:00:00+00:00</td>"
        "<td>5 of 5 points on the tests shown now</td><td>this attempt counts</td>" in html
    )
    after = datetime(2026, 12, 6, tzinfo=UTC)
    [page] = write_feedback([first], rubric, tmp_path, now=after, attempts={"ada": [first, second]})
    markdown = page.with_suffix(".md").read_text(encoding="utf-8")
    # a day past ada's own date: 10% of the assignment's 12 points (10 automatic, 2 written)
    row = "| 2 | 2026-12-05T12:00:00+00:00 | 8\\.8 of 10 automatic points | does not count |"
    assert row in markdown
    [page] = write_feedback([first], rubric, tmp_path, now=after, attempts={"ada": [first]})
    assert "Your attempts" not in page.read_text(encoding="utf-8")  # one attempt: no history


# Gradescope -------------------------------------------------------------------------------


def test_gradescope_reads_the_students_own_due_date(tmp_path: Path, spec: AssignmentSpec) -> None:
    metadata = tmp_path / "submission_metadata.json"
    own = {"due_date": "2026-12-03T23:59:00.000000+00:00", "late_due_date": None}
    metadata.write_text(json.dumps({
        "created_at": "2026-12-03T08:00:00+00:00",
        "assignment": {"due_date": "2026-12-01T23:59:00+00:00", "late_due_date": None},
        "users": [{"email": "ben@example.com", "name": "Ben", "assignment": own}],
    }))  # fmt: skip
    policy = LatePolicy(DUE, penalty_per_day=10)
    mine = own_late_policy(metadata, policy)
    assert mine is not None and mine.due == datetime(2026, 12, 3, 23, 59, tzinfo=UTC)
    result = _result("ben", 10)
    assert late_penalty(result, datetime(2026, 12, 3, 8, tzinfo=UTC), mine) == 0.0
    assert late_penalty(result, datetime(2026, 12, 3, 8, tzinfo=UTC), policy) == 2.0
    rubric = replace(spec, late=policy)
    assert not results_released(metadata, rubric, now=datetime(2026, 12, 2, tzinfo=UTC))
    assert results_released(metadata, rubric, now=datetime(2026, 12, 4, tzinfo=UTC))
    # the rubric's extensions hold everyone's results back until the last one has passed
    held = replace(policy, extensions=(Extension("cy", datetime(2026, 12, 9, tzinfo=UTC)),))
    assert not results_released(
        metadata, replace(spec, late=held), now=datetime(2026, 12, 4, tzinfo=UTC)
    )
    assert results_released(
        metadata, replace(spec, late=held), now=datetime(2026, 12, 9, tzinfo=UTC)
    )
    metadata.write_text(json.dumps({"users": "nonsense", "assignment": []}))
    assert own_late_policy(metadata, policy) == policy


def test_attempts_a_run_did_not_list_are_named(tmp_path: Path) -> None:
    """A manifest whose time was corrected leaves the old attempt in the gradebook: it is
    named, never dropped unasked (a manifest of the new submissions alone lists no other)."""
    with Gradebook(tmp_path) as book:
        book.bind(assignment="vectors", rubric_hash="r")
        for entry in (_entry("ada", 6, "2026-12-01T10:00:00+00:00"),
                      _entry("ada", 9, "2026-12-01T10:05:00+00:00"),
                      _entry("ben", 7, "2026-12-01T09:00:00+00:00")):  # fmt: skip
            book.record(entry, rubric_hash="r", kit_version="k")
        items = [Item("ada", tmp_path / "a.py", datetime(2026, 12, 1, 10, 5, tzinfo=timezone.utc))]
        assert unlisted_attempts(book, "vectors", items) == (
            "ada at 2026-12-01T10:00:00+00:00",  # ben was not graded now: not named
        )
