"""Diagnosis names a catalogued mistake; validate proves every mistake is caught and named."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest
import sympy as sp

from autograder.authoring.validate import validate
from autograder.course.assignment import Assignment
from autograder.course.course import Course
from autograder.grading.diagnose import Call, Misconception, describe, diagnose


@pytest.fixture(scope="module")
def catalogue(assignment: Assignment) -> tuple[Misconception, ...]:
    return assignment.load_catalogue()


def names(found: list[Misconception]) -> set[str]:
    return {m.name for m in found}


def test_a_matching_variant_is_named(
    catalogue: tuple[Misconception, ...], reference: ModuleType
) -> None:
    v = np.array([3.0, -4.0])
    found = diagnose([Call("normalise", (v,), {}, v / v.sum())], catalogue, reference)
    assert names(found) == {"normalise_by_sum"}
    assert describe(found) == f"{found[0].summary}: {found[0].hint}"


def test_a_correct_answer_is_never_diagnosed(
    catalogue: tuple[Misconception, ...], reference: ModuleType
) -> None:
    v = np.array([1.0, 2.0, 2.0])
    calls = [
        Call("normalise", (v,), {}, reference.normalise(v)),
        Call("scale", (v, 2.0), {}, reference.scale(v, 2.0)),
    ]
    assert diagnose(calls, catalogue, reference) == []


def test_variants_with_the_same_numbers_share_a_hint(
    catalogue: tuple[Misconception, ...], reference: ModuleType
) -> None:
    v = np.array([3.0, 4.0])  # positive entries: the sum and the L1 norm agree
    found = diagnose([Call("normalise", (v,), {}, v / 7.0)], catalogue, reference)
    assert names(found) == {"normalise_by_sum", "normalise_by_l1_norm"}
    assert (describe(found) or "").startswith("your results match 2 known mistakes")


def test_a_mistake_shows_through_the_functions_that_use_it(
    catalogue: tuple[Misconception, ...], reference: ModuleType
) -> None:
    u, v = np.array([1.0, 2.0]), np.array([3.0, -1.0])
    wrong = float((u / u.sum()) @ (v / v.sum()))  # cosine through a normalise by the sum
    found = diagnose([Call("cosine", (u, v), {}, wrong)], catalogue, reference)
    assert names(found) == {"normalise_by_sum"}
    assert diagnose([Call("scale", (u, 2.0), {}, u * 3.0)], catalogue, reference) == []


def test_mutation_constants_and_symbols(
    catalogue: tuple[Misconception, ...], reference: ModuleType
) -> None:
    v = np.array([3.0, 4.0])
    mutated = Call("normalise", (v,), {}, reference.normalise(v), modified=(0,))
    assert names(diagnose([mutated], catalogue, reference)) == {"normalise_in_place"}
    one_step = [("(sin(a)**2 + cos(a)**2)*b", "statement"), ("b", "Pythagoras")]
    constant = Call("PYTHAGORAS_PROOF", (), {}, one_step)
    assert names(diagnose([constant], catalogue, reference)) == {"pythagoras_in_one_step"}
    a, b = sp.symbols("a b", real=True)
    squares = Call("square_sum", (a, b), {}, a**2 + b**2)
    assert names(diagnose([squares], catalogue, reference)) == {"square_without_cross_term"}


def test_validate_names_a_variant_no_test_catches_any_more(course_copy: Course) -> None:
    """Neuter the only test that catches a modified argument (keeping its points)."""
    vectors = course_copy.assignment("vectors")
    path = vectors.public_tests / "test_numeric.py"
    test = "test_normalise_leaves_its_argument_alone"
    neutered = f"def {test}(student):\n    student.scale(np.zeros(1), 1.0)\n"
    source = path.read_text().replace('@pytest.mark.keeps_inputs("normalise")\n', "")
    path.write_text(source.replace(f"def {test}(", f"{neutered}\n\ndef _old_{test}("))
    (verdict,) = validate(vectors, only=["normalise_in_place"])
    assert verdict.name == "variant: normalise_in_place"
    assert not verdict.ok and verdict.problem == "lost nothing in numeric: no test catches it"
    assert verdict.score == 10


def test_the_fixture_course_validates(course: Course) -> None:
    """Every case of both fixture assignments is as expected: the reference full, the stubs
    zero, each catalogued mistake caught in its own part with its own hint, each style full."""
    for assignment in course.assignments:
        verdicts = validate(assignment)
        assert [v.name for v in verdicts if not v.ok] == [], assignment.name
        names = {v.name for v in verdicts}
        assert {"reference", "stubs"} <= names
        assert {f"variant: {m.name}" for m in assignment.load_catalogue()} <= names
