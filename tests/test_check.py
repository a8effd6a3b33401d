"""`autograder check` on real modules: the reference, the stubs, mistakes, and hostile modules."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.cli import main
from autograder.course.course import Course
from autograder.course.rubric import AssignmentSpec
from autograder.errors import ConfigError
from autograder.grading.runners import grade_submission
from autograder.student.local_check import CheckReport, CheckTarget, locate, run_check


@pytest.fixture
def reference_source(course: Course, spec: AssignmentSpec) -> str:
    return course.reference_path(spec).read_text(encoding="utf-8")


def submit(tmp_path: Path, source: str, name: str = "positional_encoding.py") -> Path:
    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    return path


def check(path: Path, course: Course, *, timeout_s: float = 120.0) -> CheckReport:
    """Run the course's public tests on a module written outside the course folder."""
    tests_dir = course.public_tests_dir(course.rubric.assignment())
    return run_check(CheckTarget(submission=path, tests_dir=tests_dir), timeout_s=timeout_s)


def by_title(report: CheckReport, words: str) -> list[str]:
    return [f"{o.status}: {o.message}" for o in report.outcomes if words in o.title]


def test_reference_passes_every_public_test(course: Course, spec: AssignmentSpec) -> None:
    report = run_check(locate(course.reference_path(spec)))
    assert report.problem is None
    assert len(report.outcomes) >= 30
    assert {o.status for o in report.outcomes} == {"passed"}
    assert report.all_passed
    assert {o.part for o in report.outcomes} == {p.name for p in spec.parts}


def test_stubs_read_as_not_implemented(course: Course, spec: AssignmentSpec) -> None:
    report = run_check(locate(course.template_dir))
    assert report.outcomes and {o.status for o in report.outcomes} == {"not_implemented"}
    assert not report.all_passed
    messages = {o.message for o in report.outcomes}
    assert "`sinusoidal_encoding` is not implemented yet" in messages
    assert "`relative_dot` is not implemented yet" in messages


def test_swapped_sin_and_cos_is_named(
    tmp_path: Path, course: Course, reference_source: str
) -> None:
    swapped = reference_source.replace(
        "encoding[:, 0::2] = np.sin(angles[:, 0::2])", "encoding[:, 0::2] = np.cos(angles[:, 0::2])"
    ).replace(
        "encoding[:, 1::2] = np.cos(angles[:, 1::2])", "encoding[:, 1::2] = np.sin(angles[:, 1::2])"
    )
    assert swapped != reference_source
    report = check(submit(tmp_path, swapped), course)
    row_zero = by_title(report, "row 0 is")
    assert row_zero == [
        "failed: row 0 of sinusoidal_encoding(1, 8) should be [0, 1, 0, 1, …]; yours starts "
        "[1, 0, 1, 0, …]: your even columns start at 1 and your odd columns at 0: are sin and cos "
        "swapped?"
    ]
    table = by_title(report, "lesson 3's printed table")[0]
    assert "[0, 0] should be 0; yours is 1" in table and "are sin and cos swapped?" in table
    # the other parts do not depend on the encoding and still pass
    assert all(o.status == "passed" for o in report.outcomes if o.part in {"attention", "rotation"})


def test_one_wrong_function_fails_only_its_tests(
    tmp_path: Path, course: Course, reference_source: str
) -> None:
    no_scaling = reference_source.replace(
        "scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])",
        "scores = Q @ np.swapaxes(K, -1, -2)",
    )
    report = check(submit(tmp_path, no_scaling), course)
    failed = {o.part for o in report.outcomes if o.status != "passed"}
    assert failed == {"attention"}
    ravi = by_title(report, "as computed by hand")[0]
    assert "should be 1.888; yours is 1.964" in ravi and "not divided by √d" in ravi


def test_syntax_error_is_reported_with_its_line(tmp_path: Path, course: Course) -> None:
    report = check(
        submit(tmp_path, "import numpy as np\n\ndef sinusoidal_encoding(T, C)\n    pass\n"), course
    )
    assert {o.status for o in report.outcomes} == {"error"}
    assert report.outcomes[0].message == (
        "positional_encoding.py has a syntax error on line 3: expected ':'"
    )


def test_error_in_student_code_names_function_and_line(
    tmp_path: Path, course: Course, reference_source: str
) -> None:
    broken = reference_source.replace("theta = k * freq", "theta = k * fre")
    report = check(submit(tmp_path, broken), course)
    message = by_title(report, "rotation_matrix(3, 0.1) is")[0]
    line = broken.splitlines().index("    theta = k * fre") + 1
    assert message == (
        f"error: `rotation_matrix` raised NameError: name 'fre' is not defined "
        f"(positional_encoding.py, line {line})"
    )


def test_exit_at_import_is_a_message_not_a_crash(tmp_path: Path, course: Course) -> None:
    report = check(submit(tmp_path, "import os\nos._exit(0)\n"), course)
    assert report.outcomes == ()
    assert report.problem is not None and "ended before it could report" in report.problem
    assert not report.all_passed


def test_sys_exit_at_import_is_reported_per_test(tmp_path: Path, course: Course) -> None:
    report = check(submit(tmp_path, "import sys\nsys.exit(3)\n"), course)
    assert {o.message for o in report.outcomes} == {
        "positional_encoding.py called exit() while being imported; remove that call"
    }


