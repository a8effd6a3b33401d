"""The sample class an assignment describes in sample_class/expected.toml: committed samples,
samples made from the catalogue and from the shared hostile payloads, and every way a bad
expected.toml or payload is refused with the file and the entry named."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from autograder.authoring.sample_class import (
    EXPECTED_FILE,
    KIT_PAYLOADS,
    MAX_FILE_BYTES,
    sample_class,
    write_sample_class,
)
from autograder.course.course import Course
from autograder.errors import ConfigError

PEP_263 = re.compile(r"^[ \t\f]*#.*?coding[:=][ \t]*([-_.a-zA-Z0-9]+)")
"""Python reads a file's encoding from a comment like this on its first two lines."""


def expect(course: Course, text: str) -> Path:
    path = course.assignment("vectors").sample_class / EXPECTED_FILE
    listed = "".join(f'["{p.stem}"]\nscore = 1\n' for p in path.parent.glob("*.py"))
    path.write_text(listed + text, encoding="utf-8")
    return path


def test_a_catalogued_mistake_is_the_reference_with_its_function(course_copy: Course) -> None:
    expect(course_copy, '["bug_sum"]\nmisconception = "normalise_by_sum"\nscore = 6\n'
                        'lost = ["numeric"]\nsays = ["by the sum"]\n')  # fmt: skip
    samples = {s.name: s for s in sample_class(course_copy.assignment("vectors"))}
    made = samples["bug_sum"]
    assert made.made_from == "misconception normalise_by_sum"
    assert made.score == 6 and made.lost == {"numeric"} and made.says == ("by the sum",)
    tree = ast.parse(made.source)
    normalise = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "normalise"]
    assert len(normalise) == 2  # the reference's, then the entry's, which wins
    assert "v.sum()" in ast.get_source_segment(made.source, normalise[-1])  # type: ignore[operator]
    assert "BEGIN SOLUTION" not in made.source
    assert made.hint is not None
    assert samples["correct_vectorised"].made_from == "committed"


def test_a_payload_goes_in_its_function_or_after_the_imports(course_copy: Course) -> None:
    loops = '["loops"]\nhostile = "infinite_loop"\nfunction = "normalise"\nscore = 5\n'
    expect(course_copy, loops + '["leaves"]\nhostile = "exit_at_import"\nscore = 0\n')
    samples = {s.name: s for s in sample_class(course_copy.assignment("vectors"))}
    loops = ast.parse(samples["loops"].source)
    normalise = next(
        n for n in loops.body if isinstance(n, ast.FunctionDef) and n.name == "normalise"
    )
    assert ast.get_docstring(normalise)  # the docstring stays first
    assert isinstance(normalise.body[1], ast.While)
    assert "did not return within" in samples["loops"].says
    leaves = ast.parse(samples["leaves"].source)
    imports = [i for i, n in enumerate(leaves.body) if isinstance(n, (ast.Import, ast.ImportFrom))]
    exits = next(i for i, n in enumerate(leaves.body) if "_exit" in ast.unparse(n))
    assert exits > max(imports[:-1]) and samples["leaves"].says == ("while importing",)


def test_no_generated_header_reads_as_a_coding_line(course_copy: Course) -> None:
    """A summary such as "normalise_encoding: never returns" on line 1 or 2 would declare the
    encoding "never" (PEP 263), and the file would not even be read."""
    expect(course_copy, '["loops"]\nhostile = "infinite_loop"\nfunction = "normalise"\nscore = 5\n')
    for sample in sample_class(course_copy.assignment("vectors")):
        if sample.made_from != "committed":
            assert not any(PEP_263.match(line) for line in sample.source.splitlines()[:2])


def test_the_course_adds_and_replaces_payloads(course_copy: Course) -> None:
    folder = course_copy.root / "assignments" / "shared" / "hostile"
    folder.mkdir(parents=True)
    sleeps = 'WHERE = "function"\nSAYS = ["asleep"]\n\nimport time\ntime.sleep(99)\n'
    (folder / "infinite_loop.py").write_text('"""sleeps instead."""\n\n' + sleeps)
    (folder / "chatty.py").write_text(
        '"""prints."""\nWHERE = "import"\nPRINTS = ["hi"]\nprint("hi")\n'
    )
    expect(course_copy, '["a"]\nhostile = "infinite_loop"\nfunction = "scale"\nscore = 0\n'
                        '["b"]\nhostile = "chatty"\nscore = 10\n')  # fmt: skip
    samples = {s.name: s for s in sample_class(course_copy.assignment("vectors"))}
    assert "time.sleep(99)" in samples["a"].source and "while True" not in samples["a"].source
    assert samples["a"].says == ("asleep",) and samples["b"].prints == ("hi",)
    assert {p.stem for p in KIT_PAYLOADS.glob("*.py")} >= {"exit_at_import", "socket", "orphan"}


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('["x"]\nscore = 1\nmisconception = "no_such_entry"\n', "the catalogue has no entry"),
        ('["x"]\nscore = 1\nhostile = "no_such"\n', "no hostile payload 'no_such'"),
        ('["x"]\nscore = 1\nhostile = "infinite_loop"\n', "`function` must name"),
        ('["x"]\nscore = 1\nhostile = "infinite_loop"\nfunction = "nowhere"\n', "`function`"),
        ('["x"]\nscore = 1\nhostile = "socket"\nfunction = "scale"\n', "runs at import"),
        ('["x"]\nscore = 1\n', "no file sample_class/x.py"),
        ('["x"]\nscore = "all"\nhostile = "socket"\n', "score must be a number"),
        ('["x"]\nscore = true\nhostile = "socket"\n', "score must be a number"),
        ('["x"]\nscore = 1\nlost = "numeric"\nhostile = "socket"\n', "lost must be a list"),
        ('["x"]\nscore = 1\npoints = 1\nhostile = "socket"\n', "unknown key(s) points"),
        ('["x"]\nscore = 1\nhostile = "socket"\nmisconception = "scale_adds"\n', "one of a"),
        ('["correct_vectorised"]\nhostile = "socket"\nscore = 1\n', "already"),
        ('["x"\n', "not valid TOML"),
    ],
)
def test_a_bad_entry_is_refused_naming_it(course_copy: Course, text: str, problem: str) -> None:
    path = expect(course_copy, text)
    if problem == "already":  # the committed sample listed twice: TOML itself refuses
        problem = "not valid TOML"
    with pytest.raises(ConfigError) as raised:
        sample_class(course_copy.assignment("vectors"))
    assert problem in str(raised.value) and path.name in str(raised.value)


