"""`autograder new NAME [--from EXISTING]`: a new assignment's files, ready to release.

From the kit's template (templates/assignment/): a reference with one marked function, its
README, a public and a hidden test with their part and points markers, a sample class (a correct
style and two shared hostile payloads, with expected.toml) and its rubric table appended to
grading.toml (which is created for a new course). The result passes `release`, `validate` and
the course tests as it is.

With `--from EXISTING`: a copy of that assignment's folder, reference and rubric table, with
every whole-word mention of its name (and its module's) renamed.
"""

from __future__ import annotations

import random
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from string import Template

from autograder.course.assignment import SAMPLE_CLASS
from autograder.course.course import RUBRIC_FILE, Course
from autograder.errors import ConfigError

TEMPLATES = Path(__file__).resolve().parent / "templates" / "assignment"
NAME_PATTERN = re.compile(r"[a-z][a-z0-9_]{0,63}")
"""A plain folder name that is also a Python module name."""
RESERVED = {"shared", "autograder", "tests", "test", "reference", "student_template"}
COURSE_HEADER = """\
# The course's rubric: one [assignments.NAME] table per assignment (the kit's README explains
# every key). `autograder new NAME` appends a table here.
"""


@dataclass(frozen=True)
class NewAssignment:
    """What `new` wrote."""

    name: str
    files: tuple[Path, ...]


def new_assignment(course_root: Path, name: str, *, copy_of: str | None = None) -> NewAssignment:
    """Write assignment `name` in the course at `course_root` (made if it has no grading.toml).

    Raises ConfigError, before writing anything, for a name that is not a plain folder name, is
    reserved, or is taken (a folder, a reference or a rubric table), and for an unknown
    `copy_of`.
    """
    root = course_root.resolve()
    rubric = root / RUBRIC_FILE
    existing = _existing_names(root, rubric)
    _check_name(name, root, existing)
    if copy_of is not None and copy_of not in existing:
        known = ", ".join(sorted(existing)) or "none"
        raise ConfigError(f"--from {copy_of}: no such assignment in {rubric} (there are: {known})")
    if copy_of is None:
        files = _from_template(root, name)
        table = _template("rubric.toml.tmpl", name)
    else:
        files = _from_copy(Course.load(root), copy_of, name)
        table = _renamed_table(rubric.read_text(encoding="utf-8"), copy_of, name)
    if not rubric.exists():
        rubric.write_text(COURSE_HEADER, encoding="utf-8")
    with rubric.open("a", encoding="utf-8") as file:
        file.write(table)
    return NewAssignment(name, (*files, rubric))


def _existing_names(root: Path, rubric: Path) -> set[str]:
    if not rubric.exists():
        return set()
    return {assignment.name for assignment in Course.load(root).assignments}


def _check_name(name: str, root: Path, existing: set[str]) -> None:
    if not NAME_PATTERN.fullmatch(name) or name in RESERVED:
        raise ConfigError(
            f"{name!r} is not a plain assignment name: use lower-case letters, digits and "
            "underscores, starting with a letter (it names a folder and a Python module), and "
            f"none of {', '.join(sorted(RESERVED))}"
        )
    taken = [
        str(path.relative_to(root))
        for path in (root / "assignments" / name, root / "reference" / f"{name}.py")
        if path.exists() or path.is_symlink()
    ]
    if name in existing:
        taken.append(f"[assignments.{name}] in {RUBRIC_FILE}")
    if taken:
        raise ConfigError(f"assignment {name!r} exists already: {', '.join(taken)}")


def _template(file: str, name: str) -> str:
    title = f"{name.replace('_', ' ').capitalize()}: a first function"
    seed = random.SystemRandom().randrange(100_000, 1_000_000)
    text = (TEMPLATES / file).read_text(encoding="utf-8")
    return Template(text).substitute(name=name, title=title, seed=seed)


def _from_template(root: Path, name: str) -> list[Path]:
    folder = root / "assignments" / name
    targets = {
        root / "reference" / f"{name}.py": "reference.py.tmpl",
        folder / "README.md": "README.md.tmpl",
        folder / "public_tests" / f"test_{name}.py": "test_public.py.tmpl",
        folder / "hidden_tests" / f"test_hidden_{name}.py": "test_hidden.py.tmpl",
        folder / SAMPLE_CLASS / "correct_loops.py": "correct_loops.py.tmpl",
        folder / SAMPLE_CLASS / "expected.toml": "expected.toml.tmpl",
    }
    for path, template in targets.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_template(template, name), encoding="utf-8")
    return list(targets)


def _from_copy(course: Course, copy_of: str, name: str) -> list[Path]:
    source = course.assignment(copy_of)
    folder = course.root / "assignments" / name
    shutil.copytree(
        source.folder, folder, symlinks=True, ignore=shutil.ignore_patterns("__pycache__")
    )
    reference = course.root / "reference" / f"{name}.py"
    shutil.copyfile(source.reference, reference)
    files = [reference, *sorted(p for p in folder.rglob("*") if p.is_file())]
    old_module = source.spec.module_name
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        renamed = _rename(_rename(text, copy_of, name), old_module, name)
        if renamed != text:
            path.write_text(renamed, encoding="utf-8")
    return files


def _rename(text: str, old: str, new: str) -> str:
    return re.sub(rf"\b{re.escape(old)}\b", new, text)


def _renamed_table(rubric: str, old: str, new: str) -> str:
    """The text of `[assignments.OLD]` and its sub-tables, renamed to NEW."""
    lines = rubric.splitlines(keepends=True)
    header = re.compile(r"^\s*\[\s*assignments\.(?P<name>[A-Za-z0-9_]+)\b")
    kept, inside = [], False
    for line in lines:
        found = header.match(line)
        if found is not None:
            inside = found["name"] == old
        elif line.lstrip().startswith("[") and not line.lstrip().startswith("[["):
            inside = False
        if inside:
            kept.append(line)
    table = _rename("".join(kept), f"assignments.{old}", f"assignments.{new}")
    table = table.replace(f'"{old}.py"', f'"{new}.py"')
    return "\n" + table.rstrip("\n") + "\n"
