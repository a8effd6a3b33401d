"""Grade a whole class: find the submissions, pick a shard, grade in parallel, keep a gradebook.

`jobs` long-lived runners grade the submissions, each one after another in a fresh worker (the
same isolation as a submission graded alone); each result is recorded as soon as it is
finished, so an interrupted batch loses nothing and a re-run grades only what is new or changed.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from autograder import __version__
from autograder.course.assignment import Assignment
from autograder.course.bounded_csv import Bounds, read_rows
from autograder.course.rubric import AssignmentSpec, LatePolicy
from autograder.errors import ConfigError
from autograder.grading.attempts import counted_attempt, penalty_for
from autograder.grading.gradebook import Entry, Gradebook, attempt_key
from autograder.grading.runners import RunnerPool
from autograder.grading.submission import MAX_TOTAL_BYTES, walk_files
from autograder.grading.written_answers import capture_answers
from autograder.protocol.results import SubmissionResult
from autograder.safe_text import storable

SUBMISSION_SUFFIXES = (".py", ".ipynb", ".zip")
MANIFEST_BOUNDS = Bounds(max_bytes=16 * 2**20, max_lines=100_001, max_field_chars=4096)
"""A manifest is a student id, a path (at most PATH_MAX, 4096 bytes) and a time per line."""
MAX_ATTEMPTS_PER_STUDENT = 100
"""A manifest listing more attempts of one student is refused (naming the student): each
attempt is graded, so a runaway export must not grade one student ten thousand times."""
REHEARSAL_PAYS_FROM = 20
"""Submissions per runner from which its rehearsal (serve.py) saves more CPU than it costs:
it costs about as much as 20 submissions save (bench/README.md)."""


@dataclass(frozen=True)
class Item:
    """One student's submission, and when it was submitted (if known)."""

    student: str
    path: Path
    submitted_at: datetime | None = None

    @property
    def attempt(self) -> str:
        """Names this attempt among the student's: its submission time (attempt_key)."""
        return attempt_key(self.submitted_at)


@dataclass(frozen=True)
class BatchSummary:
    graded: tuple[Entry, ...]
    skipped: tuple[str, ...]
    problems: tuple[str, ...] = ()
    """Result files that could not be written (each submission is in the gradebook)."""
    unlisted: tuple[str, ...] = ()
    """Attempts in the gradebook of the students graded now that this run did not list
    ("STUDENT at TIME"): they still take part in choosing the attempt that counts."""
    brought_up_to_date: tuple[str, ...] = ()
    """Students not graded in this run whose recorded late penalty or counted attempt it
    changed (an extension or the late policy changed since); the result files of those it
    lists are rewritten."""

    @property
    def grader_errors(self) -> int:
        return sum(entry.result.status == "grader_error" for entry in self.graded)


def discover(paths: Sequence[Path], *, module: str, manifest: Path | None = None) -> list[Item]:
    """The submissions named by `paths`: files, submission folders, or class folders of them."""
    if manifest is not None:
        return _from_manifest(manifest)
    items: list[Item] = []
    for path in paths:
        if not path.exists():
            raise ConfigError(f"{path} does not exist")
        if path.is_file() or _is_submission_folder(path, module):
            items.append(Item(storable(path.name if path.is_dir() else path.stem), path))
            continue
        for entry in sorted(path.iterdir()):
            if entry.name.startswith((".", "_")):
                continue
            if entry.is_dir() or entry.suffix.lower() in SUBMISSION_SUFFIXES:
                items.append(Item(storable(entry.name if entry.is_dir() else entry.stem), entry))
    students = [item.student for item in items]
    repeated = sorted({s for s in students if students.count(s) > 1})
    if repeated:
        raise ConfigError(
            f"two submissions for the same student: {', '.join(repeated)}; use a manifest"
        )
    return items


