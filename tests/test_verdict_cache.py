"""`check` keeps the symbolic verdicts it learnt between runs, on the student's machine: named by
the public tests' files, read with bounds, ignored when damaged, never holding a verdict that
only says this machine ran out of time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autograder.checks import memo
from autograder.checks.context import CheckContext, activate, active
from autograder.course.course import Course
from autograder.student import verdict_cache
from autograder.student.local_check import CheckTarget, run_check

KEY = "ab" * 32


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(verdict_cache.CACHE_ENV, str(tmp_path / "cache"))
    return tmp_path / "cache" / "verdicts"


def make_tests(folder: Path, text: str = "def test_x():\n    pass\n") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "test_a.py").write_text(text, encoding="utf-8")
    return folder


def test_the_file_is_named_by_the_tests_and_changes_with_them(
    tmp_path: Path, cache_dir: Path
) -> None:
    tests = make_tests(tmp_path / "tests")
    first = verdict_cache.cache_file(tests)
    assert first is not None and first.parent == cache_dir
    (tests / "__pycache__").mkdir()
    (tests / "__pycache__" / "x.pyc").write_bytes(b"\0")
    assert verdict_cache.cache_file(tests) == first  # bytecode is not the tests
    make_tests(tests, "def test_x():\n    assert 1\n")
    assert verdict_cache.cache_file(tests) != first


def test_too_many_test_files_keep_nothing(
    tmp_path: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tests = make_tests(tmp_path / "tests")
    (tests / "b.txt").write_text("b", encoding="utf-8")
    monkeypatch.setattr(verdict_cache, "MAX_TEST_FILES", 1)
    assert verdict_cache.cache_file(tests) is None
    monkeypatch.setattr(verdict_cache, "MAX_TEST_FILES", 10)
    monkeypatch.setattr(verdict_cache, "MAX_TEST_BYTES", 5)
    assert verdict_cache.cache_file(tests) is None


def test_saved_verdicts_are_read_back_newest_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "v" / "c.json"
    verdict_cache.save(path, {KEY: "proved"}, {"cd" * 32: {"steps": [], "credit": 1.0}})
    assert verdict_cache.load(path) == {KEY: "proved", "cd" * 32: {"steps": [], "credit": 1.0}}
    monkeypatch.setattr(verdict_cache, "MAX_ENTRIES", 1)
    verdict_cache.save(path, verdict_cache.load(path), {"ef" * 32: None})
    assert verdict_cache.load(path) == {"ef" * 32: None}
    assert [p.name for p in path.parent.iterdir()] == ["c.json"]  # no temporary left


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"\xff\xfe not text",
        b"[1, 2, 3]",
        b'{"verdicts": {}}',
        b"[" * 100_000,
        json.dumps({"verdicts": {KEY: "proved"}, "digest": "0" * 32}).encode(),  # edited body
        json.dumps({"verdicts": [KEY], "digest": "x"}).encode(),
    ],
    ids=["empty", "not-utf8", "a-list", "no-digest", "deep-nesting", "edited", "wrong-shape"],
)
def test_a_damaged_file_reads_as_no_verdicts(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "c.json"
    path.write_bytes(content)
    assert verdict_cache.load(path) == {}


def test_a_file_too_large_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "c.json"
    verdict_cache.save(path, {}, {KEY: "proved" * 100})
    assert verdict_cache.load(path) == {KEY: "proved" * 100}
    monkeypatch.setattr(verdict_cache, "MAX_FILE_BYTES", 100)
    assert verdict_cache.load(path) == {}


def test_keys_that_are_not_digests_are_dropped(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    verdict_cache.save(path, {}, {KEY: "proved", "../../etc": "x", "AB" * 32: "y"})
    assert verdict_cache.load(path) == {KEY: "proved"}


def test_an_unwritable_cache_is_silent(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    verdict_cache.save(blocker / "sub" / "c.json", {}, {KEY: "proved"})  # a file in the way
    assert blocker.read_text(encoding="utf-8") == ""


def test_a_verdict_that_ran_out_of_time_is_not_kept() -> None:
    before = active()
    try:
        verdicts = activate(CheckContext()).verdicts
        memo.remembered(KEY, lambda: "timeout", lasting=lambda v: v == "proved")
        memo.remembered("cd" * 32, lambda: "proved", lasting=lambda v: v == "proved")
        assert memo.remembered(KEY, lambda: "proved") == "timeout"  # this run keeps it
        assert verdicts.lasting(verdicts.learnt) == {"cd" * 32: "proved"}
    finally:
        activate(before)


def test_check_reads_what_the_run_before_learnt(course: Course, cache_dir: Path) -> None:
    assignment = course.assignment("vectors")
    target = CheckTarget(submission=assignment.reference, tests_dir=assignment.public_tests)
    first = run_check(target)
    files = list(cache_dir.iterdir())
    assert len(files) == 1
    learnt = verdict_cache.load(files[0])
    assert learnt  # the symbolic tests' verdicts
    second = run_check(target)
    assert [(o.nodeid, o.status, o.message) for o in second.outcomes] == [
        (o.nodeid, o.status, o.message) for o in first.outcomes
    ]
    files[0].write_bytes(b"{ damaged")
    third = run_check(target)
    assert [o.status for o in third.outcomes] == [o.status for o in first.outcomes]
    assert verdict_cache.load(files[0]) == learnt  # written again, whole
