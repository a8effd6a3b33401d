"""A term graded for real on the fixture course's `vectors`: an extension, two attempts per
student, a regrade refused by never_lower and one accepted, and an extension withdrawn.

The samples score 6 (bug_normalise_by_sum, which fails the hidden random test) and 10
(correct_vectorised) of 10 automatic points; the assignment has 2 more points of written answers
(which the samples leave unanswered), and the rubric takes 10% of those 12 points per started
day late."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from autograder.cli import main
from autograder.course.assignment import Assignment
from autograder.course.course import Course
from autograder.grading.gradebook import Gradebook

BUG, CORRECT = "bug_normalise_by_sum", "correct_vectorised"
RANDOM_TEST = "scale, normalise and cosine match the reference on random vectors"


def _grade(course: Course, manifest: Path, out: Path, *extra: str) -> None:
    command = ["grade", "--manifest", str(manifest), "--out", str(out), "--course",
               str(course.root), "--assignment", "vectors", "--jobs", "2",
               "--format", "json"]  # fmt: skip
    assert main([*command, *extra]) == 0


def _manifest(path: Path, rows: list[tuple[str, str, str]], samples: Path) -> Path:
    lines = ["student_id,path,submitted_at"]
    lines += [f"{student},{samples / (sample + '.py')},{at}" for student, sample, at in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _counted(out: Path) -> dict[str, tuple[int, float, float, float]]:
    """Each student's counted attempt: (its number, score, late penalty, final score)."""
    with Gradebook(out) as book:
        return {
            e.student: (e.attempt_number, e.result.score, e.late_penalty, e.final_score)
            for e in book.entries("vectors")
        }


def _all(out: Path) -> dict[str, list[tuple[float, float, bool]]]:
    """Every attempt: (score, late penalty, counted), in time order."""
    with Gradebook(out) as book:
        return {
            student: [(e.result.score, e.late_penalty, e.counted) for e in attempts]
            for student, attempts in book.attempts("vectors").items()
        }


