"""What a student reads once, in `check` and in plain `pytest`: whole titles, each test under the
function it grades, labels apart from indices, numbers that differ where they differ, and no
traceback through the kit."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
import sympy as sp

from autograder.checks import CheckFailure, assert_close, assert_equivalent
from autograder.checks.failure import format_pair, format_value, hidden_from_students
from autograder.checks.graded import returned_by
from autograder.protocol.calls import Call
from autograder.report.terminal import render_check
from autograder.student.local_check import CheckReport, CheckTarget, run_check

MODULE = '''
import numpy as np


def turn(x):
    """x reversed (a vector only)."""
    x = np.asarray(x, dtype=float)
    if x.ndim != 1:
        raise ValueError("turn takes a vector")
    return x[::-1].copy()


def mix(x):
    """turn(x) + 1; this one is wrong: 2 * turn(x) + 1."""
    return 2 * turn(x) + 1


def double(x):
    """2 x (it never refuses anything, though text should be refused)."""
    return np.array([2 * v for v in x])


def pair(x):
    """(x, 3 x)."""
    return np.asarray(x, dtype=float), 3 * np.asarray(x, dtype=float)


def fragile(x):
    """turn of x as a row: turn refuses it."""
    return turn(np.atleast_2d(x))
'''

TESTS = '''
import numpy as np
import pytest

from autograder.checks import assert_close, assert_raises

X = np.array([1.0, 2.0, 3.0])


def test_mix_against_turn(student):
    """mix(x) is turn(x) + 1 on x = [1, 2, 3]: the expected values come from turn, which
    the test calls after mix

    A second paragraph, which the title leaves out."""
    out = student.mix(X.copy())
    moved = student.turn(X.copy()) + 1
    assert_close(moved, out, what="turn(x) + 1 against mix(x)")


def test_double_of_a_turn(student):
    """double(turn(x))[1:] is [4, 2]"""
    assert_close(student.double(student.turn(X.copy()))[1:], [4.0, 2.0], what="double")


def test_second_of_the_pair(student):
    """the second of pair(x) is 3 x"""
    first, second = student.pair(X.copy())
    assert_close(second, 3 * X, what="the second of the pair")


def test_fragile(student):
    """fragile(x) is x reversed"""
    assert_close(student.fragile(X.copy()), X[::-1], what="fragile(x)")


def test_double_refuses_text(student):
    """double refuses text with ValueError"""
    student.double(X.copy())
    student.turn(X.copy())
    assert_raises(ValueError, student.double, "text", what="doubling text")


def test_made_anew(student):
    """a value the test makes from mix's result: named by the message"""
    student.turn(X.copy())
    twice = 2 * student.mix(X.copy())
    student.turn(X.copy())
    assert_close(twice, [8.0, 6.0, 4.0], what="mix, doubled")


def test_pair_then_double(student):
    """pair(x) starts with x, and double(x) is 2 x: a test of its helper, then of its claim"""
    assert_close(student.pair(X.copy())[0], X, what="the first of the pair")
    assert_close(student.double(X.copy()), 2 * X, what="double(x)")


def test_without_a_docstring(student):
    assert_close(student.turn(X.copy()), X[::-1], what="turn(x)")
