"""Read a submission (a .py file, a folder, a .zip of either, or a notebook) into plain files.

Nothing here runs student code: files are read as bytes and text, a zip is unpacked in memory
with its size and paths checked, and a notebook's code cells are joined into a module with
IPython syntax (magics, `!` shell lines) made inert.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_TOTAL_BYTES = 20 * 1024 * 1024
MAX_FILES = 200


class Ungradable(Exception):
    """The submission cannot be graded at all; the message says why, for the student."""


@dataclass(frozen=True)
class Submission:
    """What the worker gets: the student's module and any files beside it, plus notes."""

    id: str
    module_source: str
    files: tuple[tuple[str, bytes], ...] = ()
    notes: tuple[str, ...] = ()

    def write(self, folder: Path, module: str) -> Path:
        """Lay the submission out in `folder` (readable by the worker); return the module's path."""
        for name, content in self.files:
            target = folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
            target.chmod(0o644)
        path = folder / module
        path.write_text(self.module_source, encoding="utf-8")
        path.chmod(0o644)
        return path


def load_submission(path: Path, *, module: str) -> Submission:
    """Read the submission at `path`; Ungradable, with the reason, if there is nothing to grade."""
    if not path.exists():
        raise Ungradable(f"{path} does not exist")
    student = path.stem if path.is_file() else path.name
    if path.is_dir():
        return _from_files(student, _read_folder(path), module)
    suffix = path.suffix.lower()
    data = _read_capped(path)
    if suffix == ".zip":
        return _from_files(student, _read_zip(data), module)
    if suffix == ".ipynb":
        source, notes = notebook_to_module(data)
        return Submission(id=student, module_source=source, notes=notes)
    if suffix == ".py":
        return Submission(id=student, module_source=_text(data, path.name))
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
        return Submission(id=student, module_source=_text(files[chosen], module), files=rest)
    if len(notebooks) == 1:
        source, notes = notebook_to_module(files[notebooks[0]])
        return Submission(id=student, module_source=source, notes=notes)
    raise Ungradable(
        f"no {module} found (nor a single notebook) among the submitted files: "
        f"{', '.join(sorted(files)) or 'none'}"
    )


def _read_folder(folder: Path) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink() and "__pycache__" not in path.parts:
            files[path.relative_to(folder).as_posix()] = _read_capped(path)
            _check_totals(files)
    return files


def _read_zip(data: bytes) -> dict[str, bytes]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise Ungradable("the .zip file is damaged or not a zip archive") from None
    files: dict[str, bytes] = {}
    for info in archive.infolist():
        name = PurePosixPath(info.filename)
        if info.is_dir() or name.parts[:1] == ("__MACOSX",) or "__pycache__" in name.parts:
            continue
        if name.is_absolute() or ".." in name.parts:
            raise Ungradable(f"the .zip holds a path outside its folder: {info.filename}")
        if info.file_size > MAX_FILE_BYTES:
            raise Ungradable(f"{info.filename} is larger than {MAX_FILE_BYTES // 1024} KiB")
        files[str(name)] = archive.read(info)
        _check_totals(files)
    return files


def _check_totals(files: dict[str, bytes]) -> None:
    if len(files) > MAX_FILES or sum(map(len, files.values())) > MAX_TOTAL_BYTES:
        limit = f"at most {MAX_FILES} files, {MAX_TOTAL_BYTES // 2**20} MiB"
        raise Ungradable(f"the submission is too large ({limit})")


def _read_capped(path: Path) -> bytes:
    if path.stat().st_size > MAX_TOTAL_BYTES:
        raise Ungradable(f"{path.name} is larger than {MAX_TOTAL_BYTES // 2**20} MiB")
    return path.read_bytes()


def _text(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Ungradable(f"{name} is not UTF-8 text") from None


_MAGIC = re.compile(r"^\s*(%|!)")


def notebook_to_module(data: bytes) -> tuple[str, tuple[str, ...]]:
    """The notebook's code cells as one module, and notes on what was changed or dropped."""
    try:
        notebook = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise Ungradable(f"the notebook is not valid JSON ({error})") from None
    cells = notebook.get("cells") if isinstance(notebook, dict) else None
    if not isinstance(cells, list):
        raise Ungradable("the notebook has no list of cells")
    sources = []
    for cell in cells:
        if isinstance(cell, dict) and cell.get("cell_type") == "code" and not _skipped(cell):
            source = cell.get("source", "")
            sources.append("".join(source) if isinstance(source, list) else str(source))
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
