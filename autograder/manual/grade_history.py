"""Every change of a written answer's points, kept like the overrides' history: who, when, the
points before and after, and how (the grading page, a sheet import, a rubric item's new points).

A grade's own row keeps only its latest state; this table is what an instructor reads when a
student asks who changed a grade, and when. It is written in the transaction that changes the
grade, so a change is never without its record. Points are the answer's points as every output
showed them then (its adjustment and items, clamped to [0, max]); None: not graded.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from autograder.safe_text import storable

HISTORY_SCHEMA = """
CREATE TABLE IF NOT EXISTS grade_history (
    number INTEGER PRIMARY KEY AUTOINCREMENT,
    assignment TEXT NOT NULL, student TEXT NOT NULL, part TEXT NOT NULL,
    who TEXT NOT NULL, at TEXT NOT NULL, before REAL, after REAL, via TEXT NOT NULL
);
"""
MAX_VIA_CHARS = 300


@dataclass(frozen=True)
class GradeChange:
    assignment: str
    student: str
    part: str
    who: str
    at: str
    before: float | None
    """None: not graded (or graded for an earlier answer than the one that counted)."""
    after: float | None
    """None: the grade was taken off."""
    via: str
    """How: "grading page", "sheet import", or the rubric item whose points changed."""


def record_change(db: sqlite3.Connection, change: GradeChange) -> None:
    """Add `change` to the history (inside the caller's transaction)."""
    db.execute(
        "INSERT INTO grade_history (assignment, student, part, who, at, before, after, via) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (change.assignment, change.student, change.part, storable(change.who[:200]), change.at,
         change.before, change.after, storable(change.via[:MAX_VIA_CHARS])),
    )  # fmt: skip


def grade_changes(db: sqlite3.Connection, assignment: str | None = None) -> list[GradeChange]:
    """The changes of `assignment`'s written-answer grades (of all, with None), oldest first."""
    query = "SELECT assignment, student, part, who, at, before, after, via FROM grade_history"
    if assignment is None:
        rows = db.execute(query + " ORDER BY number")
    else:
        rows = db.execute(query + " WHERE assignment = ? ORDER BY number", (assignment,))
    return [GradeChange(*row) for row in rows.fetchall()]