def test_endless_loop_hits_the_time_limit(tmp_path: Path, course: Course) -> None:
    report = check(submit(tmp_path, "while True:\n    pass\n"), course, timeout_s=3)
    assert report.problem == (
        "the public tests did not finish within 3 s: does one of your functions loop forever?"
    )


def test_plain_pytest_in_the_template_runs_the_same_tests(
    tmp_path: Path, course: Course, spec: AssignmentSpec
) -> None:
    folder = tmp_path / "student"
    shutil.copytree(course.template_dir, folder)
    environment = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    stubs = subprocess.run(
        [sys.executable, "-m", "pytest"],
        cwd=folder,
        capture_output=True,
        text=True,
        env=environment,
    )
    assert stubs.returncode == 1
    assert "`sinusoidal_encoding` is not implemented yet" in stubs.stdout
    shutil.copy(course.reference_path(spec), folder / spec.module)
    solved = subprocess.run(
        [sys.executable, "-m", "pytest", "-q"],
        cwd=folder,
        capture_output=True,
        text=True,
        env=environment,
    )
    assert solved.returncode == 0, solved.stdout
    count = len(run_check(locate(folder)).outcomes)
    assert f"{count} passed" in solved.stdout


def test_locate_finds_module_and_tests(
    course: Course, spec: AssignmentSpec, tmp_path: Path
) -> None:
    from_folder = locate(course.template_dir)
    assert from_folder.submission == course.template_dir / spec.module
    assert from_folder.tests_dir == course.template_dir / "tests"
    from_reference = locate(course.reference_path(spec))
    assert from_reference.tests_dir == course.public_tests_dir(spec)
    with pytest.raises(ConfigError, match="does not exist"):
        locate(tmp_path / "missing.py")


def test_locate_outside_the_course_uses_the_current_folder(
    course: Course, spec: AssignmentSpec, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    submission = submit(tmp_path, "", name="my_attempt.py")
    monkeypatch.chdir(course.root)
    assert locate(submission).tests_dir == course.public_tests_dir(spec)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match="cannot tell which assignment"):
        locate(submission)


def test_cli_check_exit_codes_and_table(
    course: Course, spec: AssignmentSpec, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["check", str(course.reference_path(spec))]) == 0
    out = capsys.readouterr().out
    assert "Every public test passes" in out and "FAILED" not in out
    assert "without the grader's sandbox" in out  # a student's check is not isolated, and says so
    assert main(["check", str(course.template_dir)]) == 1
    out = capsys.readouterr().out
    assert "not implemented yet  encoding" in out
    broken = tmp_path / "positional_encoding.py"
    broken.write_text("def f(:\n", encoding="utf-8")
    assert main(["check", str(broken)]) == 1
    out = capsys.readouterr().out
    assert "No public test could run: positional_encoding.py has a syntax error on line 1" in out
    assert out.count("syntax error") == 1
    assert main(["check", "/nonexistent/positional_encoding.py"]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_cli_grade_prints_the_table_and_writes_every_format(
    course: Course, spec: AssignmentSpec, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert main(["grade", str(course.reference_path(spec)), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("positional_encoding: 100 / 100")
    suffixes = sorted(p.name.removeprefix("positional_encoding") for p in out.iterdir())
    assert suffixes == [".json", ".junit.xml", ".results.json", "gradebook.sqlite"]
    assert main(["grade", str(course.reference_path(spec)), "--format", "pdf"]) == 2
    assert "unknown --format 'pdf'" in capsys.readouterr().err


def test_grading_the_stubs_gives_zero_and_says_not_implemented(
    course: Course, spec: AssignmentSpec
) -> None:
    result = grade_submission(course, spec, course.template_dir)
    assert result.status == "graded" and result.score == 0
    assert {t.status for t in result.tests} == {"not_implemented"}
    assert "`sinusoidal_encoding` is not implemented yet" in {t.message for t in result.tests}


def test_grader_failure_exits_1_and_a_missing_layer_is_warned_once(
    course_copy: Course, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import autograder.cli
    from autograder.sandbox.isolation import Isolation

    weak = Isolation(bwrap=None, drop_user=False, hidden=())
    monkeypatch.setattr(autograder.cli, "choose", lambda **_: weak)
    monkeypatch.setattr(autograder.cli.os, "geteuid", lambda: 0)
    reference = course_copy.root / "reference" / "positional_encoding.py"
    attempts = [course_copy.root / "attempt.py", course_copy.root / "second.py"]
    for submission in attempts:
        submission.write_text(reference.read_text(), "utf-8")
    reference.write_text("def broken(:\n", "utf-8")  # the grader's own file is broken
    code = main(["grade", *map(str, attempts), "--course", str(course_copy.root)])
    captured = capsys.readouterr()
    assert code == 1
    assert captured.out.count("grader_error: the grader's runner failed") == 2
    assert captured.err == (
        'autograder: warning: grading without any file-system confinement (isolation = "unsafe": '
        "student code can read what its user can read, open sockets and fill the disk); "
        "without dropping to an unprivileged user\n"
    )


def test_a_hidden_test_file_that_does_not_load_is_a_config_error(
    course_copy: Course, spec: AssignmentSpec
) -> None:
    hidden = course_copy.assignment_dir(spec) / "hidden_tests" / "test_hidden_broken.py"
    hidden.write_text("import not_a_module\n", "utf-8")
    with pytest.raises(
        ConfigError, match=r"test_hidden_broken\.py could not be loaded: .*not_a_module"
    ):
        grade_submission(course_copy, spec, course_copy.reference_path(spec))
