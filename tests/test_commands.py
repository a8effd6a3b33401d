"""The command line's shape: one module per verb in the registry, and `gradebook`'s two forms."""

from __future__ import annotations

from pathlib import Path

import pytest

from autograder.cli import build_parser, main
from autograder.commands import VERBS, commands
from autograder.commands import gradebook as gradebook_command
from autograder.grading.gradebook import Gradebook


def test_every_verb_of_the_registry_is_a_subcommand_in_its_order() -> None:
    assert [command.name for command in commands()] == list(VERBS)
    help_text = build_parser().format_help()
    assert [verb for verb in VERBS if f"    {verb}" in help_text] == list(VERBS)


@pytest.mark.parametrize(
    "arguments",
    [["graded", "--csv", "g.csv"], ["--csv", "g.csv", "graded"]],
)
def test_gradebook_out_is_the_default_form_with_options_on_either_side(
    arguments: list[str],
) -> None:
    args = build_parser().parse_args(["gradebook", *arguments])
    assert args.run is gradebook_command.run
    assert args.folders == [Path("graded")] and args.csv == Path("g.csv")


@pytest.mark.parametrize(
    "arguments",
    [["merge", "a", "b", "--out", "c"], ["--out", "c", "merge", "a", "b"]],
)
def test_gradebook_merge_is_a_subcommand(arguments: list[str]) -> None:
    args = build_parser().parse_args(["gradebook", *arguments])
    assert args.run is gradebook_command.run_merge
    assert args.folders == [Path("a"), Path("b")] and args.out == Path("c")


def test_gradebook_merge_has_its_own_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_args(["gradebook", "merge", "--help"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.startswith("usage: autograder gradebook merge [-h] [--out OUT]")


def test_gradebook_merge_merges_and_refuses_without_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shards = [tmp_path / "out-1", tmp_path / "out-2"]
    for shard in shards:
        Gradebook(shard).close()
    target = tmp_path / "class"
    assert main(["gradebook", "merge", *map(str, shards), "--out", str(target)]) == 0
    assert capsys.readouterr().out == f"merged 2 gradebooks into {target}: 0 submissions\n"
    assert main(["gradebook", "merge", *map(str, shards)]) == 2
    assert capsys.readouterr().err == (
        "autograder: usage: autograder gradebook merge OUT1 OUT2 ... --out OUT\n"
    )
