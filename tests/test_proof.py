"""Proofs checked step by step in a domain an assignment declares, and symbolic equivalence
decided in bounded time."""

from __future__ import annotations

import time
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
import sympy as sp

from autograder.checks import CheckFailure, PartialCredit, assert_equivalent
from autograder.checks import symbolic as symbolic_checks
from autograder.checks.context import active as active_checks
from autograder.checks.failure import take_notes
from autograder.checks.proof import Statement, assert_proof, check_proof
from autograder.checks.proof_laws import scalar_laws
from autograder.checks.proof_parse import (
    MatrixDomain,
    ProofSyntaxError,
    ScalarDomain,
    matrix_function,
)
from autograder.course.assignment import import_instructor_module
from autograder.course.course import Course
from autograder.grading.pytest_plugin import PROOF_DOMAIN_FILE
from autograder.grading.runners import grade_submission


@pytest.fixture(scope="module")
def domains(course: Course) -> dict[str, ModuleType]:
    """Each fixture assignment's proof domain, as the `proof_domain` fixture loads it."""
    return {
        a.name: import_instructor_module(a.folder / PROOF_DOMAIN_FILE, a.name)
        for a in course.assignments
    }


@pytest.fixture(scope="module")
def references(course: Course) -> dict[str, ModuleType]:
    return {a.name: a.load_reference() for a in course.assignments}


def test_the_reference_proofs_are_complete(
    domains: dict[str, ModuleType], references: dict[str, ModuleType]
) -> None:
    for proof, statement in [
        (references["vectors"].PYTHAGORAS_PROOF, domains["vectors"].PYTHAGORAS),
        (references["series"].TWICE_PROOF, domains["series"].TWICE),
    ]:
        report = check_proof(proof, statement)
        assert report.credit == 1.0 and all(step.ok for step in report.steps), report.describe()


TWICE = [
    ("twice(A @ B).T", "statement"),
    ("(2 * A @ B).T", "definition of twice"),
    ("2 * B.T @ A.T", "transpose of a product"),
]


@pytest.mark.parametrize(
    ("step", "credit", "reason"),
    [
        # the declared function's law named where the engine's transpose law applies
        (("2 * B.T @ A.T", "definition of twice"), 0.5,
         "does not follow by 'definition of twice'; it follows by 'transpose of a product'"),
        # a false step: the numeric check evaluates the declared function on random matrices
        (("2 * A.T @ B.T", "transpose of a product"), 0.5, "this step is false"),
        # a matrix function the assignment did not declare
        (("softmax(A @ B).T", "transpose of a product"), 0.5, "'softmax' is not allowed"),
        (("__import__('os')", "transpose of a product"), 0.5, "'__import__' is not allowed"),
        (("A.__class__", "transpose of a product"), 0.5, "'.__class__' is not allowed"),
        (("twice(A, B)", "transpose of a product"), 0.5, "'twice' is not allowed"),
    ],
)  # fmt: skip
def test_each_fault_in_a_declared_domain_loses_its_steps_credit(
    domains: dict[str, ModuleType], step: tuple[str, str], credit: float, reason: str
) -> None:
    report = check_proof([*TWICE[:2], step], domains["series"].TWICE)
    assert report.credit == pytest.approx(credit)
    refused = [s for s in report.steps if not s.ok]
    assert len(refused) == 1 and reason in refused[0].reason, report.describe()


def test_a_domain_names_what_it_allows(domains: dict[str, ModuleType]) -> None:
    domain = domains["series"].MATRICES
    with pytest.raises(ProofSyntaxError, match=r"use only the names A, B, @, \.T, twice\(\.\.\.\)"):
        domain.parse("softmax(A)")
    assert domain.value(domain.parse("twice(A)"), {"A": np.eye(2), "B": np.eye(2)}).tolist() == [
        [2.0, 0.0], [0.0, 2.0]
    ]  # fmt: skip
    with pytest.raises(ValueError, match="cannot name a matrix function"):
        matrix_function("sqrt", lambda Y, scalars: Y)
    plain = MatrixDomain(matrices={"A": ("n", "n")})
    with pytest.raises(ProofSyntaxError, match="'twice' is not allowed"):
        plain.parse("twice(A)")  # a function belongs to the domain that declares it


