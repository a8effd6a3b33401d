"""Student sessions, driven directly: calls, failures, limits, restarts, and the trust boundary."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from autograder.course.assignment import Assignment
from autograder.course.course import Course
from autograder.grading.runners import grade_submission
from autograder.protocol.faults import Location, SubmissionImportError
from autograder.sandbox.client import (
    BoundaryRefused,
    StudentCrash,
    StudentSession,
    StudentTimeout,
    SubmissionTimeExhausted,
)
from autograder.sandbox.isolation import choose
from autograder.sandbox.limits import Limits

LIMITS = Limits(call_timeout_s=2, submission_timeout_s=30, memory_mb=1024, output_kb=1)


def session_for(tmp_path: Path, source: str, limits: Limits = LIMITS) -> StudentSession:
    folder = tmp_path / "submission"
    folder.mkdir()
    tmp_path.chmod(0o755)
    module = folder / "vectors.py"
    module.write_text(source, encoding="utf-8")
    isolation = choose(hidden=[Path(__file__).resolve().parents[1]])
    return StudentSession(
        submission=module, module_name="vectors", limits=limits, isolation=isolation
    )


@pytest.fixture
def session(tmp_path: Path) -> Iterator[StudentSession]:
    source = """
import numpy as np
import time

CONSTANT = [1, 2]

def double(x):
    return x * 2

def clear(X):
    X[...] = 0
    return None

def sleepy():
    time.sleep(60)

def bad_value(*args, **kwargs):
    return object()

def object_array():
    return np.array([1.0, None], dtype=object)

def boom():
    raise ValueError("T must be >= 0")

def custom():
    class Oops(Exception):
        pass
    raise Oops("mine")

def chatty():
    print("x" * 5000)
    return 1

def die():
    import os
    os._exit(3)
