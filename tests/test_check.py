"""`autograder check` on real modules: the reference, the stubs, mistakes, and hostile modules."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.authoring.sample_class import sample_class
from autograder.cli import main
from autograder.course.assignment import Assignment
from autograder.course.course import Course
from autograder.course.rubric import AssignmentSpec
from autograder.errors import ConfigError
from autograder.grading.runners import grade_submission
from autograder.student.local_check import CheckReport, CheckTarget, locate, run_check


@pytest.fixture
def reference_source(assignment: Assignment) -> str:
    return assignment.reference.read_text(encoding="utf-8")


def submit(tmp_path: Path, source: str, name: str = "vectors.py") -> Path:
    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    return path


def check(path: Path, course: Course, *, timeout_s: float = 120.0) -> CheckReport:
    """Run the `vectors` public tests on a module written outside the course folder."""
    tests_dir = course.assignment("vectors").public_tests
    return run_check(CheckTarget(submission=path, tests_dir=tests_dir), timeout_s=timeout_s)


def by_title(report: CheckReport, words: str) -> list[str]:
    return [f"{o.status}: {o.message}" for o in report.outcomes if words in o.title]


def test_reference_passes_every_public_test(assignment: Assignment, spec: AssignmentSpec) -> None:
    report = run_check(locate(assignment.reference))
    assert report.problem is None
    assert len(report.outcomes) == 7
    assert {o.status for o in report.outcomes} == {"passed"}
    assert report.all_passed
    assert {o.part for o in report.outcomes} == {p.name for p in spec.parts}


def test_stubs_read_as_not_implemented(assignment: Assignment) -> None:
    report = run_check(locate(assignment.release_dir))
    assert report.outcomes and {o.status for o in report.outcomes} == {"not_implemented"}
    assert not report.all_passed
    messages = {o.message for o in report.outcomes}
    assert "`normalise` is not implemented yet" in messages
    assert "`square_sum` is not implemented yet" in messages


def test_one_wrong_function_fails_only_its_tests(
    tmp_path: Path, course: Course, reference_source: str
) -> None:
    by_sum = reference_source.replace("return v / norm", "return v / v.sum()")
    assert by_sum != reference_source
    report = check(submit(tmp_path, by_sum), course)
    failed = {o.title for o in report.outcomes if o.status != "passed"}
    # normalise's own test and cosine's, which calls it; square_sum and the proof still pass
    assert failed == {
        "normalise([3, 4]) is [0.6, 0.8]",
        "cosine([1, 0], [1, 1]) is 1/√2",
        "normalise(v) is v / |v| and leaves v alone, here and in every other test's call",
    }
    (message,) = by_title(report, "normalise([3, 4]) is")
    assert message == "failed: normalise([3, 4]) should be [0.6, 0.8]; yours is [0.4286, 0.5714]"


def test_syntax_error_is_reported_with_its_line(tmp_path: Path, course: Course) -> None:
    report = check(submit(tmp_path, "import numpy as np\n\ndef normalise(v)\n    pass\n"), course)
    assert {o.status for o in report.outcomes} == {"error"}
    assert report.outcomes[0].message == "vectors.py has a syntax error on line 3: expected ':'"


def test_error_in_student_code_names_function_and_line(
    tmp_path: Path, course: Course, reference_source: str
) -> None:
    broken = reference_source.replace("norm = np.linalg.norm(v)", "norm = np.linalg.norm(w)")
    report = check(submit(tmp_path, broken), course)
    message = by_title(report, "normalise([3, 4]) is")[0]
    line = broken.splitlines().index("    norm = np.linalg.norm(w)") + 1
    assert message == (
        f"error: `normalise` raised NameError: name 'w' is not defined (vectors.py, line {line})"
    )


def test_exit_at_import_is_a_message_not_a_crash(tmp_path: Path, course: Course) -> None:
    report = check(submit(tmp_path, "import os\nos._exit(0)\n"), course)
    assert report.outcomes == ()
    assert report.problem is not None and "ended before it could report" in report.problem
    assert not report.all_passed


def test_sys_exit_at_import_is_reported_per_test(tmp_path: Path, course: Course) -> None:
    report = check(submit(tmp_path, "import sys\nsys.exit(3)\n"), course)
    assert {o.message for o in report.outcomes} == {
        "vectors.py called exit() while being imported; remove that call"
    }


def test_the_check_process_ends_without_the_interpreters_teardown(
    tmp_path: Path, course: Course, reference_source: str
) -> None:
    """Once pytest is done and the results are written, the check's child ends at once: the
    student's atexit handler never runs, and every outcome is still there."""
    marker = tmp_path / "atexit-ran"
    handler = f"atexit.register(pathlib.Path({str(marker)!r}).write_text, 'ran')"
    path = submit(tmp_path, f"{reference_source}\nimport atexit, pathlib\n{handler}\n")
    report = check(path, course)
    assert report.all_passed and report.outcomes
    assert not marker.exists()
    tests = str(course.assignment("vectors").public_tests)
    plugins = ["-p", "autograder.grading.pytest_plugin", "-p", "no:cacheprovider"]
    command = [sys.executable, "-m", "pytest", "-q", *plugins, tests]
    plain = subprocess.run(  # plain pytest tears the interpreter down: the handler runs
        [*command, f"--submission={path}"], capture_output=True, text=True, cwd=tmp_path
    )
    assert marker.read_text(encoding="utf-8") == "ran", plain.stdout[-3000:] + plain.stderr


