"""Student-derived text, made safe for each place it goes: storage, terminal, XML, CSV, files."""

from __future__ import annotations

import json
import sqlite3
import xml.etree.ElementTree as ET

import pytest

from autograder.safe_text import file_stem, printable, spreadsheet_cell, storable, xml_text

HOSTILE = "ok \ud800 \x1b[2J\x1b]0;title\x07 \x00 \u202egnp.exe \U0001f600"


def test_storable_text_goes_into_sqlite_and_utf8_files() -> None:
    text = storable(HOSTILE)
    assert "\ud800" not in text and "\ufffd" in text and "\U0001f600" in text
    text.encode("utf-8")  # no lone surrogate left
    with sqlite3.connect(":memory:") as db:
        db.execute("CREATE TABLE t (x TEXT)")
        db.execute("INSERT INTO t VALUES (?)", (text,))
    assert storable("plain") == "plain"
    assert storable("\ud83d\ude00") == "\U0001f600"  # a pair written as two halves is joined


def test_printable_shows_every_control_character_escaped() -> None:
    shown = printable(HOSTILE + "\nnext line\tand a tab")
    assert not any(c in shown for c in "\x1b\x07\x00\u202e")
    assert "\\x1b[2J" in shown and "\\x07" in shown and "\\u202e" in shown
    assert "\nnext line\tand a tab" in shown  # layout characters stay


def test_xml_text_always_parses() -> None:
    element = ET.Element("case", message=xml_text(HOSTILE))
    parsed = ET.fromstring(ET.tostring(element))
    assert parsed.get("message", "").startswith("ok ")


@pytest.mark.parametrize("cell", ["=1+1", "+1", "-1", "@SUM(A1)", '=HYPERLINK("x")', "\t=1"])
def test_formula_cells_are_quoted(cell: str) -> None:
    assert spreadsheet_cell(cell) == "'" + cell
    assert spreadsheet_cell(2.5) == 2.5 and spreadsheet_cell("alice") == "alice"


@pytest.mark.parametrize(
    "name", ["../../etc/passwd", ".hidden", "<b>", 'a:b"c', "\x1b]0;x\x07", "a\ud800", "x" * 300]
)
def test_file_stems_stay_in_their_folder_and_never_collide(name: str) -> None:
    stem = file_stem(name)
    assert "/" not in stem and not stem.startswith(".") and len(stem) <= 100
    assert stem != file_stem(name + "!")
    json.dumps(stem).encode("utf-8")


def test_plain_names_keep_their_spelling() -> None:
    for name in ("alice", "Jane Doe", "Zoë_2", "s123-4"):
        assert file_stem(name) == name