"""
    with session_for(tmp_path, source) as created:
        yield created


def test_values_and_constants_cross(session: StudentSession) -> None:
    assert np.array_equal(session.call("double", (np.arange(3.0),), {}), [0, 2, 4])
    assert session.attribute("CONSTANT") == [1, 2]


def test_in_place_changes_reach_the_caller(session: StudentSession) -> None:
    X = np.ones((2, 2))
    session.call("clear", (X,), {})
    assert np.array_equal(X, np.zeros((2, 2)))


def test_student_exceptions_keep_their_class_and_line(session: StudentSession) -> None:
    with pytest.raises(ValueError, match="T must be >= 0") as error:
        session.call("boom", (), {})
    line = session.submission.read_text().splitlines().index("def boom():") + 2
    assert error.value.location == Location("boom", "vectors.py", line)
    with pytest.raises(Exception, match="Oops: mine") as custom:
        session.call("custom", (), {})
    assert type(custom.value).__name__ == "StudentCodeError"


def test_refused_value_is_a_failure_not_a_crash(session: StudentSession) -> None:
    with pytest.raises(BoundaryRefused, match="object object, which the grader cannot accept"):
        session.call("bad_value", (), {})
    with pytest.raises(  # the call named with its arguments, written only when it failed
        BoundaryRefused, match=r"^bad_value\(<array \(2, 3\)>, 'text', k=\[1, 2\]\) returned a "
    ):
        session.call("bad_value", (np.zeros((2, 3)), "text"), {"k": [1, 2]})
    assert session.call("double", (2,), {}) == 4  # the same worker goes on
    # the advice is what the tests accept: an array of numbers (a list would fail them too)
    with pytest.raises(BoundaryRefused, match=r"dtype object.*np\.asarray\(result, dtype=float\)"):
        session.call("object_array", (), {})


def test_a_test_child_cannot_take_gigabytes() -> None:
    """The runner's child that runs a submission's tests gets an address-space limit: a reply
    or message that would take gigabytes ends that child, not the grader."""
    from autograder.sandbox.limits import limit_address_space

    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through its exit code
        code = 3
        try:
            limit_address_space(256)
            bytearray(2 * 2**30)
        except MemoryError:
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_timeout_kills_and_the_function_is_not_called_again(session: StudentSession) -> None:
    started = time.monotonic()
    with pytest.raises(StudentTimeout, match=r"sleepy\(\) did not return within 2 s"):
        session.call("sleepy", (), {})
    assert time.monotonic() - started < 4
    with pytest.raises(StudentTimeout, match="not called again"):
        session.call("sleepy", (), {})
    assert session.call("double", (3,), {}) == 6  # a fresh worker answers
    assert session.events == ["timeout"]


def test_exit_is_a_crash_and_the_next_call_restarts(session: StudentSession) -> None:
    with pytest.raises(StudentCrash, match="ended the worker process with exit code 3 during die"):
        session.call("die", (), {})
    assert session.call("double", (5,), {}) == 10


def test_output_is_capped(session: StudentSession) -> None:
    session.call("chatty", (), {})
    session.close()
    text = session.output.text()
    assert text.startswith("x" * 1000) and "more bytes of output were dropped" in text


def test_missing_function_and_import_errors(tmp_path: Path) -> None:
    missing_error = pytest.raises(SubmissionImportError, match="does not define `normalise`")
    with session_for(tmp_path, "x = 1\n") as missing, missing_error:
        missing.call("normalise", (2, 2), {})
    other = tmp_path / "other"
    other.mkdir()
    import_error = pytest.raises(SubmissionImportError, match="No module named 'not_a_module'")
    with session_for(other, "import not_a_module\n") as broken, import_error:
        broken.call("f", (), {})


def test_submission_budget_is_enforced(tmp_path: Path) -> None:
    # The first call has 2 s to spare on a loaded machine; the second has at most 1 s left.
    limits = Limits(call_timeout_s=4, submission_timeout_s=3)
    with session_for(tmp_path, "import time\ndef slow():\n    time.sleep(2)\n", limits) as slow:
        slow.call("slow", (), {})
        with pytest.raises(SubmissionTimeExhausted, match="budget of 3 s ran out during slow"):
            slow.call("slow", (), {})


def test_environment_is_scrubbed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADER_SECRET_TOKEN", "s3cr3t")
    with session_for(tmp_path, "import os\ndef env():\n    return dict(os.environ)\n") as spy:
        seen = spy.call("env", (), {})
    assert "GRADER_SECRET_TOKEN" not in seen and "s3cr3t" not in str(seen)
    assert seen["OPENBLAS_NUM_THREADS"] == "1"


def test_trusted_process_never_imports_the_submission(
    tmp_path: Path, assignment: Assignment, monkeypatch: pytest.MonkeyPatch
) -> None:
    grader_cwd = tmp_path / "grader"
    grader_cwd.mkdir()
    monkeypatch.chdir(grader_cwd)
    submission = tmp_path / "marker.py"
    submission.write_text(
        "import os, pathlib, sys\n"
        "pathlib.Path('IMPORTED-HERE').write_text(' '.join(sys.argv))\n"
        "print('imported by', ' '.join(sys.argv), 'in', os.getcwd())\n",
        encoding="utf-8",
    )
    result = grade_submission(assignment, submission)
    assert "imported by" in result.output and '"slot":' in result.output  # the zygote's argv
    root = assignment.course.root
    markers = [p for p in (grader_cwd, root, tmp_path) if (p / "IMPORTED-HERE").exists()]
    assert markers == []  # only the worker's private (and now removed) folder ever held one


def test_grading_without_bubblewrap_still_isolates_what_it_can(
    course_copy: Course, tmp_path: Path
) -> None:
    rubric = course_copy.root / "grading.toml"
    off = rubric.read_text().replace('bubblewrap = "auto"', 'bubblewrap = "off"')
    rubric.write_text(off, "utf-8")
    orphan = tmp_path / "orphan.py"
    correct = course_copy.assignment("vectors").sample_class / "correct_vectorised.py"
    orphan.write_text(ORPHAN + correct.read_text(), "utf-8")
    if os.geteuid() == 0 and not os.stat("/root").st_mode & 0o001:  # this interpreter: /root
        course_off = Course.load(course_copy.root)
        refused = grade_submission(course_off.assignment("vectors"), orphan)
        assert refused.status == "grader_error"
        assert "the worker would run as root" in str(refused.message)
        assert 'isolation = "unsafe"' in str(refused.message)
    rubric.write_text(off.replace('isolation = "confined"', 'isolation = "unsafe"'), "utf-8")
    result = grade_submission(Course.load(course_copy.root).assignment("vectors"), orphan)
    assert result.score == 10 and "bwrap" not in result.isolation
    assert result.isolation[:2] == ("process", "rlimits")
    engine = str(Path(__file__).resolve().parents[1]).encode()  # another checkout may grade too
    alive = [
        p
        for p in Path("/proc").iterdir()
        if p.name.isdigit()
        and b"autograder.sandbox.zygote" in _cmdline(p)
        and engine in _cmdline(p)
    ]
    assert alive == []


ORPHAN = """\
import os as _os
import time as _time

