"""The kit's hostile corpus, graded as one class: no student stops, poisons, slows or reads it.

Each attacker below is a submission a hostile (or unlucky) class could hand in: malformed
uploads, names that attack a terminal, a spreadsheet or a browser, text the gradebook cannot
store, folders too deep to remove, planted bytecode, a filled disk, huge exception names and
values, NaN answers. They are graded together with correct victims placed after them, the way
`autograder grade CLASS --out OUT` grades a class, in each isolation configuration this machine
allows. Every run must finish with exit code 0, record every submission with the status it
deserves, give every victim full marks, leave no process and write nothing secret anywhere.
"""

from __future__ import annotations

import contextlib
import csv
import functools
import html
import json
import os
import re
import shutil
import socket
import sqlite3
import stat
import subprocess
import tempfile
import time
import warnings
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

import pytest
from configurations import unavailable

from autograder.cli import main
from autograder.course.assignment import Assignment
from autograder.course.course import Course
from autograder.grading.gradebook import FILE_NAME
from autograder.sandbox.confine import SCOPES_FROM_ABI, landlock_abi
from autograder.sandbox.isolation import WORKER_UID_BASE, usable_bwrap
from autograder.sandbox.scratch import remove_tree

ROOT = Path(__file__).resolve().parents[1]
FIXTURE_COURSE = ROOT / "tests" / "fixtures" / "course"
MODULE = "vectors.py"
SECRET_SEED = "424242"
FULL = 10
"""The fixture assignment's points: every victim earns them all."""
SCOPES = ["landlock_scopes"] if landlock_abi() >= SCOPES_FROM_ABI else []
"""A kernel with Landlock's scopes confines the worker's signals by them, under bwrap too."""
ROOT_CPU = ["cpu-cgroup", "cpu-nice"]
"""As root, a runner's submissions share a CPU cgroup (this machine's is cgroup v1 `cpu` or v2
at the top); as a user without a delegated cgroup, the lowest priority alone."""


@dataclass(frozen=True)
class Attack:
    """One hostile submission: how to make it, and what its row must say."""

    name: str
    make: Callable[[Path, str], None]
    """Writes the submission into the class folder, given the correct module's source."""
    status: str
    reason: str = ""
    """A regular expression the row's message (or a test's message) must match."""
    score: float | None = None
    watched_slot: tuple[float, str] | None = None
    """(score, reason) where no bwrap caps the slot and the grader's watch stops the
    submission at its quota, if that differs."""

    def expected(self, layers: list[str]) -> tuple[float | None, str]:
        """Its score and reason under these isolation layers."""
        if self.watched_slot is not None and "bwrap" not in layers:
            return self.watched_slot
        return self.score, self.reason


def module_with(prefix: str = "", suffix: str = "") -> Callable[[Path, str], str]:
    def source(correct: str) -> str:
        head, _, body = correct.partition("import numpy as np\n")
        return f"{head}{prefix}\nimport numpy as np\n{body}\n{suffix}\n"

    return source  # type: ignore[return-value]


def py_file(file_name: str, prefix: str = "", suffix: str = "") -> Callable[[Path, str], None]:
    def make(folder: Path, correct: str) -> None:
        source = module_with(prefix, suffix)(correct)  # type: ignore[arg-type]
        (folder / file_name).write_text(source, encoding="utf-8")

    return make


def zip_file(name: str, members: Callable[[zipfile.ZipFile, str], None]) -> Callable[..., None]:
    def make(folder: Path, correct: str) -> None:
        with zipfile.ZipFile(folder / name, "w", zipfile.ZIP_DEFLATED) as archive:
            members(archive, correct)

    return make


def patched_zip(name: str, patch: Callable[[bytearray], None]) -> Callable[..., None]:
    """A one-member stored zip whose bytes `patch` then alters (flags, method, CRC)."""

    def make(folder: Path, correct: str) -> None:
        target = folder / name
        with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as archive:
            archive.writestr(MODULE, correct)
        data = bytearray(target.read_bytes())
        patch(data)
        target.write_bytes(bytes(data))

    return make


def _set_field(local: int, value: int) -> Callable[[bytearray], None]:
    """Write a two-byte header field in the member's local header (at `local`) and in its
    central-directory entry, where the same field sits two bytes further on."""

    def patch(data: bytearray) -> None:
        central = data.index(b"PK\x01\x02")
        for offset in (local, central + local + 2):
            data[offset : offset + 2] = value.to_bytes(2, "little")

    return patch


_FLAGS, _METHOD = 6, 8
"""Offsets of the general-purpose flags and the compression method in a local file header."""


def _flip_content(data: bytearray) -> None:
    header = 30 + int.from_bytes(data[26:28], "little") + int.from_bytes(data[28:30], "little")
    data[header + 10] ^= 0x01  # a byte of the stored module: its CRC no longer matches


def bzip2_duplicates(archive: zipfile.ZipFile, correct: str) -> None:
    for _ in range(3):  # one name, three members: a per-name cap would count only one
        info = zipfile.ZipInfo(MODULE)
        info.compress_type = zipfile.ZIP_BZIP2
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # zipfile warns of the duplicate name
            archive.writestr(info, "#" * 1_000_000)


def ratio_bomb(archive: zipfile.ZipFile, correct: str) -> None:
    archive.writestr(MODULE, correct)
    for n in range(9):
        archive.writestr(f"data/zeros-{n}.bin", bytes(2_000_000))


def many_members(archive: zipfile.ZipFile, correct: str) -> None:
    for n in range(1200):
        archive.writestr(f"f{n}.txt", "")


