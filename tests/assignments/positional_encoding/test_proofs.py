"""The assignment's two proofs, checked step by step: every fault costs its step's credit."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from autograder.checks import CheckFailure, PartialCredit
from autograder.checks.proof import assert_proof, check_proof
from autograder.course.assignment import Assignment
from autograder.grading.runners import grade_submission


@pytest.fixture(scope="module")
def statements(assignment: Assignment) -> ModuleType:
    """The statements exactly as the public tests receive them (the `proof_domain` fixture)."""
    path = assignment.proof_domain_file
    module_spec = importlib.util.spec_from_file_location("pe_proof_domain", path)
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


def test_partial_credit_reaches_the_grade(tmp_path: Path, assignment: Assignment) -> None:
    source = assignment.reference.read_text()
    unfinished = source.replace('    ("P @ attention(X)", "definition of attention"),\n', "")
    assert unfinished != source
    path = tmp_path / "unfinished.py"
    path.write_text(unfinished)
    result = grade_submission(assignment, path)
    (proof,) = [t for t in result.tests if "PERMUTATION_PROOF" in t.name]
    assert (proof.score, proof.max_score, proof.status) == (2.5, 5.0, "failed")
    assert result.score == 97.5 and "does not reach the right side" in (proof.message or "")
