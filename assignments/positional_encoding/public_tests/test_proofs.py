"""Public tests for the two proofs: every step's verdict is shown, so you can iterate.

The statements, their vocabulary and the laws a step may cite are in `proof_domain.py` (next
to your module), which the `proof_domain` fixture loads."""

import pytest

from autograder.checks.proof import assert_proof


@pytest.mark.part("symbolic")
@pytest.mark.points(5)
def test_relative_position_proof(student, proof_domain):
    """RELATIVE_POSITION_PROOF: PE(p)·PE(p + k) = cos(w·k), one law per step"""
    assert_proof(
        student.RELATIVE_POSITION_PROOF,
        proof_domain.RELATIVE_POSITION,
        what="RELATIVE_POSITION_PROOF",
    )


@pytest.mark.part("permutation")
@pytest.mark.points(5)
def test_permutation_proof(student, proof_domain):
    """PERMUTATION_PROOF: attention(P @ X) = P @ attention(X), one law per step"""
    assert_proof(student.PERMUTATION_PROOF, proof_domain.PERMUTATION, what="PERMUTATION_PROOF")
