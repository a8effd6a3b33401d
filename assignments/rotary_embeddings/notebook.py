# %% [markdown]
# # Rotary position embeddings
#
# This notebook is the same assignment as `rotary_embeddings.py`, cell by cell: fill in each
# function where it says `raise NotImplementedError()` and each empty constant, run the test
# cell after it, and read what it prints. A test cell prints every check that failed, with what
# is wrong and why, and ends with the points your functions earn in the public checks. The
# grader runs more checks than these, on other inputs, with the same points.
#
# The notation follows RoFormer (Su et al., 2021): T positions, C the width (even), m and n
# positions, θ_i = base^(−2i/C) the frequency of pair i.

# %% nbgrader={"grade": false, "solution": false, "locked": true, "grade_id": "imports"}
from __future__ import annotations

import numpy as np
import sympy as sp

# %% [markdown]
# ## 1. Every pair rotated by m·θ_i
#
# `rope_angles([0, 1, 2], 4, base=100)` is [[0, 0], [1, 0.1], [2, 0.2]]. `rope` turns pair i of
# the row at position m by m·θ_i: neighbours (2i, 2i + 1) as RoFormer and GPT-J, or halves
# (i, i + C/2) as GPT-NeoX and LLaMA, with cos and sin broadcast (O(T·C), no (C, C) matrix).

# %% nbgrader={"grade": false, "solution": true, "locked": false, "grade_id": "rope_functions"}
# autograder: reference LAYOUTS, rope_angles, rope

# %% tags=["demo"]
print("rope(ones((3, 4)), base=100):", rope(np.ones((3, 4)), base=100.0).round(3).tolist())

# %% nbgrader={"grade": true, "solution": false, "locked": true, "grade_id": "test_rope"}
# autograder: tests rope

# %% [markdown]
# ## 2. The rotation R_m
#
# `rope_matrix(m, C)` is the block rotation with rope(x at m) = R_m x. It is orthogonal, and
# R_mᵀ R_n = R_{n−m}: so (R_m q)·(R_n k) = q·(R_{n−m} k).

# %% nbgrader={"grade": false, "solution": true, "locked": false, "grade_id": "matrix_function"}
# autograder: reference rope_matrix

# %% nbgrader={"grade": true, "solution": false, "locked": true, "grade_id": "test_matrix"}
# autograder: tests matrix

# %% [markdown]
# ## 3. RoPE inside attention
#
# Q = rope(X W_q), K = rope(X W_k), V = X W_v, then softmax(Q Kᵀ / √d_k) V. Shifting every
# position by the same s changes nothing. `rope_decay_bound` is RoFormer's relative upper bound:
# 32.5 at distance 0 and 6.548 at distance 250 for C = 128.

# %% nbgrader={"grade": false, "solution": true, "locked": false, "grade_id": "attention_functions"}
# autograder: reference rope_attention, rope_decay_bound

# %% nbgrader={"grade": true, "solution": false, "locked": true, "grade_id": "test_attention"}
# autograder: tests attention

# %% [markdown]
# ## 4. One pair in SymPy, and a proof
#
# The score of one pair at m and n depends on n − m only. Prove it step by step for positions m
# and m + r, one law per step ("angle sum", "algebra", "Pythagoras"; see `proof_domain.py`).

# %% nbgrader={"grade": false, "solution": true, "locked": false, "grade_id": "symbolic_functions"}
# autograder: reference rotate_pair_symbolic, pair_score_symbolic, RELATIVE_SCORE_PROOF

# %% nbgrader={"grade": true, "solution": false, "locked": true, "grade_id": "test_symbolic"}
# autograder: tests symbolic
