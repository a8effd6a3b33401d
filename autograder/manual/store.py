"""The manual-grading tables, kept in the gradebook's SQLite file beside the automatic grades.

Tables: `manual_answers` (the text captured at grading time, or NULL when the submission had
none: autograder.grading.written_answers writes it), `manual_grades` (one grade per answer, with
a version that every save must name: a stale version is a conflict, never a silent overwrite),
`manual_items` (reusable rubric items) and `manual_applied` (which item is applied to which
answer), `grade_history` (every change of a grade's points: grade_history.py), `overrides` (an
instructor's points for one automatic test or part) and `override_history` (who, when, what,
before, after, why).

An answer left as released (the placeholder, or blank) is read as no answer (`text` None), here
where every reader gets the answers: the page, the sheet and the totals alike.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from autograder.errors import AutograderError
from autograder.grading.database import connect, write_transaction
from autograder.grading.gradebook import FILE_NAME, Gradebook
from autograder.grading.written_answers import ANSWERS_SCHEMA, is_no_answer, record_answers
from autograder.manual.grade_history import (
    HISTORY_SCHEMA,
    GradeChange,
    grade_changes,
    record_change,
)
from autograder.safe_text import storable

MAX_COMMENT_CHARS = 8 * 1024

SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS manual_grades (
    assignment TEXT NOT NULL, student TEXT NOT NULL, part TEXT NOT NULL,
    adjustment REAL NOT NULL, comment TEXT NOT NULL, version INTEGER NOT NULL,
    grader TEXT NOT NULL, updated_at TEXT NOT NULL, answer_digest TEXT NOT NULL,
    PRIMARY KEY (assignment, student, part)
);
CREATE TABLE IF NOT EXISTS manual_items (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    assignment TEXT NOT NULL, part TEXT NOT NULL, text TEXT NOT NULL, points REAL NOT NULL,
    version INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS manual_applied (
    assignment TEXT NOT NULL, student TEXT NOT NULL, part TEXT NOT NULL,
    item INTEGER NOT NULL REFERENCES manual_items(id) ON DELETE CASCADE,
    PRIMARY KEY (assignment, student, part, item)
);
CREATE TABLE IF NOT EXISTS overrides (
    assignment TEXT NOT NULL, student TEXT NOT NULL, kind TEXT NOT NULL, target TEXT NOT NULL,
    points REAL NOT NULL,
    PRIMARY KEY (assignment, student, kind, target)
);
CREATE TABLE IF NOT EXISTS override_history (
    number INTEGER PRIMARY KEY AUTOINCREMENT,
    assignment TEXT NOT NULL, student TEXT NOT NULL, kind TEXT NOT NULL, target TEXT NOT NULL,
    who TEXT NOT NULL, at TEXT NOT NULL, before REAL, after REAL NOT NULL, reason TEXT NOT NULL
);
"""
    + HISTORY_SCHEMA
)


class SheetConflict(AutograderError):
    """Rows of a sheet whose grades changed after it was exported: ((student, part), the
    version now) each."""

    def __init__(self, stale: tuple[tuple[tuple[str, str], int], ...]) -> None:
        super().__init__(f"{len(stale)} stale row(s)")
        self.stale = stale


class Conflict(AutograderError):
    """A save named a version that is no longer the current one."""

    def __init__(self, current: Grade | Item | None) -> None:
        super().__init__("stale version")
        self.current = current


@dataclass(frozen=True)
class Answer:
    student: str
    part: str
    text: str | None
    """None: the submission held no answer, or left it as released (see `left_as_released`)."""
    truncated: bool = False
    left_as_released: bool = False
    """The submission's answer was the released placeholder, or blank: no answer."""


@dataclass(frozen=True)
class Grade:
    """People's grade of one answer; `points` = adjustment + applied items, in [0, max]."""

    student: str
    part: str
    adjustment: float
    comment: str
    items: tuple[int, ...]
    version: int
    grader: str
    updated_at: str
    answer_changed: bool = False
    """The answer of the attempt that counts now is not the one this grade was given to (the
    student submitted again, or another attempt came to count): it counts as not graded yet."""


@dataclass(frozen=True)
class Item:
    """A reusable rubric item: a comment worth `points` (negative takes points off)."""

    id: int
    part: str
    text: str
    points: float
    version: int


@dataclass(frozen=True)
class Override:
    student: str
    kind: str
    """"test" (target: a test's node id) or "part" (target: an automatic part's name)."""
    target: str
    points: float


@dataclass(frozen=True)
class OverrideChange:
    assignment: str
    student: str
    kind: str
    target: str
    who: str
    at: str
    before: float | None
    after: float
    reason: str