# leaves a process behind, in a session of its own, that would outlive the grader
if hasattr(_os, "fork") and _os.fork() == 0:
    _os.setsid()
    if _os.fork() == 0:
        while True:
            _time.sleep(1)
    _os._exit(0)

"""


def _cmdline(process: Path) -> bytes:
    try:
        return (process / "cmdline").read_bytes()
    except OSError:
        return b""


def test_with_bubblewrap_the_worker_sees_only_what_python_needs(
    tmp_path: Path, course: Course
) -> None:
    probe = (
        "import os\n"
        "def look(paths):\n"
        "    return {p: os.path.exists(p) for p in paths}\n"
        "def listing(path):\n"
        "    return sorted(os.listdir(path))\n"
    )
    secrets = [str(course.root / "reference"), str(course.root / "grading.toml"),
               str(course.root / "assignments"), "/home", "/srv", "/var", "/opt"]  # fmt: skip
    with session_for(tmp_path, probe) as spy:
        if "bwrap" not in spy.isolation.layers:
            raise AssertionError("install bubblewrap (apt-get install bubblewrap) for this test")
        assert spy.call("look", (secrets,), {}) == dict.fromkeys(secrets, False)
        under_tmp = set(spy.call("listing", ("/tmp",), {})) - {"submission", "inbox"}
        allowed_tops = {Path(p).relative_to("/tmp").parts[0] for p in _allowed_under_tmp()}
        assert under_tmp <= allowed_tops


def _allowed_under_tmp() -> list[str]:
    from autograder.sandbox.isolation import _allowed_folders

    return [str(p) for p in _allowed_folders() if Path("/tmp") in p.parents]


def test_runner_and_worker_use_the_graders_engine_from_any_folder(
    tmp_path: Path, course: Course, assignment: Assignment
) -> None:
    """A folder holding another `autograder` (a second checkout) must not change the engine."""
    import os
    import subprocess
    import sys

    import autograder

    decoy = tmp_path / "autograder"
    decoy.mkdir()
    (decoy / "__init__.py").write_text("raise ImportError('the decoy engine was imported')\n")
    engine = str(Path(autograder.__file__).resolve().parents[1])
    script = (
        f"import sys; sys.path.insert(0, {engine!r}); "
        "from autograder.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    command = ["grade", str(assignment.reference), "--course", str(course.root),
               "--assignment", "vectors"]  # fmt: skip
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, "-c", script, *command],
        cwd=tmp_path, capture_output=True, text=True, env=environment,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("vectors: 10 / 10")


def test_a_forged_report_of_modified_arguments_touches_no_other_value(tmp_path: Path) -> None:
    """Student code that writes its own answer on the worker's channel, naming arguments that
    do not exist, a key that is a list, and data that is not an array: the grader keeps only
    what names a real array argument, and never writes a value of another shape into it."""
    source = """