def notebook_file(name: str, document: str) -> Callable[[Path, str], None]:
    def make(folder: Path, correct: str) -> None:
        (folder / name).write_text(document, encoding="utf-8")

    return make


def deep_folder(folder: Path, correct: str) -> None:
    target = folder / "deep_folder"
    target.mkdir()
    (target / MODULE).write_text(correct, encoding="utf-8")
    fd = os.open(target, os.O_RDONLY)
    try:  # 5000 levels: relative to an open folder, since the path outgrows PATH_MAX
        for _ in range(5000):
            os.mkdir("d", dir_fd=fd)
            inner = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
    finally:
        os.close(fd)


def linked_folder(folder: Path, correct: str) -> None:
    target = folder / "linked_folder"
    target.mkdir()
    (target / MODULE).write_text(correct, encoding="utf-8")
    os.symlink("/proc/self/pagemap", target / "pagemap.py")
    os.symlink("/etc/shadow", target / "shadow.txt")
    os.symlink("/", target / "everything")
    locked = target / "locked.txt"
    locked.write_text("x")
    locked.chmod(0)


def linked_submissions(folder: Path, correct: str) -> None:
    os.symlink("/", folder / "linked_root")  # a class entry that is a link to elsewhere
    os.symlink("/etc/shadow", folder / "linked_file.py")


def fifo_file(folder: Path, correct: str) -> None:
    os.mkfifo(folder / "fifo.py")


def latin1_file(folder: Path, correct: str) -> None:
    source = "# -*- coding: latin-1 -*-\n" + correct.replace(
        "import numpy as np\n", "import numpy as np\nCAFE = 'café'\n", 1
    )
    (folder / "latin1_coding.py").write_bytes(source.encode("latin-1", "backslashreplace"))


def latin1_without_coding(folder: Path, correct: str) -> None:
    source = "# café\n" + correct
    (folder / "latin1_plain.py").write_bytes(source.encode("latin-1", "backslashreplace"))


PLANT_BYTECODE = r"""
import importlib.util as _util, marshal as _marshal, os as _os, pathlib as _pathlib
_evil = "def normalise(*a, **k):\n    raise SystemExit('planted')\n"
_pyc = _pathlib.Path("__pycache__")
_pyc.mkdir(exist_ok=True)
for _name in ("vectors", "helpers"):
    _data = bytearray(_util.MAGIC_NUMBER) + (1).to_bytes(4, "little") + bytes(8)
    _data += _marshal.dumps(compile(_evil, _name + ".py", "exec"))
    (_pyc / f"{_name}.cpython-311.pyc").write_bytes(_data)
    _pathlib.Path(f"{_name}.pyc").write_bytes(_data)
for _locked in (_pyc, "."):
    try:  # where seccomp allows (the worker may not change modes: it is tried all the same)
        _os.chmod(_locked, 0o500)
    except OSError:
        pass
"""

DEEP_AT_IMPORT = r"""
import os as _os
_fd = _os.open(".", _os.O_RDONLY)
for _ in range(5000):
    _os.mkdir("d", dir_fd=_fd)
    _inner = _os.open("d", _os.O_RDONLY, dir_fd=_fd)
    _os.close(_fd)
    _fd = _inner
_os.close(_fd)
try:
    _os.chmod("d", 0o500)
except OSError:
    pass
"""

FILL_DISK = r"""
import os as _os
for _where in (".", "/tmp", "/dev/shm"):
    for _n in range(40):  # 600 MB a place at most: without bwrap only time bounds the slot
        try:
            with open(_os.path.join(_where, f"fill-{_n}"), "wb") as _f:
                _f.write(b"x" * (15 * 2**20))
        except OSError:
            break
"""

NETWORK_PORT = 47124
REACH_THE_NETWORK = rf"""
_honest_scale = scale


def scale(x, c):
    import socket as _socket

    try:
        _socket.create_connection(("127.0.0.1", {NETWORK_PORT}), timeout=2).close()
    except OSError:
        return _honest_scale(x, c)
    raise RuntimeError("the network is reachable")
"""

FORK_MANY = r"""
import os as _os, time as _time
_forked = 0
for _ in range(300):
    try:
        if _os.fork() == 0:
            _time.sleep(20)
            _os._exit(0)
        _forked += 1
    except OSError:
        break
print(f"FORKED {_forked}")
"""

WRITE_THE_GRADEBOOK = r"""
import os as _os
_hits = []
for _top in ("/tmp", "/var/tmp", _os.path.expanduser("~"), "/work"):
    try:
        for _folder, _dirs, _files in _os.walk(_top):
            if _folder.count(_os.sep) > 6:
                _dirs[:] = []
            if "gradebook.sqlite" in _files:
                _hits.append(_os.path.join(_folder, "gradebook.sqlite"))
    except OSError:
        pass
for _hit in _hits:
    try:
        with open(_hit, "r+b") as _book:
            _book.write(b"overwritten by a student")
        print("WROTE", _hit)
    except OSError:
        pass
"""

FILL_SLOT_WITH_FILES = r"""
for _n in range(3000):  # 1 MiB a file, well under the file size limit: 3 GB in all
    try:
        with open(f"part-{_n}.bin", "wb") as _f:
            _f.write(b"x" * 2**20)
    except OSError:
        break
"""

MANY_EMPTY_FILES = r"""
for _n in range(60_000):  # a disk fills by inodes too (and a watch looks now and then)
    try:
        open(f"empty-{_n}", "wb").close()
    except OSError:
        break
"""

