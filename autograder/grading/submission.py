"""Read a submission (a .py file, a folder, a .zip of either, or a notebook) into plain files.

Nothing here runs student code, and nothing a submission holds can make it raise anything but
`Ungradable` with a reason for the student: files are read as bytes with caps on their size and
number, folders are walked without following links and without recursion, a zip's members are
checked (names, sizes, count, compression, flags, duplicates) before any is inflated, within a
time bound, and a notebook's code cells are joined into a module with IPython syntax (magics,
`!` shell lines) made inert. Python source is decoded as Python decodes it (PEP 263).
"""

from __future__ import annotations

import io
import json
import os
import re
import stat
import time
import tokenize
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from autograder.protocol.faults import StudentFault

MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_TOTAL_BYTES = 20 * 1024 * 1024
MAX_FILES = 200
MAX_DEPTH = 32
"""Folder levels in a submission: a student's project has a few; thousands are an attack."""
MAX_ZIP_MEMBERS = 1000
MAX_ZIP_RATIO = 200
"""Uncompressed over compressed size of a whole zip: source code deflates about 4 to 1."""
ZIP_SECONDS = 10.0
ZIP_METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflate"}
"""What every zip tool writes by default; bzip2 and LZMA inflate without a bound per read."""
ZIP_REFUSED_FLAGS = {0x1: "encrypted", 0x40: "encrypted", 0x20: "patched data"}
MAX_NAME_BYTES = 255


class Ungradable(StudentFault):
    """The submission cannot be graded at all; the message says why, for the student."""


@dataclass(frozen=True)
class Submission:
    """What the worker gets: the student's module and any files beside it, plus notes."""

    id: str
    module_source: str
    files: tuple[tuple[str, bytes], ...] = ()
    notes: tuple[str, ...] = ()
    module_encoding: str = "utf-8"
    """The encoding the module's source declares (PEP 263): it is written back in it."""

    def write(self, folder: Path, module: str) -> Path:
        """Lay the submission out in `folder` (readable by the worker); return the module's path."""
        for name, content in self.files:
            target = folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
            target.chmod(0o644)
        path = folder / module
        path.write_bytes(self.module_source.encode(self.module_encoding))
        path.chmod(0o644)
        return path


def load_submission(path: Path, *, module: str) -> Submission:
    """Read the submission at `path`; Ungradable, with the reason, if there is nothing to grade."""
    try:
        return _load(path, module)
    except Ungradable:
        raise
    except RecursionError:
        raise Ungradable("the submission is nested too deeply to read") from None
    except Exception as error:  # whatever else the bytes do, this submission alone is ungradable
        raise Ungradable(f"the submission could not be read ({type(error).__name__})") from None


def _load(path: Path, module: str) -> Submission:
    if not path.exists() and not path.is_symlink():
        raise Ungradable(f"{path} does not exist")
    student = path.name if path.is_dir() else path.stem
    if path.is_symlink():
        raise Ungradable(f"{path.name} is a link: submit the file or folder itself")
    if path.is_dir():
        files, unreadable = _read_folder(path)
        submission = _from_files(student, files, module)
        if unreadable:
            names = ", ".join(_shown(name) for name in unreadable[:5])
            note = f"{len(unreadable)} file(s) could not be read and were left out: {names}"
            return replace(submission, notes=(*submission.notes, note))
        return submission
    if not path.is_file():
        raise Ungradable(f"{path.name} is not a regular file")
    suffix = path.suffix.lower()
    data = _read_capped(path)
    if suffix == ".zip":
        return _from_files(student, _read_zip(data), module)
    if suffix == ".ipynb":
        source, notes = notebook_to_module(data)
        return Submission(id=student, module_source=source, notes=notes)
    if suffix == ".py":
        source, encoding = python_source(data, path.name)
        return Submission(id=student, module_source=source, module_encoding=encoding)
    raise Ungradable(f"{path.name}: submit a .py file, a notebook (.ipynb), a folder or a .zip")


def _from_files(student: str, files: dict[str, bytes], module: str) -> Submission:
    modules = [name for name in files if PurePosixPath(name).name == module]
    notebooks = [name for name in files if name.endswith(".ipynb")]
    if modules:
        chosen = min(modules, key=lambda name: name.count("/"))  # the outermost copy
        root = PurePosixPath(chosen).parent
        rest = tuple(
            (str(PurePosixPath(name).relative_to(root)), content)
            for name, content in sorted(files.items())
            if name != chosen and PurePosixPath(name).is_relative_to(root)
        )
        source, encoding = python_source(files[chosen], module)
        return Submission(id=student, module_source=source, files=rest, module_encoding=encoding)
    if len(notebooks) == 1:
        source, notes = notebook_to_module(files[notebooks[0]])
        return Submission(id=student, module_source=source, notes=notes)
    listed = ", ".join(sorted(files)[:20]) + (", …" if len(files) > 20 else "")
    raise Ungradable(
        f"no {module} found (nor a single notebook) among the submitted files: {listed or 'none'}"
    )