'''

RELEASED_INI = (
    "[pytest]\n"
    "addopts = -p autograder.grading.pytest_plugin -p autograder.report.pytest_terminal"
    " -p no:cacheprovider --import-mode=importlib\n"
    "testpaths = tests\n"
    "autograder_submission = things.py\n"
)
"""As `autograder release` writes a released folder's pytest.ini."""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A released-like folder: the student's module, its tests, the released pytest.ini."""
    root = tmp_path_factory.mktemp("released")
    (root / "tests").mkdir()
    (root / "things.py").write_text(MODULE, encoding="utf-8")
    (root / "tests" / "test_things.py").write_text(TESTS, encoding="utf-8")
    (root / "pytest.ini").write_text(RELEASED_INI, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def report(folder: Path) -> CheckReport:
    return run_check(CheckTarget(folder / "things.py", folder / "tests"))


def outcome(report: CheckReport, name: str) -> SimpleNamespace:
    (found,) = [o for o in report.outcomes if o.name == name]
    return SimpleNamespace(**found.to_dict())


def test_a_title_is_the_docstrings_whole_first_paragraph(report: CheckReport) -> None:
    assert outcome(report, "test_mix_against_turn").title == (
        "mix(x) is turn(x) + 1 on x = [1, 2, 3]: the expected values come from turn, which "
        "the test calls after mix"
    )
    assert outcome(report, "test_without_a_docstring").title == "test_without_a_docstring"


def test_a_test_is_filed_under_the_function_whose_value_its_checks_examined(
    report: CheckReport,
) -> None:
    expected = {
        "test_mix_against_turn": (
            "failed",
            "mix",
        ),  # the expected side is mix's; turn is called last
        "test_double_of_a_turn": ("passed", "double"),  # a view of double's result
        "test_second_of_the_pair": ("passed", "pair"),  # an item of pair's result
        "test_fragile": ("error", "fragile"),  # the call that raised, not turn inside it
        "test_double_refuses_text": ("failed", "double"),  # the call assert_raises made
        "test_made_anew": ("failed", "mix"),  # no call returned it: the message names mix
        "test_pair_then_double": ("passed", "double"),  # the last function its checks examined
        "test_without_a_docstring": ("passed", "turn"),
    }
    found = {o.name: (o.status, o.function) for o in report.outcomes}
    assert found == expected
    assert outcome(report, "test_fragile").message.startswith("`turn` raised ValueError")
    only_mix = report.only("mix")
    assert {o.name for o in only_mix.outcomes} == {"test_mix_against_turn", "test_made_anew"}


def test_check_wraps_a_long_title_apart_from_its_message(report: CheckReport) -> None:
    lines = render_check(report.only("mix")).splitlines()
    start = next(i for i, line in enumerate(lines) if "FAILED   mix(x) is turn(x) + 1" in line)
    title, rest = lines[start], lines[start + 1]
    assert len(title) <= 100 and rest.startswith(" " * 15) and "calls after mix" in rest
    assert lines[start + 2].startswith(" " * 4 + "FAILED   a value the test makes")  # next test
    assert lines[start - 1] == (  # its message is what to fix first, above: not said twice
        "    what to fix first: turn(x) + 1 against mix(x) should be [7, 5, 3]; yours is [4, 3, 2]"
    )


def test_an_index_is_kept_apart_from_its_label() -> None:
    with pytest.raises(CheckFailure) as failure:
        assert_close(np.eye(2), np.zeros((2, 2)), what="f shifted by 7")
    assert str(failure.value) == (
        "f shifted by 7, entry [0, 0] should be 0; yours is 1 (1 more of its 4 entries differ)"
    )


def test_a_message_s_numbers_get_the_digits_that_tell_them_apart() -> None:
    assert format_pair(0.52921, 0.52919) == ("0.52921", "0.52919")
    assert format_pair(0.831, 0.8137) == ("0.831", "0.8137")  # four decimals when they do
    assert format_pair(1.0, 1.0000001) == ("1", "1.0000001")
    assert format_pair(1234567.0, 1234568.0) == ("1234567", "1234568")
    assert format_pair(float("nan"), float("nan")) == ("nan", "nan")  # gives up, never loops
    assert format_value(0.52921) == "0.5292"  # a number alone keeps four
    expected = np.full((7, 12), 0.52921)
    with pytest.raises(CheckFailure) as failure:
        assert_close(expected - 2e-5, expected, what="g", rtol=0, atol=1e-6)
    assert str(failure.value) == (
        "g, entry [0, 0] should be 0.52921; yours is 0.52919 (83 more of its 84 entries differ)"
    )
    with pytest.raises(CheckFailure) as failure:
        assert_close(np.array([0.0, 0.52919]), [0.0, 0.52921], what="v", rtol=0, atol=1e-6)
    assert str(failure.value) == "v should be [0, 0.52921]; yours is [0, 0.52919]"


def test_a_symbolic_counterexample_reads_two_different_numbers() -> None:
    x = sp.Symbol("x")
    with pytest.raises(CheckFailure) as failure:
        assert_equivalent(x * (1 + sp.Float(1e-7)), x, what="h(x)", symbols=(x,), exact=False)
    said = re.search(r"yours is (\S+) but it should be (\S+)", str(failure.value))
    assert said is not None and said[1] != said[2], str(failure.value)


def test_a_value_is_traced_to_the_call_that_returned_it() -> None:
    result = np.arange(6.0).reshape(2, 3)
    items = (np.zeros(2), np.ones(2))
    calls = [
        Call("f", (), {}, result),
        Call("g", (), {}, items),
        Call("count", (), {}, 3),
        Call("broke", (), {}, None, raised="ValueError"),
    ]
    assert returned_by(result, calls) == "f"
    assert returned_by(result[1, ::2], calls) == "f"  # a view of it
    assert returned_by(items[1], calls) == "g"  # an item of a returned tuple
    assert returned_by(3, calls) is None  # a small number is one object in many places
    assert returned_by(None, calls) is None
    assert returned_by(result.copy(), calls) is None  # made anew: no call returned it


def test_the_kit_s_frames_are_hidden_only_for_a_student_s_fault() -> None:
    assert hidden_from_students(SimpleNamespace(value=CheckFailure("x should be 1")))
    assert not hidden_from_students(SimpleNamespace(value=KeyError("a bug of the kit")))


def run_pytest(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "COLUMNS": "200"}
    return subprocess.run(
        [sys.executable, "-m", "pytest", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        env=environment,
    )


def test_plain_pytest_says_what_check_says_without_the_kit_s_source(folder: Path) -> None:
    run = run_pytest(folder)
    out = run.stdout
    assert run.returncode == 1, out + run.stderr
    assert "autograder/" not in out and "def assert_close" not in out  # no frame of the kit
    failures = out.split("= FAILURES =")[1].split("= autograder check =")[0]
    sections = re.split(r"\n_+ (\w+) _+\n", failures)[1:]
    bodies = dict(zip(sections[::2], sections[1::2], strict=True))
    body = bodies["test_mix_against_turn"].strip()
    assert re.fullmatch(
        r"tests/test_things\.py:\d+: turn\(x\) \+ 1 against mix\(x\) should be \[7, 5, 3\]; "
        r"yours is \[4, 3, 2\]",
        body,
    )
    assert len(bodies["test_double_refuses_text"].strip().splitlines()) == 1
    assert "raise ValueError" in bodies["test_fragile"]  # the student's own error: its traceback
    assert "input_watch" not in bodies["test_fragile"]
    section = out.split("= autograder check =")[1].split("= short test summary info =")[0]
    lines = section.splitlines()
    assert "  mix: 2 failed" in lines
    assert any(line.startswith("    FAILED   mix(x) is turn(x) + 1") for line in lines)
    assert "8 public tests: 4 passed, 3 failed, 1 ERROR" in lines
    assert re.search(
        r"^FAILED tests/test_things\.py::test_mix_against_turn - turn\(x\) \+ 1 against mix",
        out,
        re.M,
    )


def test_a_traceback_style_asked_for_is_pytest_s_own_without_the_kit_s_frames(
    folder: Path,
) -> None:
    out = run_pytest(folder, "--tb=long", "-k", "mix_against").stdout
    assert "assert_close(moved, out" in out  # the test's line, with pytest's traceback
    assert "autograder/checks" not in out and "autograder/grading" not in out