KILL_EVERYONE = r"""
import os as _os, signal as _signal
try:
    _os.kill(-1, _signal.SIGKILL)  # every process this user may signal
except OSError:
    pass
"""

PROBE_SOCKET = f"/tmp/autograder-probe-{os.getpid()}.sock"
PROBE_ABSTRACT = f"autograder-probe-{os.getpid()}"
"""A path socket and an abstract one the tests listen on, as a grader's user's services do
(its D-Bus session bus, an ssh-agent, docker.sock)."""
PROBE_SOCKETS = rf"""
import socket as _socket
for _address in ({PROBE_SOCKET!r}, "\0" + {PROBE_ABSTRACT!r}):
    try:
        _s = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
        _s.connect(_address)
        _s.sendall(b"a student was here")
        print("REACHED", _address)
    except OSError as _error:
        print("REFUSED", type(_error).__name__)
"""

HIDDEN_MARK = "len=5"
"""The fixture's hidden tests call with vectors of 5 entries; no public test does."""
RECORD_CALLS = r"""
_SEEN = []
try:
    with open("calls.txt") as _f:
        _SEEN += ["file:" + _line.strip() for _line in _f]
except OSError:
    pass


def _record(name, *args):
    shown = [f"len={a.size}:{np.round(a, 4).tolist()}" if isinstance(a, np.ndarray)
             else repr(a)[:60] for a in args]
    entry = f"{name}({', '.join(shown)})"
    _SEEN.append(entry)
    try:
        with open("calls.txt", "a") as f:
            f.write(entry + "\n")
    except OSError:
        pass
    print("CALLS", _SEEN)
    raise ValueError("calls so far: " + " | ".join(_SEEN))


def scale(x, c):
    _record("scale", x, c)


def normalise(v):
    _record("normalise", v)


def cosine(u, v):
    _record("cosine", u, v)


def square_sum(a, b):
    _record("square_sum", a, b)
"""
"""Records every call in the module and in its folder, and repeats them in every exception:
a visible test's message must never hold a hidden test's input."""

HOSTILE_TEXT = "\ud800\x1b[2J\x1b]0;pwned\x07\x1b]52;c;cm0gLXJmIH4=\x07 100/100 \x00\u202e"

ATTACKS = (
    # uploads the grader must refuse, each with its reason
    Attack("zip_dot_member", zip_file("zip_dot_member.zip", lambda a, c: a.writestr(".", c)),
           "ungradable", "outside its folder|no vectors"),
    Attack("zip_name_clash", zip_file("zip_name_clash.zip", lambda a, c: (
        a.writestr("sub", "x"), a.writestr(f"sub/{MODULE}", c))), "ungradable",
        "as a file and a folder"),
    Attack("zip_encrypted", patched_zip("zip_encrypted.zip", _set_field(_FLAGS, 0x1)), "ungradable",
           "encrypted"),
    Attack("zip_patched", patched_zip("zip_patched.zip", _set_field(_FLAGS, 0x20)), "ungradable",
           "patched data"),
    Attack("zip_bad_crc", patched_zip("zip_bad_crc.zip", _flip_content), "ungradable",
           "damaged"),
    Attack("zip_method_99", patched_zip("zip_method_99.zip", _set_field(_METHOD, 99)), "ungradable",
           "compression method 99"),
    Attack("zip_bzip2_duplicates", zip_file("zip_bzip2_duplicates.zip", bzip2_duplicates),
           "ungradable", "compression method 12"),
    Attack("zip_ratio_bomb", zip_file("zip_ratio_bomb.zip", ratio_bomb), "ungradable",
           "zip bomb"),
    Attack("zip_many_members", zip_file("zip_many_members.zip", many_members), "ungradable",
           "more than 1000 entries"),
    Attack("notebook_int_source", notebook_file("notebook_int_source.ipynb", json.dumps(
        {"cells": [{"cell_type": "code", "source": [1, 2], "metadata": {}}]})), "ungradable",
        "not text"),
    Attack("notebook_deep", notebook_file("notebook_deep.ipynb", "[" * 200_000 + "]" * 200_000),
           "ungradable", "nested too deeply|no list of cells"),
    Attack("deep_folder", deep_folder, "ungradable", "nest more than 32 deep"),
    Attack("fifo", fifo_file, "ungradable", "not a regular file"),
    Attack("linked_root", linked_submissions, "ungradable", "is a link"),
    Attack("linked_file", lambda folder, correct: None, "ungradable", "is a link"),
    Attack("latin1_plain", latin1_without_coding, "ungradable", "not UTF-8 text.*PEP 263"),
    # submissions that must be graded, fully, despite what they hold
    Attack("latin1_coding", latin1_file, "graded", score=FULL),
    Attack("linked_folder", linked_folder, "graded", score=FULL),
    # names that attack whoever reads the gradebook
    # ungradable, so that the report lists its name in its table of ungradable submissions
    # whatever the timing (the table of the slowest ones may or may not hold a graded one)
    Attack("<img src=x onerror=alert(1)>", notebook_file("<img src=x onerror=alert(1)>.ipynb",
           "{"), "ungradable", "not valid JSON"),
    Attack("=HYPERLINK(\"http-x\")", py_file("=HYPERLINK(\"http-x\").py"), "graded", score=FULL),
    Attack("\x1b]0;title\x07name", py_file("\x1b]0;title\x07name.py"), "graded", score=FULL),
    # student code that attacks the grader, the slot or the next student
    Attack("surrogate_message", py_file("surrogate_message.py", suffix=(
        f"def scale(x, c):\n    raise RuntimeError({HOSTILE_TEXT!r})\n")), "graded",
        r"RuntimeError: \ufffd"),
    Attack("huge_exception", py_file("huge_exception.py", suffix=(
        "def scale(x, c):\n"
        "    raise type('E' * 5_000_000, (Exception,), {})('m' * 50_000_000)\n")), "graded",
        r"E{100}"),
    Attack("huge_value", py_file("huge_value.py", suffix=(
        "def square_sum(a, b):\n    return ('x' * 20_000_000, 1, 2)\n")), "graded",
        "square_sum"),
    Attack("plants_bytecode", py_file("plants_bytecode.py", prefix=PLANT_BYTECODE), "graded",
           score=FULL),
    Attack("deep_at_import", py_file("deep_at_import.py", prefix=DEEP_AT_IMPORT), "graded",
           score=FULL, watched_slot=(0, "folders more than 64 deep")),
    Attack("fills_disk", py_file("fills_disk.py", prefix=FILL_DISK), "graded", score=FULL,
           watched_slot=(0, "more than the 64 MiB its folder may hold")),
    Attack("fills_slot_with_files", py_file("fills_slot_with_files.py",
           prefix=FILL_SLOT_WITH_FILES), "graded", score=FULL,
           watched_slot=(0, "more than the 64 MiB its folder may hold")),
    Attack("many_empty_files", py_file("many_empty_files.py", prefix=MANY_EMPTY_FILES),
           "graded", score=FULL, watched_slot=(0, "more than 20000 files and folders")),
    Attack("kills_everyone", py_file("kills_everyone.py", prefix=KILL_EVERYONE), "graded",
           score=FULL),
    Attack("probes_sockets", py_file("probes_sockets.py", prefix=PROBE_SOCKETS), "graded",
           score=FULL),
    Attack("records_calls", py_file("records_calls.py", suffix=RECORD_CALLS), "graded",
           "calls so far", score=3),  # its proof (2 points) is the correct one's
    Attack("reaches_the_network", py_file("reaches_the_network.py", suffix=REACH_THE_NETWORK),
           "graded", score=FULL),
    Attack("forks_many", py_file("forks_many.py", prefix=FORK_MANY), "graded", score=FULL),
    Attack("writes_the_gradebook", py_file("writes_the_gradebook.py", prefix=WRITE_THE_GRADEBOOK),
           "graded", score=FULL),
    Attack("nan_square_sum", py_file("nan_square_sum.py", suffix=(
        "def square_sum(a, b):\n"
        "    return sp.Mul(sp.log(sp.Integer(0), evaluate=False), 0, a, evaluate=False)\n")),
        "graded", "square_sum.* is nan at"),
)  # fmt: skip
VICTIMS = 8


