"""Scratch folders of a killed grader are removed by the next one; a live owner's are kept."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from autograder.sandbox.scratch import private_folder, remove_stale


def test_folders_of_dead_owners_go_and_the_living_stay() -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    root = Path(tempfile.gettempdir())
    stale = root / f"autograder-testkind-{dead.stdout.strip()}-abc"
    (stale / "inside").mkdir(parents=True)
    living = root / f"autograder-testkind-{os.getpid()}-def"
    living.mkdir()
    other_kind = root / f"autograder-otherkind-{dead.stdout.strip()}-ghi"
    other_kind.mkdir()
    try:
        made = private_folder("testkind")
        assert made.name.startswith(f"autograder-testkind-{os.getpid()}-") and made.is_dir()
        assert not stale.exists() and living.exists() and other_kind.exists()
        assert remove_stale("otherkind") == 1 and not other_kind.exists()
    finally:
        for folder in (living, other_kind, made):
            if folder.exists():
                folder.rmdir()


def test_remove_tree_goes_through_depth_locks_and_links(tmp_path: Path) -> None:
    """What a worker leaves: 3000 levels deep (past PATH_MAX), read-only folders, links to
    elsewhere; removed whole, and nothing a link points at is touched."""
    from autograder.sandbox.scratch import remove_tree

    outside = tmp_path / "outside.txt"
    outside.write_text("keep me")
    top = tmp_path / "slot"
    top.mkdir()
    fd = os.open(top, os.O_RDONLY)
    for _ in range(3000):
        os.mkdir("d", dir_fd=fd)
        inner = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = inner
    os.symlink(str(outside), "link", dir_fd=fd)
    os.symlink(str(tmp_path), "up", dir_fd=fd)
    os.fchmod(fd, 0o500)
    os.close(fd)
    (top / ".autograder-removing-1").mkdir()  # a name the remover itself would use
    (top / ".autograder-removing-1" / "x").write_text("x")
    (top / "locked").mkdir()
    (top / "locked" / "f").write_text("x")
    (top / "locked").chmod(0o500)
    remove_tree(top)
    assert not top.exists() and outside.read_text() == "keep me"


def test_cleaning_the_sandbox_tmp_spares_bwraps_mounts(tmp_path: Path) -> None:
    """Under bwrap an allowed folder may live under /tmp (a course's own virtual environment):
    emptying the sandbox's /tmp must not move the folders on the way to that mount (later
    workers import from it) yet must remove what a worker left beside them."""
    from autograder.sandbox.isolation import usable_bwrap

    bwrap = usable_bwrap()
    if bwrap is None:
        raise AssertionError("install bubblewrap (apt-get install bubblewrap) for this test")
    packages = tmp_path / "packages"
    packages.mkdir()
    (packages / "module.py").write_text("X = 1\n")
    engine = str(Path(__file__).resolve().parents[1])
    python = getattr(sys, "_base_executable", sys.executable)  # a venv in /tmp is hidden there
    script = (
        "import json, os, pathlib, sys; sys.path.insert(0, sys.argv[1])\n"
        "from autograder.sandbox.zygote import _empty_private_folders, _mount_paths\n"
        "_mount_paths()\n"
        "for junk in ('/tmp/junk', '/tmp/venv/junk', '/tmp/venv/lib/junk', '/dev/shm/junk'):\n"
        "    pathlib.Path(junk).write_text('x')\n"
        "os.mkdir('/tmp/submission'); pathlib.Path('/tmp/submission/kept').write_text('x')\n"
        "_empty_private_folders(('/tmp/submission',))\n"
        "print(json.dumps(sorted(str(p) for p in pathlib.Path('/tmp').rglob('*'))))\n"
        "print(json.dumps(sorted(os.listdir('/dev/shm'))))\n"
    )
    command = [bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
               "--tmpfs", "/tmp", "--ro-bind", str(packages), "/tmp/venv/lib/site-packages",
               "--tmpfs", "/mnt", "--ro-bind", engine, "/mnt/engine",  # (/tmp hides a checkout
               "--", python, "-c", script, "/mnt/engine"]  # there)  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    listing, shm = done.stdout.splitlines()
    assert json.loads(listing) == [
        "/tmp/submission", "/tmp/submission/kept", "/tmp/venv", "/tmp/venv/lib",
        "/tmp/venv/lib/site-packages", "/tmp/venv/lib/site-packages/module.py",
    ]  # fmt: skip
    assert json.loads(shm) == []
