# %% [markdown]
# # Causal self-attention and learned positions
#
# This notebook is the same assignment as `causal_attention.py`, cell by cell: fill in each
# function where it says `raise NotImplementedError()` and each empty constant, run the test
# cell after it, and read what it prints. A test cell prints every check that failed, with what
# is wrong and why, and ends with the points your functions earn in the public checks. The
# grader runs more checks than these, on other inputs, with the same points.
#
# The notation follows the lessons: T positions, C (or d) the embedding width, t a query
# position, s a key position.

# %% nbgrader={"grade": false, "solution": false, "locked": true, "grade_id": "imports"}
from __future__ import annotations

import numpy as np
import sympy as sp

# %% [markdown]
# ## 1. The mask
#
# Query t may attend to key s when s ≤ t: the lower triangle, diagonal included.
# `causal_mask(3)` is [[1, 0, 0], [1, 1, 0], [1, 1, 1]] (as booleans).

# %% nbgrader={"grade": false, "solution": true, "locked": false, "grade_id": "mask_function"}
# autograder: reference causal_mask

# %% nbgrader={"grade": true, "solution": false, "locked": true, "grade_id": "test_mask"}
# autograder: tests mask

# %% [markdown]
# ## 2. Masked attention
#
# Masked scores become −∞ before `exp`, so their weights are exactly 0 and each row's allowed
# weights sum to 1; a row with nothing allowed raises `ValueError`. Then
#
# $$\mathrm{CausalAttention}(X) = \mathrm{masked\_softmax}\left(\frac{Q K^\top}{\sqrt{d_k}},
#   \mathrm{causal\_mask}(T)\right) V .$$
#
# On Ravi = [2, 0], Meera = [0, 2]: Ravi keeps [2, 0] (he sees only himself), Meera gets
# [0.112, 1.888].

# %% nbgrader={"grade": false, "solution": true, "locked": false, "grade_id": "masked_functions"}
# autograder: reference masked_softmax, causal_self_attention

# %% tags=["demo"]
ravi_meera = np.array([[2.0, 0.0], [0.0, 2.0]])
print("Ravi saw Meera:", causal_self_attention(ravi_meera).round(3).tolist())

# %% nbgrader={"grade": true, "solution": false, "locked": true, "grade_id": "test_masked"}
# autograder: tests masked

# %% [markdown]
# ## 3. No peeking
#
# Row t of the output depends on tokens 0 … t only. `causal_attention_symbolic(X)` computes the
# same attention exactly in SymPy; its row t holds no symbol of a later token, so every
# derivative of row t with respect to a later token is identically 0.

# %% nbgrader={"grade": false, "solution": true, "locked": false, "grade_id": "peeking_function"}
# autograder: reference causal_attention_symbolic

# %% nbgrader={"grade": true, "solution": false, "locked": true, "grade_id": "test_peeking"}
# autograder: tests peeking

# %% [markdown]
# ## 4. Order leaks through the mask
#
# Without the mask, Attention(PX) = P · Attention(X). With it, Ravi is [2, 0] in
# "Ravi saw Meera" but [1.888, 0.112] in "Meera saw Ravi". Compute both, and give your own
# counterexample (X, perm) to the equivariance.

# %% nbgrader={"grade": false, "solution": true, "locked": false, "grade_id": "order_functions"}
# autograder: reference ravi_in_both_orders, EQUIVARIANCE_COUNTEREXAMPLE

# %% nbgrader={"grade": true, "solution": false, "locked": true, "grade_id": "test_order"}
# autograder: tests order

# %% [markdown]
# ## 5. Learned positions
#
# A trainable (max_len, C) table, one row per position, drawn with standard deviation 0.02.
# It cannot extrapolate: 10 tokens with max_len 8 must raise `ValueError`. Its gradient reaches
# rows 0 … T − 1 only; rows a sequence never reached stay exactly 0.

# %% nbgrader={"grade": false, "solution": true, "locked": false, "grade_id": "learned_functions"}
# autograder: reference POSITION_SCALE, init_position_table, add_positions, position_table_grad

# %% nbgrader={"grade": true, "solution": false, "locked": true, "grade_id": "test_learned"}
# autograder: tests learned
