# %% [markdown]
# # Positional encoding: teaching attention about order
#
# This notebook is the same assignment as `positional_encoding.py`, cell by cell: fill in each
# function where it says `raise NotImplementedError()` and each empty constant, run the test
# cell after it, and read what it prints. A test cell prints every check that failed, with what
# is wrong and why, and ends with the points your functions earn in the public checks. The
# grader runs more checks than these, on other inputs, with the same points.
#
# The notation follows the lessons: T positions, C (or d_model) embedding dimensions, `pos` a
# position, `i` a dimension-pair index, `w` (ω) a frequency.

# %% nbgrader={"grade": false, "solution": false, "locked": true, "grade_id": "imports"}
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import sympy as sp

# %% [markdown]
# ## 1. Attention is blind to order
#
# The simplest self-attention has no weights at all: query = key = value = the input X, one
# token per row, and
#
# $$\mathrm{Attention}(X) = \mathrm{softmax}\left(\frac{X X^\top}{\sqrt{d}}\right) X .$$
#
# `softmax` turns each row of scores into positive weights that sum to 1; subtract the row's
# maximum before `exp` so that scores of 10⁴ still give finite weights.
#
# The lesson's example, by hand: Ravi = [2, 0], Meera = [0, 2]. The scaled scores are
# [[2.828, 0], [0, 2.828]], each row's softmax is [0.944, 0.056], and the outputs are
# Ravi → [1.888, 0.112], Meera → [0.112, 1.888]. Reverse the sentence and the rows swap, but
# each token's vector stays exactly what it was.

# %% nbgrader={"grade": false, "solution": true, "locked": false, "grade_id": "attention_functions"}
# autograder: reference softmax, self_attention

# %% tags=["demo"]
ravi_meera = np.array([[2.0, 0.0], [0.0, 2.0]])
print("Ravi saw Meera:", self_attention(ravi_meera).round(3).tolist())
print("Meera saw Ravi:", self_attention(ravi_meera[::-1]).round(3).tolist())

# %% nbgrader={"grade": true, "solution": false, "locked": true, "grade_id": "test_attention"}
# autograder: tests attention

# %% [markdown]
# ## 2. The sinusoidal encoding
#
# Add to each token a vector that depends on its position only:
#
# $$PE_{pos,\,2i} = \sin\left(\frac{pos}{10000^{2i/C}}\right), \qquad
#   PE_{pos,\,2i+1} = \cos\left(\frac{pos}{10000^{2i/C}}\right).$$
#
# Each pair of columns (2i, 2i + 1) is one frequency ω_i = 1 / 10000^(2i/C), from 1 (a
# wavelength of 2π positions) down to nearly 1/10000. Position 0's row is [0, 1, 0, 1, …].

# %% nbgrader={"grade": false, "solution": true, "locked": false, "grade_id": "encoding_function"}
# autograder: reference sinusoidal_encoding

# %% [markdown]
# ## 3. Four properties
#
# The lesson checks four things about the matrix: every row is **unique** (no two positions
# share an encoding), every value is **bounded** in [−1, 1], a fixed offset is a fixed
# **relation** between rows (section 4), and it **extrapolates** to positions never seen in
# training, since it is a formula, not a table.

# %% tags=["demo"]
PE = sinusoidal_encoding(50, 16)
print("shape", PE.shape, "| bounded:", bool(np.abs(PE).max() <= 1))
print("unique rows:", len({tuple(row.round(12)) for row in PE}) == len(PE))
print("position 0:", PE[0].round(3).tolist())

# %% nbgrader={"grade": true, "solution": false, "locked": true, "grade_id": "test_encoding"}
# autograder: tests encoding

# %% [markdown]
# ## 4. Relative position, proved
#
# For one frequency ω, the pair at position pos is (sin ωpos, cos ωpos). Its dot product with
# the pair at pos + k is
#
# $$\sin(\omega p)\sin(\omega p + \omega k) + \cos(\omega p)\cos(\omega p + \omega k)
#   = \cos(\omega k),$$
#
# which depends on the offset k alone. Build it with SymPy (`pe_pair`, `relative_dot`), and
# write the proof step by step in `RELATIVE_POSITION_PROOF`: each step is an expression and the
# law that gets it from the step before (the README lists the laws).

# %% nbgrader={"grade": false, "solution": true, "locked": false, "grade_id": "symbolic_functions"}
# autograder: reference pe_pair, rotation_matrix_symbolic, relative_dot, RELATIVE_POSITION_PROOF

# %% nbgrader={"grade": true, "solution": false, "locked": true, "grade_id": "test_symbolic"}
# autograder: tests symbolic

# %% [markdown]
# ## 5. A shift by k is a rotation
#
# Moving k positions turns each (sin, cos) pair by the angle kω, the same for every position:
#
# $$R_k = \begin{pmatrix} \cos k\omega & \sin k\omega \\ -\sin k\omega & \cos k\omega
#   \end{pmatrix}, \qquad R_k \cdot PE(pos) = PE(pos + k).$$
#
# `shift_matrix(k, C)` puts one such block per frequency on the diagonal of a C × C matrix.

# %% nbgrader={"grade": false, "solution": true, "locked": false, "grade_id": "rotation_functions"}
# autograder: reference rotation_matrix, shift_matrix

# %% tags=["demo"]
PE = sinusoidal_encoding(20, 8)
for pos in (0, 2, 5, 7):
    moved = shift_matrix(3, 8) @ PE[pos]
    print(f"R_3 · PE({pos}) = PE({pos + 3}):", bool(np.allclose(moved, PE[pos + 3])))

# %% nbgrader={"grade": true, "solution": false, "locked": true, "grade_id": "test_rotation"}
# autograder: tests rotation

# %% [markdown]
# ## 6. Attention(PX) = P · Attention(X)
#
# A permutation matrix P reorders rows. Prove, one law per step in `PERMUTATION_PROOF`, that
# permuting the tokens only permutes attention's output: softmax(P X Xᵀ Pᵀ) = P softmax(X Xᵀ) Pᵀ
# and Pᵀ P = I.

# %% nbgrader={"grade": false, "solution": true, "locked": false, "grade_id": "permutation_functions"}
# autograder: reference permutation_matrix, PERMUTATION_PROOF

# %% nbgrader={"grade": true, "solution": false, "locked": true, "grade_id": "test_permutation"}
# autograder: tests permutation

# %% [markdown]
# ## 7. In your own words
#
# Why does attention need positional information at all? Use section 1 and section 6: what
# does attention compute for "Ravi saw Meera" and "Meera saw Ravi", and what does adding
# PE(pos) change? (A person grades this answer.)

# %% [markdown] nbgrader={"grade": true, "solution": true, "locked": false, "grade_id": "why_position"}
# Self-attention is permutation-equivariant: for every permutation matrix P,
# Attention(PX) = P·Attention(X), because softmax(P X Xᵀ Pᵀ) = P softmax(X Xᵀ) Pᵀ and PᵀP = I.
# So "Ravi saw Meera" and "Meera saw Ravi" produce the same two output vectors, only in the
# other order: nothing in the output says who came first. Adding PE(pos) to each token makes the
# rows differ by position (sin/cos of pos at many frequencies), so swapping the words changes
# the vectors themselves, and attention scores can depend on the offset between positions
# (PE(p)·PE(p + k) = cos ωk).
