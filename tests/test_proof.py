"""Proofs checked step by step, and symbolic equivalence decided in bounded time."""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path
from types import ModuleType

import pytest
import sympy as sp

from autograder.checks import CheckFailure, PartialCredit, assert_equivalent
from autograder.checks import symbolic as symbolic_checks
from autograder.checks.failure import take_notes
from autograder.checks.proof import Statement, assert_proof, check_proof
from autograder.checks.proof_laws import scalar_laws
from autograder.checks.proof_parse import ScalarDomain
from autograder.course.course import Course
from autograder.course.rubric import AssignmentSpec
from autograder.grading.runners import grade_submission


@pytest.fixture(scope="module")
def statements(course: Course, spec: AssignmentSpec) -> ModuleType:
    """The statements exactly as the public tests define them."""
    path = course.public_tests_dir(spec) / "test_proofs.py"
    module_spec = importlib.util.spec_from_file_location("public_proof_tests", path)
    assert module_spec is not None and module_spec.loader is not None
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module


def test_reference_proofs_are_complete(statements: ModuleType, reference: ModuleType) -> None:
    for proof, statement in [
        (reference.RELATIVE_POSITION_PROOF, statements.RELATIVE_POSITION),
        (reference.PERMUTATION_PROOF, statements.PERMUTATION),
    ]:
        report = check_proof(proof, statement)
        assert report.credit == 1.0 and all(step.ok for step in report.steps), report.describe()


def broken(
    proof: list[tuple[str, str]], index: int, step: tuple[str, str] | None
) -> list[tuple[str, str]]:
    copy = list(proof)
    if step is None:
        del copy[index]
    else:
        copy[index] = step
    return copy


@pytest.mark.parametrize(
    ("which", "change", "credit", "reason"),
    [
        # a wrong law name on step 3 (of 5 transitions): the 1 valid step before it earns 1/5
        (
            "PERMUTATION",
            (2, ("softmax(P @ X @ X.T @ P.T / sqrt(d)) @ P @ X", "PᵀP = I")),
            0.2,
            "does not follow by 'PᵀP = I'; it follows by 'transpose of a product'",
        ),
        # a skipped step: angle sum and algebra at once
        (
            "RELATIVE_POSITION",
            (1, None),
            0.0,
            "applies two laws at once ('angle sum', then 'algebra')",
        ),
        # algebra and Pythagoras at once, named as Pythagoras alone
        (
            "RELATIVE_POSITION",
            (2, ("cos(w*k)", "Pythagoras")),
            0.25,
            "applies two laws at once ('algebra', then 'Pythagoras')",
        ),
        # a false step after 3 valid ones: 3/5, capped at half
        (
            "PERMUTATION",
            (4, ("P @ softmax(X @ X.T / sqrt(d)) @ P @ X", "PᵀP = I")),
            0.5,
            "this step is false: with a 3×3 permutation",
        ),
        # a string that is not valid syntax
        (
            "RELATIVE_POSITION",
            (3, ("(sin(w*p)**2 + cos(w*p)**2)*cos(w*k", "algebra")),
            0.5,
            "is not valid syntax",
        ),
        # strings that try to escape
        (
            "PERMUTATION",
            (1, ("__import__('os')", "definition of attention")),
            0.0,
            "'__import__' is not allowed",
        ),
        (
            "PERMUTATION",
            (1, ("X.__class__", "definition of attention")),
            0.0,
            "'.__class__' is not allowed; the only attribute is .T",
        ),
        (
            "RELATIVE_POSITION",
            (1, ("open('/etc/passwd')", "algebra")),
            0.0,
            "open(...) is not allowed",
        ),
        (
            "RELATIVE_POSITION",
            (1, ("sin(w*p)**1000", "algebra")),
            0.0,
            "exponents must be whole numbers",
        ),
    ],
)
def test_each_fault_loses_its_steps_credit(
    statements: ModuleType,
    reference: ModuleType,
    which: str,
    change: tuple,
    credit: float,
    reason: str,
) -> None:
    statement = getattr(statements, which)
    proof = broken(list(getattr(reference, f"{which}_PROOF")), *change)
    report = check_proof(proof, statement)
    assert report.credit == pytest.approx(credit)
    refused = [step for step in report.steps if not step.ok]
    assert len(refused) == 1 and reason in refused[0].reason, report.describe()


