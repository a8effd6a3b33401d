"""The gradebook file's connections: every stage that keeps tables in it (the automatic grades,
the written answers, people's grades) opens it and writes to it the same way."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path


def connect(path: Path, *, any_thread: bool = False) -> sqlite3.Connection:
    """A connection to the SQLite file `path` in WAL mode with foreign keys on, waiting up to
    30 s for another writer; transactions are begun by `write_transaction` alone."""
    db = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=not any_thread)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA foreign_keys=ON")
    return db


@contextmanager
def write_transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction: everything in it is written, or nothing (an exception rolls it
    back; SQLite may have rolled back already, as on a full disk)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        with suppress(sqlite3.OperationalError):
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
