"""The impostors: validate proves that no test credits garbage of the right shape (the constant
impostor) or an answer that takes no work (the trivial impostors)."""

from __future__ import annotations

import types

import numpy as np
import pytest
import sympy as sp

from autograder.authoring.impostor import IMPOSTOR_NAME, graded_names, impostor_source
from autograder.authoring.solutions import solution_source
from autograder.authoring.trivial_impostors import (
    EVERY_FUNCTION,
    IDENTITY,
    RETURNS_INPUT,
    load_declaration,
    trivial_impostors,
)
from autograder.authoring.validate import validate
from autograder.course.assignment import IMPOSTORS_FILE, Assignment
from autograder.course.course import Course
from autograder.errors import ConfigError


def impostor_module(assignment: Assignment) -> types.ModuleType:
    source = solution_source(assignment.reference.read_text(encoding="utf-8"), origin="ref")
    module = types.ModuleType("impostor")
    code = compile(impostor_source(source, assignment.load_reference()), "impostor", "exec")
    exec(code, module.__dict__)  # trusted: the fixture course's own reference, wrapped
    return module


def test_every_public_function_and_constant_is_replaced(assignment: Assignment) -> None:
    reference = assignment.load_reference()
    assert graded_names(reference) == [
        "PYTHAGORAS_PROOF",
        "cosine",
        "normalise",
        "scale",
        "square_sum",
    ]
    impostor = impostor_module(assignment)
    np.testing.assert_array_equal(impostor.scale(np.arange(3.0), 2), [0.5, 0.5, 0.5])
    assert impostor.scale(np.eye(2), 5).tolist() == [[1.0, 0.0], [0.0, 1.0]]  # square: I
    assert impostor.normalise(np.zeros(3)).shape == ()  # the reference raises: no exception
    assert impostor.PYTHAGORAS_PROOF == [("", "")] * 3
    assert str(impostor.square_sum(1, 2)) == "1/2"


def test_validate_grades_the_impostor_to_zero(assignment: Assignment) -> None:
    (verdict,) = validate(assignment, only=[IMPOSTOR_NAME])
    assert verdict.name == f"impostor: {IMPOSTOR_NAME}" and verdict.expected == "zero in every part"
    assert verdict.score == 0 and verdict.ok


def test_a_test_that_credits_the_shape_alone_is_named(course_copy: Course) -> None:
    vectors = course_copy.assignment("vectors")
    path = vectors.public_tests / "test_numeric.py"
    weak = (
        'def test_scale(student, tolerance):\n    """scale keeps the shape"""\n'
        "    assert student.scale(np.array([1.0, 2.0]), 3).shape == (2,)\n"
    )
    path.write_text(path.read_text().replace("def test_scale(", f"{weak}\n\ndef _old_scale("))
    (verdict,) = validate(vectors, only=[IMPOSTOR_NAME])
    assert not verdict.ok and verdict.score == 1
    assert verdict.problem == (
        "1 test(s) credit a constant: public_tests/test_numeric.py::test_scale"
    )


# -- the trivial impostors (trivial_impostors.py) ----------------------------------------------

DECLARATION = """
import numpy as np

INGREDIENT = "the norm"


def unnormalised(v):
    return np.asarray(v, dtype=np.float64)


def cosine_of_the_module(u, v):
    return float(normalise(u) @ normalise(v))  # noqa: F821 - the module's normalise


TRIVIAL = {"normalise": unnormalised, "cosine": cosine_of_the_module}
"""


def trivial_modules(assignment: Assignment) -> dict[str, types.ModuleType]:
    """Every trivial impostor of `assignment`, by its validation row's name, imported."""
    source = solution_source(assignment.reference.read_text(encoding="utf-8"), origin="ref")
    declaration = load_declaration(assignment)
    modules = {}
    for impostor in trivial_impostors(source, assignment.load_reference(), declaration):
        module = types.ModuleType(impostor.file_stem)
        exec(compile(impostor.source, impostor.name, "exec"), module.__dict__)  # trusted: ours
        modules[impostor.name] = module
    return modules


def test_each_kind_fakes_one_function_at_a_time_and_all_at_once(assignment: Assignment) -> None:
    functions = ["cosine", "normalise", "scale", "square_sum"]
    assert list(trivial_modules(assignment)) == [
        *(f"impostor: {RETURNS_INPUT}: {name}" for name in functions),
        f"impostor: {RETURNS_INPUT}: {EVERY_FUNCTION}",
        *(f"impostor: {IDENTITY}: {name}" for name in functions),
        f"impostor: {IDENTITY}: {EVERY_FUNCTION}",
    ]  # the fixture's vectors declares no impostors.py: no third kind