def _is_submission_folder(folder: Path, module: str) -> bool:
    """A student's folder: it holds the module, or a single notebook and no other submission."""
    if (folder / module).is_file():
        return True
    entries = [e for e in folder.iterdir() if not e.name.startswith((".", "_"))]
    notebooks = [e for e in entries if e.suffix.lower() == ".ipynb"]
    others = [e for e in entries if e.is_dir() or e.suffix.lower() in (".py", ".zip")]
    return len(notebooks) == 1 and not others


def _from_manifest(manifest: Path) -> list[Item]:
    """A CSV with the columns student_id, path and (optionally) submitted_at in ISO 8601. A
    student may have several rows (attempts), each with its own submitted_at, at most
    MAX_ATTEMPTS_PER_STUDENT."""
    rows = read_rows(manifest, "manifest", MANIFEST_BOUNDS)
    header = list(rows[0].cells) if rows else []
    items = []
    seen: dict[str, set[str]] = {}
    for row in rows[1:]:
        if not row.cells:
            continue  # a blank line
        cells = dict(zip(header, row.cells, strict=False))  # DictReader: short rows too
        if not cells.get("student_id") or not cells.get("path"):
            raise ConfigError(f"{manifest}:{row.line}: each row needs student_id and path")
        path = _manifest_path(manifest, row.line, cells["path"])
        when = cells.get("submitted_at") or None
        try:
            at = datetime.fromisoformat(when) if when else None
        except ValueError:
            raise ConfigError(
                f"{manifest}:{row.line}: submitted_at {when!r} is not ISO 8601"
            ) from None
        item = Item(storable(cells["student_id"]), path, at)
        attempts = seen.setdefault(item.student, set())
        if item.attempt in attempts:
            raise ConfigError(
                f"{manifest}:{row.line}: a second row for {item.student!r} with the same "
                "submitted_at: each attempt of a student needs its own submission time"
            )
        if len(attempts) == MAX_ATTEMPTS_PER_STUDENT:
            raise ConfigError(
                f"{manifest}:{row.line}: more than {MAX_ATTEMPTS_PER_STUDENT} attempts of "
                f"{item.student!r}; list at most {MAX_ATTEMPTS_PER_STUDENT} per student"
            )
        attempts.add(item.attempt)
        items.append(item)
    return items


def _manifest_path(manifest: Path, line: int, written: str) -> Path:
    """The submission a manifest row names, relative to the manifest's folder."""
    long = [part for part in Path(written).parts if len(part.encode()) > 255]
    if long:
        raise ConfigError(f"{manifest}:{line}: the path names a file longer than 255 bytes")
    return (manifest.parent / written).resolve()


def shard(items: Sequence[Item], index: int, count: int) -> list[Item]:
    """A deterministic 1/count of the class: the same student always lands in the same shard."""
    if count < 1 or not 1 <= index <= count:
        raise ConfigError(f"--shard {index}/{count}: write i/n with 1 <= i <= n")
    return [
        i
        for i in items
        if int(hashlib.sha256(i.student.encode()).hexdigest(), 16) % count == index - 1
    ]


def content_hash(path: Path) -> str:
    """A digest of what the submission holds (names and bytes), read as load_submission reads
    it: links are not followed, and an unreadable or oversized entry counts by its name alone.
    Never raises: a submission that cannot even be hashed is still graded (and found ungradable)."""
    digest = hashlib.sha256()
    try:
        if path.is_symlink() or not path.is_dir():
            digest.update(path.name.encode("utf-8", "surrogateescape"))
            digest.update(_bytes_or_mark(path))
            return digest.hexdigest()
        for relative, file in walk_files(path, limit=MAX_FILES_TO_HASH):
            digest.update(relative.encode("utf-8", "surrogateescape"))
            digest.update(_bytes_or_mark(file))
    except Exception as error:  # unreadable, too deep, too many: graded (and refused) all the same
        digest.update(f"unreadable: {type(error).__name__}".encode())
    return digest.hexdigest()


MAX_FILES_TO_HASH = 10_000


def _bytes_or_mark(file: Path) -> bytes:
    try:
        if file.is_symlink() or not file.is_file() or file.stat().st_size > MAX_TOTAL_BYTES:
            return b"\0not-read"
        return file.read_bytes()
    except OSError:
        return b"\0unreadable"


