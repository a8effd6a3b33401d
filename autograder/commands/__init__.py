"""The verbs of `autograder`, one module each: its arguments, what it does, its help.

A new verb is a module here defining `COMMAND` (a `common.Command`) and its name in VERBS."""

from __future__ import annotations

import importlib

from autograder.commands.common import Command

VERBS = (
    "check",
    "release",
    "export",
    "grade",
    "validate",
    "samples",
    "new",
    "gradebook",
    "report",
    "feedback",
    "similarity",
    "manual",
)
"""Each verb's module, in the order `autograder --help` lists them."""


def commands() -> list[Command]:
    """Every verb's Command, in the order of VERBS."""
    return [importlib.import_module(f"{__name__}.{verb}").COMMAND for verb in VERBS]