def test_unfinished_one_step_and_misstarted_proofs(domains: dict[str, ModuleType]) -> None:
    pythagoras = domains["vectors"].PYTHAGORAS
    start = ("(sin(a)**2 + cos(a)**2)*b", "statement")
    early = check_proof([start, ("sin(a)**2*b + cos(a)**2*b", "algebra")], pythagoras)
    assert early.credit == 0.5 and "does not reach the right side" in early.summary
    one_step = check_proof([start, ("b", "Pythagoras")], pythagoras)
    assert one_step.credit == 0.0
    wrong_start = check_proof([("b", "statement")], pythagoras)
    assert wrong_start.credit == 0.0
    assert "starts from the statement's left side" in wrong_start.steps[0].reason


def test_failures_raise_partial_credit_with_every_verdict(domains: dict[str, ModuleType]) -> None:
    twice = domains["series"].TWICE
    with pytest.raises(PartialCredit) as failure:
        assert_proof(TWICE[:2], twice, what="TWICE_PROOF")
    assert failure.value.credit == 0.5 and str(failure.value).count("[ok]") == 2
    with pytest.raises(NotImplementedError, match="TWICE_PROOF is empty"):
        assert_proof([], twice, what="TWICE_PROOF")
    with pytest.raises(CheckFailure, match="should be a list of"):
        assert_proof("twice(A @ B).T", twice, what="TWICE_PROOF")
    with pytest.raises(CheckFailure, match="step 2 of TWICE_PROOF should be a pair of strings"):
        assert_proof([TWICE[0], ("x",)], twice, what="T")


def test_the_readme_worked_example_is_accepted() -> None:
    example = Statement(
        name="EXAMPLE_PROOF", left="sin(x + y) - sin(x)*cos(y)", right="cos(x)*sin(y)",
        domain=ScalarDomain(symbols=("x", "y")), laws=scalar_laws(), reference_steps=2,
    )  # fmt: skip
    proof = [
        ("sin(x + y) - sin(x)*cos(y)", "statement"),
        ("sin(x)*cos(y) + cos(x)*sin(y) - sin(x)*cos(y)", "angle sum"),
        ("cos(x)*sin(y)", "algebra"),
    ]
    assert check_proof(proof, example).credit == 1.0
    skipped = check_proof([proof[0], ("cos(x)*sin(y)", "angle sum")], example)
    assert "applies two laws at once ('angle sum', then 'algebra')" in skipped.steps[1].reason


pos, k, w = sp.symbols("pos k w", real=True)


def test_equivalence_names_a_point_where_the_answer_differs() -> None:
    assert_equivalent(sp.cos(w * k) + 0 * pos, sp.cos(w * k), what="dot", symbols=(pos, k, w))
    for wrong in (sp.cos(w * k + pos), sp.sin(w * k)):
        with pytest.raises(
            CheckFailure, match=r"should equal cos\(k\*w\); at pos=.* yours is .* but it should be"
        ):
            assert_equivalent(wrong, sp.cos(w * k), what="dot", symbols=(pos, k, w))


