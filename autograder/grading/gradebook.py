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
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from autograder.errors import ConfigError
from autograder.grading.results import SubmissionResult
from autograder.safe_text import spreadsheet_cell

FILE_NAME = "gradebook.sqlite"
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS submissions (
    student TEXT PRIMARY KEY,
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
    result_json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tests (
    student TEXT NOT NULL REFERENCES submissions(student) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    nodeid TEXT NOT NULL,
    name TEXT NOT NULL,
    part TEXT NOT NULL,
    score REAL NOT NULL,
    max_score REAL NOT NULL,
    status TEXT NOT NULL,
    message TEXT,
    hint TEXT,
    PRIMARY KEY (student, number)
);
"""


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
    def final_score(self) -> float:
        return max(0.0, round(self.result.score - self.late_penalty, 6))


class Gradebook:
    """The gradebook in `folder`, created on first use."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / FILE_NAME
        self._connection = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        self._connection.execute("PRAGMA journal_mode=WAL")
        self._connection.execute("PRAGMA foreign_keys=ON")
        self._connection.executescript(SCHEMA)

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
            self._connection.execute("ROLLBACK")
            raise
        self._connection.execute("COMMIT")

    def bind(self, *, assignment: str, rubric_hash: str) -> None:
        """Record the assignment and the rubric now in force; refuse another assignment.

        Grades made under an earlier rubric stay until regraded (a re-run does that, since
        their rubric hash no longer matches)."""
        known = self.meta().get("assignment")
        if known is not None and known != assignment and self.count():
            raise ConfigError(
                f"{self.path} holds grades for the assignment {known!r}, not {assignment!r}: "
                "use another --out folder"
            )
        with self._transaction() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES ('assignment', ?)", (assignment,))
            db.execute("INSERT OR REPLACE INTO meta VALUES ('rubric_hash', ?)", (rubric_hash,))

    def meta(self) -> dict[str, str]:
        return dict(self._connection.execute("SELECT key, value FROM meta").fetchall())

    def count(self) -> int:
        return int(self._connection.execute("SELECT COUNT(*) FROM submissions").fetchone()[0])

    def is_current(
        self, student: str, content_hash: str, rubric_hash: str, kit_version: str
    ) -> bool:
        """Graded already with this content, rubric and kit; a grader error is never current
        (the grader failed, not the submission: a re-run tries again)."""
        row = self._connection.execute(
            "SELECT content_hash, rubric_hash, kit_version, status FROM submissions "
            "WHERE student = ?",
            (student,),
        ).fetchone()
        return (
            row is not None
            and row[3] != "grader_error"
            and tuple(row[:3])
            == (
                content_hash,
                rubric_hash,
                kit_version,
            )
        )

    def record(self, entry: Entry, *, rubric_hash: str, kit_version: str) -> None:
        """Write one submission and its tests, replacing any earlier grade, atomically."""
        result = entry.result
        with self._transaction() as db:
            db.execute("DELETE FROM submissions WHERE student = ?", (entry.student,))
            db.execute(
                "INSERT INTO submissions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (entry.student, entry.content_hash, rubric_hash, kit_version, entry.run_id,
                 result.status, result.score, result.max_score, entry.late_penalty,
                 entry.submitted_at, result.duration_s, json.dumps(result.to_dict())),
            )  # fmt: skip
            db.executemany(
                "INSERT INTO tests VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(entry.student, n, t.nodeid, t.name, t.part, t.score, t.max_score, t.status,
                  t.message, t.hint) for n, t in enumerate(result.tests)],
            )  # fmt: skip

    def entries(self) -> list[Entry]:
        rows = self._connection.execute(
            "SELECT student, content_hash, run_id, result_json, late_penalty, submitted_at, "
            "kit_version FROM submissions ORDER BY student"
        ).fetchall()
        return [
            Entry(
                student, content, run, SubmissionResult.from_dict(json.loads(data)), late, at, kit
            )
            for student, content, run, data, late, at, kit in rows
        ]

    def export_csv(self, target: Path, *, parts: list[str]) -> int:
        """One row per student: status, score, late penalty, final, each part, each test; no
        cell starts like a spreadsheet formula (a student's name may be `=HYPERLINK(…)`)."""
        entries = self.entries()
        tests = sorted({t.name for e in entries for t in e.result.tests})
        with target.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            header = ["student", "status", "score", "late_penalty", "final_score",
                      "max_score", "submitted_at", *parts, *tests]  # fmt: skip
            writer.writerow([spreadsheet_cell(cell) for cell in header])
            for e in entries:
                by_part = e.result.part_scores()
                by_test = {t.name: t.score for t in e.result.tests}
                writer.writerow(map(spreadsheet_cell, [
                    e.student, e.result.status, e.result.score, e.late_penalty, e.final_score,
                    e.result.max_score, e.submitted_at or "",
                    *[by_part.get(p, (0.0, 0.0))[0] for p in parts],
                    *[by_test.get(name, "") for name in tests],
                ]))  # fmt: skip
        return len(entries)


def merge(sources: list[Path], target: Path) -> int:
    """Merge shard gradebooks into the one in `target`; every shard must share one rubric."""
    hashes = set()
    with Gradebook(target) as merged:
        for source in sources:
            path = source / FILE_NAME
            if not path.is_file():
                raise ConfigError(
                    f"{source} holds no {FILE_NAME}: is it a --out folder of `grade`?"
                )
            with Gradebook(source) as shard:
                meta = shard.meta()
                hashes.add(meta.get("rubric_hash"))
                if len(hashes) > 1:
                    raise ConfigError(
                        f"{source} was graded under another rubric than the shards before it: "
                        "regrade it with the same grading.toml, tests and reference"
                    )
                merged.bind(assignment=meta["assignment"], rubric_hash=meta["rubric_hash"])
                for entry in shard.entries():
                    merged.record(
                        entry, rubric_hash=meta["rubric_hash"], kit_version=entry.kit_version
                    )
        return merged.count()