def late_penalty(
    result: SubmissionResult,
    submitted_at: datetime | None,
    policy: LatePolicy | None,
    student: str | None = None,
    *,
    written_max: float = 0.0,
) -> float:
    """Points off the automatic score for lateness, as `grade` records them beside a result:
    a share of the assignment's full points (the automatic maximum plus `written_max`, the
    written parts') per day late, or all after the cut-off; both count from `student`'s own
    due date (their extension, or the rubric's). The grade every output shows is computed
    again when read, written answers included (after_grading/final_grade.py)."""
    if result.status != "graded":
        return 0.0
    most = result.max_score + written_max
    return penalty_for(result.score, most, submitted_at, policy, student)


def written_points(spec: AssignmentSpec) -> float:
    """The points of the assignment's written parts (graded by people)."""
    return sum(part.points for part in spec.manual)


DISK_FULL_RETRIES_S = (0.5, 1, 2, 4, 8, 15)
"""Waits before each new try of a gradebook write the disk had no room for: a slot that
filled the disk is removed within moments (slot_quota.py), and then there is room again."""


def record_when_there_is_room(
    book: Gradebook, entry: Entry, rubric: str, source: str | None, *, never_lower: bool = False
) -> str | None:
    """Record `entry`; a write the disk has no room for is tried again while room may come
    back (about half a minute). None when recorded, else what the instructor is told: the
    submission is not in the gradebook, and the next `grade` grades it again."""
    for wait in (*DISK_FULL_RETRIES_S, None):
        try:
            book.record(
                entry, rubric_hash=rubric, kit_version=__version__, source=source,
                never_lower=never_lower,
            )  # fmt: skip
            return None
        except sqlite3.OperationalError as error:
            if "full" not in str(error) and "disk I/O" not in str(error):
                raise
            if wait is None:
                return (
                    f"{entry.student}: not recorded, the disk of the gradebook is full "
                    f"({error}): free some room and run grade again to grade it"
                )
            time.sleep(wait)
    return None


def grade_class(
    assignment: Assignment,
    items: Sequence[Item],
    *,
    out: Path,
    jobs: int,
    regrade: bool = False,
    write_files: Callable[[str, SubmissionResult], list[str]] = lambda student, result: [],
    on_result: Callable[[Entry, int, int], None] = lambda entry, done, total: None,
) -> BatchSummary:
    """Grade every item (attempt) not already in the gradebook (all of them with `regrade`),
    then penalise every attempt in the gradebook by the late policy in force and count each
    student's attempt by the rubric's rule (count_attempts): neither needs a regrade, and the
    commands that read grades do the same before they read.

    `write_files(student, result)` writes a recorded result's files, if any, and returns the
    problems it met (autograder.report.batch writes them in the report formats); of a
    student's attempts, only the latest one's are written (the gradebook holds them all)."""
    spec = assignment.spec
    rubric = assignment.grading_hash()
    run_id = uuid.uuid4().hex[:12]
    with Gradebook(out) as book:
        book.bind(assignment=spec.name, rubric_hash=rubric)
        hashes = {
            (item.student, item.attempt): content_hash(item.path)
            for item in items
            if item.path.exists()
        }

        def current(item: Item) -> bool:
            content = hashes.get((item.student, item.attempt), "")
            return book.is_current(
                spec.name, item.student, content, rubric, __version__, item.attempt
            )

        todo = [item for item in items if regrade or not current(item)]
        latest: dict[str, str] = {}
        for item in items:
            latest[item.student] = max(latest.get(item.student, item.attempt), item.attempt)
        skipped = tuple(item.student for item in items if item not in todo)
        graded: list[Entry] = []
        problems: list[str] = []
        workers = max(1, min(jobs, len(todo)))
        rehearse = len(todo) >= REHEARSAL_PAYS_FROM * workers
        with RunnerPool(assignment, size=workers, hide=(out.resolve(),), rehearse=rehearse) \
                as runners, ThreadPoolExecutor(max_workers=workers) as pool:  # fmt: skip
            futures = {pool.submit(runners.grade_with_source, item.path): item for item in todo}
            for future in as_completed(futures):
                item = futures.pop(future)  # a finished result is not kept past its recording
                graded_result, source = future.result()
                result = replace(graded_result, submission=item.student)
                penalty = late_penalty(
                    result, item.submitted_at, spec.late, item.student,
                    written_max=written_points(spec),
                )  # fmt: skip
                when = item.submitted_at.isoformat() if item.submitted_at else None
                result = replace(result, late_penalty=penalty, submitted_at=when)
                content = hashes.get((item.student, item.attempt), "")
                entry = Entry(
                    item.student, content, run_id, result, penalty, when, __version__,
                    item.attempt,
                )  # fmt: skip
                problem = record_when_there_is_room(
                    book, entry, rubric, source, never_lower=spec.never_lower
                )
                if problem is not None:
                    problems.append(problem)
                elif spec.manual:  # the written answers, while the submission is here to read
                    capture_answers(out, spec, item.student, item.attempt, item.path)
                if item.attempt == latest[item.student]:  # one file per student: the latest
                    problems += write_files(item.student, result)
                graded.append(entry)
                on_result(entry, len(graded), len(todo))
        changed = count_attempts(book, spec)
        listed = set(skipped)
        for entry in changed:  # a result file of the student's latest attempt, if not new
            if entry.student in listed and entry.attempt == latest[entry.student]:
                problems += write_files(entry.student, entry.result)
        unlisted = unlisted_attempts(book, spec.name, items)
    moved = tuple(sorted({entry.student for entry in changed} - {e.student for e in graded}))
    return BatchSummary(tuple(graded), skipped, tuple(problems), unlisted, moved)


