"""The author's API, from one place: what an assignment's instructor files are written with.

    from autograder.authoring import Misconception          # misconceptions.py
    from autograder.authoring import Call, Signature        # signatures.py
    from autograder.authoring import Variant                # independent_corpus.py
    from autograder.authoring import Law, Statement, MatrixDomain, ScalarDomain  # proof_domain.py
    from autograder.checks import assert_close, ...         # the tests

The stages that use these files (release, validate, the sample class, the course tests) are
this package's modules, imported by name. Each name is imported when first used, so that
importing a stage (as the command line does for every verb) does not import NumPy and SymPy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

_HOME = {
    "Call": "autograder.protocol.calls",
    "Law": "autograder.checks.proof",
    "MatrixDomain": "autograder.checks.proof_parse",
    "Misconception": "autograder.course.catalogue",
    "ScalarDomain": "autograder.checks.proof_parse",
    "Signature": "autograder.course.catalogue",
    "Statement": "autograder.checks.proof",
    "Variant": "autograder.authoring.corpus",
    "everywhere": "autograder.checks.proof_laws",
    "matrix_function": "autograder.checks.proof_parse",
    "permutation_inverse_law": "autograder.checks.proof_laws",
    "scalar_laws": "autograder.checks.proof_laws",
    "transpose_law": "autograder.checks.proof_laws",
}
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


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
