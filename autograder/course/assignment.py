"""One assignment of a course: its rubric table, its folder and every path in it, its
instructor modules, and the hash of everything that decides its grades.

An assignment called NAME is, by convention (the README's "how to add an assignment"):

    assignments/NAME/README.md            the text students read (the release's README)
    assignments/NAME/public_tests/        tests students get; their results are shown at once
    assignments/NAME/hidden_tests/        tests only the grader runs
    assignments/NAME/misconceptions.py    optional: CATALOGUE of known mistakes (diagnose.py)
    assignments/NAME/signatures.py        optional: SIGNATURES, measurements that name mistakes
    assignments/NAME/proof_domain.py      optional: the objects and laws its proofs may use
    assignments/NAME/warm_up.py           optional: run in the sandbox before any submission
    assignments/NAME/notebook.py          optional: the notebook's source (jupytext percent)
    assignments/NAME/sample_class/        optional: submissions `validate` and `make demo` grade
    assignments/NAME/independent_corpus.py optional: VARIANTS from public code (corpus.py)
    assignments/NAME/impostors.py         optional: TRIVIAL, each function without the
                                          assignment's new ingredient (trivial_impostors.py)
    assignments/NAME/words.toml           optional: the docstrings' words for the reference's
                                          quantities, which hints from mutants speak
    assignments/NAME/mutation_waivers.toml optional: mutants no test need catch, each with why
    assignments/shared/                   optional: course-level knowledge of one mathematical
                                          object, imported by several assignments' instructor
                                          files as `from shared.TOPIC import …`
    reference/MODULE                      the reference solution, with solution markers
    student_template/NAME/                what `autograder release` writes for students
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import importlib.util
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from autograder.course.rubric import AssignmentSpec
from autograder.errors import ConfigError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

if TYPE_CHECKING:
    from autograder.course.catalogue import Misconception, Signature
    from autograder.course.course import Course

PUBLIC_TESTS = "public_tests"
HIDDEN_TESTS = "hidden_tests"
CATALOGUE_FILE = "misconceptions.py"
SIGNATURES_FILE = "signatures.py"
PROOF_DOMAIN_FILE = "proof_domain.py"
WARM_UP_FILE = "warm_up.py"
NOTEBOOK_SOURCE = "notebook.py"
SAMPLE_CLASS = "sample_class"
CORPUS_FILE = "independent_corpus.py"
"""Optional: student code from public sources that `validate` judges the hints on."""
IMPOSTORS_FILE = "impostors.py"
"""Optional: each function without the assignment's new ingredient, for `validate`."""
WORDS_FILE = "words.toml"
"""Optional: `[quantities]` NAME = "the docstring's word for it" (diagnosis/mutants.py)."""
WAIVERS_FILE = "mutation_waivers.toml"
"""Optional: `[[waiver]]` mutant = "KEY", reason = "…" (authoring/mutation_testing.py)."""
NOT_GRADING = ("late", "attempts", "never_lower")
"""Rubric keys that decide penalties and which attempt counts, never a test's result."""
RELEASE_ROOT = "student_template"
MAX_WARM_UP_BYTES = 64 * 1024
"""The warm-up travels to the sandbox on a command line: larger is a mistake."""