def test_returns_its_input_returns_the_argument_shaped_as_the_answer(
    assignment: Assignment,
) -> None:
    impostor = trivial_modules(assignment)[f"impostor: {RETURNS_INPUT}: scale"]
    given = np.array([1, 2, 3])
    faked = impostor.scale(given, 4)
    assert faked.tolist() == [1.0, 2.0, 3.0] and faked.dtype == np.float64  # the answer's dtype
    assert faked is not given
    assert impostor.normalise(np.array([3.0, 4.0])).tolist() == [0.6, 0.8]  # the reference
    every = trivial_modules(assignment)[f"impostor: {RETURNS_INPUT}: {EVERY_FUNCTION}"]
    assert every.normalise(np.zeros(3)).tolist() == [0.0, 0.0, 0.0]  # refused: checks nothing
    with pytest.raises(NotImplementedError, match="type and shape"):
        every.cosine(np.array([1.0, 0.0]), np.array([1.0, 1.0]))  # a float: no argument is one
    x, y = sp.symbols("x y")
    assert every.square_sum(x, y) == x


def test_identity_fakes_square_answers_from_the_reference_kept_whole(
    assignment: Assignment,
) -> None:
    every = trivial_modules(assignment)[f"impostor: {IDENTITY}: {EVERY_FUNCTION}"]
    stack = every.scale(np.ones((2, 3, 3), dtype=np.int64), 2)
    assert stack.dtype == np.float64 and stack.tolist() == [np.eye(3).tolist()] * 2  # the answer's
    with pytest.raises(NotImplementedError, match="square"):
        every.normalise(np.array([3.0, 4.0]))
    # each impostor learns the answer's shape from the reference, whose cosine calls the
    # reference's normalise, not the impostor that replaced it in the module
    assert every._impostor_pristine["cosine"](np.array([1.0, 0]), np.array([0.0, 1])) == 0.0


def test_the_declared_kind_calls_the_reference_alone_and_the_impostors_together(
    course_copy: Course,
) -> None:
    vectors = course_copy.assignment("vectors")
    (vectors.folder / IMPOSTORS_FILE).write_text(DECLARATION, encoding="utf-8")
    modules = trivial_modules(vectors)
    u, v = np.array([3.0, 0.0]), np.array([4.0, 4.0])
    alone = modules["impostor: without the norm: cosine"]
    assert alone.cosine(u, v) == pytest.approx(2**-0.5)  # the reference's normalise
    together = modules[f"impostor: without the norm: {EVERY_FUNCTION}"]
    assert together.cosine(u, v) == 12.0  # the impostor's normalise: 3·4
    assert together.normalise(u).tolist() == [3.0, 0.0]


def test_a_declaration_naming_no_public_function_is_refused(course_copy: Course) -> None:
    vectors = course_copy.assignment("vectors")
    broken = DECLARATION.replace('"cosine": cosine', '"cosines": cosine')
    (vectors.folder / IMPOSTORS_FILE).write_text(broken, encoding="utf-8")
    with pytest.raises(ConfigError, match=r"TRIVIAL names no public function.*cosines"):
        load_declaration(vectors)


def test_validate_names_a_law_test_that_the_identity_satisfies(course_copy: Course) -> None:
    vectors = course_copy.assignment("vectors")
    path = vectors.public_tests / "test_numeric.py"
    law = (
        "def test_scale(student, tolerance):\n"
        '    """scale(A, 2) @ scale(B, 3) = scale(A @ B, 6): scaling commutes with products"""\n'
        "    A, B = np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[0.0, 1.0], [1.0, 1.0]])\n"
        "    assert_close(student.scale(A, 2) @ student.scale(B, 3), student.scale(A @ B, 6),\n"
        '                 what="scale(A, 2) @ scale(B, 3)")\n'
    )
    path.write_text(path.read_text().replace("def test_scale(", f"{law}\n\ndef _old_scale("))
    verdicts = {v.name: v for v in validate(vectors, only=[IDENTITY])}
    assert len(verdicts) == 5  # four functions one at a time, and all at once
    for name in (f"impostor: {IDENTITY}: scale", f"impostor: {IDENTITY}: {EVERY_FUNCTION}"):
        assert not verdicts[name].ok and verdicts[name].score == 1
        assert verdicts[name].problem == (
            f"1 test(s) credit {name.removeprefix('impostor: ')}: "
            "public_tests/test_numeric.py::test_scale"
        )
    assert verdicts[f"impostor: {IDENTITY}: normalise"].ok


def test_validate_names_a_declared_trivial_function_that_earns_points(
    course_copy: Course,
) -> None:
    vectors = course_copy.assignment("vectors")
    (vectors.folder / IMPOSTORS_FILE).write_text(DECLARATION, encoding="utf-8")
    verdicts = {v.name: v for v in validate(vectors, only=["without the norm"])}
    assert verdicts["impostor: without the norm: normalise"].ok
    cosine = verdicts["impostor: without the norm: cosine"]  # the reference's, renamed: right
    assert not cosine.ok and cosine.problem is not None and "test_cosine" in cosine.problem
    assert verdicts[f"impostor: without the norm: {EVERY_FUNCTION}"].ok