def test_an_entry_that_is_not_a_table_is_refused(course_copy: Course) -> None:
    path = course_copy.assignment("vectors").sample_class / EXPECTED_FILE
    rest = '["bug_normalise_by_sum"]\nscore = 6\n["hostile_infinite_loop"]\nscore = 5\n'
    path.write_text("correct_vectorised = 10\n" + rest, "utf-8")
    with pytest.raises(ConfigError, match=re.escape("[correct_vectorised] must be a table")):
        sample_class(course_copy.assignment("vectors"))


def test_a_committed_sample_must_be_listed(course_copy: Course) -> None:
    path = course_copy.assignment("vectors").sample_class / EXPECTED_FILE
    path.write_text('["correct_vectorised"]\nscore = 10\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="no entry for the committed sample"):
        sample_class(course_copy.assignment("vectors"))


def test_oversized_and_malformed_payloads_are_refused(course_copy: Course) -> None:
    folder = course_copy.root / "assignments" / "shared" / "hostile"
    folder.mkdir(parents=True)
    expect(course_copy, "")
    for text, problem in [
        ("#" * (MAX_FILE_BYTES + 1), "larger than"),
        ("def (:\n", "not valid Python"),
        ('"""no place."""\nprint(1)\n', "WHERE"),
        ('WHERE = "import"\nprint(1)\n', "docstring"),
        ('"""x."""\nWHERE = "import"\nSAYS = "one"\n', "SAYS must be a list"),
        ('"""x."""\nWHERE = "import"\nLISTENS_ON = "80"\n', "LISTENS_ON must be a port"),
        ('"""x."""\nWHERE = print("run?")\n', "must be a literal"),
    ]:
        (folder / "bad.py").write_text(text, encoding="utf-8")
        with pytest.raises(ConfigError, match=re.escape(problem)):
            sample_class(course_copy.assignment("vectors"))


def test_the_whole_class_is_written_under_odd_names(course_copy: Course, tmp_path: Path) -> None:
    long_name = "a" + "語" * 83 + "b"
    expect(course_copy, f'["{long_name}"]\nhostile = "orphan"\nscore = 10\n'
                        '["Zoë Ångström"]\nhostile = "socket"\nscore = 10\n')  # fmt: skip
    paths = write_sample_class(course_copy.assignment("vectors"), tmp_path / "class")
    assert {p.stem for p in paths} >= {long_name, "Zoë Ångström", "correct_vectorised"}
    assert all(ast.parse(p.read_text(encoding="utf-8")) for p in paths)


def test_without_expected_toml_there_is_no_sample_class(course_copy: Course) -> None:
    for path in course_copy.assignment("series").sample_class.iterdir():
        path.unlink()
    assert sample_class(course_copy.assignment("series")) == []


def test_the_reference_itself_and_a_file_on_the_reference(course_copy: Course) -> None:
    vectors = course_copy.assignment("vectors")
    (vectors.sample_class / "short.py").write_text("def scale(x, c):\n    return x * c\n")
    expect(course_copy, '["as_is"]\nreference = true\nscore = 10\n')
    path = vectors.sample_class / EXPECTED_FILE
    text = path.read_text(encoding="utf-8").replace(
        '["short"]\nscore = 1\n', '["short"]\non_reference = true\nscore = 10\n'
    )
    path.write_text(text, encoding="utf-8")
    samples = {s.name: s for s in sample_class(vectors)}
    assert samples["as_is"].made_from == "reference" and "def normalise(" in samples["as_is"].source
    short = samples["short"]
    assert short.made_from == "committed on the reference"
    tree = ast.parse(short.source)
    scales = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "scale"]
    assert len(scales) == 2 and "return x * c" in short.source.split("def scale")[-1]
    for bad, problem in [
        ('["as_is2"]\nreference = false\nscore = 1\n', "reference is `true` or absent"),
        ('["x"]\nreference = true\nhostile = "socket"\nscore = 1\n', "one of a misconception"),
        ('["x"]\non_reference = true\nhostile = "socket"\nscore = 1\n', "a committed file only"),
    ]:
        expect(course_copy, bad)
        with pytest.raises(ConfigError, match=re.escape(problem)):
            sample_class(vectors)


@pytest.mark.parametrize(
    "name",
    ["../escape", "a/b", "a\\\\b", ".hidden", "tab\\there", "nul\\u0000", "a" * 252, "語" * 84],
)
def test_a_sample_name_that_is_not_one_file_is_refused(course_copy: Course, name: str) -> None:
    """expected.toml's table names become file names: none may leave the sample folder or
    exceed what a file system allows."""
    expect(course_copy, f'["{name}"]\nhostile = "socket"\nscore = 1\n')
    with pytest.raises(ConfigError, match="a sample's name is a file name"):
        sample_class(course_copy.assignment("vectors"))
