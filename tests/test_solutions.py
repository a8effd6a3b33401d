"""Solution regions become stubs; malformed markers are errors that name the line."""

from __future__ import annotations

import pytest

from autograder.authoring.solutions import has_solution_regions, strip_solutions
from autograder.errors import ConfigError

FUNCTION = '''\
def f(x):
    """Double x."""
    # BEGIN SOLUTION
    y = x * 2
    return y
    # END SOLUTION


def g():
    return 1
'''


def test_function_region_becomes_not_implemented() -> None:
    stubbed = strip_solutions(FUNCTION, origin="ref.py")
    assert "x * 2" not in stubbed and "BEGIN SOLUTION" not in stubbed
    assert '    """Double x."""\n    # YOUR CODE HERE\n    raise NotImplementedError()\n' in stubbed
    assert "def g():\n    return 1\n" in stubbed  # code outside regions is kept as it is
    namespace: dict[str, object] = {}
    exec(compile(stubbed, "stub.py", "exec"), namespace)  # the instructor's own test text
    with pytest.raises(NotImplementedError):
        namespace["f"](3)  # type: ignore[operator]


def test_nbgrader_spelling_is_accepted() -> None:
    source = "def f():\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION\n"
    assert "return 1" not in strip_solutions(source, origin="ref.py")


def test_module_level_constants_keep_their_names_with_empty_values() -> None:
    source = (
        "# BEGIN SOLUTION\n"
        "PROOF: list[tuple[str, str]] = [('a', 'b')]\n"
        "NAME = 'secret'\n"
        "TABLE = {1: 2}\n"
        "PAIR = (1, 2)\n"
        "COUNT = 3\n"
        "# END SOLUTION\n"
    )
    assert strip_solutions(source, origin="ref.py") == (
        'PROOF: list[tuple[str, str]] = []\nNAME = ""\nTABLE = {}\nPAIR = ()\nCOUNT = None\n'
    )


def test_comment_only_module_region_disappears() -> None:
    source = "X = 1\n# BEGIN SOLUTION\n# a note for instructors\n# END SOLUTION\nY = 2\n"
    assert strip_solutions(source, origin="ref.py") == "X = 1\nY = 2\n"


@pytest.mark.parametrize(
    ("source", "complaint"),
    [
        ("def f():\n    # BEGIN SOLUTION\n    return 1\n", "ref.py:2: BEGIN SOLUTION has no END"),
        ("def f():\n    return 1\n    # END SOLUTION\n", "ref.py:3: END SOLUTION without"),
        (
            "# BEGIN SOLUTION\n# BEGIN SOLUTION\n# END SOLUTION\n# END SOLUTION\n",
            "ref.py:2: BEGIN SOLUTION inside the region opened at line 1",
        ),
        (
            "def f():\n    # BEGIN SOLUTION\n    return 1\n# END SOLUTION\n",
            "ref.py:4: END SOLUTION is indented differently",
        ),
        (
            "# BEGIN SOLUTION\ndef helper():\n    return 1\n# END SOLUTION\n",
            "ref.py:1: a module-level solution region may hold only assignments",
        ),
        (
            "if True:\n    # BEGIN SOLUTION\n    x = 1\n    # END SOLUTION\nelse:\n    pass\n",
            None,
        ),
    ],
)
def test_malformed_regions_name_the_line(source: str, complaint: str | None) -> None:
    if complaint is None:  # a region that is the whole body of a block still stubs validly
        assert "raise NotImplementedError()" in strip_solutions(source, origin="ref.py")
        return
    with pytest.raises(ConfigError) as error:
        strip_solutions(source, origin="ref.py")
    assert complaint in str(error.value)


def test_region_that_breaks_the_syntax_is_refused() -> None:
    source = "x = [\n    # BEGIN SOLUTION\n    1,\n    # END SOLUTION\n]\n"
    with pytest.raises(ConfigError, match="the stubbed file is not valid Python"):
        strip_solutions(source, origin="ref.py")


def test_has_solution_regions() -> None:
    assert has_solution_regions(FUNCTION)
    assert not has_solution_regions("def f():\n    return 1\n")
