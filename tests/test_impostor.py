"""The constant impostor: validate proves that no test credits garbage of the right shape."""

from __future__ import annotations

import types

import numpy as np

from autograder.authoring.impostor import IMPOSTOR_NAME, graded_names, impostor_source
from autograder.authoring.solutions import solution_source
from autograder.authoring.validate import validate
from autograder.course.assignment import Assignment
from autograder.course.course import Course


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
