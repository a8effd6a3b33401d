"""Known mistakes in the causal-attention assignment, and the hint each deserves.

Each variant is a wrong version of one function of the student's module, written with the
module's own names (np, sp, causal_mask, masked_softmax, causal_self_attention): the grader
replays a failing test's calls on it to name the mistake, and `autograder validate` grades it as a
submission (the reference with this one function replaced) to prove that the tests catch it, in
its own part (and the parts that rightly depend on it), with its own hint. The mask's own
mistakes, and how a mask meets the scores, are the course's (shared/mask.py), mapped here.
"""

import numpy as np
import sympy as sp
from shared.mask import mask_mistakes, masked_softmax_mistakes

from autograder.authoring import Misconception

# --- attention ------------------------------------------------------------------------------


def batch_as_one_sequence(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X, dtype=np.float64)
    shape = X.shape
    X = X.reshape(-1, shape[-1])  # the batch flattened: sequence b sees the sequences before it
    Q = X if W_q is None else X @ W_q
    K = X if W_k is None else X @ W_k
    V = X if W_v is None else X @ W_v
    scores = Q @ K.T / np.sqrt(Q.shape[-1])
    out = masked_softmax(scores, causal_mask(X.shape[0])) @ V  # noqa: F821 - the module's
    return out.reshape(*shape[:-1], V.shape[-1])


def mask_transposed(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X, dtype=np.float64)
    Q = X if W_q is None else X @ W_q
    K = X if W_k is None else X @ W_k
    V = X if W_v is None else X @ W_v
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    return masked_softmax(scores, causal_mask(X.shape[-2]).T) @ V  # noqa: F821


# --- peeking and order -----------------------------------------------------------------------


def symbolic_without_mask(X):
    T, d = X.shape
    rows = []
    for t in range(T):
        weights = [sp.exp((X.row(t) * X.row(s).T)[0, 0] / sp.sqrt(d)) for s in range(T)]
        total = sum(weights)
        rows.append(sum((w * X.row(s) for s, w in enumerate(weights)), sp.zeros(1, d)) / total)
    return sp.Matrix.vstack(*rows)


def ravi_without_mask():
    ravi, meera = np.array([2.0, 0.0]), np.array([0.0, 2.0])

    def full(X):
        scores = X @ X.T / np.sqrt(2)
        e = np.exp(scores - scores.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True) @ X

    return np.stack([full(np.stack([ravi, meera]))[0], full(np.stack([meera, ravi]))[1]])


# --- learned positions -----------------------------------------------------------------------


def table_from_one(tok_emb, table):
    tok_emb, table = np.asarray(tok_emb, dtype=np.float64), np.asarray(table, dtype=np.float64)
    T = tok_emb.shape[-2]
    if table.shape[0] < T + 1 or table.shape[1] != tok_emb.shape[-1]:
        raise ValueError(f"T = {T} does not fit max_len = {table.shape[0]}")
    return tok_emb + table[1 : T + 1]  # position 0 takes row 1


def positions_wrap_around(tok_emb, table):
    tok_emb, table = np.asarray(tok_emb, dtype=np.float64), np.asarray(table, dtype=np.float64)
    if table.shape[1] != tok_emb.shape[-1]:
        raise ValueError("the widths differ")
    T = tok_emb.shape[-2]
    return tok_emb + table[np.arange(T) % table.shape[0]]  # position max_len reuses row 0


def positions_clipped(tok_emb, table):
    tok_emb, table = np.asarray(tok_emb, dtype=np.float64), np.asarray(table, dtype=np.float64)
    if table.shape[1] != tok_emb.shape[-1]:
        raise ValueError("the widths differ")
    T = tok_emb.shape[-2]
    return tok_emb + table[np.minimum(np.arange(T), table.shape[0] - 1)]  # the last row, again


def gradient_everywhere(grad_out, max_len):
    grad_out = np.asarray(grad_out, dtype=np.float64)
    T, C = grad_out.shape[-2:]
    summed = grad_out.reshape(-1, T, C).sum(axis=0)
    return np.resize(summed, (max_len, C))  # repeats rows 0 … T-1 down the whole table


def gradient_first_sequence_only(grad_out, max_len):
    grad_out = np.asarray(grad_out, dtype=np.float64)
    T, C = grad_out.shape[-2:]
    grad = np.zeros((max_len, C))
    grad[:T] = grad_out.reshape(-1, T, C)[0]  # the other sequences of the batch are dropped
    return grad


def table_scale_one(max_len, C, seed):
    for name, value in (("max_len", max_len), ("C", C)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    return np.random.default_rng(seed).normal(0.0, 1.0, size=(max_len, C))


# --- the catalogue ---------------------------------------------------------------------------

_USES_THE_MASK = ("masked", "peeking", "order")
"""causal_self_attention builds on causal_mask: a wrong mask rightly costs these parts too."""

CATALOGUE = (
    *mask_mistakes("causal_mask", "mask", also_affects=_USES_THE_MASK),
    *masked_softmax_mistakes("masked_softmax", "masked", also_affects=("peeking", "order")),
    Misconception("batch_as_one_sequence", "causal_self_attention", "masked",
                  "the batch is flattened into one long sequence, so sequences see each other",
                  "mask each sequence on its own: scores (B, T, T) from Q @ np.swapaxes(K, -1, "
                  "-2), and causal_mask(T) with T = X.shape[-2]",
                  batch_as_one_sequence, also_affects=("peeking",)),
    Misconception("mask_transposed", "causal_self_attention", "masked",
                  "the mask is transposed: queries attend to later keys",
                  "rows are queries, columns keys: use causal_mask(T) as it is",
                  mask_transposed, also_affects=("peeking", "order")),
    Misconception("symbolic_without_mask", "causal_attention_symbolic", "peeking",
                  "the symbolic attention sums over every token, the later ones too",
                  "row t sums over s = 0 … t only",
                  symbolic_without_mask),
    Misconception("ravi_without_mask", "ravi_in_both_orders", "order",
                  "Ravi's vectors are computed without the mask",
                  "use causal_self_attention: unmasked attention gives Ravi the same vector in "
                  "both orders", ravi_without_mask),
    Misconception("table_scale_one", "init_position_table", "learned",
                  "the table is drawn with standard deviation 1, not 0.02",
                  "normal(0, POSITION_SCALE, size=(max_len, C)): small values, as GPT-2 starts",
                  table_scale_one),
    Misconception("table_from_one", "add_positions", "learned",
                  "positions are taken from row 1 of the table (table[1:T+1])",
                  "position 0 is row 0: tok_emb + table[:T]", table_from_one),
    Misconception("positions_wrap_around", "add_positions", "learned",
                  "positions past max_len wrap around to the table's first rows",
                  "a learned table cannot extrapolate: raise ValueError when T > max_len",
                  positions_wrap_around, refused_inputs=True),
    Misconception("positions_clipped", "add_positions", "learned",
                  "positions past max_len reuse the table's last row",
                  "a learned table cannot extrapolate: raise ValueError when T > max_len",
                  positions_clipped, refused_inputs=True),
    Misconception("gradient_everywhere", "position_table_grad", "learned",
                  "the gradient is spread over every row of the table",
                  "only rows 0 … T−1 were used, so only they receive gradient; rows ≥ T are 0",
                  gradient_everywhere),
    Misconception("gradient_first_sequence_only", "position_table_grad", "learned",
                  "only the first sequence of the batch reaches the gradient",
                  "every sequence adds the same table: sum grad_out over the batch axis",
                  gradient_first_sequence_only),
)  # fmt: skip
