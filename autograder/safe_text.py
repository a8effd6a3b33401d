"""Student-derived text made safe for each place it goes: storage, a terminal, XML, a spreadsheet.

Students control names, messages, printed output and exception text. Each function here makes
such text harmless for one destination, and does nothing to text that is already harmless:

- `storable`: lone surrogates (which neither UTF-8 files nor SQLite accept) become U+FFFD;
- `printable`: control characters (escape sequences that move a terminal's cursor, set its
  title or write its clipboard; NUL; BEL) are shown escaped, as `\\x1b`;
- `xml_text`: characters XML 1.0 forbids are dropped (JUnit files must parse);
- `spreadsheet_cell`: a cell a spreadsheet would read as a formula gets a leading apostrophe
  (one way, for files the kit never reads back; the grading sheet, which comes back, is
  written by autograder.manual.sheet_cells, whose escape undoes exactly);
- `short_repr`: a value as a message may quote it, bounded however large the value is;
- `shorten`: a message cut to a width at a word boundary, the cut marked with "…";
- `file_stem`: a name as a file name in a results folder: bounded in bytes, and never one
  that another name also gets.
"""

from __future__ import annotations

import hashlib
import re
import reprlib
from typing import Any

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""C0 and C1 controls but newline and tab, and the Unicode line separators and direction
overrides that make a terminal show text other than what is there."""
_XML_ILLEGAL = re.compile(r"[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet reads as the start of a formula."""
_UNSAFE_IN_NAME = re.compile(
    r'[\x00-\x1f\x7f-\x9f/\\<>:"|?*\u2028\u2029\u202a-\u202e\u2066-\u2069]'
)
"""Path separators, controls, and what Windows forbids (a results folder gets zipped and moved)."""


def storable(text: str) -> str:
    """`text` with every lone surrogate replaced by U+FFFD (a valid pair is joined)."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def storable_data(value: Any) -> Any:
    """`value` (JSON-like: dicts, lists, strings, numbers) with every string made storable."""
    if isinstance(value, str):
        return storable(value)
    if isinstance(value, dict):
        return {storable(str(k)): storable_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [storable_data(v) for v in value]
    return value


def printable(text: str) -> str:
    """`text` for a terminal: control characters shown as escapes, nothing else changed."""
    text = storable(text)
    if not _CONTROL.search(text):
        return text
    return _CONTROL.sub(lambda match: repr(match.group())[1:-1], text)


def xml_text(text: str) -> str:
    """`text` without the characters XML 1.0 forbids."""
    return _XML_ILLEGAL.sub("", storable(text))


def spreadsheet_cell(value: Any) -> Any:
    """A CSV cell that no spreadsheet evaluates: text starting like a formula is quoted."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


MAX_STEM_BYTES = 200
"""The most UTF-8 bytes of a stem: with the longest suffix the kit appends (`.results.json`) a
file name stays well under the 255 bytes a path component may hold."""
DIGEST_CHARS = 16
"""Hex digits of the digest a spelled name ends in: 64 bits, too many for a student to search
for a name whose spelling is a classmate's."""
_VERBATIM = re.compile(r"[a-z0-9_](?:[a-z0-9_ -]*[a-z0-9_-])?")
"""The names kept as they are. Lower-case ASCII: two of them never differ by case alone (which
a case-insensitive file system, macOS or Windows, would merge) nor by Unicode normalisation. No
dot: a name plus one suffix never spells another name plus another (`x.results` + `.json`).
No leading `-` (an option to a shell tool) nor trailing space (Windows drops it)."""
_DIGEST_SPELLING = re.compile(rf"-[0-9a-f]{{{DIGEST_CHARS}}}\Z")
_WINDOWS_DEVICES = frozenset(
    {"con", "prn", "aux", "nul", *(f"{port}{n}" for port in ("com", "lpt") for n in range(10))}
)
"""Names Windows opens as a device, whatever the suffix."""


def file_stem(name: str) -> str:
    """`name` as a file name in a results folder, at most MAX_STEM_BYTES long: itself when it
    is plain, else a readable spelling ending in `-` and a digest of the name.

    No two names share a stem, even on a case-insensitive file system: a plain name never ends
    like a spelling (a name that does is spelled too), and two spellings differ in their
    digests."""
    if _kept_verbatim(name):
        return name
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:DIGEST_CHARS]
    readable = _UNSAFE_IN_NAME.sub("_", storable(name)).replace(".", "_").lstrip(" -")
    readable = _cut_utf8(readable, MAX_STEM_BYTES - DIGEST_CHARS - 1).rstrip(" .")
    return f"{readable or 'submission'}-{digest}"


def _kept_verbatim(name: str) -> bool:
    return (
        len(name) <= MAX_STEM_BYTES
        and _VERBATIM.fullmatch(name) is not None
        and _DIGEST_SPELLING.search(name) is None
        and name not in _WINDOWS_DEVICES
    )


def _cut_utf8(text: str, limit: int) -> str:
    """`text`'s longest prefix of at most `limit` UTF-8 bytes (never half a character)."""
    return text.encode("utf-8")[:limit].decode("utf-8", "ignore")


_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = 80
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = 8
_REPR.maxlevel = 3


def short_repr(value: Any, limit: int = 200) -> str:
    """A student's value as a message may quote it: a few entries of each container and at most
    `limit` characters, however large the value is."""
    try:
        text = _REPR.repr(value)
    except Exception:  # a value whose repr fails is still described
        text = f"<a {type(value).__name__[:80]}>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


ELLIPSIS = "…"


def shorten(text: str, width: int) -> str:
    """`text` on one line (runs of white space made one space), at most `width` characters:
    when longer, cut after its last whole word that fits and ended with "…" (a single word
    longer than that is cut inside, and still ends with "…")."""
    flat = " ".join(text.split())
    if len(flat) <= width:
        return flat
    room = max(0, width - len(ELLIPSIS))
    cut = flat[: room + 1].rfind(" ")  # a space right after the room still ends a word
    kept = flat[:cut] if cut > 0 else flat[:room]
    return kept.rstrip(" ,;:.") + ELLIPSIS