def test_unfinished_and_one_step_proofs(statements: ModuleType, reference: ModuleType) -> None:
    early = check_proof(reference.PERMUTATION_PROOF[:-1], statements.PERMUTATION)
    assert early.credit == 0.5 and "does not reach the right side" in early.summary
    jump = [reference.RELATIVE_POSITION_PROOF[0], ("cos(w*k)", "Pythagoras")]
    one_step = check_proof(jump, statements.RELATIVE_POSITION)
    assert one_step.credit == 0.0
    wrong_start = check_proof([("cos(w*k)", "statement")], statements.RELATIVE_POSITION)
    assert (
        wrong_start.credit == 0.0
        and "starts from the statement's left side" in wrong_start.steps[0].reason
    )


def test_failures_raise_partial_credit_with_every_verdict(
    statements: ModuleType, reference: ModuleType
) -> None:
    with pytest.raises(PartialCredit) as failure:
        assert_proof(
            reference.PERMUTATION_PROOF[:-1], statements.PERMUTATION, what="PERMUTATION_PROOF"
        )
    assert failure.value.credit == 0.5
    assert str(failure.value).count("[ok]") == 5
    with pytest.raises(NotImplementedError, match="PERMUTATION_PROOF is empty"):
        assert_proof([], statements.PERMUTATION, what="PERMUTATION_PROOF")
    with pytest.raises(CheckFailure, match="should be a list of"):
        assert_proof("attention(P @ X)", statements.PERMUTATION, what="PERMUTATION_PROOF")
    with pytest.raises(
        CheckFailure, match="step 2 of PERMUTATION_PROOF should be a pair of strings"
    ):
        assert_proof([("attention(P @ X)", "statement"), ("x",)], statements.PERMUTATION, what="P")


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


def test_relative_dot_variants() -> None:
    assert_equivalent(
        sp.cos(w * k) + 0 * pos, sp.cos(w * k), what="relative_dot", symbols=(pos, k, w)
    )
    for wrong in (sp.cos(w * k + pos), sp.sin(w * k)):
        with pytest.raises(
            CheckFailure, match=r"should equal cos\(k\*w\); at pos=.* yours is .* but it should be"
        ):
            assert_equivalent(wrong, sp.cos(w * k), what="relative_dot", symbols=(pos, k, w))


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
    with pytest.raises(CheckFailure, match=r"relative_dot is nan at w=.*; it should be"):
        assert_equivalent(nan_times_w, sp.cos(w), what="relative_dot", symbols=(w,))
    with pytest.raises(CheckFailure, match=r"e is -inf at w="):
        assert_equivalent(sp.Add(minus_infinity, w, evaluate=False), w, what="e", symbols=(w,))


@pytest.mark.parametrize("verdict", ["not proved", "error: MemoryError"])
def test_only_a_timeout_is_undecided(verdict: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """SymPy finishing without a proof is no proof: the answer fails whatever the policy says."""
    monkeypatch.setattr(symbolic_checks, "prove_equal", lambda left, right: verdict)
    with pytest.raises(CheckFailure, match="could not prove it equal in general"):
        assert_equivalent(sp.cos(w), sp.cos(w), what="relative_dot", symbols=(w,))


def test_undecided_proofs_follow_the_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    hard = sp.cos(w * k) + sp.sin(pos) ** 2 + sp.cos(pos) ** 2 - 1
    monkeypatch.setattr(
        symbolic_checks, "POLICY", symbolic_checks.SymbolicPolicy(proof_timeout_s=1e-4)
    )
    take_notes()
    assert_equivalent(hard, sp.cos(w * k), what="relative_dot", symbols=(pos, k, w))
    assert take_notes() == [
        "relative_dot could not be proved equal within 0.0001 s; numerically equal at 50 points"
    ]
    strict = symbolic_checks.SymbolicPolicy(proof_timeout_s=1e-4, undecided="none")
    monkeypatch.setattr(symbolic_checks, "POLICY", strict)
    with pytest.raises(CheckFailure, match="could not be proved equal"):
        assert_equivalent(hard, sp.cos(w * k), what="relative_dot", symbols=(pos, k, w))


def test_partial_credit_reaches_the_grade(
    tmp_path: Path, course: Course, spec: AssignmentSpec
) -> None:
    source = course.reference_path(spec).read_text()
    unfinished = source.replace('    ("P @ attention(X)", "definition of attention"),\n', "")
    assert unfinished != source
    path = tmp_path / "unfinished.py"
    path.write_text(unfinished)
    result = grade_submission(course, spec, path)
    (proof,) = [t for t in result.tests if "PERMUTATION_PROOF" in t.name]
    assert (proof.score, proof.max_score, proof.status) == (2.5, 5.0, "failed")
    assert result.score == 97.5 and "does not reach the right side" in (proof.message or "")