def build_class(folder: Path, correct: str) -> list[str]:
    """The corpus as one class folder; victims sort after the attackers. The students' names."""
    folder.mkdir()
    for attack in ATTACKS:
        attack.make(folder, correct)
    victims = [f"zz_victim_{n}" for n in range(VICTIMS)]
    for victim in victims:
        (folder / f"{victim}.py").write_text(correct, encoding="utf-8")
    return [attack.name for attack in ATTACKS] + victims


def correct_source(assignment: Assignment) -> str:
    return (assignment.sample_class / "correct_vectorised.py").read_text(encoding="utf-8")


def _rows(out: Path) -> dict[str, dict[str, object]]:
    with sqlite3.connect(out / FILE_NAME) as db:
        db.row_factory = sqlite3.Row
        rows = db.execute("SELECT student, status, score, result_json FROM submissions")
        return {row["student"]: dict(row) for row in rows}


def _worker_processes(engine: Path, *, within_s: float = 5.0) -> list[int]:
    """Processes of a worker user (the per-runner uids) forked from a zygote of `engine` that
    are still alive after `within_s` seconds (one killed a moment ago, with its sandbox, may
    still be on its way out; another checkout's tests may be grading at the same time)."""
    deadline = time.monotonic() + within_s
    while True:
        alive = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    command = (entry / "cmdline").read_bytes()
                    if entry.stat().st_uid >= WORKER_UID_BASE and str(engine).encode() in command:
                        alive.append(int(entry.name))
                except OSError:
                    continue
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.2)


@pytest.fixture
def class_folder(tmp_path: Path) -> Iterator[Path]:
    """Where the corpus is built; removed by the kit's own remover afterwards, since pytest's
    recursive clean-up cannot remove a folder 5000 levels deep."""
    yield tmp_path / "class"
    remove_tree(tmp_path / "class")


@contextlib.contextmanager
def services() -> Iterator[Callable[[], list[str]]]:
    """What a grader's machine offers a student who gets out: a TCP port, a path socket every
    user may connect to and an abstract socket (a stand-in for the user's D-Bus session bus,
    an ssh-agent, docker.sock). Yields a function that lists who connected to any of them."""
    with contextlib.ExitStack() as stack:
        stack.enter_context(socket.create_server(("127.0.0.1", NETWORK_PORT), reuse_port=True))
        Path(PROBE_SOCKET).unlink(missing_ok=True)
        listeners = []
        for address in (PROBE_SOCKET, "\0" + PROBE_ABSTRACT):
            listener = stack.enter_context(socket.socket(socket.AF_UNIX, socket.SOCK_STREAM))
            listener.bind(address)
            listener.listen(8)
            listener.setblocking(False)
            listeners.append(listener)
        Path(PROBE_SOCKET).chmod(0o777)  # as a session bus's or docker.sock's group allows
        stack.callback(Path(PROBE_SOCKET).unlink, missing_ok=True)

        def connected() -> list[str]:
            reached = []
            for listener in listeners:
                with contextlib.suppress(BlockingIOError):
                    while True:
                        listener.accept()[0].close()
                        reached.append(str(listener.getsockname()))
            return reached

        yield connected


