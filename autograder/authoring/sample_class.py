"""An assignment's sample class: what `make demo`, the course tests and the bench grade.

`assignments/NAME/sample_class/expected.toml` lists every sample and what it must score. A
sample is one of three kinds:

- a committed file `sample_class/NAME.py`: what is genuinely different (a correct style, a
  hostile submission particular to this assignment, a name the kit must keep apart);
- `misconception = "ENTRY"`: the reference with the catalogue entry's function in place of its
  target, as `validate` builds it;
- `hostile = "PAYLOAD"` (with `function = "NAME"` for a payload placed in a function): the
  reference with one of the shared hostile payloads inserted: the kit's own
  (`autograder/authoring/hostile_payloads/`: exit at import, infinite loop, memory bomb,
  orphan process, socket, file hunter, an empty array of huge axes), and any the course adds
  or replaces in `assignments/shared/hostile/PAYLOAD.py`.

Each entry says `score`, the parts it loses (`lost`, default none) and what its feedback says
(`says`: fragments some test that lost points names, in its message or hint). `autograder
samples --scores` grades every sample and prints its score beside the entry's; `--update`
writes the scores and parts lost measured into the file for the author to review. A payload file is
Python that the trusted side only parses: its docstring is the summary, `WHERE = "import"` or
`"function"` places it, `SAYS = [...]` adds to every sample made with it, `PRINTS = [...]` is
what its output must hold, and `LISTENS_ON = PORT` names a port on which a listener must see no
connection.
"""

from __future__ import annotations

import ast
import sys
import textwrap
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autograder.authoring.solutions import solution_source
from autograder.authoring.variants import replaced_function
from autograder.course.assignment import Assignment
from autograder.errors import ConfigError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

EXPECTED_FILE = "expected.toml"
HOSTILE_FOLDER = "hostile"
KIT_PAYLOADS = Path(__file__).resolve().parent / "hostile_payloads"
MAX_FILE_BYTES = 1_000_000
"""expected.toml and payload files are instructor files, but still read with a bound."""
MAX_NAME_BYTES = 251
"""With ".py", a file name of at most 255 bytes, the limit of common file systems."""
_KEYS = {
    "score",
    "lost",
    "says",
    "misconception",
    "hostile",
    "function",
    "reference",
    "on_reference",
}


@dataclass(frozen=True)
class Payload:
    """A hostile snippet of the course's shared set, placed at import or in one function."""

    name: str
    summary: str
    code: str
    where: str
    says: tuple[str, ...] = ()
    prints: tuple[str, ...] = ()
    listens_on: int | None = None


@dataclass(frozen=True)
class Sample:
    """One submission of the sample class, with the score it must get."""

    name: str
    source: str
    score: float
    lost: frozenset[str]
    says: tuple[str, ...]
    made_from: str
    """"committed", "misconception ENTRY" or "hostile PAYLOAD"."""
    prints: tuple[str, ...] = ()
    listens_on: int | None = None
    hint: str | None = None
    """A catalogue entry's summary, which every failed test's hint names."""


def sample_class(assignment: Assignment) -> list[Sample]:
    """Every sample of the assignment, committed and generated, in expected.toml's order.

    Raises ConfigError naming expected.toml and the entry for a sample that cannot be built:
    an unknown key, catalogue entry, payload or function, a committed file that is missing, or
    a committed file expected.toml does not list.
    """
    folder = assignment.sample_class
    path = folder / EXPECTED_FILE
    where = assignment.relative(path)
    table = _read_toml(path, where)
    committed = {p.stem: p for p in folder.glob("*.py")}
    unlisted = sorted(set(committed) - set(table))
    if unlisted:
        raise ConfigError(f"{where}: no entry for the committed sample(s) {', '.join(unlisted)}")
    reference = assignment.reference
    solution = solution_source(reference.read_text(encoding="utf-8"), origin=str(reference))
    catalogue = {m.name: m for m in assignment.load_catalogue()} if table else {}
    payloads = _payloads(KIT_PAYLOADS) | _payloads(assignment.shared_folder / HOSTILE_FOLDER)
    samples = []
    for name, entry in table.items():
        if not isinstance(entry, Mapping):
            raise ConfigError(f"{where}: [{name}] must be a table")
        samples.append(
            _sample(name, entry, f"{where} [{name}]", committed, solution, catalogue, payloads)
        )
    return samples