def unlisted_attempts(book: Gradebook, assignment: str, items: Sequence[Item]) -> tuple[str, ...]:
    """The attempts of the students in `items` that the gradebook holds and `items` do not
    (a manifest whose time was corrected, or a submission withdrawn): named, never dropped
    unasked, since a manifest of only the new submissions lists none of the earlier ones."""
    listed = {(item.student, item.attempt) for item in items}
    students = {item.student for item in items}
    return tuple(
        f"{student} at {entry.submitted_at or 'an unknown time'}"
        for student, entries in book.attempts(assignment).items()
        if student in students
        for entry in entries
        if (student, entry.attempt) not in listed
    )


def count_attempts(book: Gradebook, spec: AssignmentSpec) -> list[Entry]:
    """Give every attempt of `spec`'s assignment in `book` the late penalty of the policy in
    force (each student's own due date) and count each student's attempt by the rubric's rule.
    Penalties are computed here, from the recorded score and submission time, rather than
    kept in the grading hash: granting or changing an extension changes them at the next
    `grade` run, or at the next read of the grades, without grading anyone again. Writes only
    what changed; returns the attempts whose penalty changed, and the newly counted ones, as
    they now stand."""
    changed: dict[tuple[str, str], Entry] = {}
    for student, attempts in book.attempts(spec.name).items():
        penalised = []
        for entry in attempts:
            when = datetime.fromisoformat(entry.submitted_at) if entry.submitted_at else None
            penalty = late_penalty(
                entry.result, when, spec.late, student, written_max=written_points(spec)
            )
            if penalty != entry.late_penalty:
                book.set_penalty(spec.name, student, entry.attempt, penalty)
                entry = replace(
                    entry, late_penalty=penalty, result=replace(entry.result, late_penalty=penalty)
                )
                changed[(student, entry.attempt)] = entry
            penalised.append(entry)
        counted = counted_attempt(
            penalised, spec.attempts, spec.late, student, written_max=written_points(spec)
        )
        if not counted.counted or sum(e.counted for e in penalised) != 1:
            book.set_counted(spec.name, student, counted.attempt)
            changed[(student, counted.attempt)] = replace(counted, counted=True)
    return list(changed.values())
