"""The proof's vocabulary: one pair of a query and a key, rotated at positions m and m + r.

The grader's checker (autograder.checks.proof) parses each step over the symbols below and
accepts a step when the law it cites turns the previous step into it. The public tests receive
this module as the `proof_domain` fixture; `autograder release` hands it to students too.

In matrix words the three laws are the three facts of RoPE: "angle sum" is the composition
R_{m+r} = R_m R_r (the angle-difference law, read with r = n − m), "Pythagoras" is RᵀR = I
(cos² + sin² = 1), and "algebra" multiplies out; together they give R_mᵀ R_n = R_{n−m}.
"""

from autograder.authoring import ScalarDomain, Statement, scalar_laws

PAIR = ScalarDomain(symbols=("w", "m", "r", "q0", "q1", "k0", "k1"))

RELATIVE_SCORE = Statement(
    name="RELATIVE_SCORE_PROOF",
    left=(
        "(q0*cos(w*m) - q1*sin(w*m))*(k0*cos(w*(m+r)) - k1*sin(w*(m+r)))"
        " + (q0*sin(w*m) + q1*cos(w*m))*(k0*sin(w*(m+r)) + k1*cos(w*(m+r)))"
    ),
    right="q0*(k0*cos(w*r) - k1*sin(w*r)) + q1*(k0*sin(w*r) + k1*cos(w*r))",
    domain=PAIR,
    laws=scalar_laws(),
    reference_steps=3,
)