def grade_corpus(
    assignment: Assignment, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[Path, str, dict[str, dict[str, object]]]:
    students = build_class(tmp_path / "class", correct_source(assignment))
    out = tmp_path / "out"
    started = time.monotonic()
    with services() as connected:
        code = main(["grade", str(tmp_path / "class"), "--out", str(out), "--jobs", "2",
                     "--course", str(assignment.course.root),
                     "--assignment", assignment.name])  # fmt: skip
        assert not connected(), "no student reaches a service of the grader's machine"
    elapsed = time.monotonic() - started
    printed = capsys.readouterr()
    assert code == 0, printed.err
    rows = _rows(out)
    assert sorted(rows) == sorted(students), "every submission is recorded"
    assert elapsed < 600, f"the corpus took {elapsed:.0f} s"
    return out, printed.out + printed.err, rows


def check_corpus(
    out: Path,
    printed: str,
    rows: dict[str, dict[str, object]],
    course_root: Path,
    engine: Path = ROOT,
) -> None:
    """What every configuration must hold after grading the corpus."""
    layers = json.loads(str(rows["zz_victim_0"]["result_json"]))["isolation"]
    for attack in ATTACKS:
        row = rows[attack.name]
        result = json.loads(str(row["result_json"]))
        said = " ".join(
            [result.get("message") or ""]
            + [f"{t['message']} {t['hint']}" for t in result["tests"] if t["status"] != "passed"]
        )
        score, reason = attack.expected(layers)
        assert row["status"] == attack.status, (attack.name, said)
        if reason:
            assert re.search(reason, said), (attack.name, said[:2000])
        if score is not None:
            assert row["score"] == score, (attack.name, said[:2000])
        assert len(str(row["result_json"])) < 400_000, attack.name  # cut at the source
    probed = json.loads(str(rows["probes_sockets"]["result_json"]))["output"]
    assert "REACHED" not in probed and probed.count("REFUSED") >= 2, probed[:500]
    check_no_hidden_input_shown(out, rows["records_calls"])
    for name, row in rows.items():
        if name.startswith("zz_victim_"):
            assert row["score"] == FULL, (name, str(row["result_json"])[:2000])
    forked = re.search(
        r"FORKED (\d+)", json.loads(str(rows["forks_many"]["result_json"]))["output"]
    )
    assert forked and int(forked[1]) <= 80, "the process limit (64 more) stops a fork bomb"
    assert "WROTE" not in str(rows["writes_the_gradebook"]["result_json"])
    nan_tests = json.loads(str(rows["nan_square_sum"]["result_json"]))["tests"]
    (judged,) = [t for t in nan_tests if t["name"].startswith("square_sum(a, b) equals")]
    assert "is nan at" in judged["message"]
    assert rows["nan_square_sum"]["score"] == FULL - 2  # NaN earns none of square_sum's 2 points
    assert "\x1b" not in printed and "\x07" not in printed, "no escape reaches the terminal"
    assert SECRET_SEED not in printed and "hidden_tests" not in printed
    assert HIDDEN_MARK not in printed, "the class's lines hold no hidden test's input"
    for file in out.rglob("*"):
        if file.is_file():
            text = file.read_bytes().decode("utf-8", "replace")
            assert SECRET_SEED not in text and str(course_root) not in text, file.name
            if file.name.endswith(".results.json"):  # what students see: no test file's name
                assert "hidden_tests" not in text, file.name
            if file.name.endswith(".junit.xml"):
                ET.fromstring(file.read_bytes())  # parses: no XML-illegal character
    assert not _worker_processes(engine), "no worker process survives the batch"
    leftovers = [p for place in ("/tmp", "/dev/shm") for p in Path(place).glob("fill-*")]
    assert not leftovers, "no submission writes outside its slot"


def check_no_hidden_input_shown(out: Path, row: dict[str, object]) -> None:
    """The call recorder repeated every call it saw in every exception: the messages a student
    reads (visible tests, in the kit's JSON and in Gradescope's results.json) hold no hidden
    test's input, while the hidden tests' own messages (the instructor's) do."""
    result = json.loads(str(row["result_json"]))
    shown = [t for t in result["tests"] if not t["hidden"] and t["visibility"] == "visible"]
    assert shown and all(HIDDEN_MARK not in (t["message"] or "") for t in shown), shown
    assert all("calls so far" in (t["message"] or "") for t in shown if t["status"] != "passed")
    hidden = [t for t in result["tests"] if t["hidden"]]
    assert any(HIDDEN_MARK in (t["message"] or "") for t in hidden), "the recorder works"
    kit = json.loads((out / "vectors" / "records_calls.json").read_text(encoding="utf-8"))
    for test in kit["tests"]:
        if not test["hidden"] and test["visibility"] == "visible":
            assert HIDDEN_MARK not in (test["message"] or ""), test
    gradescope = (out / "vectors" / "records_calls.results.json").read_text(encoding="utf-8")
    assert HIDDEN_MARK not in gradescope
    data = json.loads(gradescope)
    visible = sum(t["score"] for t in data["tests"] if t["visibility"] == "visible")
    assert data["score"] == visible, "before the due date the score counts visible tests only"


def check_exports(out: Path, tmp_path: Path, course: Course) -> None:
    """The CSV and the report the instructor opens, from the same gradebook."""
    table = tmp_path / "grades.csv"
    assert main(["gradebook", str(out), "--csv", str(table), "--course", str(course.root)]) == 0
    with table.open(encoding="utf-8", newline="") as handle:
        cells = [cell for row in csv.reader(handle) for cell in row]
    assert not [c for c in cells if c.startswith(("=", "+", "@"))], "no cell is a formula"
    assert '\'=HYPERLINK("http-x")' in cells
    check_after_grading(out, tmp_path, course)


def check_after_grading(out: Path, tmp_path: Path, course: Course) -> None:
    """Feedback, the report linking to it, the similarity check and an LMS file, written from
    the corpus's gradebook: one file per student, nothing that runs, nothing secret."""
    root = ["--course", str(course.root)]
    early = tmp_path / "feedback-before-due"
    assert main(["feedback", str(out), "--out", str(early), "--before-due", *root]) == 0
    recorded = [page for page in early.rglob("records_calls.*")]
    assert len(recorded) == 2
    for page in recorded:
        text = page.read_text(encoding="utf-8")
        assert "calls so far" in text and HIDDEN_MARK not in text, page.name
    feedback = tmp_path / "feedback"
    assert main(["feedback", str(out), "--out", str(feedback), "--after-due", *root]) == 0
    students = _rows(out)
    pages = sorted(feedback.rglob("*.html"))
    assert len(pages) == len(students) == len(list(feedback.rglob("*.md")))
    for page in [*pages, *feedback.rglob("*.md")]:
        text = page.read_text(encoding="utf-8")
        outside_code = re.sub(r"```+text\n.*?\n *```+", "", text, flags=re.S)
        assert not re.search(r"(?<!\\)<img src=x", outside_code), page.name
        assert SECRET_SEED not in text and "hidden_tests" not in text, page.name
    report = tmp_path / "report.html"
    assert main(["report", str(out), "--html", str(report), "--feedback", str(feedback)]) == 0
    page = report.read_text(encoding="utf-8")
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    links = [
        unquote(html.unescape(link))
        for link in re.findall(r"href='([^']+)'", page)
        if not link.startswith("#")  # the table of contents: sections of the page itself
    ]
    assert len(links) >= len(students)
    assert all((report.parent / link).is_file() for link in links)
    similarity = tmp_path / "similarity.html"
    assert main(["similarity", str(out), "--html", str(similarity), *root]) == 0
    assert "<img src=x" not in similarity.read_text(encoding="utf-8")
    roster = tmp_path / "roster.csv"
    with roster.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["student_id", "name", "submission"])
        writer.writerows([str(n), f"=cmd|{n}", name] for n, name in enumerate(students))
    canvas = tmp_path / "canvas.csv"
    assert main(["gradebook", str(out), "--lms", "canvas", "--roster", str(roster),
                 "--out", str(canvas), *root]) == 0  # fmt: skip
    with canvas.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    assert len(rows) == 2 + len(students)
    assert not [c for row in rows for c in row if c.startswith(("=", "+", "-", "@"))]


