"""The author's API, from one place: what an assignment's instructor files are written with.

    from autograder.authoring import Misconception          # misconceptions.py
    from autograder.authoring import Call, Signature        # signatures.py
    from autograder.authoring import Variant                # independent_corpus.py
    from autograder.authoring import Law, Statement, MatrixDomain, ScalarDomain  # proof_domain.py
    from autograder.checks import assert_close, ...         # the tests

The stages that use these files (release, validate, the sample class, the course tests) are
this package's modules, imported by name.
"""

from autograder.authoring.corpus import Variant
from autograder.checks.proof import Law, Statement
from autograder.checks.proof_laws import (
    everywhere,
    permutation_inverse_law,
    scalar_laws,
    transpose_law,
)
from autograder.checks.proof_parse import MatrixDomain, ScalarDomain, matrix_function
from autograder.course.catalogue import Misconception, Signature
from autograder.protocol.calls import Call

__all__ = [
    "Call",
    "Law",
    "MatrixDomain",
    "Misconception",
    "ScalarDomain",
    "Signature",
    "Statement",
    "Variant",
    "everywhere",
    "matrix_function",
    "permutation_inverse_law",
    "scalar_laws",
    "transpose_law",
]