def test_adversarial_expressions_fail_with_a_message() -> None:
    huge = sp.Add(*[sp.Symbol(f"x{i}") for i in range(100_000)], evaluate=False)
    with pytest.raises(CheckFailure, match="too large to check: more than 20000 parts"):
        assert_equivalent(huge, sp.Integer(0), what="e", symbols=())
    deep: sp.Basic = w
    for _ in range(5000):
        deep = sp.sin(deep, evaluate=False)
    with pytest.raises(CheckFailure, match=r"nested too deeply|too large"):
        assert_equivalent(deep, sp.cos(w), what="e", symbols=(w,))
    tower = sp.Pow(sp.Integer(10), sp.Integer(10**12), evaluate=False)
    with pytest.raises(CheckFailure, match=r"could not be evaluated: .* beyond 2\*\*4096"):
        assert_equivalent(sp.Add(tower, w, evaluate=False), w, what="e", symbols=(w,))
    # exp(exp(347000000)) once took mpmath minutes in the grader's own process
    exp_exp = sp.exp(sp.exp(sp.Integer(347_000_000), evaluate=False), evaluate=False)
    started = time.monotonic()
    with pytest.raises(CheckFailure, match=r"beyond 2\*\*4096"):
        assert_equivalent(sp.Add(exp_exp, w, evaluate=False), w, what="e", symbols=(w,))
    assert time.monotonic() - started < 5  # refused on sight, not computed
    precise = sp.Float(sp.Rational(1, 3), 100_000)
    with pytest.raises(CheckFailure, match="bits of precision"):
        assert_equivalent(precise * w, w / 3, what="e", symbols=(w,))
    with pytest.raises(CheckFailure, match="floating-point numbers"):
        assert_equivalent(sp.Float(0.5) * w, w / 2, what="e", symbols=(w,), exact=True)


def test_nan_and_infinities_never_pass_the_screen() -> None:
    minus_infinity = sp.log(sp.Integer(0), evaluate=False)  # mpmath: -inf
    nan_times_w = sp.Mul(minus_infinity, sp.Integer(0), w, evaluate=False)  # -inf · 0 = nan
    with pytest.raises(CheckFailure, match=r"dot is nan at w=.*; it should be"):
        assert_equivalent(nan_times_w, sp.cos(w), what="dot", symbols=(w,))
    with pytest.raises(CheckFailure, match=r"e is -inf at w="):
        assert_equivalent(sp.Add(minus_infinity, w, evaluate=False), w, what="e", symbols=(w,))


@pytest.mark.parametrize("verdict", ["not proved", "error: MemoryError"])
def test_only_a_timeout_is_undecided(verdict: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """SymPy finishing without a proof is no proof: the answer fails whatever the policy says."""
    monkeypatch.setattr(symbolic_checks, "prove_equal", lambda left, right: verdict)
    with pytest.raises(CheckFailure, match="could not prove it equal in general"):
        assert_equivalent(sp.cos(w), sp.cos(w), what="dot", symbols=(w,))


def test_undecided_proofs_follow_the_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    hard = sp.cos(w * k) + sp.sin(pos) ** 2 + sp.cos(pos) ** 2 - 1
    checks = active_checks()
    monkeypatch.setattr(checks, "policy", symbolic_checks.SymbolicPolicy(proof_timeout_s=1e-4))
    take_notes()
    assert_equivalent(hard, sp.cos(w * k), what="dot", symbols=(pos, k, w))
    assert take_notes() == [
        "dot could not be proved equal within 0.0001 s; numerically equal at 50 points"
    ]
    strict = symbolic_checks.SymbolicPolicy(proof_timeout_s=1e-4, undecided="none")
    monkeypatch.setattr(checks, "policy", strict)
    with pytest.raises(CheckFailure, match="could not be proved equal"):
        assert_equivalent(hard, sp.cos(w * k), what="dot", symbols=(pos, k, w))


def test_partial_credit_reaches_the_grade(tmp_path: Path, course: Course) -> None:
    series = course.assignment("series")
    source = series.reference.read_text()
    unfinished = source.replace('    ("2 * B.T @ A.T", "transpose of a product"),\n', "")
    assert unfinished != source
    path = tmp_path / "unfinished.py"
    path.write_text(unfinished)
    result = grade_submission(series, path)
    (proof,) = [t for t in result.tests if "TWICE_PROOF" in t.name]
    assert (proof.score, proof.max_score, proof.status) == (1.0, 2.0, "failed")
    assert result.score == 9 and "does not reach the right side" in (proof.message or "")
