"""Public tests for the two proofs: every step's verdict is shown, so you can iterate."""

import pytest

from autograder.checks.proof import Statement, assert_proof
from autograder.checks.proof_laws import matrix_laws, scalar_laws
from autograder.checks.proof_parse import MatrixDomain, ScalarDomain

TRIG = ScalarDomain(symbols=("w", "p", "k"))
ATTENTION = MatrixDomain(matrices={"X": ("n", "m"), "P": ("n", "n")}, permutations=("P",))

RELATIVE_POSITION = Statement(
    name="RELATIVE_POSITION_PROOF",
    left="sin(w*p)*sin(w*(p+k)) + cos(w*p)*cos(w*(p+k))",
    right="cos(w*k)",
    domain=TRIG,
    laws=scalar_laws(),
    reference_steps=4,
)
PERMUTATION = Statement(
    name="PERMUTATION_PROOF",
    left="attention(P @ X)",
    right="P @ attention(X)",
    domain=ATTENTION,
    laws=matrix_laws(ATTENTION),
    reference_steps=5,
)


@pytest.mark.part("symbolic")
@pytest.mark.points(5)
def test_relative_position_proof(student):
    """RELATIVE_POSITION_PROOF: PE(p)·PE(p + k) = cos(w·k), one law per step"""
    assert_proof(student.RELATIVE_POSITION_PROOF, RELATIVE_POSITION, what="RELATIVE_POSITION_PROOF")


@pytest.mark.part("permutation")
@pytest.mark.points(5)
def test_permutation_proof(student):
    """PERMUTATION_PROOF: attention(P @ X) = P @ attention(X), one law per step"""
    assert_proof(student.PERMUTATION_PROOF, PERMUTATION, what="PERMUTATION_PROOF")
