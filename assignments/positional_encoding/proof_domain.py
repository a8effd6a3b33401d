"""The proofs' vocabulary: the objects, laws and statements of this assignment's two proofs.

The grader's checker (autograder.checks.proof) parses each step with the domains below and
accepts a step when the law it cites turns the previous step into it. The public tests receive
this module as the `proof_domain` fixture; `autograder release` hands it to students too.
"""

from typing import Any

import numpy as np
import sympy as sp

from autograder.authoring import (
    Law,
    MatrixDomain,
    ScalarDomain,
    Statement,
    everywhere,
    matrix_function,
    permutation_inverse_law,
    scalar_laws,
    transpose_law,
)


def _softmax(scores: Any, scalars: Any = None) -> Any:
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True)


def _attention(Y: Any, scalars: Any) -> Any:
    return _softmax(Y @ Y.T / np.sqrt(scalars["d"])) @ Y


Softmax = matrix_function("softmax", _softmax, "softmax(S): row-wise, the shape of S")
Attention = matrix_function(
    "attention", _attention, "attention(Y) = softmax(Y Yᵀ / sqrt(d)) Y: the shape of Y"
)

TRIG = ScalarDomain(symbols=("w", "p", "k"))
ATTENTION = MatrixDomain(
    matrices={"X": ("n", "m"), "P": ("n", "n")},
    permutations=("P",),
    functions=(Softmax, Attention),
    scalars=("d",),
)


def attention_laws(domain: MatrixDomain) -> tuple[Law, ...]:
    """The definition of attention, transposes, softmax and permutations, PᵀP = I."""
    permutations = {domain.symbol(name) for name in domain.permutations}
    d = domain.symbol("d")

    def unfold_attention(node: Any) -> Any:
        if isinstance(node, Attention):
            Y = node.args[0]
            return sp.MatMul(Softmax(sp.MatMul(1 / sp.sqrt(d), Y, sp.Transpose(Y))), Y)
        return None

    def softmax_permutation(node: Any) -> Any:
        if isinstance(node, Softmax) and isinstance(node.args[0], sp.MatMul):
            scalars = [a for a in node.args[0].args if not isinstance(a, sp.MatrixExpr)]
            matrices = [a for a in node.args[0].args if isinstance(a, sp.MatrixExpr)]
            if (
                len(matrices) >= 3
                and matrices[0] in permutations
                and matrices[-1] == sp.Transpose(matrices[0])
            ):
                inner = sp.MatMul(*scalars, *matrices[1:-1])
                return sp.MatMul(matrices[0], Softmax(domain.canonical(inner)), matrices[-1])
        return None

    return (
        Law(
            "definition of attention",
            everywhere(domain, unfold_attention),
            "attention(Y) = softmax(Y @ Y.T / sqrt(d)) @ Y",
        ),
        transpose_law(domain),
        Law(
            "softmax commutes with a permutation",
            everywhere(domain, softmax_permutation),
            "softmax(P @ S @ P.T) = P @ softmax(S) @ P.T for a permutation matrix P",
        ),
        permutation_inverse_law(domain),
    )


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
    laws=attention_laws(ATTENTION),
    reference_steps=5,
)
