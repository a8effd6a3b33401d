"""The verbs of `autograder`, one module each: its arguments, what it does, its help.

A new verb is a module here defining `COMMAND` (a `common.Command`), and its name and one-line
help in VERBS: `autograder --help` lists the verbs from VERBS alone, so that neither it nor
`--version` imports any verb's module (some pull in the grading machinery); a verb's module is
imported when the verb is used (tests/test_commands.py checks both lists agree)."""

from __future__ import annotations

import importlib

from autograder.commands.common import Command

VERBS = {
    "check": "run the public tests on your module, with hints (students)",
    "release": "write student_template/NAME/ from reference/ and assignments/NAME/ (instructors)",
    "export": "package the grader for another platform",
    "grade": "grade submissions with the hidden and public tests, in a sandbox (CI, instructors)",
    "validate": "prove the tests: reference full, stubs zero, every known mistake caught (CI)",
    "samples": "write each assignment's sample class, or grade it beside expected.toml's scores",
    "new": "write a new assignment: reference, tests, README, sample class, rubric table",
    "gradebook": "export a gradebook to CSV or an LMS's import file, or merge shard gradebooks",
    "report": "write the class report: one self-contained HTML file with plots (instructors)",
    "feedback": "write each student's feedback to hand back: HTML and Markdown (instructors)",
    "similarity": "look for copied work: every pair of submissions compared by winnowing",
    "manual": "grade written answers (a sheet or a local page) and override automatic scores",
}
"""Each verb (its module's name) and its one-line help, in the order `autograder --help`
lists them."""


def command(verb: str) -> Command:
    """The Command of `verb` (a key of VERBS), its module imported now."""
    found: Command = importlib.import_module(f"{__name__}.{verb}").COMMAND
    return found


def commands() -> list[Command]:
    """Every verb's Command, in the order of VERBS (every verb's module imported)."""
    return [command(verb) for verb in VERBS]
