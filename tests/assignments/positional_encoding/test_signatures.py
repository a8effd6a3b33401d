"""The assignment's measured signatures: precise on clean mistakes, silent or harmless on
anything a student's function can return."""

from __future__ import annotations

import math
from types import ModuleType

import numpy as np
import pytest
import sympy as sp

from autograder.course.assignment import Assignment
from autograder.diagnosis.diagnose import Call, Signature, observe


@pytest.fixture(scope="module")
def signatures(assignment: Assignment) -> tuple[Signature, ...]:
    return assignment.load_signatures()


@pytest.fixture(scope="module")
def measure(assignment: Assignment) -> ModuleType:
    from autograder.course.assignment import import_instructor_module

    return import_instructor_module(
        assignment.signatures_file, assignment.name, assignment.course.root / "assignments"
    )


@pytest.fixture(scope="module")
def shared_attention(assignment: Assignment) -> ModuleType:
    """The course's attention knowledge, which this assignment's signatures map."""
    from autograder.course.assignment import import_instructor_module

    shared = assignment.course.root / "assignments" / "shared" / "attention.py"
    return import_instructor_module(shared, "shared")


def encoding(T: int, C: int, exponent: float = 2.0, base: float = 1e4) -> np.ndarray:
    angles = np.arange(T)[:, None] / base ** (exponent * (np.arange(C) // 2) / C)
    return np.where(np.arange(C) % 2 == 0, np.sin(angles), np.cos(angles))


def test_columns_are_fitted_from_the_output(measure: ModuleType) -> None:
    positions = np.arange(40.0)

    def fitted(column: np.ndarray, eps: float = 2.3e-16) -> tuple[str, float] | None:
        fit = measure.fit_column(column, eps)
        return None if fit is None else fit[:2]

    assert fitted(np.sin(0.3 * positions)) == ("sin", pytest.approx(0.3))
    assert fitted(np.cos(2e-4 * positions)) == ("cos", pytest.approx(2e-4, 1e-4))
    assert fitted(np.sin(2.0 * positions)) == ("sin", pytest.approx(2.0))
    assert fitted(np.sin(0.3 * positions + 0.3)) is None  # shifted: no claim
    assert fitted(np.linspace(0, 1, 40)) is None
    slow = np.cos(1e-4 * positions).astype(np.float32)  # float32 barely sees it move
    kind, omega, uncertainty = measure.fit_column(slow.astype(float), 1.2e-7)
    assert kind == "cos" and abs(omega - 1e-4) <= uncertainty


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_doubled_exponent_is_measured_in_either_precision(
    signatures: tuple[Signature, ...], reference: ModuleType, dtype: type
) -> None:
    wrong = encoding(50, 16, exponent=4.0).astype(dtype)
    observed = observe([Call("sinusoidal_encoding", (50, 16), {}, wrong)], signatures, reference)
    assert observed == [
        "sinusoidal_encoding: your pair i oscillates at base^(−4i/C); it should be base^(−2i/C) "
        "(is the 2 applied to an index that is already even?)"
    ]


def test_the_attention_scale_is_fitted_from_the_output(
    shared_attention: ModuleType, reference: ModuleType
) -> None:
    X = np.random.default_rng(0).normal(size=(7, 3))
    S = X @ X.T
    for s in (1.0, 1 / 3, 0.123):
        out = reference.softmax(s * S) @ X
        fitted, error = shared_attention.fit_scale(S, X, out)
        assert fitted == pytest.approx(s, rel=1e-6) and error < 1e-9


def test_rotation_angles_and_orientation(measure: ModuleType) -> None:
    theta = 0.7
    c, s = math.cos(theta), math.sin(theta)
    assert measure.rotation_angle(np.array([[c, s], [-s, c]])) == pytest.approx(theta)
    assert measure.rotation_angle(np.array([[c, -s], [s, c]])) == pytest.approx(-theta)
    assert measure.rotation_angle(np.array([[c, s], [s, c]])) is None
    assert measure.rotation_angle(np.eye(3)) is None


HOSTILE_RESULTS = [
    None,
    "text",
    1e308,
    float("nan"),
    np.array(np.nan),
    np.zeros((0, 0)),
    np.full((3, 5), np.nan),
    np.full((3, 5), np.inf),
    np.full((3, 5), 1e308),
    np.full((3, 5), -1e308),
    np.ones((3, 5), dtype=bool),
    np.ones((3, 5), dtype=np.int64),
    np.ones((3, 5), dtype=complex) * 1j,
    np.ones((2, 2)) * np.nan,
    np.array([[np.inf, 0.0], [0.0, np.inf]]),
    [[1.0, 2.0], [3.0, 4.0]],
    sp.Symbol("x"),
    (np.zeros(2), np.zeros(2)),
]

CALLS = [
    ("sinusoidal_encoding", (3, 5), {}),
    ("sinusoidal_encoding", (3, 5), {"base": 100.0}),
    ("softmax", (np.array([[1.0, 2.0], [3.0, 4.0]]),), {"axis": 0}),
    ("softmax", (np.array([[1e4, 0.0], [0.0, -1e4]]),), {}),
    ("self_attention", (np.eye(2) * 2,), {}),
    ("self_attention", (np.ones((2, 3, 2)), np.eye(2), np.eye(2), np.eye(2)), {}),
    ("rotation_matrix", (3, 0.1), {}),
    ("shift_matrix", (3, 4), {}),
    ("permutation_matrix", ([1, 0],), {}),
]


@pytest.mark.parametrize(("name", "args", "kwargs"), CALLS, ids=lambda c: str(c)[:30])
def test_no_student_value_breaks_a_measurement(
    signatures: tuple[Signature, ...], reference: ModuleType, name: str, args: tuple, kwargs: dict
) -> None:
    """Every value a function can return, and some it cannot (the codec refuses them), gives
    sentences or nothing: a measurement never raises into the grader."""
    for value in HOSTILE_RESULTS:
        observed = observe([Call(name, args, kwargs, value)], signatures, reference)
        assert isinstance(observed, list) and all(isinstance(text, str) for text in observed)
        assert all(len(text) < 400 for text in observed)


def test_a_shifted_first_position_is_named_and_garbage_is_not(
    measure: ModuleType, reference: ModuleType
) -> None:
    shifted = encoding(9, 8)[1:]  # rows for positions 1…8
    call = Call("sinusoidal_encoding", (8, 8), {}, shifted)
    assert measure.encoding_signature(call, None) == (
        "your row 0 holds position 1: the first position is 0"
    )
    constant = Call("sinusoidal_encoding", (8, 8), {}, np.full((8, 8), 0.5))
    assert measure.encoding_signature(constant, None) is None
    still = Call("rotation_matrix", (3, 0.1), {}, np.eye(2))
    assert measure.rotation_signature(still, None) == (
        "your matrix does not rotate at all; it should rotate by k·freq = 0.3"
    )
