"""Text in the grading sheet's cells: safe in a spreadsheet, and read back exactly.

The sheet goes out to teaching assistants and comes back, so unlike `safe_text.spreadsheet_cell`
(one way, for files the kit never reads) every change made here is undone on import:
`read_cell(sheet_cell(text)) == text` for every string, NUL and lone surrogates included.

Two steps, undone in reverse order:

1. Characters a sheet cannot carry, or would hide, are written as Python writes them in a
   string literal: `\\x00`, `\\x1b`, `\\x85`, `\\ud800`, `\\u202e`. They are the C0 controls but
   tab, newline and carriage return (a CSV file cannot hold NUL; a spreadsheet's own format,
   XML, holds none of them), DEL and the C1 controls, lone surrogates (not UTF-8) and
   U+FFFE/U+FFFF (not XML), and the line separators and bidirectional overrides (which make a
   cell show other text than it holds). A backslash stays as it is (LaTeX reads as it was
   written) unless it comes before another backslash, a character written escaped, or text
   that would read as an escape (`x00`, `u202e`): then it is doubled, `\\\\`. Reading turns
   `\\\\` into `\\`, `\\xHH` and `\\uHHHH` (lower-case hex) into their character, and leaves
   every other backslash alone.
2. A cell that then starts like a formula (`= + - @`, tab, carriage return), or with the
   apostrophe that marks one, gets one more apostrophe in front: `=1+1` is written `'=1+1`, and
   `'quoted'` is written `''quoted'`. Reading removes exactly one leading apostrophe.

A spreadsheet may take that apostrophe as its own "this is text" mark: Excel hides it on
opening a CSV and leaves it out when saving one again, so `'=1+1` comes back `=1+1` (and
`''quoted'` comes back `'quoted'`). `readings` gives both ways to read such a cell; the import
takes the student the row's key confirms, and a comment read either way as unchanged (see
autograder.manual.sheet).
"""

from __future__ import annotations

import re

from autograder.safe_text import FORMULA_START

MARK = "'"
"""The apostrophe in front of a cell that would start like a formula."""
_ESCAPED = (
    "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff\u2028\u2029"
    "\u202a-\u202e\u2066-\u2069"
)
_DECODED = r"\\(?:\\|x[0-9a-f]{2}|u[0-9a-f]{4})"
"""What reading undoes: a doubled backslash, and the escapes step 1 writes."""
_WRITE = re.compile(rf"\\(?=\\|[{_ESCAPED}]|x[0-9a-f]{{2}}|u[0-9a-f]{{4}})|[{_ESCAPED}]")
"""A backslash that would read as the start of an escape (doubled), or a character to escape."""
_READ = re.compile(_DECODED)


def sheet_cell(text: str) -> str:
    """`text` as the grading sheet writes it (see the module docstring)."""
    escaped = _WRITE.sub(_escape, text)
    return MARK + escaped if escaped.startswith((*FORMULA_START, MARK)) else escaped


def read_cell(cell: str) -> str:
    """The text `sheet_cell` wrote as `cell`."""
    return _unescape(cell.removeprefix(MARK))


def readings(cell: str) -> tuple[str, ...]:
    """Every text `cell` may stand for: as the kit wrote it, then as a spreadsheet that took the
    leading apostrophe for its own mark saved it again (when that reads differently)."""
    written, saved_again = read_cell(cell), _unescape(cell)
    return (written,) if saved_again == written else (written, saved_again)


def _escape(match: re.Match[str]) -> str:
    found = match.group()
    if found == "\\":
        return "\\\\"
    code = ord(found)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _unescape(text: str) -> str:
    if "\\" not in text:
        return text
    return _READ.sub(_character, text)


def _character(match: re.Match[str]) -> str:
    found = match.group()
    return "\\" if found == "\\\\" else chr(int(found[2:], 16))