def grade_points(grade: Grade, items: Mapping[int, Item], max_points: float) -> float:
    """An answer's points: its adjustment plus its applied items, clamped to [0, max]."""
    raw = grade.adjustment + sum(items[i].points for i in grade.items if i in items)
    return min(max_points, max(0.0, round(raw, 6)))


def answer_digest(answer: Answer | None) -> str:
    """What a grade remembers of the answer it was given to (the text of the attempt that
    counted then; "" for none)."""
    text = answer.text if answer is not None else None
    if text is None:
        return ""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _comment_note(current: Grade | None, comment: str) -> str:
    changed = current is not None and current.comment != storable(comment[:MAX_COMMENT_CHARS])
    return "; comment changed" if changed else ""


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class ManualStore:
    """The manual tables of the gradebook in `folder` (created on first use)."""

    def __init__(self, folder: Path) -> None:
        Gradebook(folder).close()  # the submissions these tables refer to: created if new
        self.path = folder / FILE_NAME
        self._db = connect(self.path, any_thread=True)  # the page's server: a thread pool
        self._db.executescript(ANSWERS_SCHEMA + SCHEMA)
        self._folder = folder

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> ManualStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def transaction(self) -> AbstractContextManager[sqlite3.Connection]:
        """One write transaction: everything in it is written, or nothing."""
        return write_transaction(self._db)

    # answers

    def record_answers(
        self, assignment: str, student: str, answers: dict[str, str | None], attempt: str = ""
    ) -> None:
        """Replace the answers of the student's attempt (see autograder.grading.written_answers)."""
        record_answers(self._folder, assignment, student, answers, attempt=attempt)

    def answers(self, assignment: str) -> dict[tuple[str, str], Answer]:
        """(student, part) → the answer of the student's counted attempt."""
        return self._answers(self._db, assignment)

    @staticmethod
    def _answers(
        db: sqlite3.Connection, assignment: str, student: str | None = None, part: str = ""
    ) -> dict[tuple[str, str], Answer]:
        """The counted attempts' answers (of one student and part, when named)."""
        query = (
            "SELECT a.student, a.part, a.answer, a.truncated FROM manual_answers AS a "
            "JOIN submissions AS s ON (s.assignment, s.student, s.attempt) = "
            "(a.assignment, a.student, a.attempt) WHERE a.assignment = ? AND s.counted = 1"
        )
        if student is None:
            rows = db.execute(query, (assignment,))
        else:
            rows = db.execute(
                query + " AND a.student = ? AND a.part = ?", (assignment, student, part)
            )
        found = {}
        for s, p, text, truncated in rows.fetchall():
            unanswered = text is not None and is_no_answer(text)
            found[s, p] = Answer(s, p, None if unanswered else text, bool(truncated), unanswered)
        return found

    # grades and items

    def items(self, assignment: str) -> list[Item]:
        return self._items(self._db, assignment)

    @staticmethod
    def _items(db: sqlite3.Connection, assignment: str) -> list[Item]:
        rows = db.execute(
            "SELECT id, part, text, points, version FROM manual_items WHERE assignment = ? "
            "ORDER BY id",
            (assignment,),
        )
        return [Item(*row) for row in rows.fetchall()]

    def _points(
        self, db: sqlite3.Connection, grade: Grade | None, assignment: str, max_points: float
    ) -> float | None:
        """The points every output shows for `grade` (None: not graded)."""
        if grade is None or grade.answer_changed:
            return None
        items = {i.id: i for i in self._items(db, assignment)}
        return grade_points(grade, items, max_points)

    def grades(self, assignment: str) -> dict[tuple[str, str], Grade]:
        applied: dict[tuple[str, str], list[int]] = {}
        for student, part, item in self._db.execute(
            "SELECT student, part, item FROM manual_applied WHERE assignment = ? ORDER BY item",
            (assignment,),
        ).fetchall():
            applied.setdefault((student, part), []).append(item)
        rows = self._db.execute(
            "SELECT student, part, adjustment, comment, version, grader, updated_at, "
            "answer_digest FROM manual_grades WHERE assignment = ?",
            (assignment,),
        )
        now_counted = self._answers(self._db, assignment)
        return {
            (s, p): Grade(s, p, adj, c, tuple(applied.get((s, p), ())), v, g, at,
                          digest != answer_digest(now_counted.get((s, p))))
            for s, p, adj, c, v, g, at, digest in rows.fetchall()
        }  # fmt: skip

    def _grade(
        self, db: sqlite3.Connection, assignment: str, student: str, part: str
    ) -> Grade | None:
        key = (assignment, student, part)
        row = db.execute(
            "SELECT adjustment, comment, version, grader, updated_at, answer_digest "
            "FROM manual_grades WHERE assignment = ? AND student = ? AND part = ?",
            key,
        ).fetchone()
        if row is None:
            return None
        items = tuple(i for (i,) in db.execute(
            "SELECT item FROM manual_applied WHERE assignment = ? AND student = ? AND part = ? "
            "ORDER BY item", key).fetchall())  # fmt: skip
        answer = self._answers(db, assignment, student, part).get((student, part))
        changed = row[5] != answer_digest(answer)
        return Grade(student, part, row[0], row[1], items, row[2], row[3], row[4], changed)

    def save_grade(
        self,
        assignment: str,
        student: str,
        part: str,
        *,
        adjustment: float,
        comment: str,
        items: tuple[int, ...],
        version: int,
        grader: str,
        max_points: float,
    ) -> Grade:
        """Write a grade seen at `version` (0: none yet); Conflict when another save came first.
        `max_points`: the part's, for the points the history records."""
        with self.transaction() as db:
            current = self._grade(db, assignment, student, part)
            if (current.version if current else 0) != version:
                raise Conflict(current)
            before = self._points(db, current, assignment, max_points)
            self._write_grade(db, assignment, student, part, adjustment, comment, items,
                              version + 1, grader)  # fmt: skip
            written = self._grade(db, assignment, student, part)
            assert written is not None
            after = self._points(db, written, assignment, max_points)
            same = current is not None and before == after and (current.items, current.comment) \
                == (written.items, written.comment)  # fmt: skip
            if not same:  # saved again as it was: nothing for the history
                via = "grading page" + _comment_note(current, comment)
                record_change(db, GradeChange(assignment, student, part, grader,
                                              written.updated_at, before, after, via))  # fmt: skip
        return written

    def _write_grade(
        self, db: sqlite3.Connection, assignment: str, student: str, part: str,
        adjustment: float, comment: str, items: tuple[int, ...], version: int, grader: str,
    ) -> None:  # fmt: skip
        key = (assignment, student, part)
        graded = answer_digest(self._answers(db, assignment, student, part).get((student, part)))
        db.execute(
            "INSERT OR REPLACE INTO manual_grades VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (*key, adjustment, storable(comment[:MAX_COMMENT_CHARS]), version,
             storable(grader[:200]), now(), graded),
        )  # fmt: skip
        db.execute(
            "DELETE FROM manual_applied WHERE assignment = ? AND student = ? AND part = ?", key
        )
        db.executemany(
            "INSERT INTO manual_applied VALUES (?, ?, ?, ?)", [(*key, i) for i in set(items)]
        )

    def replace_grades(
        self,
        assignment: str,
        rows: list[tuple[str, str, float | None, str]],
        grader: str,
        *,
        max_points: Mapping[str, float],
        versions: Mapping[tuple[str, str], int] | None = None,
    ) -> int:
        """The sheet's grades, in one transaction: (student, part, points or None, comment);
        None removes the grade (not graded). `versions`: the version each (student, part) had
        when the sheet was exported; SheetConflict, and nothing written, when any has moved
        on. `max_points`: each part's, for the history. Returns how many answers changed."""
        changed = 0
        with self.transaction() as db:
            stale = []
            for student, part, _, _ in rows:
                if versions is None or (student, part) not in versions:
                    continue
                current = self._grade(db, assignment, student, part)
                now_version = current.version if current else 0
                if now_version != versions[student, part]:
                    stale.append(((student, part), now_version))
            if stale:
                raise SheetConflict(tuple(stale))
            at = now()
            for student, part, points, comment in rows:
                current = self._grade(db, assignment, student, part)
                key = (assignment, student, part)
                before = self._points(db, current, assignment, max_points[part])
                if points is None:
                    if current is not None:
                        db.execute("DELETE FROM manual_applied WHERE assignment = ? AND "
                                   "student = ? AND part = ?", key)  # fmt: skip
                        db.execute("DELETE FROM manual_grades WHERE assignment = ? AND "
                                   "student = ? AND part = ?", key)  # fmt: skip
                        record_change(db, GradeChange(*key, grader, at, before, None,
                                                      "sheet import: grade taken off"))  # fmt: skip
                        changed += 1
                    continue
                version = (current.version if current else 0) + 1
                self._write_grade(db, *key, points, comment, (), version, grader)
                via = "sheet import" + _comment_note(current, comment)
                record_change(db, GradeChange(*key, grader, at, before, points, via))
                changed += 1
        return changed

    def save_item(
        self, assignment: str, part: str, *, text: str, points: float, max_points: float,
        item_id: int | None = None, version: int = 0, grader: str = "",
    ) -> Item:  # fmt: skip
        """Create an item (no id) or change one seen at `version` (Conflict when stale). New
        points change every answer the item is applied to: each change goes to the history,
        as `grader`'s (`max_points`: the part's)."""
        text = storable(text[:MAX_COMMENT_CHARS])
        with self.transaction() as db:
            if item_id is None:
                cursor = db.execute(
                    "INSERT INTO manual_items (assignment, part, text, points, version) "
                    "VALUES (?, ?, ?, ?, 1)",
                    (assignment, part, text, points),
                )
                item_id = int(cursor.lastrowid or 0)
            else:
                row = db.execute(
                    "SELECT id, part, text, points, version FROM manual_items "
                    "WHERE id = ? AND assignment = ? AND part = ?",  # its points fit its part
                    (item_id, assignment, part),
                ).fetchone()
                if row is None or row[4] != version:
                    raise Conflict(Item(*row) if row else None)
                graded = self._applied_grades(db, assignment, part, item_id)
                before = {g.student: self._points(db, g, assignment, max_points) for g in graded}
                db.execute(
                    "UPDATE manual_items SET text = ?, points = ?, version = ? WHERE id = ?",
                    (text, points, version + 1, item_id),
                )
                via = f"rubric item {item_id} ({row[2][:80]}): {row[3]:g} -> {points:g} points"
                at = now()
                for grade in graded:
                    after = self._points(db, grade, assignment, max_points)
                    if after == before[grade.student]:
                        continue  # clamped, or graded for an earlier answer: no change shown
                    record_change(db, GradeChange(assignment, grade.student, part,
                                                  grader or "unknown", at,
                                                  before[grade.student], after, via))  # fmt: skip
            row = db.execute(
                "SELECT id, part, text, points, version FROM manual_items WHERE id = ?",
                (item_id,),
            ).fetchone()
        return Item(*row)

    def _applied_grades(
        self, db: sqlite3.Connection, assignment: str, part: str, item_id: int
    ) -> list[Grade]:
        students = [s for (s,) in db.execute(
            "SELECT student FROM manual_applied WHERE assignment = ? AND part = ? AND item = ? "
            "ORDER BY student", (assignment, part, item_id)).fetchall()]  # fmt: skip
        found = (self._grade(db, assignment, student, part) for student in students)
        return [grade for grade in found if grade is not None]

    def grade_history(self, assignment: str | None = None) -> list[GradeChange]:
        """Every change of written-answer points (of `assignment`, when named), oldest first."""
        return grade_changes(self._db, assignment)

    # overrides

    def overrides(self, assignment: str) -> dict[str, list[Override]]:
        rows = self._db.execute(
            "SELECT student, kind, target, points FROM overrides WHERE assignment = ? "
            "ORDER BY student, kind, target",
            (assignment,),
        )
        found: dict[str, list[Override]] = {}
        for row in rows.fetchall():
            found.setdefault(row[0], []).append(Override(*row))
        return found

    def override(
        self, assignment: str, student: str, *, kind: str, target: str, points: float,
        before: float, who: str, reason: str,
    ) -> OverrideChange:  # fmt: skip
        """Set an override and record the change; `before` is the score it replaces."""
        key = (assignment, student, kind, target)
        with self.transaction() as db:
            row = db.execute(
                "SELECT points FROM overrides WHERE assignment = ? AND student = ? AND "
                "kind = ? AND target = ?",
                key,
            ).fetchone()
            was = row[0] if row else before
            db.execute("INSERT OR REPLACE INTO overrides VALUES (?, ?, ?, ?, ?)", (*key, points))
            change = OverrideChange(*key, storable(who), now(), was, points, storable(reason))
            db.execute(
                "INSERT INTO override_history (assignment, student, kind, target, who, at, "
                "before, after, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*key, change.who, change.at, was, points, change.reason),
            )
        return change

    def history(self, assignment: str | None = None) -> list[OverrideChange]:
        query = ("SELECT assignment, student, kind, target, who, at, before, after, reason "
                 "FROM override_history")  # fmt: skip
        if assignment is None:
            rows = self._db.execute(query + " ORDER BY number")
        else:
            rows = self._db.execute(query + " WHERE assignment = ? ORDER BY number", (assignment,))
        return [OverrideChange(*row) for row in rows.fetchall()]
