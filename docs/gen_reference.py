"""The documentation's reference pages, written from the kit itself so they cannot drift from it:
the command-line reference from `autograder.cli.build_parser()` (every verb, its help, its
arguments), the `grading.toml` reference from the rubric's schema (`rubric_schema.py`, the
same tables the rubric's reader allows).

MkDocs runs this file as a hook (`hooks:` in mkdocs.yml): the pages join the build without
being written into docs/. `python docs/gen_reference.py DIR` writes them into DIR to read.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import autograder.cli
from autograder.cli import build_parser
from autograder.course.rubric_schema import SCHEMA, Key, Table, children

USAGE_WIDTH = 88


def cli_reference() -> str:
    """Every verb of `autograder` (and each subcommand of a verb): help, usage, arguments."""
    parser = build_parser()
    lines = [
        "# Command-line reference",
        "",
        "Written from the `autograder` command's own parser when the documentation is built: "
        "what `autograder VERB --help` prints, for every verb. Each verb is a thin layer over a "
        "library function of the same name.",
        "",
        f"{parser.description}",
        "",
        "```text",
        _usage(parser),
        "```",
        "",
        *_exit_codes(),
    ]
    for name, verb, help_text in _subcommands(parser):
        lines += _verb(name, verb, help_text, level=2)
    return "\n".join(lines) + "\n"


def _exit_codes() -> list[str]:
    """The exit codes as `autograder/cli.py`'s docstring states them."""
    paragraphs = re.split(r"\n\s*\n", autograder.cli.__doc__ or "")
    found = [i for i, text in enumerate(paragraphs) if text.startswith("Exit codes")]
    if not found:
        return []
    lines = ["## Exit codes", ""]
    for text in paragraphs[found[0] :]:
        if lines[2:] and not text.lstrip().startswith("- "):
            break
        lines += [" ".join(text.split()) if not text.lstrip().startswith("- ") else
                  _joined_list(text), ""]  # fmt: skip
    return lines


def _joined_list(text: str) -> str:
    """A Markdown list whose items were wrapped over several lines, one item a line."""
    items = re.split(r"\n\s*- ", "\n" + text.strip())
    return "\n".join(f"- {' '.join(item.split())}" for item in items if item.strip())


def _subcommands(
    parser: argparse.ArgumentParser,
) -> Iterator[tuple[str, argparse.ArgumentParser, str]]:
    """Each subcommand of `parser`: its name, its parser and its one-line help."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            for name, sub in action._name_parser_map.items():
                yield name, sub, helps.get(name, "")


def _verb(name: str, parser: argparse.ArgumentParser, help_text: str, level: int) -> list[str]:
    parser.format_help()  # a verb's parser may load its arguments only when asked for its help
    lines = [f"{'#' * level} {parser.prog}", ""]
    if help_text:
        lines += [f"*{_sentence(help_text)}*", ""]
    description = " ".join((parser.description or "").split())
    if description and description.lower() != " ".join(help_text.split()).lower():
        lines += [description, ""]
    lines += ["```text", _usage(parser), "```", ""]
    rows = [_row(parser, action) for action in parser._actions if _shown(action)]
    if rows:
        lines += ["| argument | what it does |", "| --- | --- |", *rows, ""]
    for sub_name, sub, sub_help in _subcommands(parser):
        lines += _verb(sub_name, sub, sub_help, level + 1)
    return lines


def _shown(action: argparse.Action) -> bool:
    return action.help != argparse.SUPPRESS and not isinstance(
        action, (argparse._HelpAction, argparse._SubParsersAction)
    )


def _usage(parser: argparse.ArgumentParser) -> str:
    formatter = argparse.HelpFormatter(prog=parser.prog, width=USAGE_WIDTH)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups)
    return formatter.format_help().strip()


def _row(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    formatter = argparse.HelpFormatter(prog=parser.prog)
    if action.option_strings:
        metavar = formatter._format_args(action, action.dest.upper()) if action.nargs != 0 else ""
        name = ", ".join(f"{option} {metavar}".strip() for option in action.option_strings)
    else:
        name = formatter._format_args(action, action.dest)
    help_text = formatter._expand_help(action) if action.help else ""
    extra = []
    if action.choices is not None and not isinstance(action, argparse._SubParsersAction):
        extra.append("one of " + ", ".join(f"`{choice}`" for choice in action.choices))
    words = "; ".join([_cell(help_text), *extra] if help_text else extra)
    return f"| `{name}` | {words or '—'} |"


def rubric_reference() -> str:
    """Every table of grading.toml and every key it may hold, from the rubric's schema."""
    lines = [
        "# `grading.toml` reference",
        "",
        "Written from the rubric's own schema (`autograder/course/rubric_schema.py`) when the "
        "documentation is built; the rubric's reader allows exactly these keys, so an unknown "
        "key or a wrong type is an error naming the file, the key and the fix. NAME and PART "
        "stand for names you choose. The file is for instructors only: its seeds pick the "
        "hidden tests' random inputs.",
        "",
    ]
    for table in SCHEMA:
        lines += _table(table)
    lines += [
        "## An example: this repository's rubric",
        "",
        "```toml",
        '--8<-- "grading.toml"',
        "```",
        "",
    ]
    return "\n".join(lines) + "\n"


def _table(table: Table) -> list[str]:
    title = f"`[{table.path}]`" if table.path else "The top level"
    lines = [f"## {title}", "", table.meaning + (" Required." if table.required else ""), ""]
    held = children(table.path)
    if held:
        named = ", ".join(f"[`[{child.path}]`](#{_anchor(child)})" for child in held)
        lines += [f"Holds: {named}.", ""]
    if table.keys:
        lines += ["| key | type | default | meaning |", "| --- | --- | --- | --- |"]
        lines += [_key_row(key) for key in table.keys]
        lines.append("")
    return lines


def _key_row(key: Key) -> str:
    if key.required:
        default = "required"
    elif key.default is not None:
        default = f"`{key.default}`"
    else:
        default = f"none: {key.when_absent}"
    meaning = key.meaning
    if key.choices:
        meaning += " One of " + ", ".join(f"`{choice}`" for choice in key.choices) + "."
    return f"| `{key.name}` | {key.kind} | {_cell(default)} | {_cell(meaning)} |"


def _anchor(table: Table) -> str:
    """The heading id MkDocs's toc extension gives `## [path]`."""
    return re.sub(r"[^a-z0-9]+", "", table.path.lower().replace(".", ""))


def _cell(text: str) -> str:
    """Text fit for a Markdown table cell: one line, no column break."""
    return " ".join(text.split()).replace("|", "\\|")


def _sentence(text: str) -> str:
    text = " ".join(text.split())
    return text[:1].upper() + text[1:]


PAGES: dict[str, Callable[[], str]] = {
    "reference/cli.md": cli_reference,
    "reference/grading-toml.md": rubric_reference,
}
"""Each generated page, by its path in the documentation."""


def on_files(files: Any, config: Any) -> Any:
    """MkDocs's hook: add the generated pages to the build."""
    from mkdocs.structure.files import File

    for path, write in PAGES.items():
        files.append(File.generated(config, path, content=write()))
    return files


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python docs/gen_reference.py DIR", file=sys.stderr)
        return 2
    for path, write in PAGES.items():
        target = Path(argv[0]) / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(write(), encoding="utf-8")
        print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
