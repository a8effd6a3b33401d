"""Independent student code for `causal_attention`, kept apart from `misconceptions.py`.

Each variant replaces ONE public function of the reference with code in the style of public
implementations, tutorials, textbooks or forum threads. A "correct" variant is another right way
to write the function: the grader must accept it and give no hint. A "mistake" variant is wrong
on some input its docstring allows: the grader must flag it, and every hint it receives must
carry the variant's keywords. `source` is appended after the reference's source, so it may use
`np`, `sp` and the reference's other functions and constants.
"""

from __future__ import annotations

from autograder.authoring import Variant

CORRECT = (
    Variant(
        "mask_arange_comparison",
        # the mask built by broadcasting two aranges, as in many from-scratch GPT notebooks:
        # `i[:, None] >= j[None, :]`, with the integer check written with numbers.Integral
        "from-scratch GPT notebooks comparing np.arange(T)[:, None] >= np.arange(T)",
        """
def causal_mask(T):
    import numbers

    if isinstance(T, bool) or not isinstance(T, numbers.Integral):
        raise ValueError(f"T must be a non-negative integer, got {T!r}")
    if T < 0:
        raise ValueError(f"T must be non-negative, got T={T}")
    idx = np.arange(T)
    return idx[:, None] >= idx[None, :]
""",
        (),
        kind="correct",
    ),
    Variant(
        "mask_not_triu",
        # PyTorch users' torch.triu(ones, diagonal=1) "future" mask, negated to an allowed mask
        "PyTorch's triu(ones, diagonal=1) future mask, inverted to True = allowed",
        """
def causal_mask(T):
    if type(T) is bool or not isinstance(T, (int, np.integer)) or T < 0:
        raise ValueError("T must be an integer >= 0, got T=%r" % (T,))
    future = np.triu(np.ones((T, T), dtype=bool), k=1)
    return ~future
""",
        (),
        kind="correct",
    ),
    Variant(
        "mask_double_loop",
        # a textbook double loop filling the matrix one cell at a time
        "introductory textbooks filling the mask with two nested loops",
        """
def causal_mask(T):
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)):
        raise ValueError(f"T must be an int, got {type(T).__name__} {T!r}")
    if T < 0:
        raise ValueError(f"T must be >= 0, got {T}")
    mask = np.zeros((T, T), dtype=bool)
    for t in range(T):
        for s in range(T):
            if s <= t:
                mask[t, s] = True
    return mask
""",
        (),
        kind="correct",
    ),
    Variant(
        "softmax_masked_fill",
        # PyTorch's scores.masked_fill(~mask, float('-inf')) written in NumPy, with a guard for
        # fully masked rows before anything is exponentiated
        "PyTorch's masked_fill(-inf) idiom ported to NumPy, with a fully-masked-row guard",
        """
def masked_softmax(S, mask, axis=-1):
    S = np.array(S, dtype=float)
    keep = np.asarray(mask, dtype=bool) & np.ones(S.shape, dtype=bool)
    n_allowed = keep.sum(axis=axis)
    if np.any(n_allowed == 0):
        bad = np.unravel_index(int(np.argmin(n_allowed)), n_allowed.shape)
        raise ValueError(f"slice {tuple(int(i) for i in bad)} is fully masked")
    S[~keep] = -np.inf
    S = S - S.max(axis=axis, keepdims=True)
    e = np.exp(S)
    return e / e.sum(axis=axis, keepdims=True)
""",
        (),
        kind="correct",
    ),
    Variant(
        "softmax_logsumexp_moveaxis",
        # the log-sum-exp formulation, with the axis moved to the end first as in many
        # vectorised NumPy answers
        "log-sum-exp answers that move the softmax axis to the end with np.moveaxis",
        """
def masked_softmax(S, mask, axis=-1):
    S = np.asarray(S, dtype=np.float64)
    m = np.broadcast_to(np.asarray(mask, dtype=bool), S.shape)
    s_last = np.moveaxis(S, axis, -1)
    m_last = np.moveaxis(m, axis, -1)
    ok = m_last.any(axis=-1)
    if not ok.all():
        raise ValueError(f"mask slice {np.argwhere(~ok)[0].tolist()} has no allowed entry")
    z = np.where(m_last, s_last, -np.inf)
    top = z.max(axis=-1, keepdims=True)
    lse = top + np.log(np.sum(np.exp(z - top), axis=-1, keepdims=True))
    out = np.where(m_last, np.exp(z - lse), 0.0)
    return np.moveaxis(out, -1, axis)
""",
        (),
        kind="correct",
    ),
    Variant(
        "attention_einsum",
        # einsum-based attention as in einops / JAX tutorials: 'btd,bsd->bts'
        "einsum attention from JAX and einops tutorials ('...td,...sd->...ts')",
        """
def causal_self_attention(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X, dtype=float)
    if X.ndim not in (2, 3):
        raise ValueError(f"X must have 2 or 3 dimensions, got {X.ndim}")
    eye = np.eye(X.shape[-1])
    W_q = eye if W_q is None else np.asarray(W_q, dtype=float)
    W_k = eye if W_k is None else np.asarray(W_k, dtype=float)
    W_v = eye if W_v is None else np.asarray(W_v, dtype=float)
    Q = np.einsum("...td,de->...te", X, W_q)
    K = np.einsum("...td,de->...te", X, W_k)
    V = np.einsum("...td,de->...te", X, W_v)
    scores = np.einsum("...te,...se->...ts", Q, K) / np.sqrt(Q.shape[-1])
    A = masked_softmax(scores, causal_mask(X.shape[-2]))
    return np.einsum("...ts,...se->...te", A, V)
""",
        (),
        kind="correct",
    ),
    Variant(
        "symbolic_matrix_products",
        # SymPy written with whole-matrix products first, then one row at a time
        "SymPy notebooks forming X*X.T / sqrt(d) first, then normalising row by row",
        """
def causal_attention_symbolic(X):
    T, d = X.shape
    scores = X * X.T / sp.sqrt(d)
    out = sp.zeros(T, d)
    for t in range(T):
        w = [sp.exp(scores[t, s]) for s in range(T) if s <= t]
        z = sp.Add(*w)
        for s in range(t + 1):
            out[t, :] = out[t, :] + w[s] * X[s, :] / z
    return out
""",
        (),
        kind="correct",
    ),
    Variant(
        "ravi_loop_over_orders",
        # a loop over the two sentences, picking Ravi's row by where he sits
        "a loop over both sentences, finding Ravi's row by his index",
        """
def ravi_in_both_orders():
    ravi = np.array([2.0, 0.0])
    meera = np.array([0.0, 2.0])
    rows = []
    for sentence in ([ravi, meera], [meera, ravi]):
        out = causal_self_attention(np.array(sentence))
        where = [i for i, w in enumerate(sentence) if w is ravi][0]
        rows.append(out[where])
    return np.array(rows)
""",
        (),
        kind="correct",
    ),
    Variant(
        "init_scaled_standard_normal",
        # GPT-2 style `torch.randn(max_len, C) * 0.02`, with NumPy's Generator
        "GPT-2 ports writing randn(max_len, C) * 0.02 with a NumPy Generator",
        """
def init_position_table(max_len, C, seed):
    for name, v in {"max_len": max_len, "C": C}.items():
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise ValueError(f"{name} must be an integer, got {v!r}")
        if v < 1:
            raise ValueError(f"{name} must be >= 1, got {v}")
    rng = np.random.default_rng(seed)
    return rng.standard_normal((max_len, C)) * POSITION_SCALE
""",
        (),
        kind="correct",
    ),
    Variant(
        "positions_embedding_lookup",
        # nanoGPT's pos = arange(T); pos_emb = wpe(pos); x = tok_emb + pos_emb
        "nanoGPT's pos = arange(T); pos_emb = wpe(pos) lookup",
        """
def add_positions(tok_emb, table):
    tok_emb = np.asarray(tok_emb, dtype=float)
    table = np.asarray(table, dtype=float)
    T = tok_emb.shape[-2]
    max_len = table.shape[0]
    if tok_emb.shape[-1] != table.shape[-1]:
        raise ValueError("embedding widths differ")
    if T > max_len:
        raise ValueError(f"sequence of length T={T} exceeds max_len={max_len}")
    pos = np.arange(T)
    pos_emb = table[pos]
    return tok_emb + pos_emb
""",
        (),
        kind="correct",
    ),
    Variant(
        "grad_add_at",
        # the embedding backward pass of CS231n-style assignments: np.add.at(dW, idx, dout)
        "CS231n-style embedding backward pass with np.add.at",
        """
def position_table_grad(grad_out, max_len):
    g = np.asarray(grad_out, dtype=float)
    T, C = g.shape[-2], g.shape[-1]
    if T > max_len:
        raise ValueError(f"T = {T} > max_len = {max_len}")
    dW = np.zeros((max_len, C))
    idx = np.broadcast_to(np.arange(T), g.shape[:-1])
    np.add.at(dW, idx.ravel(), g.reshape(-1, C))
    return dW
""",
        (),
        kind="correct",
    ),
)