def test_the_corpus_as_root_with_bubblewrap(
    course_copy: Course, class_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if os.geteuid() != 0 or usable_bwrap() is None:
        unavailable("this configuration needs root and a working bubblewrap")
    out, printed, rows = grade_corpus(course_copy.assignment("vectors"), tmp_path, capsys)
    check_corpus(out, printed, rows, course_copy.root)
    check_exports(out, tmp_path, course_copy)
    layers = json.loads(str(rows["zz_victim_0"]["result_json"]))["isolation"]
    assert layers == ["process", "rlimits", "bwrap", *SCOPES, "seccomp", "unprivileged_user",
                      *ROOT_CPU]  # fmt: skip


def test_a_rerun_retries_grader_errors_and_skips_the_rest(
    tmp_path: Path, course: Course, assignment: Assignment, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    correct = correct_source(assignment)
    for name in ("alice", "bob"):
        (folder / f"{name}.py").write_text(correct, encoding="utf-8")
    out = tmp_path / "out"
    chosen = ["--course", str(course.root), "--assignment", "vectors"]
    assert main(["grade", str(folder), "--out", str(out), "--jobs", "1", *chosen]) == 0
    with sqlite3.connect(out / FILE_NAME) as db:  # as if the grader had failed on bob
        db.execute("UPDATE submissions SET status = 'grader_error', score = 0 WHERE student='bob'")
    capsys.readouterr()
    assert main(["grade", str(folder), "--out", str(out), "--jobs", "1", *chosen]) == 0
    printed = capsys.readouterr().out
    assert "1 submission(s) already graded with this rubric: current, not graded again" in printed
    assert {name: row["score"] for name, row in _rows(out).items()} == {"alice": FULL, "bob": FULL}


def test_no_worker_can_reach_another_runners_slot() -> None:
    """Slots are private: the zygote makes each one 0700 for its own runner's uid."""
    from autograder.sandbox.isolation import hand_to_worker

    if os.geteuid() != 0:
        raise AssertionError("this check runs as root (CI does)")
    folder = Path(os.environ.get("TMPDIR", "/tmp")) / f"slot-check-{os.getpid()}"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "f.py").write_text("x = 1\n")
    try:
        hand_to_worker(folder, WORKER_UID_BASE + 1)
        mode = folder.stat()
        assert stat.S_IMODE(mode.st_mode) == 0o700 and mode.st_uid == WORKER_UID_BASE + 1

        def as_worker(uid: int) -> subprocess.CompletedProcess[str]:
            return subprocess.run(
                ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
                 "ls", str(folder / "sub")], capture_output=True, text=True, check=False,
            )  # fmt: skip

        assert as_worker(WORKER_UID_BASE + 1).stdout.split() == ["f.py"]  # its own worker
        other = as_worker(WORKER_UID_BASE + 2)  # another runner's worker
        assert other.returncode != 0 and "Permission denied" in other.stderr
    finally:
        shutil.rmtree(folder)