@dataclass(frozen=True)
class Assignment:
    """An assignment of `course`, as its rubric table `spec` and its files define it."""

    course: Course
    spec: AssignmentSpec

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def folder(self) -> Path:
        return self.course.root / "assignments" / self.spec.name

    @property
    def public_tests(self) -> Path:
        return self.folder / PUBLIC_TESTS

    @property
    def hidden_tests(self) -> Path:
        return self.folder / HIDDEN_TESTS

    @property
    def test_folders(self) -> list[Path]:
        """The public and hidden test folders that exist, public first."""
        return [path for path in (self.public_tests, self.hidden_tests) if path.is_dir()]

    @property
    def reference(self) -> Path:
        return self.course.root / "reference" / self.spec.module

    @property
    def readme(self) -> Path:
        return self.folder / "README.md"

    @property
    def catalogue_file(self) -> Path:
        return self.folder / CATALOGUE_FILE

    @property
    def signatures_file(self) -> Path:
        return self.folder / SIGNATURES_FILE

    @property
    def proof_domain_file(self) -> Path:
        return self.folder / PROOF_DOMAIN_FILE

    @property
    def warm_up_file(self) -> Path:
        return self.folder / WARM_UP_FILE

    @property
    def notebook_source(self) -> Path:
        return self.folder / NOTEBOOK_SOURCE

    @property
    def sample_class(self) -> Path:
        return self.folder / SAMPLE_CLASS

    @property
    def release_dir(self) -> Path:
        """Where `autograder release` writes this assignment's student version."""
        return self.course.root / RELEASE_ROOT / self.spec.name

    def relative(self, path: Path) -> str:
        """`path` as the course names it (relative to the course folder), for messages."""
        try:
            return path.relative_to(self.course.root).as_posix()
        except ValueError:
            return str(path)

    # -- instructor modules (trusted code: never a student's) ----------------------------------

    def load_reference(self) -> ModuleType:
        return import_instructor_module(self.reference, self.name)

    def load_catalogue(self) -> tuple[Misconception, ...]:
        """The CATALOGUE of misconceptions, or none when the assignment has no catalogue."""
        if not self.catalogue_file.is_file():
            return ()
        module = import_instructor_module(self.catalogue_file, self.name, self._shared)
        return tuple(module.CATALOGUE)

    def load_signatures(self) -> tuple[Signature, ...]:
        """The SIGNATURES measured on wrong results, or none without a signatures file."""
        if not self.signatures_file.is_file():
            return ()
        module = import_instructor_module(self.signatures_file, self.name, self._shared)
        return tuple(module.SIGNATURES)

    def load_words(self) -> dict[str, str]:
        """The docstrings' words for the reference's quantities (words.toml's [quantities])."""
        table = self._toml(WORDS_FILE).get("quantities", {})
        if not isinstance(table, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in table.items()
        ):
            raise ConfigError(f"{self.folder / WORDS_FILE}: [quantities] maps names to words")
        return {_as_written(key, self.folder / WORDS_FILE): words for key, words in table.items()}

    def load_waivers(self) -> dict[str, str]:
        """The mutants the assignment's tests need not catch: {mutant key: why}."""
        entries = self._toml(WAIVERS_FILE).get("waiver", [])
        waivers: dict[str, str] = {}
        for entry in entries if isinstance(entries, list) else [None]:
            if not (
                isinstance(entry, dict)
                and isinstance(entry.get("mutant"), str)
                and isinstance(entry.get("reason"), str)
                and entry["reason"].strip()
            ):
                raise ConfigError(
                    f"{self.folder / WAIVERS_FILE}: each [[waiver]] needs a mutant and a reason"
                )
            if entry["mutant"] in waivers:
                raise ConfigError(
                    f"{self.folder / WAIVERS_FILE}: {entry['mutant']!r} is waived twice"
                )
            waivers[entry["mutant"]] = entry["reason"]
        return waivers

    def _toml(self, name: str) -> dict[str, object]:
        path = self.folder / name
        if not path.is_file():
            return {}
        try:
            return dict(tomllib.loads(path.read_text(encoding="utf-8")))
        except tomllib.TOMLDecodeError as error:
            raise ConfigError(f"{path}: {error}") from None

    @property
    def _shared(self) -> Path:
        """The folder holding the course's shared topic modules' package (`shared/`)."""
        return self.course.root / "assignments"

    @property
    def shared_folder(self) -> Path:
        """The course's shared topic modules (`assignments/shared/`), which any assignment's
        instructor files may import: part of every assignment's grading files."""
        return self._shared / SHARED

    def warm_up_source(self) -> str | None:
        """The sandbox's warm-up (instructor code run before any submission), if any."""
        if not self.warm_up_file.is_file():
            return None
        source = read_instructor_text(self.warm_up_file, MAX_WARM_UP_BYTES)
        try:
            compile(source, str(self.warm_up_file), "exec", dont_inherit=True)
        except SyntaxError as error:
            raise ConfigError(f"{self.warm_up_file}: {error}") from None
        return source

    # -- what decides a grade ------------------------------------------------------------------

    def grading_hash(self) -> str:
        """A hash of everything that decides this assignment's test results: its rubric table
        (but NOT_GRADING), its reference, and every Python file of its folder but the sample
        class. Another assignment's table or files do not change it.

        The late policy (extensions included) and the choice of the counted attempt are left
        out: `grade` computes penalties and the counted attempt again on every run, from the
        recorded results, so a new extension re-penalises without regrading anyone."""
        decides = dataclasses.asdict(self.spec)
        for what in NOT_GRADING:
            decides.pop(what)
        table = json.dumps(decides, sort_keys=True, default=str)
        digest = hashlib.sha256(table.encode())
        shared = sorted(self.shared_folder.rglob("*.py")) if self.shared_folder.is_dir() else []
        words = [self.folder / WORDS_FILE] if (self.folder / WORDS_FILE).is_file() else []
        sources = [self.reference, *sorted(self._python_files()), *words, *shared]
        for path in sources:
            digest.update(self.relative(path).encode() + b"\0" + path.read_bytes())
        return digest.hexdigest()

    def _python_files(self) -> list[Path]:
        sample = self.sample_class.resolve()
        return [
            path
            for path in self.folder.rglob("*.py")
            if path.is_file()
            and not path.resolve().is_relative_to(sample)
            and path.name not in (CORPUS_FILE, IMPOSTORS_FILE)  # judge tests, decide no grade
        ]


def import_instructor_module(path: Path, assignment: str, shared: Path | None = None) -> ModuleType:
    """An instructor's file (the reference, the catalogue, a proof domain): trusted code.
    `shared`: a folder whose `shared/` package the file may import (the course's topics);
    it is on the import path only while the file runs (its imports happen then, at its top
    level), and forgotten before and after, so that another course's topics are never taken
    for this one's."""
    if not path.is_file():
        raise ConfigError(f"{path} does not exist")
    spec = importlib.util.spec_from_file_location(f"instructor_{assignment}_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ConfigError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    if shared is None:
        spec.loader.exec_module(module)
        return module
    _forget_shared()  # another course's topics, imported by a module that kept them
    sys.path.insert(0, str(shared))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(shared))
        _forget_shared()
    return module


def _forget_shared() -> None:
    for name in [n for n in sys.modules if n == SHARED or n.startswith(SHARED + ".")]:
        del sys.modules[name]


SHARED = "shared"
"""The package of course-level topic modules, in the course's assignments/ folder."""


def read_instructor_text(path: Path, limit: int) -> str:
    """An instructor's text file, read whole: a ConfigError beyond `limit` bytes or not UTF-8."""
    with path.open("rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise ConfigError(f"{path} is larger than {limit} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ConfigError(f"{path} is not UTF-8 text: {error}") from None


def _as_written(key: str, path: Path) -> str:
    """A words.toml key as the diagnosis looks it up: a name, or an expression of the reference
    (`Q.shape[-1]`) spaced as Python's own unparser writes it."""
    try:
        return ast.unparse(ast.parse(key, mode="eval").body)
    except SyntaxError:
        raise ConfigError(
            f"{path}: {key!r} in [quantities] is neither a name nor a Python expression"
        ) from None
