"""Each manual part's answer, read from a submission at grading time, in the trusted process.

A notebook's answer is its cell whose nbgrader `grade_id` is the part's name; a folder's or a
zip's is the file the rubric's `answer_file` names (the copy nearest the top), or else the cell
of its single notebook. A lone .py file has no room for an answer file: its answers are missing.
The submission is read with the submission reader's own bounds (sizes, counts, depth, zip
checks); whatever it holds, this never raises: an unreadable answer is a missing one.

The answers go to a table of their own in the gradebook file, `manual_answers`, which
autograder/manual/ (the people's grading) reads; this module is its only writer. An answer is
kept as the student left it, the released placeholder included: `is_no_answer` tells, when the
answers are read, that such an answer is none (so a gradebook captured before counts it so too).
"""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath

from autograder.course.rubric import AssignmentSpec, ManualPart
from autograder.grading.database import connect, write_transaction
from autograder.grading.gradebook import FILE_NAME

# The reader's own bounded helpers: the same limits as the submission the tests graded.
from autograder.grading.submission import _read_capped, _read_folder, _read_zip
from autograder.safe_text import storable

ANSWER_PLACEHOLDER = "YOUR ANSWER HERE"
"""The text of a written-answer cell in a released notebook (as nbgrader releases it too);
autograder.authoring.notebook writes the same words, and a test holds the two equal."""
MAX_ANSWER_CHARS = 64 * 1024
"""The most of an answer kept: a written explanation is a few paragraphs."""
ANSWERS_SCHEMA = """
CREATE TABLE IF NOT EXISTS manual_answers (
    assignment TEXT NOT NULL, student TEXT NOT NULL, attempt TEXT NOT NULL, part TEXT NOT NULL,
    answer TEXT, truncated INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (assignment, student, attempt, part)
);
"""


def read_answers(path: Path, spec: AssignmentSpec) -> dict[str, str | None]:
    """Part name → its answer's text (None: missing), for every manual part of `spec`."""
    if not spec.manual:
        return {}
    try:
        files = _files(path)
    except Exception:  # Ungradable, RecursionError, an OSError: the answers are missing
        files = {}
    return {part.name: _answer(part, files) for part in spec.manual}


def is_no_answer(text: str | None) -> bool:
    """`text` answers nothing: missing, blank, or the released placeholder left as it was
    (spaces and line breaks aside)."""
    if text is None:
        return True
    words = " ".join(text.split())
    return words in ("", ANSWER_PLACEHOLDER)


def _files(path: Path) -> dict[str, bytes]:
    if path.is_symlink():
        return {}
    if path.is_dir():
        return _read_folder(path)[0]
    suffix = path.suffix.lower()
    if suffix == ".zip":
        return _read_zip(_read_capped(path))
    if suffix == ".ipynb":
        return {path.name: _read_capped(path)}
    return {}


def _answer(part: ManualPart, files: dict[str, bytes]) -> str | None:
    if part.answer_file is not None:
        named = [n for n in files if PurePosixPath(n).name == part.answer_file]
        if named:
            return _text(files[min(named, key=lambda n: n.count("/"))])
    notebooks = [n for n in files if n.lower().endswith(".ipynb")]
    if len(notebooks) == 1:
        return notebook_answer(files[notebooks[0]], part.name)
    return None


def _text(data: bytes) -> str:
    return data[: MAX_ANSWER_CHARS * 4 + 4].decode("utf-8", "replace").removeprefix("\ufeff")


def notebook_answer(data: bytes, grade_id: str) -> str | None:
    """The source of the notebook cell whose nbgrader grade_id is `grade_id`, or None."""
    try:
        notebook = json.loads(data.decode("utf-8-sig"))
    except (ValueError, RecursionError):
        return None
    cells = notebook.get("cells") if isinstance(notebook, dict) else None
    for cell in cells if isinstance(cells, list) else []:
        metadata = cell.get("metadata") if isinstance(cell, dict) else None
        grading = metadata.get("nbgrader") if isinstance(metadata, dict) else None
        if isinstance(grading, dict) and grading.get("grade_id") == grade_id:
            source = cell.get("source", "")
            lines = source if isinstance(source, list) else [source]
            return "".join(line for line in lines if isinstance(line, str))
    return None


def capture_answers(
    folder: Path, spec: AssignmentSpec, student: str, attempt: str, submission: Path
) -> None:
    """Read the answers of `student`'s `attempt` to the manual parts of `spec` and keep them in
    the gradebook file of `folder` (batch.py calls this once the attempt's grade is recorded).
    Each attempt keeps its own answers: people grade the answers of the attempt that counts."""
    record_answers(folder, spec.name, student, read_answers(submission, spec), attempt=attempt)


def record_answers(
    folder: Path,
    assignment: str,
    student: str,
    answers: dict[str, str | None],
    *,
    attempt: str = "",
) -> None:
    """Replace the answers of the student's attempt (None: missing), each cut at
    MAX_ANSWER_CHARS."""
    rows = [
        (assignment, student, attempt, part,
         None if text is None else storable(text[:MAX_ANSWER_CHARS]),
         int(text is not None and len(text) > MAX_ANSWER_CHARS))
        for part, text in answers.items()
    ]  # fmt: skip
    db = connect(folder / FILE_NAME)
    try:
        db.executescript(ANSWERS_SCHEMA)
        with write_transaction(db):
            db.execute(
                "DELETE FROM manual_answers WHERE assignment = ? AND student = ? AND attempt = ?",
                (assignment, student, attempt),
            )
            db.executemany("INSERT INTO manual_answers VALUES (?, ?, ?, ?, ?, ?)", rows)
    finally:
        db.close()