def test_endless_loop_hits_the_time_limit(tmp_path: Path, course: Course) -> None:
    report = check(submit(tmp_path, "while True:\n    pass\n"), course, timeout_s=3)
    assert report.problem == (
        "the public tests did not finish within 3 s: does one of your functions loop forever?"
    )


def test_plain_pytest_in_the_template_runs_the_same_tests(
    tmp_path: Path, assignment: Assignment, spec: AssignmentSpec
) -> None:
    folder = tmp_path / "student"
    shutil.copytree(assignment.release_dir, folder)
    environment = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    stubs = subprocess.run(
        [sys.executable, "-m", "pytest"],
        cwd=folder,
        capture_output=True,
        text=True,
        env=environment,
    )
    assert stubs.returncode == 1
    assert "`normalise` is not implemented yet" in stubs.stdout
    shutil.copy(assignment.reference, folder / spec.module)
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
    course: Course, assignment: Assignment, spec: AssignmentSpec, tmp_path: Path
) -> None:
    from_folder = locate(assignment.release_dir)
    assert from_folder.submission == assignment.release_dir / spec.module
    assert from_folder.tests_dir == assignment.release_dir / "tests"
    from_reference = locate(assignment.reference)
    assert from_reference.tests_dir == assignment.public_tests
    series = course.assignment("series")
    assert locate(series.reference).tests_dir == series.public_tests  # by its module's name
    with pytest.raises(ConfigError, match="does not exist"):
        locate(tmp_path / "missing.py")


def test_locate_outside_the_course_uses_the_current_folder(
    course: Course, assignment: Assignment, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    submission = submit(tmp_path, "", name="my_attempt.py")
    monkeypatch.chdir(course.root)
    assert locate(submission, assignment="vectors").tests_dir == assignment.public_tests
    with pytest.raises(ConfigError, match=r"several assignments .*: name one with --assignment"):
        locate(submission)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match="cannot tell which assignment"):
        locate(submission)