import os
import sys
import numpy as np
from autograder.sandbox import channel, codec

def forge(X):
    frame = sys._getframe()
    while "response_fd" not in frame.f_locals:
        frame = frame.f_back
    buffers = []
    array = codec.encode(np.zeros(2), buffers)
    channel.send(frame.f_locals["response_fd"], {"kind": "value", "value": codec.encode(1.0, []),
        "mutated": [[7, array], ["nope", array], [[0], array], [0, {"bad": 1}],
                    [0, codec.encode(np.full(5, 9.0), buffers)]]}, buffers=buffers)
    os._exit(0)
"""
    with session_for(tmp_path, source) as session:
        X = np.ones(3)
        assert session.call("forge", (X,), {}) == 1.0
        assert np.array_equal(X, np.ones(3))
        assert session.calls[-1].modified == (0,)  # a forged report costs its author only


@pytest.mark.parametrize(
    "forged",
    [
        'np.array([["7"]])',  # text the copy would parse
        "np.array([[7]])",  # another dtype
        "sympy.ImmutableMatrix([[sympy.Pow(3, 10**7, evaluate=False)]])",  # to evaluate: 9 s
    ],
)
def test_a_modified_argument_is_copied_back_only_as_its_own_dtype(
    tmp_path: Path, forged: str
) -> None:
    """A report of a modified argument that is not an array of the argument's dtype and shape
    is ignored: copying it would parse text or evaluate a SymPy power, in the grader."""
    source = f"""
import os
import sys
import numpy as np
import sympy
from autograder.sandbox import channel, codec

def forge(X):
    frame = sys._getframe()
    while "response_fd" not in frame.f_locals:
        frame = frame.f_back
    buffers = []
    report = codec.encode({forged}, buffers)
    channel.send(frame.f_locals["response_fd"], {{"kind": "value",
        "value": codec.encode(1.0, []), "mutated": [[0, report]]}}, buffers=buffers)
    os._exit(0)
"""
    with session_for(tmp_path, source) as session:
        X = np.ones((1, 1))
        started = time.monotonic()
        assert session.call("forge", (X,), {}) == 1.0
        assert time.monotonic() - started < LIMITS.call_timeout_s
        assert np.array_equal(X, np.ones((1, 1)))


@pytest.mark.parametrize("megabytes", [150, 80])
def test_a_reply_too_large_to_read_fails_its_test_and_the_next_call_goes_on(
    tmp_path: Path, megabytes: int
) -> None:
    """Student code that writes its own reply on the worker's channel: `[[],[],…]` of 150 MB
    (refused by its length before it is read) or 80 MB (read, refused by its count of parts).
    The call fails as a value too large to send, not as a grader error; a fresh worker goes on."""
    source = f"""
import os
import sys

def hostile():
    frame = sys._getframe()
    while "response_fd" not in frame.f_locals:
        frame = frame.f_back
    fd, chunk = frame.f_locals["response_fd"], b"[]," * 350_000
    count = {megabytes} * 10**6 // len(chunk)
    os.write(fd, (1 + count * len(chunk) + 3).to_bytes(8, "big") + bytes(4) + b"[")
    try:  # streamed: the worker needs no copy of the reply
        for _ in range(count):
            os.write(fd, chunk)
        os.write(fd, b"[]]")
    except BrokenPipeError:  # refused before it was all read
        pass
    os._exit(0)

def fine():
    return 1
"""
    with session_for(tmp_path, source) as session:
        with pytest.raises(BoundaryRefused, match=r"hostile\(\) returned a value too large or too "
                           r"complex to send to the grader \(a message of "):  # fmt: skip
            session.call("hostile", (), {})
        assert session.call("fine", (), {}) == 1
        assert session.events == ["garbage"]