def walk_files(folder: Path, *, limit: int = MAX_FILES) -> Iterator[tuple[str, Path]]:
    """(relative name, path) of each regular file below `folder`, in a stable order: links are
    skipped, never followed, as are `__pycache__` folders; Ungradable past `limit` files or
    MAX_DEPTH levels. Iterative, so no depth of folders exhausts the stack."""
    pending: list[tuple[Path, str, int]] = [(folder, "", 0)]
    count = 0
    while pending:
        current, prefix, depth = pending.pop()
        with os.scandir(current) as listing:
            entries = sorted(listing, key=lambda entry: entry.name, reverse=True)
        for entry in entries:
            name = f"{prefix}{entry.name}"
            mode = entry.stat(follow_symlinks=False).st_mode
            if stat.S_ISDIR(mode) and entry.name != "__pycache__":
                if depth + 1 > MAX_DEPTH:
                    raise Ungradable(f"the submission's folders nest more than {MAX_DEPTH} deep")
                pending.append((Path(entry.path), f"{name}/", depth + 1))
            elif stat.S_ISREG(mode):
                count += 1
                if count > limit:
                    raise Ungradable(f"the submission holds more than {limit} files")
                yield name, Path(entry.path)


def _read_folder(folder: Path) -> tuple[dict[str, bytes], list[str]]:
    """The folder's files, and the names of those this process may not read."""
    files: dict[str, bytes] = {}
    unreadable = []
    for name, path in walk_files(folder):
        try:
            files[name] = _read_capped(path)
        except PermissionError:
            unreadable.append(name)
            continue
        _check_totals(files)
    return files, unreadable


def _read_zip(data: bytes) -> dict[str, bytes]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError, OSError):
        raise Ungradable("the .zip file is damaged or not a zip archive") from None
    if len(infos) > MAX_ZIP_MEMBERS:
        raise Ungradable(f"the .zip holds more than {MAX_ZIP_MEMBERS} entries")
    members = _checked_members(infos, len(data))
    files: dict[str, bytes] = {}
    deadline = time.monotonic() + ZIP_SECONDS
    for name, info in members.items():
        try:
            files[name] = _inflate(archive, info, deadline)
        except Ungradable:
            raise
        except Exception:  # a bad CRC, a truncated stream, a lying header
            raise Ungradable(f"the .zip is damaged: {_shown(name)} cannot be read") from None
        _check_totals(files)
    return files


def _checked_members(infos: list[zipfile.ZipInfo], compressed: int) -> dict[str, zipfile.ZipInfo]:
    """The members to extract, by their normalised names, once every one has passed."""
    members: dict[str, zipfile.ZipInfo] = {}
    total = 0
    for info in infos:
        raw = info.filename.replace("\\", "/")
        name = PurePosixPath(raw)
        if name.parts[:1] == ("__MACOSX",) or "__pycache__" in name.parts:
            continue
        if info.is_dir() or raw.endswith("/"):
            continue
        if name.is_absolute() or ".." in name.parts or not name.parts or str(name) == ".":
            raise Ungradable(f"the .zip holds a path outside its folder: {_shown(info.filename)}")
        if any(len(os.fsencode(part)) > MAX_NAME_BYTES for part in name.parts):
            raise Ungradable(f"the .zip holds a name longer than {MAX_NAME_BYTES} bytes")
        if len(name.parts) > MAX_DEPTH:
            raise Ungradable(f"the .zip's folders are nested more than {MAX_DEPTH} deep")
        for flag, what in ZIP_REFUSED_FLAGS.items():
            if info.flag_bits & flag:
                raise Ungradable(f"the .zip's {_shown(str(name))} is {what}: zip it without that")
        if info.compress_type not in ZIP_METHODS:
            raise Ungradable(
                f"the .zip's {_shown(str(name))} uses compression method {info.compress_type}: "
                "zip it again with the standard (deflate) compression"
            )
        if str(name) in members:
            raise Ungradable(f"the .zip holds {_shown(str(name))} twice")
        if info.file_size > MAX_FILE_BYTES:
            raise Ungradable(f"{_shown(str(name))} is larger than {MAX_FILE_BYTES // 1024} KiB")
        total += info.file_size
        if total > MAX_TOTAL_BYTES or len(members) >= MAX_FILES:
            raise Ungradable(_too_large())
        members[str(name)] = info
    if total > MAX_ZIP_RATIO * max(compressed, 1) and total > MAX_FILE_BYTES:
        raise Ungradable(f"the .zip inflates more than {MAX_ZIP_RATIO} times: is it a zip bomb?")
    for member in members:
        for parent in PurePosixPath(member).parents:
            if str(parent) in members:
                raise Ungradable(f"the .zip holds {_shown(str(parent))} as a file and a folder")
    return members