MISTAKES = (
    # ----- causal_mask -----
    Variant(
        "mask_true_means_blocked",
        # nn.MultiheadAttention / nn.Transformer: in a boolean attn_mask, True marks a position
        # that is NOT allowed to attend; copied as is, the mask is the opposite of ours
        "PyTorch's nn.MultiheadAttention attn_mask convention, True = not allowed",
        """
def causal_mask(T):
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 0:
        raise ValueError(f"T must be an integer >= 0, got {T!r}")
    return np.triu(np.ones((T, T), dtype=bool), k=1)
""",
        ("true",),
        kind="mistake",
    ),
    Variant(
        "mask_float_ones",
        # the Annotated Transformer's subsequent_mask and many Keras tutorials build a 0/1 float
        # matrix (tf.linalg.band_part(ones, -1, 0)); right pattern, not a boolean array
        "Keras tutorials' tf.linalg.band_part(tf.ones((T, T)), -1, 0): a float 0/1 mask",
        """
def causal_mask(T):
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 0:
        raise ValueError(f"T must be an integer >= 0, got {T!r}")
    return np.tril(np.ones((T, T)))
""",
        ("boolean",),
        kind="mistake",
    ),
    Variant(
        "mask_additive",
        # nn.Transformer.generate_square_subsequent_mask: a float mask of 0 and -inf to add to
        # the scores, not a boolean mask of allowed keys
        "PyTorch's generate_square_subsequent_mask: an additive float mask of 0 and -inf",
        """
def causal_mask(T):
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 0:
        raise ValueError(f"T must be an integer >= 0, got {T!r}")
    return np.triu(np.full((T, T), -np.inf), k=1)
""",
        ("boolean",),
        kind="mistake",
    ),
    Variant(
        "mask_upper_triangle",
        # np.triu instead of np.tril: keys s >= t allowed, a mask that only looks ahead
        "Stack Overflow: 'which of np.triu or np.tril gives the look-ahead mask?'",
        """
def causal_mask(T):
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 0:
        raise ValueError(f"T must be an integer >= 0, got {T!r}")
    return np.triu(np.ones((T, T), dtype=bool))
""",
        ("lower",),
        kind="mistake",
    ),
    Variant(
        "mask_diagonal_excluded",
        # tril with k=-1 (or a strict `s < t` comparison): a token may not attend to itself
        "forum code with np.tril(..., k=-1) or s < t, leaving out the diagonal",
        """
def causal_mask(T):
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 0:
        raise ValueError(f"T must be an integer >= 0, got {T!r}")
    i = np.arange(T)
    return i[:, None] > i[None, :]
""",
        ("diagonal",),
        kind="mistake",
    ),
    Variant(
        "mask_assert",
        # input checks written as assert statements, as in many research repositories
        "research repositories validating arguments with assert",
        """
def causal_mask(T):
    assert isinstance(T, int) and not isinstance(T, bool), "T must be an integer"
    assert T >= 0, "T must be >= 0"
    return np.tril(np.ones((T, T), dtype=bool))
""",
        ("valueerror",),
        kind="mistake",
    ),
    Variant(
        "mask_int_cast",
        # `T = int(T)` up front: 4.0 and True are silently accepted as counts
        "scripts that coerce the length with int(T) before building the mask",
        """
def causal_mask(T):
    T = int(T)
    if T < 0:
        raise ValueError(f"T must be >= 0, got {T}")
    return np.tril(np.ones((T, T), dtype=bool))
""",
        ("integer",),
        kind="mistake",
    ),
    # ----- masked_softmax -----
    Variant(
        "softmax_inf_no_guard",
        # masked_fill(-inf) then softmax: a fully masked row becomes nan (the PyTorch issue
        # "MultiheadAttention returns nan when a row of key_padding_mask is all True")
        "PyTorch issue threads on nan outputs when a whole row is masked with -inf",
        """
def masked_softmax(S, mask, axis=-1):
    S = np.asarray(S, dtype=float)
    z = np.where(mask, S, -np.inf)
    z = z - np.max(z, axis=axis, keepdims=True)
    e = np.exp(z)
    return e / np.sum(e, axis=axis, keepdims=True)
""",
        ("fully masked",),
        kind="mistake",
    ),
    Variant(
        "softmax_fill_minus_1e9",
        # the Annotated Transformer's scores.masked_fill(mask == 0, -1e9): an empty row becomes
        # uniform instead of an error
        "the Annotated Transformer's masked_fill(mask == 0, -1e9)",
        """
def masked_softmax(S, mask, axis=-1):
    z = np.where(mask, np.asarray(S, dtype=float), -1e9)
    z = z - z.max(axis=axis, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=axis, keepdims=True)
""",
        ("fully masked",),
        kind="mistake",
    ),
    Variant(
        "softmax_no_max",
        # the textbook exp(x) / sum(exp(x)) without subtracting the maximum: overflows at 1e4
        "textbook softmax exp(x) / sum(exp(x)) without the max shift",
        """
def masked_softmax(S, mask, axis=-1):
    S = np.asarray(S, dtype=float)
    m = np.broadcast_to(np.asarray(mask, dtype=bool), S.shape)
    if not m.any(axis=axis).all():
        raise ValueError("a slice of the mask allows no entry")
    e = np.where(m, np.exp(S), 0.0)
    return e / e.sum(axis=axis, keepdims=True)
""",
        ("maximum",),
        kind="mistake",
    ),
    Variant(
        "softmax_times_mask",
        # scores * mask before the softmax: masked scores become 0, and exp(0) = 1 is not 0
        "forum code masking by multiplying the scores with the 0/1 mask",
        """
def masked_softmax(S, mask, axis=-1):
    S = np.asarray(S, dtype=float)
    m = np.broadcast_to(np.asarray(mask, dtype=bool), S.shape)
    if not m.any(axis=axis).all():
        raise ValueError("a slice of the mask allows no entry")
    z = S * m
    z = z - z.max(axis=axis, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=axis, keepdims=True)
""",
        ("exactly 0",),
        kind="mistake",
    ),
    Variant(
        "softmax_then_mask_renormalise",
        # full softmax, zero the masked weights, renormalise: a large masked score underflows
        # every allowed weight to 0 and the renormalisation divides 0 by 0
        "'softmax, multiply by the mask, divide by the row sum' answers on Stack Overflow",
        """
def masked_softmax(S, mask, axis=-1):
    S = np.asarray(S, dtype=float)
    m = np.broadcast_to(np.asarray(mask, dtype=bool), S.shape)
    if not m.any(axis=axis).all():
        raise ValueError("a slice of the mask allows no entry")
    e = np.exp(S - S.max(axis=axis, keepdims=True))
    p = e / e.sum(axis=axis, keepdims=True)
    p = p * m
    return p / p.sum(axis=axis, keepdims=True)
""",
        ("before",),
        kind="mistake",
    ),
    Variant(
        "softmax_axis_ignored",
        # a softmax hard-wired to the last axis, the `axis` argument accepted and unused
        "tutorial softmax helpers hard-wired to axis=-1",
        """
def masked_softmax(S, mask, axis=-1):
    S = np.asarray(S, dtype=float)
    m = np.broadcast_to(np.asarray(mask, dtype=bool), S.shape)
    if not m.any(axis=-1).all():
        raise ValueError("a row of the mask allows no entry")
    z = np.where(m, S, -np.inf)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
        ("axis",),
        kind="mistake",
    ),
    Variant(
        "softmax_no_keepdims",
        # e / e.sum(axis=1) without keepdims: NumPy broadcasts the row sums along the rows
        "Stack Overflow: 'my softmax rows do not sum to 1' (sum without keepdims)",
        """
def masked_softmax(S, mask, axis=-1):
    S = np.asarray(S, dtype=float)
    m = np.broadcast_to(np.asarray(mask, dtype=bool), S.shape)
    if not m.any(axis=axis).all():
        raise ValueError("a slice of the mask allows no entry")
    z = np.where(m, S, -np.inf)
    e = np.exp(z - z.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis)
""",
        ("keepdims",),
        kind="mistake",
    ),
    Variant(
        "softmax_in_place_fill",
        # PyTorch's in-place masked_fill_ ported as S[~mask] = -inf on the caller's array
        "PyTorch's in-place masked_fill_ ported to NumPy as S[~mask] = -inf",
        """
def masked_softmax(S, mask, axis=-1):
    m = np.broadcast_to(np.asarray(mask, dtype=bool), np.shape(S))
    if not m.any(axis=axis).all():
        raise ValueError("a slice of the mask allows no entry")
    S[~m] = -np.inf
    S -= S.max(axis=axis, keepdims=True)
    e = np.exp(S)
    return e / e.sum(axis=axis, keepdims=True)
""",
        ("modif",),
        kind="mistake",
    ),
    Variant(
        "softmax_padding_convention",
        # key_padding_mask convention (True = ignore this key) applied to an allowed mask
        "PyTorch's key_padding_mask convention, True = ignore this key",
        """
def masked_softmax(S, mask, axis=-1):
    S = np.asarray(S, dtype=float)
    blocked = np.broadcast_to(np.asarray(mask, dtype=bool), S.shape)
    if blocked.all(axis=axis).any():
        raise ValueError("a slice has every key masked")
    z = np.where(blocked, -np.inf, S)
    e = np.exp(z - z.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)
""",
        ("true",),
        kind="mistake",
    ),
    # ----- causal_self_attention -----
    Variant(
        "attention_no_scale",
        # softmax(Q K^T) V with the 1/sqrt(d_k) forgotten, as in many first attempts
        "first attempts at attention that forget the 1/sqrt(d_k) scale",
        """
def causal_self_attention(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X, dtype=float)
    Q = X if W_q is None else X @ W_q
    K = X if W_k is None else X @ W_k
    V = X if W_v is None else X @ W_v
    scores = Q @ np.swapaxes(K, -1, -2)
    return masked_softmax(scores, causal_mask(X.shape[-2])) @ V
""",
        ("√d",),
        kind="mistake",
    ),
    Variant(
        "attention_divide_by_dk",
        # scores / d_k instead of / sqrt(d_k)
        "blog posts that divide the scores by d_k rather than its square root",
        """
def causal_self_attention(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X, dtype=float)
    Q = X if W_q is None else X @ W_q
    K = X if W_k is None else X @ W_k
    V = X if W_v is None else X @ W_v
    scores = Q @ np.swapaxes(K, -1, -2) / Q.shape[-1]
    return masked_softmax(scores, causal_mask(X.shape[-2])) @ V
""",
        ("√d",),
        kind="mistake",
    ),
    Variant(
        "attention_scale_by_model_width",
        # scale by sqrt(d_model), the width of X, instead of the width of the keys
        "implementations scaling by sqrt(d_model) instead of sqrt(d_k)",
        """
def causal_self_attention(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X, dtype=float)
    Q = X if W_q is None else X @ W_q
    K = X if W_k is None else X @ W_k
    V = X if W_v is None else X @ W_v
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(X.shape[-1])
    return masked_softmax(scores, causal_mask(X.shape[-2])) @ V
""",
        ("d_k",),
        kind="mistake",
    ),
    Variant(
        "attention_K_dot_T",
        # K.T reverses every axis of a batch (B, T, d) instead of swapping the last two
        "Stack Overflow: 'K.T breaks batched attention in NumPy' (transpose vs swapaxes)",
        """
def causal_self_attention(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X, dtype=float)
    Q = X if W_q is None else X @ W_q
    K = X if W_k is None else X @ W_k
    V = X if W_v is None else X @ W_v
    scores = Q @ K.T / np.sqrt(Q.shape[-1])
    return masked_softmax(scores, causal_mask(X.shape[-2])) @ V
""",
        ("batch",),
        kind="mistake",
    ),
    Variant(
        "attention_T_from_first_axis",
        # T = X.shape[0], right for (T, d) but the batch size for (B, T, d)
        "single-sequence code reused on batches with T = X.shape[0]",
        """
def causal_self_attention(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X, dtype=float)
    T = X.shape[0]
    Q = X if W_q is None else X @ W_q
    K = X if W_k is None else X @ W_k
    V = X if W_v is None else X @ W_v
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    return masked_softmax(scores, causal_mask(T)) @ V
""",
        ("batch",),
        kind="mistake",
    ),
    Variant(
        "attention_linear_convention",
        # nn.Linear stores weights as (out, in) and computes x @ W.T; applied to our weights
        "PyTorch's nn.Linear convention y = x @ W.T applied to (d, d_k) weights",
        """
def causal_self_attention(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X, dtype=float)
    Q = X if W_q is None else X @ np.asarray(W_q).T
    K = X if W_k is None else X @ np.asarray(W_k).T
    V = X if W_v is None else X @ np.asarray(W_v).T
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    return masked_softmax(scores, causal_mask(X.shape[-2])) @ V
""",
        ("transpose",),
        kind="mistake",
    ),
    Variant(
        "attention_mask_after_softmax",
        # softmax over all keys, then the weights multiplied by the mask: rows no longer sum to 1
        "blog posts zeroing future weights after an ordinary softmax",
        """
def causal_self_attention(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X, dtype=float)
    Q = X if W_q is None else X @ W_q
    K = X if W_k is None else X @ W_k
    V = X if W_v is None else X @ W_v
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    A = e / e.sum(axis=-1, keepdims=True)
    return (A * causal_mask(X.shape[-2])) @ V
""",
        ("sum to 1",),
        kind="mistake",
    ),
    Variant(
        "attention_unmasked",
        # the first assignment's encoder attention, the mask never applied
        "encoder self-attention tutorials reused for a decoder, no mask at all",
        """
def causal_self_attention(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X, dtype=float)
    Q = X if W_q is None else X @ W_q
    K = X if W_k is None else X @ W_k
    V = X if W_v is None else X @ W_v
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    allowed = np.ones(scores.shape[-2:], dtype=bool)
    return masked_softmax(scores, allowed) @ V
""",
        ("mask",),
        kind="mistake",
    ),
    # ----- causal_attention_symbolic -----
    Variant(
        "symbolic_numpy_exp",
        # np.exp on a SymPy expression: NumPy looks for an .exp() method and fails
        "Stack Overflow: 'TypeError: loop of ufunc does not support argument 0 of type Symbol'",
        """
def causal_attention_symbolic(X):
    T, d = X.shape
    rows = []
    for t in range(T):
        w = [np.exp((X.row(t) * X.row(s).T)[0, 0] / sp.sqrt(d)) for s in range(t + 1)]
        z = sum(w)
        rows.append(sum((wi * X.row(s) for s, wi in enumerate(w)), sp.zeros(1, d)) / z)
    return sp.Matrix.vstack(*rows) if rows else sp.zeros(0, d)
""",
        ("sympy",),
        kind="mistake",
    ),
    Variant(
        "symbolic_math_sqrt",
        # math.sqrt(d) puts a rounded Float into the exact expression
        "SymPy questions on Floats appearing in results after mixing math.sqrt with symbols",
        """
def causal_attention_symbolic(X):
    import math

    T, d = X.shape
    rows = []
    for t in range(T):
        w = [sp.exp((X.row(t) * X.row(s).T)[0, 0] / math.sqrt(d)) for s in range(t + 1)]
        z = sum(w)
        rows.append(sum((wi * X.row(s) for s, wi in enumerate(w)), sp.zeros(1, d)) / z)
    return sp.Matrix.vstack(*rows) if rows else sp.zeros(0, d)
""",
        ("exact",),
        kind="mistake",
    ),
    Variant(
        "symbolic_range_t",
        # range(t) where s <= t was meant: a token never sees itself, and row 0 divides by 0
        "off-by-one loops writing range(t) for the keys s <= t",
        """
def causal_attention_symbolic(X):
    T, d = X.shape
    rows = []
    for t in range(T):
        w = [sp.exp((X.row(t) * X.row(s).T)[0, 0] / sp.sqrt(d)) for s in range(t)]
        z = sum(w)
        rows.append(sum((wi * X.row(s) for s, wi in enumerate(w)), sp.zeros(1, d)) / z)
    return sp.Matrix.vstack(*rows) if rows else sp.zeros(0, d)
""",
        ("s ≤ t",),
        kind="mistake",
    ),
    Variant(
        "symbolic_no_sqrt",
        # the exact formula with the 1/sqrt(d) forgotten
        "symbolic derivations of attention that drop the 1/sqrt(d) scale",
        """
def causal_attention_symbolic(X):
    T, d = X.shape
    rows = []
    for t in range(T):
        w = [sp.exp((X.row(t) * X.row(s).T)[0, 0]) for s in range(t + 1)]
        z = sum(w)
        rows.append(sum((wi * X.row(s) for s, wi in enumerate(w)), sp.zeros(1, d)) / z)
    return sp.Matrix.vstack(*rows) if rows else sp.zeros(0, d)
""",
        ("√d",),
        kind="mistake",
    ),
    # ----- ravi_in_both_orders -----
    Variant(
        "ravi_same_index",
        # row 0 taken from both outputs: in "Meera saw Ravi" that is Meera's output
        "copy-pasted indexing that reads row 0 of both sentences",
        """
def ravi_in_both_orders():
    ravi, meera = np.array([2.0, 0.0]), np.array([0.0, 2.0])
    a = causal_self_attention(np.stack([ravi, meera]))[0]
    b = causal_self_attention(np.stack([meera, ravi]))[0]
    return np.stack([a, b])
""",
        ("ravi",),
        kind="mistake",
    ),
    # ----- the learned table -----
    Variant(
        "init_legacy_seed",
        # np.random.seed(seed); np.random.normal(...): the legacy global generator, another stream
        "older tutorials seeding NumPy's global generator with np.random.seed",
        """
def init_position_table(max_len, C, seed):
    for name, value in (("max_len", max_len), ("C", C)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    np.random.seed(seed)
    return np.random.normal(0.0, POSITION_SCALE, size=(max_len, C))
""",
        ("default_rng",),
        kind="mistake",
    ),
    Variant(
        "init_unit_std",
        # nn.Embedding's default init N(0, 1), not GPT-2's 0.02
        "PyTorch's nn.Embedding default initialisation N(0, 1)",
        """
def init_position_table(max_len, C, seed):
    for name, value in (("max_len", max_len), ("C", C)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    return np.random.default_rng(seed).normal(0.0, 1.0, size=(max_len, C))
""",
        ("standard deviation",),
        kind="mistake",
    ),
    Variant(
        "init_accepts_floats",
        # int(max_len), int(C): 4.0 and True pass as sizes
        "scripts casting the sizes with int() before allocating the table",
        """
def init_position_table(max_len, C, seed):
    max_len, C = int(max_len), int(C)
    if max_len < 1 or C < 1:
        raise ValueError(f"max_len and C must be >= 1, got {max_len}, {C}")
    return np.random.default_rng(seed).normal(0.0, POSITION_SCALE, size=(max_len, C))
""",
        ("integer",),
        kind="mistake",
    ),
    Variant(
        "positions_from_one",
        # positions numbered 1 … T, as in 1-based position ids (and BERT-like offsets)
        "code numbering positions from 1, as with 1-based position ids",
        """
def add_positions(tok_emb, table):
    tok_emb = np.asarray(tok_emb, dtype=float)
    table = np.asarray(table, dtype=float)
    T, C = tok_emb.shape[-2:]
    if table.shape[1] != C:
        raise ValueError("widths differ")
    if T > table.shape[0]:
        raise ValueError(f"T = {T} > max_len = {table.shape[0]}")
    return tok_emb + table[np.arange(1, T + 1) % table.shape[0]]
""",
        ("row 0",),
        kind="mistake",
    ),
    Variant(
        "positions_whole_table",
        # tok_emb + table without [:T]: only works when T == max_len
        "forum code adding the whole position table, shapes matching only for T = max_len",
        """
def add_positions(tok_emb, table):
    tok_emb = np.asarray(tok_emb, dtype=float)
    table = np.asarray(table, dtype=float)
    if table.shape[1] != tok_emb.shape[-1]:
        raise ValueError("widths differ")
    if tok_emb.shape[-2] > table.shape[0]:
        raise ValueError("T > max_len")
    return tok_emb + table
""",
        ("first", "rows"),
        kind="mistake",
    ),
    Variant(
        "positions_wrap_around",
        # position ids taken modulo max_len, so long sequences silently reuse rows
        "code taking position ids modulo max_len to avoid an index error",
        """
def add_positions(tok_emb, table):
    tok_emb = np.asarray(tok_emb, dtype=float)
    table = np.asarray(table, dtype=float)
    T, C = tok_emb.shape[-2:]
    if table.shape[1] != C:
        raise ValueError("widths differ")
    return tok_emb + table[np.arange(T) % table.shape[0]]
""",
        ("max_len",),
        kind="mistake",
    ),
    Variant(
        "positions_in_place",
        # x += pos_emb on the caller's array, PyTorch's in-place add_ habit
        "in-place x += pos_emb, modifying the caller's embeddings",
        """
def add_positions(tok_emb, table):
    T, C = tok_emb.shape[-2:]
    if table.shape[1] != C:
        raise ValueError("widths differ")
    if T > table.shape[0]:
        raise ValueError(f"T = {T} > max_len = {table.shape[0]}")
    tok_emb += table[:T]
    return tok_emb
""",
        ("modif",),
        kind="mistake",
    ),
    Variant(
        "grad_fancy_assign",
        # dW[idx] = dout: with repeated indices fancy assignment keeps only the last write
        "Stack Overflow: 'dW[idx] += dout does not accumulate repeated indices'",
        """
def position_table_grad(grad_out, max_len):
    g = np.asarray(grad_out, dtype=float)
    T, C = g.shape[-2:]
    if T > max_len:
        raise ValueError(f"T = {T} > max_len = {max_len}")
    dW = np.zeros((max_len, C))
    idx = np.broadcast_to(np.arange(T), g.shape[:-1]).ravel()
    dW[idx] += g.reshape(-1, C)
    return dW
""",
        ("sum",),
        kind="mistake",
    ),
    Variant(
        "grad_batch_mean",
        # averaging over the batch, as a loss's mean reduction is sometimes folded in twice
        "code averaging the gradient over the batch instead of summing it",
        """
def position_table_grad(grad_out, max_len):
    g = np.asarray(grad_out, dtype=float)
    T, C = g.shape[-2:]
    if T > max_len:
        raise ValueError(f"T = {T} > max_len = {max_len}")
    dW = np.zeros((max_len, C))
    dW[:T] = g.reshape(-1, T, C).mean(axis=0)
    return dW
""",
        ("sum",),
        kind="mistake",
    ),
    Variant(
        "grad_only_used_rows",
        # the gradient of the slice table[:T] returned as if it were the table's gradient
        "code returning the gradient of table[:T] instead of the whole table",
        """
def position_table_grad(grad_out, max_len):
    g = np.asarray(grad_out, dtype=float)
    T, C = g.shape[-2:]
    if T > max_len:
        raise ValueError(f"T = {T} > max_len = {max_len}")
    return g.reshape(-1, T, C).sum(axis=0)
""",
        ("max_len",),
        kind="mistake",
    ),
)

VARIANTS = CORRECT + MISTAKES
