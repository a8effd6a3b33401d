"""The slot's size, watched from the trusted side where no size-capped /tmp holds it.

Under bubblewrap the slot lives in the sandbox's own tmpfs of `disk_mb`: a write past it fails
in the worker. Without bubblewrap the slot is a folder on the grader's own disk, where
RLIMIT_FSIZE bounds each file but not their number, so a submission could fill the disk the
gradebook lives on. Here a thread of the grader's sums the slot (the blocks its files take,
and how many entries it holds) every few milliseconds while a worker lives, and stops the
worker the moment either passes its bound. A submission can pass `disk_mb` by what it writes
between two looks (at most one interval's worth of its disk's speed, each file capped by
file_size_mb), never by more; the slot is removed right after.
"""

from __future__ import annotations

import os
import stat
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

MAX_ENTRIES = 20_000
"""Files, folders and links in one slot: a disk fills by inodes too."""
MAX_DEPTH = 64
"""Folders within folders: Landlock checks every access against each folder above it, so a
tree thousands deep costs the kernel seconds per file (and its removal as many)."""
INTERVAL_S = 0.02
"""Between two looks; a slot that takes longer to sum waits four times as long as it took."""


@dataclass(frozen=True)
class Usage:
    bytes: int
    entries: int
    depth: int
    unreadable: int = 0
    """Folders the walk could not enter (a mode the student set): what they hold is unknown."""


def slot_usage(path: str, *, max_entries: int = MAX_ENTRIES, max_depth: int = MAX_DEPTH) -> Usage:
    """The blocks (in bytes), entries and depth of folders under `path`, walked through open
    folders (no path grows past PATH_MAX however deep the tree), links not followed; counting
    stops once `max_entries` or `max_depth` is passed. A folder that vanishes counts as empty;
    one that cannot be entered is counted as unreadable."""
    total, entries, deepest, unreadable = 0, 0, 0, 0
    try:
        top = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:
        return Usage(0, 0, 0)
    pending = [(top, 0)]
    try:
        while pending and entries <= max_entries and deepest <= max_depth:
            folder, depth = pending.pop()
            deepest = max(deepest, depth)
            try:
                with os.scandir(folder) as listing:
                    for entry in listing:
                        entries += 1
                        if entries > max_entries:
                            break
                        try:
                            info = entry.stat(follow_symlinks=False)
                            total += info.st_blocks * 512
                            if stat.S_ISDIR(info.st_mode):
                                flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
                                inner = os.open(entry.name, flags, dir_fd=folder)
                                pending.append((inner, depth + 1))
                        except PermissionError:
                            unreadable += 1
                        except OSError:  # gone meanwhile
                            pass
            except PermissionError:
                unreadable += 1
            except OSError:
                pass
            finally:
                os.close(folder)
    finally:
        for fd, _ in pending:
            os.close(fd)
    return Usage(total, entries, deepest, unreadable)


def free_bytes(path: str) -> int | None:
    """The bytes an unprivileged writer may still use on the file system holding `path`."""
    try:
        info = os.statvfs(path)
    except OSError:
        return None
    return info.f_bavail * info.f_frsize


DISK_LOSS_BYTES = 256 * 2**20
"""How far the slot's file system may fall in free space while a submission runs (beyond what
its own quota allows) before the watch stops it: files written and removed while still open
take room no walk of the slot can see."""


class SlotWatch:
    """A thread that calls `exceeded(message)` once, when the slot passes its bounds, or
    `disk_lost(message)` when its file system loses room the slot does not show."""

    def __init__(
        self,
        path: str,
        *,
        max_bytes: int,
        exceeded: Callable[[str], None],
        disk_mb: int,
        disk_lost: Callable[[str], None] | None = None,
    ) -> None:
        self.path = path
        self.max_bytes = max_bytes
        self.disk_mb = disk_mb
        self.exceeded = exceeded
        self.disk_lost = disk_lost or exceeded
        self.tripped: str | None = None
        self._free_at_start = free_bytes(os.path.dirname(path) or ".")
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="slot-watch", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while not self._stop.is_set():
            started = time.monotonic()
            usage = slot_usage(self.path)
            message = _over(usage, self.max_bytes, self.disk_mb)
            if message is not None:
                self.tripped = message
                self.exceeded(message)
                return
            lost = self._lost_room()
            if lost is not None:
                self.tripped = lost
                self.disk_lost(lost)
                return
            spent = time.monotonic() - started
            self._stop.wait(max(INTERVAL_S, 4 * spent))  # a large slot: a fifth of a core

    def _lost_room(self) -> str | None:
        now = free_bytes(os.path.dirname(self.path) or ".")
        if self._free_at_start is None or now is None:
            return None
        lost = self._free_at_start - now
        if lost <= max(4 * self.max_bytes, DISK_LOSS_BYTES):
            return None
        return (
            f"the disk the slot is on lost {lost >> 20} MiB while this submission ran, more "
            "than its folder shows (files written and removed while open count too)"
        )

    def close(self) -> None:
        self._stop.set()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=5)


def _over(usage: Usage, max_bytes: int, disk_mb: int) -> str | None:
    """What the slot passed, said to the student, or None."""
    if usage.bytes > max_bytes:
        return (
            f"your code wrote more than the {disk_mb} MiB its folder may hold "
            f"({usage.bytes / 2**20:.0f} MiB): write less, or nothing, to disk"
        )
    if usage.entries > MAX_ENTRIES:
        return f"your code made more than {MAX_ENTRIES} files and folders in its folder"
    if usage.depth > MAX_DEPTH:
        return f"your code made folders more than {MAX_DEPTH} deep in its folder"
    if usage.unreadable:
        return "your code made a folder its grader cannot read (a mode without read access)"
    return None
