"""The documentation: a README that is a landing page, reference pages written from the parser
and the rubric's schema, and a site that builds with no warning and refuses a broken link."""

from __future__ import annotations

import argparse
import html
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from autograder.cli import build_parser
from autograder.course.rubric_schema import SCHEMA

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
README_MAX_BYTES = 10_240


def generator() -> ModuleType:
    """docs/gen_reference.py, the MkDocs hook that writes the reference pages."""
    spec = importlib.util.spec_from_file_location(
        "gen_reference", ROOT / "docs" / "gen_reference.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def verbs(parser: object, prefix: str = "") -> dict[str, object]:
    """Every verb and subcommand of `autograder` ("grade", "manual serve") and its parser."""
    assert isinstance(parser, argparse.ArgumentParser)
    parser.format_help()  # a verb's parser loads its arguments when asked for its help
    found: dict[str, object] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action._name_parser_map.items():
                found[prefix + name] = sub
                found |= verbs(sub, f"{prefix}{name} ")
    return found


def test_the_readme_is_a_landing_page_with_the_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) <= README_MAX_BYTES
    (commands,) = re.findall(r"^```sh\n(.*?)^```", text, flags=re.DOTALL | re.MULTILINE)
    assert [line.split("#")[0].strip() for line in commands.splitlines()] == [
        "make demo",
        "make test",
    ]
    for door in ("Students", "Instructors", "Teaching assistants", "CI and clusters"):
        assert f"**{door}**" in text


def test_the_readmes_links_reach_files_of_the_repository() -> None:
    """MkDocs checks the links between pages; the README is outside it, so checked here."""
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README.read_text(encoding="utf-8"))
    local = [link for link in links if "://" not in link]
    assert local, "the README links to no page of the documentation"
    assert [link for link in local if not (ROOT / link).exists()] == []


def test_the_cli_reference_has_every_verb_and_option() -> None:
    page = generator().cli_reference()
    for name, parser in verbs(build_parser()).items():
        assert f"# autograder {name}\n" in page
        for action in parser._actions:  # type: ignore[attr-defined]
            for option in action.option_strings:
                if option not in ("-h", "--help") and action.help != argparse.SUPPRESS:
                    assert f"`{option}" in page or f", {option}" in page, (name, option)
    assert "## Exit codes" in page


def test_the_rubric_reference_has_every_table_and_key() -> None:
    page = generator().rubric_reference()
    for table in SCHEMA:
        if table.path:
            assert f"## `[{table.path}]`" in page
        for key in table.keys:
            assert f"| `{key.name}` |" in page, (table.path, key.name)
            assert key.meaning.split()[0] in page
    assert '--8<-- "grading.toml"' in page  # the repository's rubric, as an example


def build(folder: Path, site: Path) -> subprocess.CompletedProcess[str]:
    """`mkdocs build --strict` in `folder`, as `make docs` runs it."""
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=folder, capture_output=True, text=True, env=environment, timeout=300,
    )  # fmt: skip


def text_of(page: Path) -> str:
    """A built page's text: its tags (syntax highlighting's spans among them) taken out."""
    return html.unescape(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8")))


@pytest.mark.slow
def test_the_documentation_builds_with_no_warning(tmp_path: Path) -> None:
    done = build(ROOT, tmp_path / "site")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "WARNING" not in done.stdout + done.stderr
    cli = text_of(tmp_path / "site" / "reference" / "cli" / "index.html")
    assert "autograder gradebook merge" in cli and "--shard I/N" in cli
    rubric = text_of(tmp_path / "site" / "reference" / "grading-toml" / "index.html")
    assert "[assignments.NAME.limits]" in rubric and "call_timeout_s" in rubric
    assert "[assignments.positional_encoding]" in rubric  # grading.toml included as it is
    actions = text_of(tmp_path / "site" / "ci" / "github-actions" / "index.html")
    workflow = (ROOT / ".github" / "workflows" / "grade-class.yml").read_text(encoding="utf-8")
    for line in workflow.splitlines():
        if line.strip().startswith("- run: "):
            assert line.strip() in actions


@pytest.mark.slow
@pytest.mark.parametrize(
    ("page", "link", "broken"),
    [
        ("docs/index.md", "(students.md)", "(no-such-page.md)"),
        ("docs/ci/clusters.md", "#the-layers-by-configuration)", "#no-such-heading)"),
    ],
    ids=["page", "anchor"],
)
def test_a_broken_link_fails_the_build(tmp_path: Path, page: str, link: str, broken: str) -> None:
    copy = tmp_path / "repository"
    copy.mkdir()
    for kept in ("docs", "mkdocs.yml", "grading.toml", ".github"):
        source = ROOT / kept
        (shutil.copytree if source.is_dir() else shutil.copy)(source, copy / kept)
    text = (copy / page).read_text(encoding="utf-8")
    assert link in text
    (copy / page).write_text(text.replace(link, broken, 1), encoding="utf-8")
    done = build(copy, tmp_path / "site")
    assert done.returncode != 0
    assert broken.strip("#()") in done.stdout + done.stderr