def test_a_term_with_an_extension_attempts_and_regrades(
    tmp_path: Path,
    course_copy: Course,
    assignment: Assignment,
    capsys: pytest.CaptureFixture[str],
) -> None:
    rubric = course_copy.root / "grading.toml"
    text = rubric.read_text(encoding="utf-8")
    text = text.replace("seed = 424242\n", 'seed = 424242\nattempts = "last_before_due"\n')
    text += (
        '\n[assignments.vectors.late]\ndue = "2026-12-01T23:59:00Z"\npenalty_per_day = 10\n'
        'extensions = "extensions.csv"\n'
    )
    rubric.write_text(text, encoding="utf-8")
    extensions = course_copy.root / "extensions.csv"
    extensions.write_text("student,extra_days,reason\nben,2,illness\n", encoding="utf-8")
    samples, out = assignment.sample_class, tmp_path / "out"
    first_rows = [
        ("ada", BUG, "2026-12-01T12:00:00+00:00"),  # on time
        ("ben", BUG, "2026-12-01T12:00:00+00:00"),
        ("ben", CORRECT, "2026-12-03T08:00:00+00:00"),  # late, but before ben's own date
    ]
    _grade(course_copy, _manifest(tmp_path / "m1.csv", first_rows, samples), out)
    every_row = [*first_rows, ("ada", CORRECT, "2026-12-02T12:00:00+00:00")]  # 12 h late
    capsys.readouterr()
    _grade(course_copy, _manifest(tmp_path / "m2.csv", every_row, samples), out)
    assert (
        "3 submission(s) already graded with this rubric: current, not graded again "
        "(lateness is applied when grades are read" in capsys.readouterr().out
    )

    # last_before_due: ada's on-time attempt counts; ben's second, on time by his extension
    assert _counted(out) == {"ada": (1, 6.0, 0.0, 6.0), "ben": (2, 10.0, 0.0, 10.0)}
    assert _all(out) == {
        "ada": [(6.0, 0.0, True), (10.0, 1.2, False)],
        "ben": [(6.0, 0.0, False), (10.0, 0.0, True)],
    }
    grades = tmp_path / "grades.csv"
    assert (
        main(["gradebook", str(out), "--csv", str(grades), "--course", str(course_copy.root)]) == 0
    )
    with grades.open(encoding="utf-8") as handle:
        table = {row["student"]: row["final_score"] for row in csv.DictReader(handle)}
    assert table == {"ada": "6.0", "ben": "10.0"}

    feedback = tmp_path / "feedback"
    common = [str(out), "--out", str(feedback), "--course", str(course_copy.root)]
    assert main(["feedback", *common, "--after-due"]) == 0
    ada = (feedback / "vectors" / "ada.md").read_text(encoding="utf-8")
    assert (
        "| 1 | 2026-12-01T12:00:00+00:00 | 6 of 10 automatic points | this attempt counts |" in ada
    )
    assert (
        "| 2 | 2026-12-02T12:00:00+00:00 | 8\\.8 of 10 automatic points | does not count |" in ada
    )
    assert main(["feedback", *common, "--before-due"]) == 0
    ben = (feedback / "vectors" / "ben.md").read_text(encoding="utf-8")
    assert "Due 2026-12-03T23:59:00+00:00 (your extension)." in ben
    assert "held back until 2026-12-03T23:59:00+00:00, when the last extension ends." in ben

    # the hidden random test now fails for everyone; never_lower keeps the earlier 10s
    hidden = (
        course_copy.root / "assignments" / "vectors" / "hidden_tests" / "test_hidden_numeric.py"
    )
    source = hidden.read_text(encoding="utf-8")
    broken = source.replace(
        f'    """{RANDOM_TEST}"""\n', f'    """{RANDOM_TEST}"""\n    assert False\n'
    )
    assert broken != source
    hidden.write_text(broken, encoding="utf-8")
    rubric.write_text(
        text.replace("attempts =", "never_lower = true\nattempts ="), encoding="utf-8"
    )
    _grade(course_copy, tmp_path / "m2.csv", out)  # a re-run: the tests changed
    assert _counted(out) == {"ada": (1, 6.0, 0.0, 6.0), "ben": (2, 10.0, 0.0, 10.0)}
    capsys.readouterr()
    assert main(["gradebook", str(out), "--changes", "--assignment", "vectors"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "vectors: 2 attempt(s) changed by the latest regrade",
        "ada (attempt 2, an attempt that does not count): 10 → 9 / 10, never_lower: the "
        "earlier result is kept",
        f"  {RANDOM_TEST}: 1 passed → 0 failed",
        "ben (attempt 2): 10 → 9 / 10, never_lower: the earlier result is kept",
        f"  {RANDOM_TEST}: 1 passed → 0 failed",
    ]

    # without never_lower, --regrade replaces them: ben's counted attempt drops to 9
    rubric.write_text(text, encoding="utf-8")
    _grade(course_copy, tmp_path / "m2.csv", out, "--regrade")
    assert _counted(out) == {"ada": (1, 6.0, 0.0, 6.0), "ben": (2, 9.0, 0.0, 9.0)}
    capsys.readouterr()
    changes = tmp_path / "changes.csv"
    assert main(["gradebook", str(out), "--changes", "--csv", str(changes)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "vectors: 2 attempt(s) changed by the latest regrade"
    assert "ben (attempt 2): 10 → 9 / 10" in printed
    with changes.open(encoding="utf-8") as handle:
        rows = [(r["student"], r["attempt"], r["counted"], r["score_before"], r["score_after"],
                 r["kept_earlier"], r["test_before"], r["test_after"])
                for r in csv.DictReader(handle)]  # fmt: skip
    assert rows == [
        ("ada", "2", "False", "10.0", "9.0", "False", "1 passed", "0 failed"),
        ("ben", "2", "True", "10.0", "9.0", "False", "1 passed", "0 failed"),
    ]

    # the extension withdrawn: re-penalised at the next run, nobody regraded
    extensions.write_text("student,extra_days,reason\n", encoding="utf-8")
    capsys.readouterr()
    _grade(course_copy, tmp_path / "m2.csv", out)
    printed = capsys.readouterr().out
    assert "4 submission(s) already graded with this rubric: current, not graded again" in printed
    assert (
        "late penalty or counted attempt brought up to date with the late policy and extensions "
        "now, without grading again: 1 student(s): ben" in printed
    )
    assert _all(out)["ben"] == [(6.0, 0.0, True), (9.0, 2.4, False)]
    assert _counted(out)["ben"] == (1, 6.0, 0.0, 6.0)
