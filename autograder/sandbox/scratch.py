"""Private scratch folders that outlive no one, and a removal that no folder can stop.

A grader killed with SIGKILL cannot remove its folders. Each folder's name carries its owner's
pid, and whoever makes a new one first removes those whose owner is gone.

What a worker leaves may be thousands of folders deep, read-only, or full of links: `empty_tree`
and `remove_tree` flatten it level by level (each folder's subfolders are moved up to the top
before it is emptied), so neither recursion, path length nor permissions stop them, and links
are removed, never followed.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
from pathlib import Path

_OWNED = re.compile(r"^autograder-(?P<kind>[a-z]+)-(?P<pid>\d+)-")


def private_folder(kind: str) -> Path:
    """A new folder `autograder-KIND-PID-…` in the temporary folder, after removing the stale."""
    remove_stale(kind)
    return Path(tempfile.mkdtemp(prefix=f"autograder-{kind}-{os.getpid()}-"))


def remove_stale(kind: str) -> int:
    """Remove every `autograder-KIND-PID-…` folder whose process no longer exists."""
    removed = 0
    root = Path(tempfile.gettempdir())
    with contextlib.suppress(OSError):
        for entry in root.iterdir():
            owned = _OWNED.match(entry.name)
            if owned and owned["kind"] == kind and not process_alive(int(owned["pid"])):
                remove_tree(entry)
                removed += 1
    return removed


def process_alive(pid: int) -> bool:
    """Whether a process `pid` exists in this PID namespace (one of another user's counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_tree(path: Path) -> None:
    """Remove `path` (a file, a link or a folder with everything in it); never raises."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return
    if stat.S_ISDIR(mode):
        empty_tree(path)
        with contextlib.suppress(OSError):
            os.rmdir(path)
    else:
        with contextlib.suppress(OSError):
            os.unlink(path)


def empty_tree(folder: Path) -> None:
    """Remove everything inside `folder`, however deep, locked or linked; never raises."""
    try:
        top = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:
        return
    moved = 0
    try:
        with contextlib.suppress(OSError):
            os.fchmod(top, 0o700)
        pending = _names(top)
        while pending:
            name = pending.pop()
            try:
                inner = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=top)
            except OSError:  # a file or a link (or gone): it goes as it is
                with contextlib.suppress(OSError):
                    os.unlink(name, dir_fd=top)
                continue
            try:
                with contextlib.suppress(OSError):
                    os.fchmod(inner, 0o700)
                for child in _names(inner):
                    try:
                        os.unlink(child, dir_fd=inner)
                        continue
                    except IsADirectoryError:
                        pass
                    except OSError:
                        continue
                    moved, target = _unused_name(top, moved)
                    with contextlib.suppress(OSError):
                        os.rename(child, target, src_dir_fd=inner, dst_dir_fd=top)
                        pending.append(target)
            finally:
                os.close(inner)
            with contextlib.suppress(OSError):
                os.rmdir(name, dir_fd=top)
    finally:
        os.close(top)


def _names(folder_fd: int) -> list[str]:
    try:
        return os.listdir(folder_fd)
    except OSError:
        return []


def _unused_name(folder_fd: int, after: int) -> tuple[int, str]:
    """A name no entry of the folder has yet (a student may have made `.autograder-removing-1`)."""
    while True:
        after += 1
        name = f".autograder-removing-{after}"
        try:
            os.stat(name, dir_fd=folder_fd, follow_symlinks=False)
        except FileNotFoundError:
            return after, name
        except OSError:
            continue
