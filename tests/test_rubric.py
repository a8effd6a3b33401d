"""grading.toml is read once into a frozen Rubric; each mistake in it names the file and key."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from autograder.cli import main
from autograder.course.course import Course
from autograder.course.rubric import load_rubric
from autograder.errors import ConfigError

VALID = """
[assignments.demo]
title = "Demo"
module = "demo.py"

[assignments.demo.parts.one]
title = "Part one"
points = 60

[assignments.demo.parts.two]
title = "Part two"
points = 40.5
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "grading.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_fixture_course_rubric(course: Course) -> None:
    vectors, series = course.rubric.assignments
    assert (vectors.name, vectors.module, series.name, series.module) == (
        "vectors",
        "vectors.py",
        "series",
        "series.py",
    )
    assert {p.name: p.points for p in vectors.parts} == {"numeric": 6, "symbolic": 4}
    assert (vectors.max_score, series.max_score) == (10, 10)
    assert (vectors.preload, series.preload) == ((), ("colorsys",))
    assert [m.name for m in vectors.manual] == ["why_unit"]
    with pytest.raises(ConfigError, match=r"several assignments .*name one with --assignment"):
        course.rubric.assignment()


def test_preload_names_modules(tmp_path: Path) -> None:
    text = VALID.replace('module = "demo.py"', 'module = "demo.py"\npreload = ["os.path", 3]')
    with pytest.raises(
        ConfigError, match=r"\[assignments.demo.preload\] must be a list of module names"
    ):
        load_rubric(write(tmp_path, text))


def test_parsed_values_are_frozen(tmp_path: Path) -> None:
    rubric = load_rubric(write(tmp_path, VALID))
    spec = rubric.assignment("demo")
    assert spec.module_name == "demo" and spec.max_score == 100.5
    assert spec.part("two").points == 40.5
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.title = "changed"  # type: ignore[misc]
    assert rubric.assignment_for_module("demo.py") is spec
    assert rubric.assignment_for_module("other.py") is None


@pytest.mark.parametrize(
    ("old", "new", "complaint"),
    [
        ('title = "Demo"', 'title = "Demo"\ndue = 3', "unknown key 'due' in [assignments.demo]"),
        (
            "points = 60",
            'points = "sixty"',
            "[assignments.demo.parts.one.points] must be a number, got str 'sixty'",
        ),
        ("points = 60", "points = -1", "[assignments.demo.parts.one.points] must be positive"),
        ("points = 60", "points = true", "[assignments.demo.parts.one.points] must be a number"),
        (
            'module = "demo.py"',
            'module = "demo"',
            "[assignments.demo.module] must be a Python file name",
        ),
        (
            'module = "demo.py"',
            "",
            "[assignments.demo.module] must be a non-empty string, got nothing",
        ),
        ("[assignments.demo]", "[assignment.demo]", "unknown key 'assignment' in the top level"),
    ],
)
def test_mistakes_name_the_file_and_key(tmp_path: Path, old: str, new: str, complaint: str) -> None:
    assert old in VALID
    path = write(tmp_path, VALID.replace(old, new, 1))
    with pytest.raises(ConfigError) as error:
        load_rubric(path)
    assert str(error.value).startswith(str(path))
    assert complaint in str(error.value)


def test_invalid_toml_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_rubric(write(tmp_path, "[assignments\n"))
    with pytest.raises(ConfigError, match="no such file"):
        load_rubric(tmp_path / "absent.toml")


def test_unknown_assignment_lists_the_known_ones(tmp_path: Path) -> None:
    rubric = load_rubric(write(tmp_path, VALID))
    with pytest.raises(ConfigError, match="has no assignment 'nope'; it defines demo"):
        rubric.assignment("nope")


def test_bad_rubric_exits_2_with_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path, VALID.replace("points = 60", 'points = "x"'))
    assert main(["release", "--course", str(tmp_path)]) == 2
    assert "[assignments.demo.parts.one.points] must be a number" in capsys.readouterr().err


def test_no_course_found_says_what_to_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match=r"no grading\.toml in .* or any folder above it"):
        Course.find(tmp_path)


def test_limits_tolerance_visibility_and_total(tmp_path: Path) -> None:
    text = VALID.replace(
        'module = "demo.py"',
        'module = "demo.py"\npoints = 100.5\nseed = 7\n'
        "[assignments.demo.limits]\ncall_timeout_s = 2.5\nmemory_mb = 512\n"
        'bubblewrap = "required"\n'
        "[assignments.demo.tolerance]\nrtol = 1e-4\n"
        '[assignments.demo.visibility]\nhidden = "hidden"\n',
    )
    spec = load_rubric(write(tmp_path, text)).assignment()
    assert spec.limits.call_timeout_s == 2.5 and spec.limits.memory_mb == 512
    assert spec.bubblewrap == "required" and spec.seed == 7
    assert spec.tolerance == {"rtol": 1e-4, "atol": 1e-6}
    assert (spec.public_visibility, spec.hidden_visibility) == ("visible", "hidden")


@pytest.mark.parametrize(
    ("addition", "complaint"),
    [
        ("points = 99", "[assignments.demo.points] is 99, but its parts add up to 100.5"),
        (
            "[assignments.demo.limits]\nmemory = 3",
            "unknown key 'memory' in [assignments.demo.limits]",
        ),
        (
            "[assignments.demo.limits]\ncall_timeout_s = 0",
            "[assignments.demo.limits.call_timeout_s] must be positive",
        ),
        ('[assignments.demo.limits]\nbubblewrap = "maybe"', "must be auto, required or off"),
        (
            '[assignments.demo.limits]\nisolation = "none"',
            "limits.isolation] must be confined or unsafe",
        ),
        ('[assignments.demo.visibility]\nhidden = "secret"', "must be one of visible, hidden"),
        (
            '[assignments.demo.tolerance]\nrtol = "small"',
            "[assignments.demo.tolerance.rtol] must be a number",
        ),
    ],
)
def test_new_keys_are_checked(tmp_path: Path, addition: str, complaint: str) -> None:
    text = (
        VALID.replace('module = "demo.py"', f'module = "demo.py"\n{addition}')
        if "points" in addition
        else VALID + addition
    )
    with pytest.raises(ConfigError) as error:
        load_rubric(write(tmp_path, text))
    assert complaint in str(error.value)


def test_symbolic_policy(tmp_path: Path) -> None:
    table = '[assignments.demo.symbolic]\nproof_timeout_s = 0.5\nundecided = "none"\nexact = true\n'
    policy = load_rubric(write(tmp_path, VALID + table)).assignment().symbolic
    assert (policy.proof_timeout_s, policy.undecided, policy.exact) == (0.5, "none", True)
    assert policy.screen_points == 50
    with pytest.raises(ConfigError, match="must be full or none"):
        load_rubric(write(tmp_path, VALID + '[assignments.demo.symbolic]\nundecided = "half"\n'))
