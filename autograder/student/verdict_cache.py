"""The symbolic verdicts `autograder check` learnt, kept on the student's machine between runs.

Proving two expressions equal, screening them at random points and judging a proof are pure
functions of their data and of the checks' code (checks/memo.py). A student runs `check` again
and again on a module whose expressions and proofs mostly have not changed: each run reads the
verdicts the runs before it learnt, and adds what it learnt itself.

The file is named by a digest of what could change a verdict: the kit's and SymPy's versions,
and every file of the public tests (which hold the statements, the proof vocabulary and the
policy). It lives in the user's cache folder (`$AUTOGRADER_CACHE_DIR`, else
`$XDG_CACHE_HOME/autograder`, else `~/.cache/autograder`), never beside the student's files.
It is only ever read by `check`: grading never reads it, so a file a student edits fools no
one but that student's own check. Reading it is bounded (MAX_FILE_BYTES), and a file that is
too large, malformed or whose body does not match its digest is ignored, as if absent; writing
it is atomic (a new file renamed).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

MAX_FILE_BYTES = 8 * 2**20
MAX_ENTRIES = 5_000
"""The newest verdicts kept in one file; older ones are forgotten."""
MAX_TEST_FILES = 2_000
MAX_TEST_BYTES = 32 * 2**20
"""Beyond these, the public tests are not digested and no verdict is kept (a folder that
large is not a course's tests)."""
_KEY_LENGTH = 64


CACHE_ENV = "AUTOGRADER_CACHE_DIR"
"""Where the kit keeps its caches instead of the user's cache folder (the kit's tests set it)."""


def cache_folder() -> Path:
    chosen = os.environ.get(CACHE_ENV)
    if chosen:
        return Path(chosen) / "verdicts"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "autograder" / "verdicts"


def cache_file(tests_dir: Path) -> Path | None:
    """Where the verdicts of checks against `tests_dir` are kept, or None when its files cannot
    be digested (too many, too large, unreadable)."""
    import sympy

    import autograder

    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"autograder {autograder.__version__}\0sympy {sympy.__version__}\0".encode())
    try:
        files = sorted(p for p in tests_dir.rglob("*") if p.is_file() and not _ignored(p))
    except OSError:
        return None
    if len(files) > MAX_TEST_FILES:
        return None
    total = 0
    for path in files:
        try:
            data = path.read_bytes()
        except OSError:
            return None
        total += len(data)
        if total > MAX_TEST_BYTES:
            return None
        name = path.relative_to(tests_dir).as_posix().encode("utf-8", "surrogateescape")
        digest.update(len(name).to_bytes(8, "big") + name + len(data).to_bytes(8, "big") + data)
    return cache_folder() / f"{digest.hexdigest()}.json"


def _ignored(path: Path) -> bool:
    return "__pycache__" in path.parts or ".pytest_cache" in path.parts


def load(path: Path) -> dict[str, Any]:
    """The verdicts kept in `path`: none when it is absent, too large or not what `save` wrote."""
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError:
        return {}
    if len(data) > MAX_FILE_BYTES:
        return {}
    try:
        stored = json.loads(data.decode("utf-8"))
        body, digest = stored["verdicts"], stored["digest"]
    except (ValueError, TypeError, KeyError, UnicodeDecodeError, RecursionError):
        return {}
    if not isinstance(body, dict) or digest != _digest(body):
        return {}
    return {key: value for key, value in body.items() if _is_key(key)}


def save(path: Path, known: Mapping[str, Any], learnt: Mapping[str, Any]) -> None:
    """Add what this run `learnt` to what was `known`, keeping the newest MAX_ENTRIES; silent
    when the cache folder cannot be written (a check is not worth failing for it)."""
    merged = {**known, **learnt}
    body = dict(list(merged.items())[-MAX_ENTRIES:])
    text = json.dumps({"verdicts": body, "digest": _digest(body)})
    if len(text) > MAX_FILE_BYTES:
        return
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".verdicts-")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(temporary, path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)


def _digest(body: Mapping[str, Any]) -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(canonical.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def _is_key(key: Any) -> bool:
    return (
        isinstance(key, str)
        and len(key) == _KEY_LENGTH
        and all(c in "0123456789abcdef" for c in key)
    )
