"""The slot's watch (where no bwrap caps the slot): its sums are right, bounded and fast
enough, and it stops a submission once, at the first bound passed."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from autograder.sandbox.slot_quota import MAX_DEPTH, MAX_ENTRIES, SlotWatch, slot_usage


def test_slot_usage_counts_blocks_entries_and_depth(tmp_path: Path) -> None:
    (tmp_path / "a.bin").write_bytes(b"x" * 300_000)
    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    (tmp_path / "sub" / "deeper" / "b.bin").write_bytes(b"y" * 100_000)
    os.symlink("/", tmp_path / "everything")  # a link is an entry, never followed
    usage = slot_usage(str(tmp_path))
    assert usage.entries == 5 and usage.depth == 2
    assert 400_000 <= usage.bytes < 400_000 + 5 * 64 * 1024  # the blocks the files take
    assert slot_usage(str(tmp_path / "missing")).entries == 0


def test_a_deep_or_crowded_slot_is_summed_only_as_far_as_its_bounds(tmp_path: Path) -> None:
    fd = os.open(tmp_path, os.O_RDONLY)
    for _ in range(MAX_DEPTH + 50):  # relative to open folders, as a student's code can
        os.mkdir("d", dir_fd=fd)
        inner = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = inner
    for n in range(MAX_ENTRIES + 10):
        os.close(os.open(f"f{n}", os.O_CREAT | os.O_WRONLY, dir_fd=fd))
    os.close(fd)
    usage = slot_usage(str(tmp_path))
    assert usage.depth == MAX_DEPTH + 1, "it stops one level past the bound"
    crowded = slot_usage(str(tmp_path), max_depth=10_000)
    assert (crowded.entries, crowded.depth) == (MAX_ENTRIES + 1, MAX_DEPTH + 50)


def test_the_watch_trips_once_with_the_bound_it_passed(tmp_path: Path) -> None:
    tripped: list[str] = []
    done = threading.Event()

    def exceeded(message: str) -> None:
        tripped.append(message)
        done.set()

    watch = SlotWatch(str(tmp_path), max_bytes=2**20, disk_mb=1, exceeded=exceeded)
    try:
        time.sleep(0.1)
        assert not tripped, "an empty slot is within its bounds"
        for n in range(3):
            (tmp_path / f"part-{n}").write_bytes(b"x" * 600_000)
        assert done.wait(10), "the watch saw 1.8 MB in a 1 MiB slot"
        time.sleep(0.2)
    finally:
        watch.close()
    assert len(tripped) == 1 and "more than the 1 MiB its folder may hold" in tripped[0]