def write_sample_class(assignment: Assignment, folder: Path) -> list[Path]:
    """Write every sample as `folder/NAME.py` (the folder is created); return the paths."""
    return write_samples(sample_class(assignment), folder)


def write_samples(samples: Iterable[Sample], folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for sample in samples:
        path = folder / f"{sample.name}.py"
        path.write_text(sample.source, encoding="utf-8")
        paths.append(path)
    return paths


def _sample(
    name: str,
    entry: Mapping[str, Any],
    where: str,
    committed: Mapping[str, Path],
    solution: str,
    catalogue: Mapping[str, Any],
    payloads: Mapping[str, Payload],
) -> Sample:
    if not _plain_file_stem(name):
        raise ConfigError(
            f"{where}: a sample's name is a file name without its .py: no slash, no NUL or "
            f"control character, no leading dot, at most {MAX_NAME_BYTES} bytes in UTF-8"
        )
    unknown = sorted(set(entry) - _KEYS)
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {', '.join(unknown)}; allowed: {sorted(_KEYS)}")
    score = entry.get("score")
    if isinstance(score, bool) or not isinstance(score, (int, float)):
        raise ConfigError(f"{where}: score must be a number")
    lost, says = _strings(entry, "lost", where), _strings(entry, "says", where)
    for flag in ("reference", "on_reference"):
        if flag in entry and entry[flag] is not True:
            raise ConfigError(f"{where}: {flag} is `true` or absent")
    kinds = [key for key in ("misconception", "hostile", "reference") if key in entry]
    if len(kinds) > 1:
        raise ConfigError(
            f"{where}: a sample is one of a misconception, a hostile payload or the reference"
        )
    if not kinds:
        if name not in committed:
            raise ConfigError(
                f"{where}: no file sample_class/{name}.py; a generated sample names its "
                "`misconception` or its `hostile` payload, or is the `reference`"
            )
        source = committed[name].read_text(encoding="utf-8")
        if entry.get("on_reference"):
            header = _header(f"the reference with {name}.py's definitions in place of its own.")
            source = f"{header}{solution}\n\n# {name}.py\n{source}"
            return Sample(name, source, float(score), lost, says, "committed on the reference")
        return Sample(name, source, float(score), lost, says, "committed")
    if "on_reference" in entry:
        raise ConfigError(f"{where}: on_reference goes with a committed file only")
    if name in committed:
        raise ConfigError(f"{where}: both a committed file and a generated sample")
    kind = kinds[0]
    chosen = entry[kind]
    if kind == "reference":
        header = _header("the reference solution, as it is.")
        return Sample(name, header + solution, float(score), lost, says, "reference")
    if kind == "misconception":
        if chosen not in catalogue:
            raise ConfigError(f"{where}: the catalogue has no entry {chosen!r}")
        misconception = catalogue[chosen]
        header = _header(f"made from the catalogue: {misconception.summary}.")
        source = header + solution + replaced_function(misconception)
        made_from = f"misconception {chosen}"
        summary = misconception.summary
        return Sample(name, source, float(score), lost, says, made_from, hint=summary)
    if chosen not in payloads:
        known = ", ".join(sorted(payloads)) or "none"
        raise ConfigError(f"{where}: no hostile payload {chosen!r} (there are: {known})")
    payload = payloads[chosen]
    source = _with_payload(solution, payload, entry.get("function"), where)
    made_from = f"hostile {chosen}"
    says += payload.says
    return Sample(
        name, source, float(score), lost, says, made_from, payload.prints, payload.listens_on
    )


def _plain_file_stem(name: str) -> bool:
    """Whether `name` + ".py" is one file inside the sample folder, on every system."""
    try:
        size = len(name.encode("utf-8"))
    except UnicodeEncodeError:  # a lone surrogate
        return False
    return (
        0 < size <= MAX_NAME_BYTES
        and not name.startswith(".")
        and not any(c in name for c in "/\\")
        and all(c.isprintable() for c in name)
    )


def _with_payload(solution: str, payload: Payload, function: object, where: str) -> str:
    lines = solution.splitlines(keepends=True)
    tree = ast.parse(solution)
    if payload.where == "import":
        if function is not None:
            raise ConfigError(f"{where}: payload {payload.name!r} runs at import; drop `function`")
        imports = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
        at = (imports[-1].end_lineno or 0) if imports else 0
        inserted = f"\n{payload.code}\n"
        header = _header(f"hostile: {payload.summary}")
    else:
        found = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == function]
        if not found:
            raise ConfigError(
                f"{where}: payload {payload.name!r} goes in a function: `function` must name "
                "one of the reference's functions"
            )
        body = found[0].body
        first = body[1] if len(body) > 1 and _is_docstring(body[0]) else body[0]
        at = first.lineno - 1
        inserted = textwrap.indent(payload.code + "\n", " " * first.col_offset)
        header = _header(f"hostile, in {function}: {payload.summary}")
    return header + "".join(lines[:at]) + inserted + "".join(lines[at:])


