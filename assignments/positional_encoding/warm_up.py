"""Run once in the grader's sandbox before any submission (see autograder/sandbox/worker.py):
works the angle-difference identity and a small linear solve, so that SymPy's trigonometric
rewriting and NumPy's linear algebra are ready in every worker instead of built in each."""

import numpy as np
import sympy as sp

x, y = sp.symbols("x_warm_up y_warm_up")
sp.trigsimp(sp.expand_trig(sp.expand(sp.sin(x) * sp.sin(x + y) + sp.cos(x) * sp.cos(x + y))))
sp.simplify(sp.cos(x) ** 2 + sp.sin(x) ** 2)
np.linalg.solve(np.eye(3), np.ones(3))