UNPRIVILEGED_GRADER = 0x6FFF0000 + os.getpid() % 0xFFFF
"""The uid the unprivileged configurations grade as: an account no one has, one per test run
(two runs at once must not see each other's processes as their own)."""


FAILING_BWRAP = "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n"
"""A bwrap on PATH that cannot create namespaces, as under Ubuntu 24.04's AppArmor rule."""


@pytest.mark.parametrize(("user", "bubblewrap", "layers"), [
    # a Gradescope container or a root CI job where bwrap is forbidden
    (0, "off", ["process", "rlimits", "landlock", *SCOPES, "seccomp", "unprivileged_user",
                *ROOT_CPU]),
    # an instructor's laptop, or CI as a user (GitHub's runners)
    (UNPRIVILEGED_GRADER, "auto", ["process", "rlimits", "bwrap", *SCOPES, "seccomp",
                                   "cpu-nice"]),
    # the same where user namespaces are forbidden (Docker), by the rubric
    (UNPRIVILEGED_GRADER, "off", ["process", "rlimits", "landlock", *SCOPES, "seccomp",
                                  "cpu-nice"]),
    # the same where bwrap is installed but fails (Ubuntu 24.04's AppArmor): found out
    (UNPRIVILEGED_GRADER, "failing", ["process", "rlimits", "landlock", *SCOPES, "seccomp",
                                      "cpu-nice"]),
], ids=["root-landlock", "user-bwrap", "user-landlock", "user-failing-bwrap"])  # fmt: skip
def test_the_corpus_in_each_configuration(
    assignment: Assignment,
    unprivileged_python: str | None,
    user: int,
    bubblewrap: str,
    layers: list[str],
) -> None:
    """The grader runs as `user`, from an interpreter every user may run, with a copy of the
    engine and the course; where grader and workers share a user, bwrap (or Landlock and
    seccomp) is all that keeps a student from the gradebook, the course, the user's other
    processes (a sentinel of the grader's user must survive `kill(-1)`) and services."""
    python = _configuration(user, bubblewrap, unprivileged_python)
    base = Path(tempfile.mkdtemp(prefix="autograder-configuration-"))
    try:
        build = functools.partial(build_class, correct=correct_source(assignment))
        graded = _grade_as(base, user, bubblewrap, python, build)
        rows = graded.rows
        check_corpus(graded.out, graded.printed, rows, graded.course_root, graded.engine)
        isolation = json.loads(str(rows["zz_victim_0"]["result_json"]))["isolation"]
        assert isolation == layers
        if user:
            left = _processes_of(user, within_s=5)
            assert not left, f"no process of the grader's user survives it: {left}"
    finally:
        remove_tree(base)


def _configuration(user: int, bubblewrap: str, unprivileged_python: str | None) -> str:
    """The interpreter to grade with as `user`; unavailable where this machine cannot."""
    if os.geteuid() != 0:
        unavailable("the test grades as other users, which needs root")
    if user and bubblewrap == "auto" and usable_bwrap() is None:
        unavailable("bubblewrap does not work on this machine")
    assert unprivileged_python, "no interpreter an unprivileged user can run: make test makes one"
    return unprivileged_python


@dataclass(frozen=True)
class Graded:
    out: Path
    printed: str
    rows: dict[str, dict[str, object]]
    course_root: Path
    engine: Path