def _header(summary: str) -> str:
    """The generated file's first comment; its first two lines hold no text of the summary's,
    which could read as a PEP 263 coding declaration ("…_encoding: never…")."""
    return f"# Sample submission made by the kit.\n#\n# {summary}\n"


def _is_docstring(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def _payloads(folder: Path) -> dict[str, Payload]:
    """The course's shared payloads, parsed (never run)."""
    payloads = {}
    for path in sorted(folder.glob("*.py")) if folder.is_dir() else ():
        payloads[path.stem] = _payload(path)
    return payloads


def _payload(path: Path) -> Payload:
    text = _read_bounded(path, str(path))
    try:
        tree = ast.parse(text, filename=str(path))
    except SyntaxError as error:
        raise ConfigError(f"{path}:{error.lineno}: not valid Python ({error.msg})") from None
    summary = (ast.get_docstring(tree) or "").strip()
    settings: dict[str, Any] = {}
    code_lines = text.splitlines()
    kept = set(range(len(code_lines)))
    for node in tree.body:
        setting = _setting(node, path)
        if setting is not None or (node is tree.body[0] and _is_docstring(node)):
            kept -= set(range(node.lineno - 1, node.end_lineno or node.lineno))
            if setting is not None:
                settings[setting[0]] = setting[1]
    where = settings.get("WHERE")
    if not summary or where not in ("import", "function"):
        raise ConfigError(
            f"{path}: a payload has a docstring (its summary) and WHERE = 'import' or 'function'"
        )
    says, prints = settings.get("SAYS", []), settings.get("PRINTS", [])
    listens_on = settings.get("LISTENS_ON")
    for key, value in (("SAYS", says), ("PRINTS", prints)):
        if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
            raise ConfigError(f"{path}: {key} must be a list of strings")
    if listens_on is not None and not isinstance(listens_on, int):
        raise ConfigError(f"{path}: LISTENS_ON must be a port number")
    code = "\n".join(code_lines[i] for i in sorted(kept)).strip("\n")
    first_paragraph = " ".join(summary.split("\n\n")[0].split())
    return Payload(path.stem, first_paragraph, code, where, tuple(says), tuple(prints), listens_on)


def _setting(node: ast.stmt, path: Path) -> tuple[str, Any] | None:
    if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
        return None
    target = node.targets[0]
    if not isinstance(target, ast.Name) or target.id not in (
        "WHERE",
        "SAYS",
        "PRINTS",
        "LISTENS_ON",
    ):
        return None
    try:
        return target.id, ast.literal_eval(node.value)
    except ValueError:
        raise ConfigError(f"{path}:{node.lineno}: {target.id} must be a literal value") from None


def _strings(entry: Mapping[str, Any], key: str, where: str) -> Any:
    value = entry.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"{where}: {key} must be a list of strings")
    return frozenset(value) if key == "lost" else tuple(value)


def _read_toml(path: Path, where: str) -> dict[str, Any]:
    if not path.is_file():
        return {}
    try:
        table: dict[str, Any] = tomllib.loads(_read_bounded(path, where))
        return table
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{where}: not valid TOML ({error})") from None


def _read_bounded(path: Path, where: str) -> str:
    with path.open("rb") as file:
        data = file.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise ConfigError(f"{where}: larger than {MAX_FILE_BYTES} bytes")
    return data.decode("utf-8")