def _inflate(archive: zipfile.ZipFile, info: zipfile.ZipInfo, deadline: float) -> bytes:
    """A member's bytes, at most its declared size (zipfile stops there and checks the CRC)."""
    chunks: list[bytes] = []
    size = 0
    with archive.open(info) as member:
        while chunk := member.read(1 << 16):
            size += len(chunk)
            if size > MAX_FILE_BYTES:
                raise Ungradable(f"{_shown(info.filename)} is larger than its header says")
            if time.monotonic() > deadline:
                raise Ungradable(f"the .zip took more than {ZIP_SECONDS:g} s to unpack")
            chunks.append(chunk)
    return b"".join(chunks)


def _shown(name: str) -> str:
    """A member's name as a message quotes it: short, and with its odd characters visible."""
    return repr(name[:120])[1:-1]


def _too_large() -> str:
    most = f"at most {MAX_FILES} files, {MAX_TOTAL_BYTES // 2**20} MiB"
    return f"the submission is too large ({most})"


def _check_totals(files: dict[str, bytes]) -> None:
    if len(files) > MAX_FILES or sum(map(len, files.values())) > MAX_TOTAL_BYTES:
        raise Ungradable(_too_large())


def _read_capped(path: Path) -> bytes:
    with path.open("rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise Ungradable(f"{path.name} is not a regular file")
        data = handle.read(MAX_TOTAL_BYTES + 1)
    if len(data) > MAX_TOTAL_BYTES:
        raise Ungradable(f"{path.name} is larger than {MAX_TOTAL_BYTES // 2**20} MiB")
    return data


def python_source(data: bytes, name: str) -> tuple[str, str]:
    """The text of a Python file and its encoding, as Python reads it: UTF-8 (with or without a
    BOM) unless a PEP 263 coding line says otherwise; Ungradable when it cannot be decoded."""
    advice = "save it as UTF-8 (or declare its encoding in a coding line, as PEP 263 describes)"
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:
        if "unknown encoding" in str(error.msg):
            raise Ungradable(f"{name} declares an {_shown(str(error.msg))}: {advice}") from None
        raise Ungradable(f"{name} is not UTF-8 text: {advice}") from None
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        shown = "UTF-8" if encoding in ("utf-8", "utf-8-sig") else encoding
        raise Ungradable(f"{name} is not valid {shown} text: {advice}") from None
    return text.removeprefix("\ufeff"), "utf-8" if encoding == "utf-8-sig" else encoding


_MAGIC = re.compile(r"^\s*(%|!)")


def notebook_to_module(data: bytes) -> tuple[str, tuple[str, ...]]:
    """The notebook's code cells as one module, and notes on what was changed or dropped."""
    try:
        notebook = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise Ungradable(f"the notebook is not valid JSON ({error})") from None
    except RecursionError:
        raise Ungradable("the notebook's JSON is nested too deeply") from None
    cells = notebook.get("cells") if isinstance(notebook, dict) else None
    if not isinstance(cells, list):
        raise Ungradable("the notebook has no list of cells")
    sources = []
    for number, cell in enumerate(cells, start=1):
        if isinstance(cell, dict) and cell.get("cell_type") == "code" and not _skipped(cell):
            source = cell.get("source", "")
            lines = source if isinstance(source, list) else [source]
            if not all(isinstance(line, str) for line in lines):
                raise Ungradable(f"the notebook's cell {number} has a source that is not text")
            sources.append("".join(lines))
    if not any(source.strip() for source in sources):
        raise Ungradable("the notebook has no code")
    return _neutralise_ipython("\n\n".join(sources))


def _skipped(cell: dict[str, object]) -> bool:
    """nbgrader's test cells (the grader runs its own tests) and cells tagged `demo` (the
    narrative's examples, which call the student's functions) are not part of the module."""
    metadata = cell.get("metadata")
    if not isinstance(metadata, dict):
        return False
    grading = metadata.get("nbgrader")
    if isinstance(grading, dict) and grading.get("grade") and not grading.get("solution"):
        return True
    tags = metadata.get("tags")
    return isinstance(tags, list) and "demo" in tags


def _neutralise_ipython(source: str) -> tuple[str, tuple[str, ...]]:
    """Comment out magics and shell escapes: they would run commands, or fail, in plain Python."""
    lines, dropped = [], 0
    for line in source.splitlines():
        if _MAGIC.match(line):
            lines.append(f"# [dropped by the grader] {line.strip()}")
            dropped += 1
        else:
            lines.append(line)
    notes = (f"{dropped} IPython magic or shell line(s) were commented out",) if dropped else ()
    return "\n".join(lines) + "\n", notes
