"""The gradebook: one SQLite file per output folder, one row per submission and per test result.

Each finished submission is written in a transaction of its own (WAL mode), so a grader killed
at any moment leaves every finished submission recorded and none half-recorded; a re-run skips
a submission already graded with the same content, rubric and kit version. Shard gradebooks
merge into one, refusing shards graded under another rubric or holding one student differently.
"""

from __future__ import annotations

import csv
import json
import sqlite3
from collections.abc import Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import NoReturn

from autograder.errors import ConfigError
from autograder.grading.database import connect, write_transaction
from autograder.protocol.results import SubmissionResult
from autograder.safe_text import spreadsheet_cell

FILE_NAME = "gradebook.sqlite"
SCHEMA_VERSION = "3"
"""3: rows per (assignment, student, attempt), and the history of regrades.
2: rows per (assignment, student); one rubric hash per assignment."""
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS assignments (name TEXT PRIMARY KEY, rubric_hash TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS submissions (
    assignment TEXT NOT NULL,
    student TEXT NOT NULL,
    attempt TEXT NOT NULL,
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
    counted INTEGER NOT NULL,
    PRIMARY KEY (assignment, student, attempt)
);
CREATE TABLE IF NOT EXISTS tests (
    assignment TEXT NOT NULL,
    student TEXT NOT NULL,
    attempt TEXT NOT NULL,
    number INTEGER NOT NULL,
    nodeid TEXT NOT NULL,
    name TEXT NOT NULL,
    part TEXT NOT NULL,
    score REAL NOT NULL,
    max_score REAL NOT NULL,
    status TEXT NOT NULL,
    message TEXT,
    hint TEXT,
    PRIMARY KEY (assignment, student, attempt, number),
    FOREIGN KEY (assignment, student, attempt)
        REFERENCES submissions(assignment, student, attempt) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS sources (
    assignment TEXT NOT NULL,
    student TEXT NOT NULL,
    attempt TEXT NOT NULL,
    source TEXT NOT NULL,
    PRIMARY KEY (assignment, student, attempt),
    FOREIGN KEY (assignment, student, attempt)
        REFERENCES submissions(assignment, student, attempt) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS history (
    id INTEGER PRIMARY KEY,
    assignment TEXT NOT NULL,
    student TEXT NOT NULL,
    attempt TEXT NOT NULL,
    run_id TEXT NOT NULL,
    rubric_hash TEXT NOT NULL,
    late_penalty REAL NOT NULL,
    result_json TEXT NOT NULL,
    outcome TEXT NOT NULL,
    by_run TEXT NOT NULL
);
"""
MAX_SOURCE_CHARS = 256 * 1024
"""The module source kept per submission (for `similarity`): a student's module is a few KiB."""
REPLACED, REFUSED = "replaced", "refused"
"""A history row's outcome: an earlier result a regrade replaced, or a lower regrade that
`never_lower` refused (the earlier result stayed)."""


@dataclass(frozen=True)
class Entry:
    """One graded submission (one attempt of a student) as the gradebook holds it."""

    student: str
    content_hash: str
    run_id: str
    result: SubmissionResult
    late_penalty: float = 0.0
    submitted_at: str | None = None
    kit_version: str = ""
    attempt: str = ""
    """Names the attempt stably: its submission time (attempt_key), "" when none is known."""
    attempt_number: int = 1
    """Its place among the student's attempts, by time, from 1."""
    counted: bool = True
    """The attempt whose score is the student's (the rubric's `attempts` rule)."""

    @property
    def assignment(self) -> str:
        return self.result.assignment

    @property
    def final_score(self) -> float:
        return max(0.0, round(self.result.score - self.late_penalty, 6))


@dataclass(frozen=True)
class Earlier:
    """A result that is no longer in force: replaced by a regrade, or a lower regrade refused."""

    student: str
    attempt: str
    run_id: str
    rubric_hash: str
    late_penalty: float
    result: SubmissionResult
    outcome: str
    by_run: str
    """The run whose grading replaced it (for a refused one: the run that made it)."""


def attempt_key(submitted_at: datetime | None) -> str:
    """An attempt's stable name: its submission time in UTC, written so that names sort by
    time; "" for a submission whose time is unknown (one attempt per student)."""
    if submitted_at is None:
        return ""
    when = submitted_at if submitted_at.tzinfo else submitted_at.replace(tzinfo=timezone.utc)
    return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass(frozen=True)
class ExtraColumns:
    """What the gradebook file alone does not know, for export_csv: each student's cells that
    replace the recorded ones, by column name (`replaced`: the late penalty and final score as
    read now, after_grading/final_grade.py; `final_score`: that column alone), and more columns
    with their cells, by student."""

    final_score: Mapping[str, float] = field(default_factory=dict)
    header: tuple[str, ...] = ()
    cells: Mapping[str, tuple[object, ...]] = field(default_factory=dict)
    replaced: Mapping[str, Mapping[str, object]] = field(default_factory=dict)


class Gradebook:
    """The gradebook in `folder`, created on first use."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / FILE_NAME
        self._connection = connect(self.path)
        tables = {row[0] for row in self._connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}  # fmt: skip
        schema = None
        if "meta" in tables:
            row = self._connection.execute("SELECT value FROM meta WHERE key = 'schema'")
            schema = (row.fetchone() or (None,))[0]
        if "submissions" in tables and "assignments" not in tables:
            self._refuse("one assignment per gradebook")
        if "submissions" in tables and schema != SCHEMA_VERSION:
            self._refuse("one attempt per student, no regrade history")
        self._connection.executescript(SCHEMA)
        self._connection.execute(
            "INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,)
        )

    def _refuse(self, shape: str) -> NoReturn:
        self._connection.close()
        raise ConfigError(
            f"{self.path} was written by an older kit ({shape}): grade into a new --out folder"
        )

    def close(self) -> None:
        self._connection.close()

    def __enter__(self) -> Gradebook:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _transaction(self) -> AbstractContextManager[sqlite3.Connection]:
        return write_transaction(self._connection)

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
        """The attempts recorded, of every student and assignment."""
        return int(self._connection.execute("SELECT COUNT(*) FROM submissions").fetchone()[0])

    def is_current(
        self,
        assignment: str,
        student: str,
        content_hash: str,
        rubric_hash: str,
        kit_version: str,
        attempt: str = "",
    ) -> bool:
        """This attempt is graded already with this content, rubric and kit; a grader error
        is never current (the grader failed, not the submission: a re-run tries again)."""
        row = self._connection.execute(
            "SELECT content_hash, rubric_hash, kit_version, status FROM submissions "
            "WHERE assignment = ? AND student = ? AND attempt = ?",
            (assignment, student, attempt),
        ).fetchone()
        return (
            row is not None
            and row[3] != "grader_error"
            and tuple(row[:3]) == (content_hash, rubric_hash, kit_version)
        )

    def record(
        self,
        entry: Entry,
        *,
        rubric_hash: str,
        kit_version: str,
        source: str | None = None,
        never_lower: bool = False,
    ) -> bool:
        """Write one attempt and its tests (and the module's source, when it was read, cut at
        MAX_SOURCE_CHARS), atomically. An earlier grade of the same attempt goes to the
        history; with `never_lower`, a graded result scoring lower than the earlier one of the
        same content goes there instead (refused, and False is returned), the earlier one then
        standing for this rubric. The student's last attempt is made the counted one
        (set_counted changes it)."""
        result = entry.result
        key = (entry.assignment, entry.student, entry.attempt)
        with self._transaction() as db:
            earlier = db.execute(
                "SELECT run_id, rubric_hash, late_penalty, result_json, status, score, "
                "content_hash FROM submissions "
                "WHERE assignment = ? AND student = ? AND attempt = ?",
                key,
            ).fetchone()
            if (
                never_lower
                and earlier is not None
                and earlier[4] == result.status == "graded"
                and earlier[6] == entry.content_hash  # the same submission, graded again
                and result.score < earlier[5]
            ):
                db.execute(
                    "INSERT INTO history VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (*key, entry.run_id, rubric_hash, entry.late_penalty,
                     json.dumps(result.to_dict()), REFUSED, entry.run_id),
                )  # fmt: skip
                db.execute(
                    "UPDATE submissions SET rubric_hash = ?, kit_version = ?, run_id = ? "
                    "WHERE assignment = ? AND student = ? AND attempt = ?",
                    (rubric_hash, kit_version, entry.run_id, *key),
                )
                return False
            if earlier is not None and earlier[0] != entry.run_id:  # the same run's row (a
                # merge carrying it again) replaces nothing
                db.execute(
                    "INSERT INTO history VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (*key, *earlier[:4], REPLACED, entry.run_id),
                )
            db.execute(
                "DELETE FROM submissions WHERE assignment = ? AND student = ? AND attempt = ?",
                key,
            )
            db.execute(
                "INSERT INTO submissions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)",
                (*key, entry.content_hash, rubric_hash, kit_version, entry.run_id,
                 result.status, result.score, result.max_score, entry.late_penalty,
                 entry.submitted_at, result.duration_s, json.dumps(result.to_dict())),
            )  # fmt: skip
            db.executemany(
                "INSERT INTO tests VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(*key, n, t.nodeid, t.name, t.part, t.score, t.max_score, t.status,
                  t.message, t.hint) for n, t in enumerate(result.tests)],
            )  # fmt: skip
            if source is not None:
                db.execute(
                    "INSERT INTO sources VALUES (?, ?, ?, ?)", (*key, source[:MAX_SOURCE_CHARS])
                )
            self._count(db, entry.assignment, entry.student, None)
        return True

    def set_counted(self, assignment: str, student: str, attempt: str) -> None:
        """Make `attempt` the one of `student`'s attempts that counts."""
        with self._transaction() as db:
            self._count(db, assignment, student, attempt)

    @staticmethod
    def _count(db: sqlite3.Connection, assignment: str, student: str, attempt: str | None) -> None:
        """Count `attempt` (None: the last one) of the student, and no other."""
        if attempt is None:
            attempt = db.execute(
                "SELECT MAX(attempt) FROM submissions WHERE assignment = ? AND student = ?",
                (assignment, student),
            ).fetchone()[0]
        db.execute(
            "UPDATE submissions SET counted = (attempt = ?) WHERE assignment = ? AND student = ?",
            (attempt, assignment, student),
        )

    def set_penalty(self, assignment: str, student: str, attempt: str, penalty: float) -> None:
        """Change an attempt's late penalty (an extension granted or changed) in place."""
        key = (assignment, student, attempt)
        with self._transaction() as db:
            row = db.execute(
                "SELECT result_json FROM submissions "
                "WHERE assignment = ? AND student = ? AND attempt = ?",
                key,
            ).fetchone()
            if row is None:
                return
            data = json.loads(row[0])
            data["late_penalty"] = penalty
            db.execute(
                "UPDATE submissions SET late_penalty = ?, result_json = ? "
                "WHERE assignment = ? AND student = ? AND attempt = ?",
                (penalty, json.dumps(data), *key),
            )

    def absorb_written_answers(self, shard_file: Path) -> None:
        """Copy the written answers a shard's grading captured (grading/written_answers.py)."""
        from autograder.grading.written_answers import ANSWERS_SCHEMA

        self._connection.executescript(ANSWERS_SCHEMA)
        self._connection.execute("ATTACH DATABASE ? AS shard", (str(shard_file),))
        try:
            present = {row[0] for row in self._connection.execute(
                "SELECT name FROM shard.sqlite_master")}  # fmt: skip
            if "manual_answers" in present:
                with self._transaction() as db:
                    db.execute(
                        "INSERT OR REPLACE INTO manual_answers (assignment, student, attempt, "
                        "part, answer, truncated) SELECT assignment, student, attempt, part, "
                        "answer, truncated FROM shard.manual_answers"
                    )
        finally:
            self._connection.execute("DETACH DATABASE shard")

    def graded_under_another_rubric(self, assignment: str, rubric_hash: str) -> list[str]:
        """The students whose counted attempt of `assignment` was graded under another rubric,
        tests or reference than `rubric_hash` names (the next `grade` grades them again)."""
        rows = self._connection.execute(
            "SELECT student FROM submissions WHERE assignment = ? AND counted = 1 "
            "AND rubric_hash != ? ORDER BY student",
            (assignment, rubric_hash),
        )
        return [row[0] for row in rows.fetchall()]

    def sources(self, assignment: str) -> dict[str, str]:
        """The module source of each student's counted attempt of `assignment` that could be
        read, by student."""
        rows = self._connection.execute(
            "SELECT s.student, s.source FROM sources s JOIN submissions USING "
            "(assignment, student, attempt) WHERE assignment = ? AND counted = 1 "
            "ORDER BY s.student",
            (assignment,),
        )
        return dict(rows.fetchall())

    def all_sources(self, assignment: str) -> dict[tuple[str, str], str]:
        """The module source of every attempt of `assignment`, by (student, attempt)."""
        rows = self._connection.execute(
            "SELECT student, attempt, source FROM sources WHERE assignment = ?", (assignment,)
        )
        return {(student, attempt): text for student, attempt, text in rows.fetchall()}

    def entries(self, assignment: str | None = None) -> list[Entry]:
        """One row per student, the counted attempt (of `assignment` only, when named), by
        assignment and student."""
        return [e for e in self._all(assignment) if e.counted]

    def attempts(self, assignment: str) -> dict[str, list[Entry]]:
        """Every attempt of every student of `assignment`, by student, each in time order."""
        history: dict[str, list[Entry]] = {}
        for entry in self._all(assignment):
            history.setdefault(entry.student, []).append(entry)
        return history

    def _all(self, assignment: str | None) -> list[Entry]:
        query = (
            "SELECT student, content_hash, run_id, result_json, late_penalty, submitted_at, "
            "kit_version, attempt, counted, assignment FROM submissions"
        )
        if assignment is None:
            rows = self._connection.execute(
                query + " ORDER BY assignment, student, attempt"
            ).fetchall()
        else:
            rows = self._connection.execute(
                query + " WHERE assignment = ? ORDER BY student, attempt", (assignment,)
            ).fetchall()
        entries = []
        number, previous = 0, None
        for student, content, run, data, late, at, kit, attempt, counted, name in rows:
            number = number + 1 if previous == (name, student) else 1
            previous = (name, student)
            result = SubmissionResult.from_dict(json.loads(data))
            entries.append(
                Entry(student, content, run, result, late, at, kit, attempt, number, bool(counted))
            )
        return entries

    def history(self, assignment: str | None = None) -> list[Earlier]:
        """Every result no longer in force (of `assignment` only, when named), oldest first."""
        query = (
            "SELECT student, attempt, run_id, rubric_hash, late_penalty, result_json, outcome, "
            "by_run FROM history"
        )
        if assignment is None:
            rows = self._connection.execute(query + " ORDER BY id").fetchall()
        else:
            rows = self._connection.execute(
                query + " WHERE assignment = ? ORDER BY id", (assignment,)
            ).fetchall()
        return [
            Earlier(student, attempt, run, rubric, late,
                    SubmissionResult.from_dict(json.loads(data)), outcome, by)
            for student, attempt, run, rubric, late, data, outcome, by in rows
        ]  # fmt: skip

    def add_history(self, earlier: Earlier) -> None:
        """Keep `earlier` in the history (merge carries a shard's history), once: merging the
        same shard again adds nothing."""
        with self._transaction() as db:
            known = db.execute(
                "SELECT 1 FROM history WHERE assignment = ? AND student = ? AND attempt = ? "
                "AND run_id = ? AND outcome = ? AND by_run = ?",
                (earlier.result.assignment, earlier.student, earlier.attempt, earlier.run_id,
                 earlier.outcome, earlier.by_run),
            ).fetchone()  # fmt: skip
            if known is not None:
                return
            db.execute(
                "INSERT INTO history VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (earlier.result.assignment, earlier.student, earlier.attempt, earlier.run_id,
                 earlier.rubric_hash, earlier.late_penalty, json.dumps(earlier.result.to_dict()),
                 earlier.outcome, earlier.by_run),
            )  # fmt: skip

    def export_csv(
        self,
        target: Path,
        *,
        parts: dict[str, list[str]],
        extra: Mapping[str, ExtraColumns] | None = None,
    ) -> int:
        """One row per student: for each assignment (`parts`: assignment → its part names)
        the status, score, late penalty, final score, maximum, each part and each test, side by
        side; with one assignment the columns carry no prefix. No cell starts like a
        spreadsheet formula (a student's name may be `=HYPERLINK(…)`). Returns the number of
        students.

        `extra` (per assignment) replaces recorded cells by the grade as read now and adds
        columns (after_grading/gradebook_csv.py); without it, the cells are as the last `grade`
        run recorded them."""
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
            columns.append((by_student, parts[name], tests, more))
        with target.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow([spreadsheet_cell(cell) for cell in header])
            for student in students:
                row: list[object] = [student]
                for by_student, part_names, tests, more in columns:
                    e = by_student.get(student)
                    if e is None:
                        row += [""] * (6 + len(part_names) + len(tests) + len(more.header))
                        continue
                    by_part = e.result.part_scores()
                    cells: dict[str, object] = {
                        "status": e.result.status, "score": e.result.score,
                        "late_penalty": e.late_penalty, "final_score": e.final_score,
                        "max_score": e.result.max_score, "submitted_at": e.submitted_at or "",
                    }  # fmt: skip
                    if student in more.final_score:
                        cells["final_score"] = more.final_score[student]
                    now = more.replaced.get(student, {})
                    cells.update({key: now[key] for key in cells if key in now})
                    by_test = {t.name: t.score for t in e.result.tests}
                    row += [
                        *cells.values(),
                        *[by_part.get(p, (0.0, 0.0))[0] for p in part_names],
                        *[by_test.get(name, "") for name in tests],
                    ]
                    if more.header:
                        row += list(more.cells.get(student, [""] * len(more.header)))
                writer.writerow(map(spreadsheet_cell, row))
        return len(students)


PEOPLE_TABLES = ("manual_grades", "manual_items", "overrides", "grade_history")
"""The tables of people's grading (autograder/manual/store.py) kept in the same file: made on
the merged gradebook, never on a shard, so a shard holding any is refused by `merge`."""


def merge(sources: list[Path], target: Path) -> int:
    """Merge shard gradebooks into the one in `target`: every attempt (the counted one
    counted still), its written answers, and the history of regrades; the shards must agree
    on each assignment's rubric. Returns the number of attempts in `target`.

    The result does not depend on the order of `sources`: a student held by two shards must be
    held alike by both (the same attempts, contents, results and counted attempt, as when one
    shard is merged twice), or the merge is refused naming both shards. What `target` held
    before is replaced by the shards' results, its earlier grade kept in the history, as a
    regrade's is."""
    shards = [_read_shard(source) for source in sources]
    _refuse_disagreements(shards)
    with Gradebook(target) as merged:
        for shard in shards:
            for assignment, rubric_hash in shard.rubrics.items():
                merged.bind(assignment=assignment, rubric_hash=rubric_hash)
        done: set[tuple[str, str]] = set()
        for shard in shards:
            for (assignment, student), entries in shard.students.items():
                if (assignment, student) in done:
                    continue  # held alike by an earlier shard: _refuse_disagreements said so
                done.add((assignment, student))
                for entry in entries:
                    merged.record(
                        entry,
                        rubric_hash=shard.rubrics[assignment],
                        kit_version=entry.kit_version,
                        source=shard.texts.get((assignment, entry.student, entry.attempt)),
                    )
                counted = next((e for e in entries if e.counted), entries[-1])
                merged.set_counted(assignment, student, counted.attempt)
        for shard in shards:
            for earlier in shard.history:
                merged.add_history(earlier)
            merged.absorb_written_answers(shard.folder / FILE_NAME)
        return merged.count()


@dataclass(frozen=True)
class _Shard:
    """What one shard gradebook holds, read once before anything is written."""

    folder: Path
    rubrics: dict[str, str]
    students: dict[tuple[str, str], list[Entry]]
    """Every attempt, in time order, by (assignment, student)."""
    texts: dict[tuple[str, str, str], str]
    history: list[Earlier]


def _read_shard(source: Path) -> _Shard:
    path = source / FILE_NAME
    if not path.is_file():
        raise ConfigError(f"{source} holds no {FILE_NAME}: is it a --out folder of `grade`?")
    graded_by_people = _tables_with_rows(path, PEOPLE_TABLES)
    if graded_by_people:
        raise ConfigError(
            f"{source} holds grades given by people ({', '.join(graded_by_people)}): "
            "merge the shards first, then grade written answers and override on the "
            "merged gradebook"
        )
    with Gradebook(source) as book:
        rubrics = book.assignments()
        students: dict[tuple[str, str], list[Entry]] = {}
        texts: dict[tuple[str, str, str], str] = {}
        for assignment in rubrics:
            for student, entries in book.attempts(assignment).items():
                students[(assignment, student)] = entries
            for (student, attempt), text in book.all_sources(assignment).items():
                texts[(assignment, student, attempt)] = text
        return _Shard(source, rubrics, students, texts, book.history())


def _refuse_disagreements(shards: list[_Shard]) -> None:
    """Refuse shards that graded an assignment under different rubrics, or hold one student
    differently: which of them would win must never depend on the order they are named in."""
    rubric_of: dict[str, tuple[str, Path]] = {}
    held_by: dict[tuple[str, str], tuple[tuple[object, ...], _Shard]] = {}
    for shard in shards:
        for assignment, rubric_hash in shard.rubrics.items():
            first_hash, first = rubric_of.setdefault(assignment, (rubric_hash, shard.folder))
            if first_hash != rubric_hash:
                raise ConfigError(
                    f"{first} and {shard.folder} graded {assignment} under another rubric: "
                    "regrade them with the same grading.toml, tests and reference"
                )
        for key, entries in shard.students.items():
            signature = _signature(entries)
            earlier = held_by.setdefault(key, (signature, shard))
            if earlier[0] != signature:
                raise ConfigError(
                    f"{earlier[1].folder} and {shard.folder} both hold {key[1]!r} of "
                    f"{key[0]}, with {_difference(earlier[1].students[key], entries)}: grade "
                    "each student in one shard (--shard keeps a student in one), or remove the "
                    "stale gradebook, then merge again"
                )


def _signature(entries: list[Entry]) -> tuple[object, ...]:
    """What a student's attempts are, for comparing two shards: everything but the run that
    graded them, how long it took, the isolation layers its machine had, and the late penalty
    (read again from the rubric and extensions whenever grades are read:
    after_grading/final_grade.py; two shards may have seen different extension files)."""
    return tuple(
        (e.attempt, e.content_hash, e.submitted_at, e.counted, _comparable(e.result))
        for e in entries
    )  # fmt: skip


def _comparable(result: SubmissionResult) -> str:
    data = result.to_dict()
    data.pop("duration_s", None)
    data.pop("isolation", None)  # the machine's layers (a CPU cgroup or not), not the grade
    data.pop("late_penalty", None)  # read again from the rubric as it is now
    data["tests"] = [{k: v for k, v in t.items() if k != "duration_s"} for t in data["tests"]]
    return json.dumps(data, sort_keys=True)


def _difference(first: list[Entry], second: list[Entry]) -> str:
    """The first way two shards' attempts of one student differ, in words."""
    by_attempt = {e.attempt: e for e in second}
    for entry in first:
        other = by_attempt.get(entry.attempt)
        name = f"attempt {entry.attempt!r}" if entry.attempt else "the attempt"
        if other is None:
            break
        if entry.content_hash != other.content_hash:
            return f"different files as {name}"
        if _comparable(entry.result) != _comparable(other.result):
            return (
                f"different results of {name} ({entry.final_score:g} and "
                f"{other.final_score:g} points)"
            )
        if entry.submitted_at != other.submitted_at:
            return f"different submission times for {name}"
        if entry.counted != other.counted:
            return "a different attempt counted"
    return (
        f"different attempts ({', '.join(repr(e.attempt) for e in first)} and "
        f"{', '.join(repr(e.attempt) for e in second)})"
    )


def _tables_with_rows(path: Path, names: tuple[str, ...]) -> list[str]:
    """Which of the tables `names` of the SQLite file `path` hold a row."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        present = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        return [n for n in names if n in present and db.execute(
            f"SELECT 1 FROM {n} LIMIT 1").fetchone()]  # fmt: skip
    finally:
        db.close()