def _grade_as(
    base: Path, user: int, bubblewrap: str, python: str, build: Callable[[Path], list[str]]
) -> Graded:
    """Grade the class `build` writes, in `base`, as `user` (0: root) with bubblewrap as the
    rubric says (or a failing one), from a copy of the engine and the fixture course."""
    base.chmod(0o755)
    engine, course_root, out, scratch = (base / n for n in ("engine", "course", "out", "tmp"))
    shutil.copytree(ROOT / "autograder", engine / "autograder",
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    course_root.mkdir()
    for name in ("grading.toml", "reference", "assignments"):
        source = FIXTURE_COURSE / name
        if source.is_dir():
            shutil.copytree(source, course_root / name,
                            ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
        else:
            shutil.copy(source, course_root / name)
    rubric = course_root / "grading.toml"
    chosen = "auto" if bubblewrap == "failing" else bubblewrap
    rubric.write_text(rubric.read_text().replace('bubblewrap = "auto"',
                                                 f'bubblewrap = "{chosen}"'))  # fmt: skip
    path = "/usr/bin:/bin"
    if bubblewrap == "failing":
        (base / "bin").mkdir()
        (base / "bin" / "bwrap").write_text(FAILING_BWRAP)
        (base / "bin" / "bwrap").chmod(0o755)
        path = f"{base / 'bin'}:{path}"
    students = build(base / "class")
    for folder in (out, scratch):
        folder.mkdir()
        os.chown(folder, user, user)
    as_user = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups"]
    command = [*(as_user if user else []), python, "-m", "autograder", "grade",
               str(base / "class"), "--out", str(out), "--jobs", "2",
               "--course", str(course_root), "--assignment", "vectors"]  # fmt: skip
    environment = {"PATH": path, "HOME": str(scratch), "TMPDIR": str(scratch),
                   "PYTHONPATH": str(engine), "LANG": "C.UTF-8"}  # fmt: skip
    sentinel = subprocess.Popen([*(as_user if user else []), "sleep", "900"])
    try:
        with services() as connected:
            done = subprocess.run(command, env=environment, capture_output=True, text=True,
                                  timeout=900, check=False)  # fmt: skip
            assert not connected(), "no student reaches a service of the grader's machine"
        assert sentinel.poll() is None, "the grader's user's other processes survive"
    finally:
        sentinel.kill()
        sentinel.wait()
    assert done.returncode == 0, done.stderr[-3000:]
    rows = _rows(out)
    assert sorted(rows) == sorted(students), "every submission is recorded"
    return Graded(out, done.stdout + done.stderr, rows, course_root, engine)


HOG = r"""
import os as _os, signal as _signal, time as _time
for _ in range(32):  # busy loops, each in a session (and so a scheduler's autogroup) of its own
    try:
        if _os.fork() == 0:
            _os.setsid()
            while True:
                pass
    except OSError:
        break
for _ in range(64):  # and as many sleeping children as the process limit still allows
    try:
        if _os.fork() == 0:
            while True:
                _signal.pause()
    except OSError:
        break
"""
HOG_LINGERS = r"""
_scale = scale

def scale(x, c):  # its loops outlive its neighbours' calls: each of its own calls waits first
    _time.sleep(3)
    return _scale(x, c)
"""
NEEDS_CPU = r"""
import time as _time
_burnt = False

def _burn_once():
    global _burnt
    if not _burnt:  # 1 s of processor time in the first call of each worker: on a machine
        _burnt = True  # whose processors the hog holds, many times that on the wall clock
        _start = _time.process_time()
        while _time.process_time() - _start < 1.0:
            pass
"""


def build_hog_class(folder: Path, correct: str) -> list[str]:
    """A CPU and process hog, and correct submissions graded beside it: one of them needs
    processor time in earnest. The students' names."""
    folder.mkdir()
    py_file("a_hog.py", prefix=HOG, suffix=HOG_LINGERS)(folder, correct)
    (folder / "victim.py").write_text(correct, encoding="utf-8")
    needy = module_with(prefix=NEEDS_CPU)(correct)  # type: ignore[arg-type]
    needy = needy.replace("def scale(x, c):\n", "def scale(x, c):\n    _burn_once()\n")
    assert "_burn_once()\n" in needy
    (folder / "victim_needs_cpu.py").write_text(needy, encoding="utf-8")
    return ["a_hog", "victim", "victim_needs_cpu"]


@pytest.mark.parametrize(("user", "bubblewrap", "cpu"), [
    (0, "auto", ROOT_CPU),
    (0, "off", ROOT_CPU),
    (UNPRIVILEGED_GRADER, "auto", ["cpu-nice"]),
    (UNPRIVILEGED_GRADER, "off", ["cpu-nice"]),
], ids=["root-bwrap", "root-landlock", "user-bwrap", "user-landlock"])  # fmt: skip
def test_a_hog_costs_its_neighbours_nothing(
    assignment: Assignment,
    unprivileged_python: str | None,
    user: int,
    bubblewrap: str,
    cpu: list[str],
) -> None:
    """32 busy loops and 64 sleeping children at import, graded beside correct submissions
    (--jobs 2): they keep full marks, held in its share by the runner's cgroup (root) or by
    the lowest priority, timing calls on CPU time and grading a starved one again alone (a
    user's); the hog is graded like any submission, and gets the points its functions earn."""
    python = _configuration(user, bubblewrap, unprivileged_python)
    base = Path(tempfile.mkdtemp(prefix="autograder-configuration-"))
    try:
        build = functools.partial(build_hog_class, correct=correct_source(assignment))
        rows = _grade_as(base, user, bubblewrap, python, build).rows
        results = {name: json.loads(str(row["result_json"])) for name, row in rows.items()}
        for name in ("victim", "victim_needs_cpu"):
            assert rows[name]["score"] == FULL, (name, str(rows[name]["result_json"])[:3000])
        hog = rows["a_hog"]
        assert hog["status"] == "graded" and hog["score"] == FULL, str(hog["result_json"])[:3000]
        for name, result in results.items():
            layers = [layer for layer in result["isolation"] if layer.startswith("cpu-")]
            assert layers == cpu, (name, result["isolation"])
        if user:
            left = _processes_of(user, within_s=5)
            assert not left, f"no process of the grader's user survives it: {left}"
    finally:
        remove_tree(base)


def _processes_of(user: int, *, within_s: float) -> list[str]:
    """The command lines of `user`'s processes that are still alive after `within_s` seconds
    (a process killed a moment ago may still be on its way out)."""
    deadline = time.monotonic() + within_s
    while True:
        left = []
        for process in Path("/proc").iterdir():
            if process.name.isdigit() and _owner(process) == user:
                with contextlib.suppress(OSError):
                    command = (process / "cmdline").read_bytes().replace(b"\0", b" ")
                    if (process / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                        left.append(command.decode("utf-8", "replace")[:200])
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.2)


def _owner(process: Path) -> int | None:
    try:
        return process.stat().st_uid
    except OSError:
        return None