def test_cli_check_exit_codes_and_table(
    course: Course,
    assignment: Assignment,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(course.root)
    assert main(["check", str(assignment.reference)]) == 0
    out = capsys.readouterr().out
    assert "Every public test passes" in out and "FAILED" not in out
    assert "without the grader's sandbox" in out  # a student's check is not isolated, and says so
    assert main(["check", str(assignment.release_dir)]) == 1
    out = capsys.readouterr().out
    assert "  normalise: not implemented yet (3 tests)" in out
    broken = tmp_path / "vectors.py"
    broken.write_text("def f(:\n", encoding="utf-8")
    assert main(["check", str(broken)]) == 1
    out = capsys.readouterr().out
    assert "No public test could run: vectors.py has a syntax error on line 1" in out
    assert out.count("syntax error") == 1
    assert main(["check", "/nonexistent/vectors.py"]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_cli_grade_prints_the_table_and_writes_every_format(
    course: Course, assignment: Assignment, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    chosen = ["--course", str(course.root), "--assignment", "vectors"]
    assert main(["grade", str(assignment.reference), "--out", str(out), *chosen]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("vectors: 10 / 10")
    assert sorted(p.name for p in out.iterdir()) == ["gradebook.sqlite", "vectors"]
    suffixes = sorted(p.name.removeprefix("vectors") for p in (out / "vectors").iterdir())
    assert suffixes == [".json", ".junit.xml", ".results.json"]
    assert main(["grade", str(assignment.reference), "--format", "pdf", *chosen]) == 2
    assert "unknown --format 'pdf'" in capsys.readouterr().err
    assert main(["grade", str(assignment.reference), "--course", str(course.root)]) == 2
    assert "name one with --assignment" in capsys.readouterr().err


def test_cli_grade_refuses_to_find_nothing(
    course: Course, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A CI glob that matched nothing, or an empty class folder, must not look like success."""
    chosen = ["--course", str(course.root), "--assignment", "vectors"]
    empty = tmp_path / "class"
    (empty / "_template").mkdir(parents=True)
    (empty / ".git").mkdir()
    (empty / "notes.txt").write_text("not a submission")
    assert main(["grade", str(empty), "--out", str(tmp_path / "out"), *chosen]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"autograder: no submission found in {empty}: a submission is a .py")
    assert not (tmp_path / "out").exists()
    assert main(["grade", *chosen]) == 2
    assert "no submission to grade: name files or folders" in capsys.readouterr().err
    manifest = tmp_path / "manifest.csv"
    manifest.write_text("student_id,path,submitted_at\n\n")
    assert main(["grade", "--manifest", str(manifest), *chosen]) == 2
    assert f"the manifest {manifest} lists no submission" in capsys.readouterr().err


@pytest.mark.parametrize("verb", ["grade", "validate"])
@pytest.mark.parametrize(
    ("jobs", "problem"),
    [("0", "must be at least 1, not 0"), ("-1", "must be at least 1, not -1"),
     ("two", "'two' is not a whole number")],
)  # fmt: skip
def test_jobs_must_be_a_positive_count(
    verb: str, jobs: str, problem: str, course: Course, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main([verb, "--jobs", jobs, "--course", str(course.root)])
    assert exited.value.code == 2
    assert f"error: argument --jobs: {problem}" in capsys.readouterr().err


def test_grading_the_stubs_gives_zero_and_says_not_implemented(assignment: Assignment) -> None:
    result = grade_submission(assignment, assignment.release_dir)
    assert result.status == "graded" and result.score == 0
    assert {t.status for t in result.tests} == {"not_implemented"}
    assert "`normalise` is not implemented yet" in {t.message for t in result.tests}


def test_grader_failure_exits_1_and_a_missing_layer_is_warned_once(
    course_copy: Course, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import autograder.grading.isolation_warning
    from autograder.sandbox.isolation import Isolation

    weak = Isolation(bwrap=None, drop_user=False, hidden=())
    monkeypatch.setattr(autograder.grading.isolation_warning, "choose", lambda **_: weak)
    monkeypatch.setattr(autograder.grading.isolation_warning.os, "geteuid", lambda: 0)
    reference = course_copy.root / "reference" / "vectors.py"
    attempts = [course_copy.root / "attempt.py", course_copy.root / "second.py"]
    for submission in attempts:
        submission.write_text(reference.read_text(), "utf-8")
    reference.write_text("def broken(:\n", "utf-8")  # the grader's own file is broken
    code = main(["grade", *map(str, attempts), "--course", str(course_copy.root),
                 "--assignment", "vectors"])  # fmt: skip
    captured = capsys.readouterr()
    assert code == 1
    assert captured.out.count("grader error: the grader's runner failed") == 2
    assert captured.err == (
        'autograder: warning: grading without any file-system confinement (isolation = "unsafe": '
        "student code can read what its user can read, open sockets and fill the disk); "
        "without dropping to an unprivileged user\n"
    )


def test_a_hidden_test_file_that_does_not_load_is_a_config_error(course_copy: Course) -> None:
    vectors = course_copy.assignment("vectors")
    hidden = vectors.hidden_tests / "test_hidden_broken.py"
    hidden.write_text("import not_a_module\n", "utf-8")
    with pytest.raises(
        ConfigError, match=r"test_hidden_broken\.py could not be loaded: .*not_a_module"
    ):
        grade_submission(vectors, vectors.reference)


# What a student reads: tests grouped by function, what to fix first, each cause once.

REPOSITORY = Path(__file__).resolve().parents[1]


def test_outcomes_name_the_function_they_are_about(
    tmp_path: Path, course: Course, reference_source: str
) -> None:
    by_sum = reference_source.replace("return v / norm", "return v / v.sum()")
    report = check(submit(tmp_path, by_sum), course)
    functions = {o.title: o.function for o in report.outcomes}
    assert functions["scale([1, 2], 3) is [3, 6]"] == "scale"
    assert functions["normalise([3, 4]) is [0.6, 0.8]"] == "normalise"
    assert functions["cosine([1, 0], [1, 1]) is 1/√2"] == "cosine"
    assert functions["square_sum(a, b) equals (a + b)**2"] == "square_sum"
    assert report.functions == [
        "scale", "normalise", "cosine", "square_sum", "PYTHAGORAS_PROOF"
    ]  # fmt: skip
    assert report.order[:4] == ("scale", "normalise", "cosine", "square_sum")


def test_one_wrong_function_leads_with_what_to_fix_first(
    tmp_path: Path, course: Course, reference_source: str
) -> None:
    from autograder.report.terminal import render_check

    by_sum = reference_source.replace("return v / norm", "return v / v.sum()")
    out = render_check(check(submit(tmp_path, by_sum), course))
    lines = out.splitlines()
    start = lines.index("  normalise: 1 passed, 2 failed")
    assert lines[start + 1] == (
        "    what to fix first: normalise([3, 4]) should be [0.6, 0.8]; yours is [0.4286, 0.5714]"
    )
    assert out.count("normalise([3, 4]) should be [0.6, 0.8]") == 1  # above its tests, alone
    assert lines[start + 2 : start + 5] == [
        "    FAILED   normalise([3, 4]) is [0.6, 0.8]",
        "    FAILED   normalise(v) is v / |v| and leaves v alone, here and in every other test's"
        " call",
        "             (same cause as above)",
    ]
    assert "  scale: 1 passed" in lines and "  square_sum: 1 passed" in lines
    assert "passed   scale([1, 2], 3)" not in out  # counted, not listed, without --verbose
    groups = [line for line in lines if line.startswith("  ") and not line.startswith("    ")]
    assert groups == [
        "  scale: 1 passed", "  normalise: 1 passed, 2 failed", "  cosine: 1 failed",
        "  square_sum: 1 passed", "  PYTHAGORAS_PROOF: 1 passed",
    ]  # fmt: skip
    verbose = render_check(check(submit(tmp_path, by_sum), course), verbose=True)
    assert "    passed   scale([1, 2], 3) is [3, 6]" in verbose.splitlines()


def test_a_function_not_written_yet_is_one_line(
    tmp_path: Path, course: Course, reference_source: str
) -> None:
    from autograder.report.terminal import render_check

    start = reference_source.index("def cosine")
    end = reference_source.index("def square_sum")
    stub = (
        reference_source[:start]
        + ("def cosine(u, v):\n    raise NotImplementedError\n\n\n")
        + reference_source[end:]
    )
    out = render_check(check(submit(tmp_path, stub), course))
    assert "  cosine: not implemented yet (1 test)" in out.splitlines()
    assert "`cosine` is not implemented yet" not in out
    stubs = render_check(run_check(locate(course.assignment("vectors").release_dir)))
    assert "  normalise: not implemented yet (3 tests)" in stubs.splitlines()
    assert stubs.count("not implemented yet (") == 5


def test_a_shared_cause_is_printed_once(tmp_path: Path) -> None:
    """The i-for-2i mistake: the release's hint table names it as the grader does, and that
    cause leads the function; a test's own advice stays in its message, later tests point up
    to the cause, and a picked-out entry is named by its index in the whole array."""
    from autograder.report.terminal import render_check

    folder = tmp_path / "positional_encoding"
    shutil.copytree(REPOSITORY / "student_template" / "positional_encoding", folder)
    course = Course.load(REPOSITORY)
    samples = {s.name: s for s in sample_class(course.assignment("positional_encoding"))}
    (folder / "positional_encoding.py").write_text(samples["bug_exponent_i"].source, "utf-8")
    report = run_check(locate(folder))
    advice = "column 2 (pair i = 1) oscillates too fast: the exponent is 2i/C, not i/C"
    failed = [o for o in report.outcomes if o.status == "failed"]
    assert {o.function for o in failed} == {"sinusoidal_encoding"}
    cause = "sinusoidal_encoding: the exponent uses i instead of 2i"
    hints = [o.hint for o in failed if o.hint]
    assert hints and all(h.startswith(cause) for h in hints), hints
    out = render_check(report)
    assert " ".join(out.split()).count(advice) == 1  # in its own test's message, once
    assert "    what to fix first: the exponent uses i instead of 2i" in out
    assert "(same cause as above)" in out
    said = " ".join(out.split())
    assert "sinusoidal_encoding(8, 16), entry [7, 8] should be 0.0699" in said  # not a corner's
    assert "at rows" not in out
    verbose = render_check(report, verbose=True)
    assert "[T=4, C=-2, named=C]" in verbose and "[T=2.5, C=8, named=T]" in verbose
    assert "[4--2-C]" not in verbose


def test_check_one_function_and_k(
    course: Course,
    assignment: Assignment,
    reference_source: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    folder = tmp_path / "vectors"
    shutil.copytree(assignment.release_dir, folder)
    (folder / "vectors.py").write_text(
        reference_source.replace("return v / norm", "return v / v.sum()"), encoding="utf-8"
    )
    assert main(["check", str(folder), "scale"]) == 0  # only scale's test: it passes
    out = capsys.readouterr().out
    assert "1 public tests of scale: 1 passed" in out and "normalise" not in out
    monkeypatch.chdir(folder)
    assert main(["check", "normalise"]) == 1  # a lone name that is no path is a function
    out = capsys.readouterr().out
    assert "3 public tests of normalise: 1 passed, 2 failed" in out and "cosine" not in out
    assert main(["check", ".", "sqrt"]) == 1
    out = capsys.readouterr().out
    assert "no public test is about sqrt; the tests are about: scale, normalise, cosine" in out
    assert main(["check", "vectors.py", "-k", "scale or square"]) == 0
    assert "2 public tests: 2 passed" in capsys.readouterr().out
    assert main(["check", "-k", "nothing_matches_this"]) == 1
    assert "no public test matches -k 'nothing_matches_this'" in capsys.readouterr().out
    assert main(["check", ".", "not-a-name"]) == 2
    assert main(["check", "missing.py"]) == 2


ENTRY_POINT_PLUGIN = """
import os
from pathlib import Path

Path(os.environ["PLUGIN_MARKER"]).write_text("loaded", encoding="utf-8")
"""


def _installed_plugin(site: Path) -> None:
    """A package that registers a pytest plugin by entry point, as anyio's does."""
    (site / "marker_plugin.py").write_text(ENTRY_POINT_PLUGIN, encoding="utf-8")
    info = site / "marker_plugin-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: marker-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[pytest11]\nmarker = marker_plugin\n")


def test_check_loads_no_plugin_another_package_registers(
    tmp_path: Path, assignment: Assignment, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    _installed_plugin(site)
    marker = tmp_path / "marker"
    monkeypatch.setenv("PLUGIN_MARKER", str(marker))
    monkeypatch.setenv("PYTHONPATH", str(site))
    monkeypatch.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", raising=False)
    plain = subprocess.run(  # the package's plugin is found: pytest alone loads it
        [sys.executable, "-m", "pytest", "--co", "-q", str(assignment.public_tests)],
        capture_output=True,
        text=True,
    )
    assert marker.read_text(encoding="utf-8") == "loaded", plain.stdout
    marker.unlink()
    report = run_check(locate(assignment.reference))
    assert report.all_passed
    assert not marker.exists()
