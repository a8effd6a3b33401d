"""The gradebook: one SQLite file per output folder, one row per submission and per test result.

Each finished submission is written in a transaction of its own (WAL mode), so a grader killed
at any moment leaves every finished submission recorded and none half-recorded; a re-run skips
a submission already graded with the same content, rubric and kit version. Shard gradebooks
merge into one, refusing shards graded under another rubric.
"""

from __future__ import annotations

import csv
import json
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

from autograder.errors import ConfigError
from autograder.protocol.results import SubmissionResult
from autograder.safe_text import spreadsheet_cell

FILE_NAME = "gradebook.sqlite"
SCHEMA_VERSION = "2"
"""2: rows per (assignment, student); one rubric hash per assignment."""
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS assignments (name TEXT PRIMARY KEY, rubric_hash TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS submissions (
    assignment TEXT NOT NULL,
    student TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    rubric_hash TEXT NOT NULL,
    kit_version TEXT NOT NULL,
    run_id TEXT NOT NULL,
    status TEXT NOT NULL,
    score REAL NOT NULL,
    max_score REAL NOT NULL,
    late_penalty REAL NOT NULL,
    submitted_at TEXT,
    duration_s REAL NOT NULL,
    result_json TEXT NOT NULL,
    PRIMARY KEY (assignment, student)
);
CREATE TABLE IF NOT EXISTS tests (
    assignment TEXT NOT NULL,
    student TEXT NOT NULL,
    number INTEGER NOT NULL,
    nodeid TEXT NOT NULL,
    name TEXT NOT NULL,
    part TEXT NOT NULL,
    score REAL NOT NULL,
    max_score REAL NOT NULL,
    status TEXT NOT NULL,
    message TEXT,
    hint TEXT,
    PRIMARY KEY (assignment, student, number),
    FOREIGN KEY (assignment, student) REFERENCES submissions(assignment, student)
        ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS sources (
    assignment TEXT NOT NULL,
    student TEXT NOT NULL,
    source TEXT NOT NULL,
    PRIMARY KEY (assignment, student),
    FOREIGN KEY (assignment, student) REFERENCES submissions(assignment, student)
        ON DELETE CASCADE
);
"""
MAX_SOURCE_CHARS = 256 * 1024
"""The module source kept per submission (for `similarity`): a student's module is a few KiB."""


@dataclass(frozen=True)
class Entry:
    """One graded submission as the gradebook holds it."""

    student: str
    content_hash: str
    run_id: str
    result: SubmissionResult
    late_penalty: float = 0.0
    submitted_at: str | None = None
    kit_version: str = ""

    @property
    def assignment(self) -> str:
        return self.result.assignment

    @property
    def final_score(self) -> float:
        return max(0.0, round(self.result.score - self.late_penalty, 6))


@dataclass(frozen=True)
class ExtraColumns:
    """What the gradebook file alone does not know, for export_csv: each student's final score
    with overrides, and more columns (written answers) with their cells, by student."""

    final_score: Mapping[str, float] = field(default_factory=dict)
    header: tuple[str, ...] = ()
    cells: Mapping[str, tuple[object, ...]] = field(default_factory=dict)


class Gradebook:
    """The gradebook in `folder`, created on first use."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / FILE_NAME
        self._connection = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        self._connection.execute("PRAGMA journal_mode=WAL")
        self._connection.execute("PRAGMA foreign_keys=ON")
        tables = {row[0] for row in self._connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}  # fmt: skip
        if "submissions" in tables and "assignments" not in tables:
            self._connection.close()
            raise ConfigError(
                f"{self.path} was written by an older kit (one assignment per gradebook): "
                "grade into a new --out folder"
            )
        self._connection.executescript(SCHEMA)
        self._connection.execute(
            "INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,)
        )

    def close(self) -> None:
        self._connection.close()

    def __enter__(self) -> Gradebook:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self._connection.execute("BEGIN IMMEDIATE")
        try:
            yield self._connection
        except BaseException:
            with suppress(sqlite3.OperationalError):  # SQLite rolled back already (disk full)
                self._connection.execute("ROLLBACK")
            raise
        self._connection.execute("COMMIT")

    def bind(self, *, assignment: str, rubric_hash: str) -> None:
        """Record the rubric now in force for `assignment` (one gradebook holds the rows of
        every assignment graded into its folder). Grades made under an earlier rubric stay
        until regraded (a re-run does that, since their rubric hash no longer matches)."""
        with self._transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO assignments VALUES (?, ?)", (assignment, rubric_hash)
            )

    def meta(self) -> dict[str, str]:
        return dict(self._connection.execute("SELECT key, value FROM meta").fetchall())

    def assignments(self) -> dict[str, str]:
        """Each assignment graded into this gradebook, with its rubric hash, by name."""
        rows = self._connection.execute("SELECT name, rubric_hash FROM assignments ORDER BY name")
        return dict(rows.fetchall())

    def count(self) -> int:
        return int(self._connection.execute("SELECT COUNT(*) FROM submissions").fetchone()[0])

    def is_current(
        self, assignment: str, student: str, content_hash: str, rubric_hash: str, kit_version: str
    ) -> bool:
        """Graded already with this content, rubric and kit; a grader error is never current
        (the grader failed, not the submission: a re-run tries again)."""
        row = self._connection.execute(
            "SELECT content_hash, rubric_hash, kit_version, status FROM submissions "
            "WHERE assignment = ? AND student = ?",
            (assignment, student),
        ).fetchone()
        return (
            row is not None
            and row[3] != "grader_error"
            and tuple(row[:3]) == (content_hash, rubric_hash, kit_version)
        )

    def record(
        self, entry: Entry, *, rubric_hash: str, kit_version: str, source: str | None = None
    ) -> None:
        """Write one submission and its tests (and the module's source, when it was read, cut
        at MAX_SOURCE_CHARS), replacing any earlier grade, atomically."""
        result = entry.result
        key = (entry.assignment, entry.student)
        with self._transaction() as db:
            db.execute("DELETE FROM submissions WHERE assignment = ? AND student = ?", key)
            db.execute(
                "INSERT INTO submissions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*key, entry.content_hash, rubric_hash, kit_version, entry.run_id,
                 result.status, result.score, result.max_score, entry.late_penalty,
                 entry.submitted_at, result.duration_s, json.dumps(result.to_dict())),
            )  # fmt: skip
            db.executemany(
                "INSERT INTO tests VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(*key, n, t.nodeid, t.name, t.part, t.score, t.max_score, t.status,
                  t.message, t.hint) for n, t in enumerate(result.tests)],
            )  # fmt: skip
            if source is not None:
                db.execute(
                    "INSERT INTO sources VALUES (?, ?, ?)", (*key, source[:MAX_SOURCE_CHARS])
                )

    def sources(self, assignment: str) -> dict[str, str]:
        """The module source of each submission of `assignment` that could be read, by student."""
        rows = self._connection.execute(
            "SELECT student, source FROM sources WHERE assignment = ? ORDER BY student",
            (assignment,),
        )
        return dict(rows.fetchall())

    def entries(self, assignment: str | None = None) -> list[Entry]:
        """Every row (of `assignment` only, when named), by assignment and student."""
        query = (
            "SELECT student, content_hash, run_id, result_json, late_penalty, submitted_at, "
            "kit_version FROM submissions"
        )
        if assignment is None:
            rows = self._connection.execute(query + " ORDER BY assignment, student").fetchall()
        else:
            rows = self._connection.execute(
                query + " WHERE assignment = ? ORDER BY student", (assignment,)
            ).fetchall()
        return [
            Entry(
                student, content, run, SubmissionResult.from_dict(json.loads(data)), late, at, kit
            )
            for student, content, run, data, late, at, kit in rows
        ]

    def export_csv(
        self,
        target: Path,
        *,
        parts: dict[str, list[str]],
        extra: Mapping[str, ExtraColumns] | None = None,
    ) -> int:
        """One row per student: for each assignment (`parts`: assignment → its part names)
        the status, score, late penalty, final score, each part and each test, side by side;
        with one assignment the columns carry no prefix. No cell starts like a spreadsheet
        formula (a student's name may be `=HYPERLINK(…)`). Returns the number of students.

        `extra` (per assignment, from autograder/manual/totals.py) replaces final_score by the
        one with instructors' overrides and adds the written answers' columns."""
        books = {name: self.entries(name) for name in parts}
        students = sorted({e.student for entries in books.values() for e in entries})
        header: list[str] = ["student"]
        columns = []
        for name, entries in books.items():
            prefix = f"{name}:" if len(books) > 1 else ""
            tests = sorted({t.name for e in entries for t in e.result.tests})
            fields = ["status", "score", "late_penalty", "final_score", "max_score",
                      "submitted_at", *parts[name], *tests]  # fmt: skip
            more = (extra or {}).get(name, ExtraColumns())
            header += [prefix + field for field in [*fields, *more.header]]
            by_student = {e.student: e for e in entries}
            columns.append((by_student, parts[name], tests, len(fields), more))
        with target.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow([spreadsheet_cell(cell) for cell in header])
            for student in students:
                row: list[object] = [student]
                for by_student, part_names, tests, width, marks in columns:
                    e = by_student.get(student)
                    if e is None:
                        row += [""] * (width + len(marks.header))
                        continue
                    by_part = e.result.part_scores()
                    by_test = {t.name: t.score for t in e.result.tests}
                    row += [
                        e.result.status, e.result.score, e.late_penalty, e.final_score,
                        e.result.max_score, e.submitted_at or "",
                        *[by_part.get(p, (0.0, 0.0))[0] for p in part_names],
                        *[by_test.get(name, "") for name in tests],
                    ]  # fmt: skip
                    if student in marks.final_score:
                        row[-width + 3] = marks.final_score[student]
                    if marks.header:
                        row += list(marks.cells.get(student, [""] * len(marks.header)))
                writer.writerow(map(spreadsheet_cell, row))
        return len(students)


def merge(sources: list[Path], target: Path) -> int:
    """Merge shard gradebooks into the one in `target`; the shards must agree on each
    assignment's rubric."""
    hashes: dict[str, str] = {}
    with Gradebook(target) as merged:
        for source in sources:
            path = source / FILE_NAME
            if not path.is_file():
                raise ConfigError(
                    f"{source} holds no {FILE_NAME}: is it a --out folder of `grade`?"
                )
            with Gradebook(source) as shard:
                for assignment, rubric_hash in shard.assignments().items():
                    if hashes.setdefault(assignment, rubric_hash) != rubric_hash:
                        raise ConfigError(
                            f"{source} graded {assignment} under another rubric than the shards "
                            "before it: regrade it with the same grading.toml, tests and reference"
                        )
                    merged.bind(assignment=assignment, rubric_hash=rubric_hash)
                texts = {name: shard.sources(name) for name in shard.assignments()}
                for entry in shard.entries():
                    merged.record(
                        entry,
                        rubric_hash=hashes[entry.assignment],
                        kit_version=entry.kit_version,
                        source=texts[entry.assignment].get(entry.student),
                    )
        return merged.count()
