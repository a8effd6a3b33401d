"""An assignment's own folder extends the engine: its warm-up and preloads reach the sandbox,
its grading hash follows its own files only, and what an instructor gets wrong is named."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from autograder.course.course import Course
from autograder.course.rubric import load_rubric
from autograder.errors import ConfigError
from autograder.grading.gradebook import FILE_NAME, Gradebook
from autograder.grading.runners import grade_submission

PROBE = """
import sys, builtins
print("PRELOADED", "colorsys" in sys.modules, "WARMED", getattr(builtins, "WARMED", None))
"""


def test_the_warm_up_and_the_preloads_reach_the_sandbox(
    course_copy: Course, tmp_path: Path
) -> None:
    series = course_copy.assignment("series")
    series.warm_up_file.write_text("import builtins\nbuiltins.WARMED = 'by series'\n", "utf-8")
    probe = tmp_path / "series.py"
    probe.write_text(series.reference.read_text() + PROBE, "utf-8")
    result = grade_submission(series, probe)
    assert result.status == "graded" and result.score == 10
    assert "PRELOADED True WARMED by series" in result.output


def test_a_broken_warm_up_is_named(course_copy: Course) -> None:
    vectors = course_copy.assignment("vectors")
    vectors.warm_up_file.write_text("raise RuntimeError('the warm-up broke')\n", "utf-8")
    result = grade_submission(vectors, vectors.reference)
    assert result.status == "grader_error"
    assert "warm_up.py failed: RuntimeError: the warm-up broke" in (result.message or "")
    vectors.warm_up_file.write_text("def (:\n", "utf-8")
    with pytest.raises(ConfigError, match=r"warm_up\.py: invalid syntax"):
        vectors.warm_up_source()
    vectors.warm_up_file.write_text("#" * 70_000, "utf-8")
    with pytest.raises(ConfigError, match="larger than 65536 bytes"):
        vectors.warm_up_source()


def test_a_preload_that_does_not_import_is_named(course_copy: Course) -> None:
    rubric = course_copy.root / "grading.toml"
    rubric.write_text(rubric.read_text().replace('"colorsys"', '"no_such_module"'), "utf-8")
    series = Course.load(course_copy.root).assignment("series")
    result = grade_submission(series, series.reference)
    assert result.status == "grader_error"
    assert "[assignments.series] preload: No module named 'no_such_module'" in (
        result.message or ""
    )


def test_the_grading_hash_follows_the_assignments_own_files(course_copy: Course) -> None:
    vectors, series = course_copy.assignment("vectors"), course_copy.assignment("series")
    before = (vectors.grading_hash(), series.grading_hash())
    (series.hidden_tests / "test_hidden_sums.py").write_text("# changed\n", "utf-8")
    (vectors.sample_class / "new_sample.py").write_text("x = 1\n", "utf-8")  # not a grading file
    assert vectors.grading_hash() == before[0] and series.grading_hash() != before[1]
    rubric = course_copy.root / "grading.toml"
    rubric.write_text(rubric.read_text().replace("seed = 777", "seed = 778"), "utf-8")
    reloaded = Course.load(course_copy.root)
    assert reloaded.assignment("vectors").grading_hash() == before[0]


@pytest.mark.parametrize("name", ["../escape", "with space", "1st", "a" * 65, "ünï"])
def test_an_assignment_name_must_be_a_plain_folder_name(tmp_path: Path, name: str) -> None:
    rubric = tmp_path / "grading.toml"
    rubric.write_text(
        f'[assignments."{name}"]\ntitle = "t"\nmodule = "m.py"\n'
        '[assignments."' + name + '".parts.p]\ntitle = "p"\npoints = 1\n',
        encoding="utf-8",
    )
    with pytest.raises(ConfigError, match="an assignment's name names its folders"):
        load_rubric(rubric)


def test_a_gradebook_of_an_older_kit_is_refused_by_name(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / FILE_NAME) as db:
        db.execute("CREATE TABLE submissions (student TEXT PRIMARY KEY)")
    with pytest.raises(ConfigError, match=r"written by an older kit .*new --out folder"):
        Gradebook(tmp_path)


def test_words_may_name_an_expression_as_the_reference_writes_it(course_copy: Course) -> None:
    """words.toml may give an expression its words (`Q.shape[-1]`, however spaced): it is
    looked up as Python's unparser writes it; a key that is no expression is named."""
    vectors = course_copy.assignment("vectors")
    words = vectors.folder / "words.toml"
    words.write_text('[quantities]\nx = "the vector x"\n"Q.shape[ -1 ]" = "the width d_k"\n',
                     "utf-8")  # fmt: skip
    assert vectors.load_words() == {"x": "the vector x", "Q.shape[-1]": "the width d_k"}
    words.write_text('[quantities]\n"x +" = "half a sum"\n', "utf-8")
    with pytest.raises(ConfigError, match=r"'x \+' in \[quantities\] is neither a name nor"):
        vectors.load_words()
