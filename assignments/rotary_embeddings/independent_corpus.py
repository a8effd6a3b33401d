"""Independent student code for `rotary_embeddings`, kept apart from `misconceptions.py`.

Each variant replaces ONE public function of the reference (`rope`, `rope_matrix`,
`rope_attention`) with code in the style of public implementations, GitHub issues, pull requests
and forum threads about rotary position embeddings (RoPE). A "correct" variant is another right
way to write the function: the grader must accept it and give no hint. A "mistake" variant is
wrong on some input its docstring allows (or accepts arguments the docstring refuses); each is
how a student who learnt from that public code or discussion would get the function wrong, and
its `origin` names where it comes from (an issue or pull request, a repository and path, or,
where no single thread holds it, the kind of code it is typical of). The grader must name each
mistake and say nothing misleading: every hint a mistake receives must carry the variant's
keywords. `source` is appended after the reference's source, so it may use `np`, `sp` and the
reference's other functions.
"""

from __future__ import annotations

from autograder.authoring import Variant

CORRECT = (
    # ----- rope -----
    Variant(
        "rope_complex_multiplication",
        # Meta's LLaMA apply_rotary_emb: view_as_complex(x.reshape(..., -1, 2)) * freqs_cis,
        # freqs_cis = polar(1, outer(t, freqs)); the halves layout as x[:h] + i x[h:]
        "Meta's llama/model.py apply_rotary_emb and precompute_freqs_cis (torch.view_as_complex "
        "times torch.polar), quoted in https://github.com/huggingface/transformers/issues/25199",
        """
def rope(X, positions=None, base=10000.0, layout="interleaved"):
    x = np.asarray(X, dtype=np.float64)
    if x.ndim not in (2, 3):
        raise ValueError(f"X must be (T, C) or (B, T, C), got shape {x.shape}")
    T, C = x.shape[-2:]
    if C % 2:
        raise ValueError(f"C must be even, got {C}")
    if not base > 0:
        raise ValueError(f"base must be positive, got {base}")
    if layout not in ("interleaved", "halves"):
        raise ValueError(f"unknown layout {layout!r}")
    t = np.arange(T, dtype=np.float64) if positions is None else np.asarray(positions, float)
    if t.shape != (T,):
        raise ValueError(f"positions must have length T = {T}, got shape {t.shape}")
    freqs = 1.0 / (float(base) ** (np.arange(0, C, 2, dtype=np.float64) / C))
    freqs_cis = np.exp(1j * np.outer(t, freqs))  # torch.polar(ones, angles)
    h = C // 2
    if layout == "interleaved":
        pairs = x.reshape(*x.shape[:-1], h, 2)
        xc = pairs[..., 0] + 1j * pairs[..., 1]
        out = xc * freqs_cis
        return np.stack([out.real, out.imag], axis=-1).reshape(x.shape)
    xc = x[..., :h] + 1j * x[..., h:]
    out = xc * freqs_cis
    return np.concatenate([out.real, out.imag], axis=-1)
""",
        (),
        kind="correct",
    ),
    Variant(
        "rope_rotate_half_hf",
        # Hugging Face modeling_llama: emb = cat((freqs, freqs)), q * cos + rotate_half(q) * sin;
        # the interleaved layout as GPT-J's rotate_every_two with repeat_interleave'd cos and sin
        "Hugging Face transformers models/llama/modeling_llama.py rotate_half / "
        "apply_rotary_pos_emb and models/gptj/modeling_gptj.py rotate_every_two",
        """
def rope(X, positions=None, base=10000.0, layout="interleaved"):
    q = np.array(X, dtype=np.float64)
    if q.ndim not in (2, 3):
        raise ValueError(f"expected a (T, C) or (B, T, C) array, got {q.ndim} dimensions")
    seq_len, dim = q.shape[-2], q.shape[-1]
    if dim % 2 != 0:
        raise ValueError("rotary dimension must be even")
    if not (base > 0):
        raise ValueError("base must be > 0")
    if positions is None:
        position_ids = np.arange(seq_len, dtype=np.float64)
    else:
        position_ids = np.asarray(positions, dtype=np.float64)
        if position_ids.ndim != 1 or len(position_ids) != seq_len:
            raise ValueError("one position per token is needed")
    inv_freq = 1.0 / (base ** (np.arange(0, dim, 2, dtype=np.int64).astype(np.float64) / dim))
    freqs = position_ids[:, None] * inv_freq[None, :]
    if layout == "halves":
        emb = np.concatenate((freqs, freqs), axis=-1)

        def rotate(x):
            x1 = x[..., : x.shape[-1] // 2]
            x2 = x[..., x.shape[-1] // 2 :]
            return np.concatenate((-x2, x1), axis=-1)

    elif layout == "interleaved":
        emb = np.repeat(freqs, 2, axis=-1)

        def rotate(x):
            x1 = x[..., ::2]
            x2 = x[..., 1::2]
            return np.stack((-x2, x1), axis=-1).reshape(x.shape)

    else:
        raise ValueError(f"layout must be 'interleaved' or 'halves', not {layout!r}")
    return q * np.cos(emb) + rotate(q) * np.sin(emb)
""",
        (),
        kind="correct",
    ),
    Variant(
        "rope_einsum_2x2_blocks",
        # one 2x2 rotation per (position, pair), applied with einsum over the pairs
        "einsum-style RoPE notebooks: a (T, C/2, 2, 2) stack of rotations, "
        "np.einsum('tpij,...tpj->...tpi')",
        """
def rope(X, positions=None, base=10000.0, layout="interleaved"):
    X = np.asarray(X, dtype=float)
    if X.ndim < 2 or X.ndim > 3:
        raise ValueError("X must have 2 or 3 axes")
    T, C = X.shape[-2], X.shape[-1]
    if C % 2 == 1:
        raise ValueError("C must be even")
    if base <= 0 or np.isnan(base):
        raise ValueError("base must be positive")
    if layout not in {"interleaved", "halves"}:
        raise ValueError("layout must be interleaved or halves")
    m = np.arange(T) if positions is None else np.asarray(positions, dtype=float)
    if m.ndim != 1 or m.shape[0] != T:
        raise ValueError("positions must hold T entries")
    half = C // 2
    theta = np.power(float(base), -2.0 * np.arange(half) / C)
    a = np.einsum("t,p->tp", m, theta)
    c, s = np.cos(a), np.sin(a)
    R = np.stack([np.stack([c, -s], -1), np.stack([s, c], -1)], -2)  # (T, half, 2, 2)
    if layout == "interleaved":
        pairs = X.reshape(X.shape[:-1] + (half, 2))
        return np.einsum("tpij,...tpj->...tpi", R, pairs).reshape(X.shape)
    pairs = np.stack([X[..., :half], X[..., half:]], axis=-1)
    out = np.einsum("tpij,...tpj->...tpi", R, pairs)
    return np.concatenate([out[..., 0], out[..., 1]], axis=-1)
""",
        (),
        kind="correct",
    ),
    Variant(
        "rope_explicit_loops",
        # the RoFormer formula written out token by token and pair by pair with math.cos/sin
        "from-scratch blog posts that loop over tokens and pairs with math.cos and math.sin "
        "(the RoFormer paper's equation 34 read literally)",
        """
def rope(X, positions=None, base=10000.0, layout="interleaved"):
    import math

    X = np.asarray(X, dtype=np.float64)
    batched = X.ndim == 3
    if X.ndim not in (2, 3):
        raise ValueError("X must be 2-D or 3-D")
    T, C = X.shape[-2:]
    if C % 2 != 0:
        raise ValueError("odd C")
    if not base > 0:
        raise ValueError("base must be positive")
    if layout not in ("interleaved", "halves"):
        raise ValueError("bad layout")
    if positions is None:
        positions = list(range(T))
    positions = np.asarray(positions, dtype=np.float64)
    if positions.shape != (T,):
        raise ValueError("need one position per row")
    Xb = X if batched else X[None]
    out = np.zeros_like(Xb)
    for b in range(Xb.shape[0]):
        for t in range(T):
            for i in range(C // 2):
                theta = float(base) ** (-2.0 * i / C)
                angle = positions[t] * theta
                j, k = (2 * i, 2 * i + 1) if layout == "interleaved" else (i, i + C // 2)
                x0, x1 = Xb[b, t, j], Xb[b, t, k]
                out[b, t, j] = x0 * math.cos(angle) - x1 * math.sin(angle)
                out[b, t, k] = x0 * math.sin(angle) + x1 * math.cos(angle)
    return out if batched else out[0]
""",
        (),
        kind="correct",
    ),
    Variant(
        "rope_stack_unbind_gptj",
        # lucidrains rotary-embedding-torch / GPT-J: rearrange '... (d r) -> ... d r', unbind,
        # stack((-x2, x1)); freqs repeated '... n -> ... (n r)'; halves by a permutation
        "lucidrains/rotary-embedding-torch rotary_embedding_torch.py rotate_half (rearrange, "
        "unbind, stack) and EleutherAI's first rotate_every_two "
        "(https://github.com/EleutherAI/gpt-neox/issues/834)",
        """
def rope(X, positions=None, base=10000.0, layout="interleaved"):
    t = np.asarray(X, dtype=np.float64)
    if t.ndim not in (2, 3):
        raise ValueError("X must be (T, C) or (B, T, C)")
    seq_len, dim = t.shape[-2:]
    if dim % 2:
        raise ValueError("dim must be divisible by 2")
    if not base > 0:
        raise ValueError("theta must be positive")
    if layout not in ("interleaved", "halves"):
        raise ValueError("layout?")
    seq = np.arange(seq_len, dtype=np.float64) if positions is None else np.asarray(positions)
    seq = seq.astype(np.float64)
    if seq.shape != (seq_len,):
        raise ValueError("positions must be of length T")
    perm = np.arange(dim)
    if layout == "halves":  # channel i pairs with i + C/2: gather the pairs side by side
        perm = np.stack([np.arange(dim // 2), np.arange(dim // 2) + dim // 2], -1).reshape(-1)
    t = t[..., perm]
    freqs = 1.0 / (base ** (np.arange(0, dim, 2)[: dim // 2].astype(np.float64) / dim))
    freqs = np.repeat(np.einsum("i,j->ij", seq, freqs), 2, axis=-1)  # '... n -> ... (n r)'
    x = t.reshape(*t.shape[:-1], dim // 2, 2)
    x1, x2 = x[..., 0], x[..., 1]
    rotated = np.stack((-x2, x1), axis=-1).reshape(t.shape)
    out = t * np.cos(freqs) + rotated * np.sin(freqs)
    return out[..., np.argsort(perm)]
""",
        (),
        kind="correct",
    ),
    Variant(
        "rope_inv_freq_half_dim",
        # rasbt's LLMs-from-scratch: inv_freq = 1 / base ** (arange(head_dim // 2) / (head_dim
        # // 2)), the same 2i/C written as i/(C/2); angles through a sin/cos table lookup
        "rasbt/LLMs-from-scratch ch05/07_gpt_to_llama compute_rope_params, "
        "arange(head_dim // 2) / (head_dim // 2) (https://github.com/rasbt/LLMs-from-scratch/"
        "issues/410), with a precomputed table indexed by the positions as in torchtune",
        """
def rope(X, positions=None, base=10000.0, layout="interleaved"):
    x = np.asarray(X, dtype=np.float64)
    if x.ndim not in (2, 3):
        raise ValueError("x must have shape (T, C) or (B, T, C)")
    T, head_dim = x.shape[-2:]
    if head_dim % 2 != 0:
        raise ValueError("Embedding dimension must be even")
    if not base > 0:
        raise ValueError("theta_base must be positive")
    if layout not in ("interleaved", "halves"):
        raise ValueError("layout must be 'interleaved' or 'halves'")
    if positions is None:
        positions = np.arange(T)
    positions = np.asarray(positions, dtype=np.float64)
    if positions.ndim != 1 or positions.size != T:
        raise ValueError("positions must have T entries")
    half = head_dim // 2
    inv_freq = 1.0 / (base ** (np.arange(half, dtype=np.float64) / max(half, 1)))
    angles = positions[:, None] * inv_freq[None, :]
    cos, sin = np.cos(angles), np.sin(angles)
    if layout == "halves":
        x1, x2 = x[..., :half], x[..., half:]
        return np.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1)
    x1, x2 = x[..., 0::2], x[..., 1::2]
    out = np.empty_like(x)
    out[..., 0::2] = x1 * cos - x2 * sin
    out[..., 1::2] = x1 * sin + x2 * cos
    return out
""",
        (),
        kind="correct",
    ),
    # ----- rope_matrix -----
    Variant(
        "matrix_block_assignment",
        # the RoFormer paper's sparse R_{Θ,m}: cos/sin written into the 2x2 blocks one by one
        "the RoFormer paper's block-diagonal R_Θ,m built entry by entry, as in "
        "bkitano/llama-from-scratch get_rotary_matrix "
        "(https://github.com/bkitano/llama-from-scratch/issues/8, with the i - 1 fixed)",
        """
def rope_matrix(m, C, base=10000.0, layout="interleaved"):
    rope(np.zeros((1, C)), positions=[m], base=base, layout=layout)  # the same checks
    R = np.zeros((C, C))
    for i in range(C // 2):
        theta = base ** (-2.0 * i / C)
        a, b = (2 * i, 2 * i + 1) if layout == "interleaved" else (i, i + C // 2)
        R[a, a] = np.cos(m * theta)
        R[a, b] = -np.sin(m * theta)
        R[b, a] = np.sin(m * theta)
        R[b, b] = np.cos(m * theta)
    return R
""",
        (),
        kind="correct",
    ),
    Variant(
        "matrix_block_diag_permuted",
        # scipy.linalg.block_diag of the 2x2 rotations; the halves layout as P^T R P
        "scipy.linalg.block_diag of 2x2 rotations, the halves layout reached by the channel "
        "permutation of Hugging Face's convert_llama_weights_to_hf.py permute "
        "(https://github.com/tatsu-lab/stanford_alpaca/issues/227)",
        """
def rope_matrix(m, C, base=10000.0, layout="interleaved"):
    import scipy.linalg

    rope(np.zeros((1, C)), positions=[m], base=base, layout=layout)
    half = C // 2
    thetas = base ** (-2.0 * np.arange(half) / C)
    blocks = [
        np.array([[np.cos(m * t), -np.sin(m * t)], [np.sin(m * t), np.cos(m * t)]])
        for t in thetas
    ]
    R = scipy.linalg.block_diag(*blocks) if blocks else np.zeros((0, 0))
    if layout == "interleaved":
        return R
    order = np.stack([np.arange(half), np.arange(half) + half], axis=-1).reshape(-1)
    P = np.eye(C)[order]  # interleaved index k holds halves channel order[k]
    return P.T @ R @ P
""",
        (),
        kind="correct",
    ),
    Variant(
        "matrix_kron",
        # R = sum_i kron(E_ii, R_i): each pair's rotation placed on the diagonal by np.kron
        "linear-algebra notes writing the block-diagonal rotation as a sum of Kronecker products",
        """
def rope_matrix(m, C, base=10000.0, layout="interleaved"):
    rope(np.zeros((1, C)), positions=[m], base=base, layout=layout)
    half = C // 2
    R = np.zeros((C, C))
    for i in range(half):
        a = m * base ** (-2.0 * i / C)
        E = np.zeros((half, half))
        E[i, i] = 1.0
        R += np.kron(E, np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]))
    if layout == "halves":
        order = np.ravel(np.column_stack([np.arange(half), np.arange(half) + half]))
        R_h = np.zeros((C, C))
        R_h[np.ix_(order, order)] = R
        return R_h
    return R
""",
        (),
        kind="correct",
    ),
    Variant(
        "matrix_columns_of_rope",
        # the matrix of a linear map: its columns are the images of the basis vectors
        "the linear-algebra route: R's columns are rope applied to the identity's rows",
        """
def rope_matrix(m, C, base=10000.0, layout="interleaved"):
    eye = np.eye(C)
    return rope(eye, positions=np.full(C, m, dtype=float), base=base, layout=layout).T
""",
        (),
        kind="correct",
    ),
    # ----- rope_attention -----
    Variant(
        "attention_logsumexp",
        # softmax as exp(S - logsumexp(S)), the log-sum-exp trick written out by hand
        "the log-sum-exp trick of numerically careful ML notes "
        "(https://timvieira.github.io/blog/post/2014/02/11/exp-normalize-trick/)",
        """
def rope_attention(X, W_q, W_k, W_v, base=10000.0):
    X = np.asarray(X, dtype=np.float64)
    Q = rope(X @ np.asarray(W_q, dtype=np.float64), base=base)
    K = rope(X @ np.asarray(W_k, dtype=np.float64), base=base)
    V = X @ np.asarray(W_v, dtype=np.float64)
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(np.shape(W_q)[1])
    m = S.max(axis=-1, keepdims=True)
    lse = m + np.log(np.exp(S - m).sum(axis=-1, keepdims=True))
    return np.exp(S - lse) @ V
""",
        (),
        kind="correct",
    ),
    Variant(
        "attention_einsum_prescaled",
        # q scaled before the product (PyTorch's q = q * scaling), einsums that batch by themselves
        "PyTorch's multi_head_attention_forward (queries scaled first) with RoPE applied as in "
        "mistralai/mistral-inference (https://github.com/mistralai/mistral-inference/issues/147)",
        """
def rope_attention(X, W_q, W_k, W_v, base=10000.0):
    X = np.asarray(X, dtype=float)
    xq = np.einsum("...tc,cd->...td", X, np.asarray(W_q, dtype=float))
    xk = np.einsum("...tc,cd->...td", X, np.asarray(W_k, dtype=float))
    xv = np.einsum("...tc,cd->...td", X, np.asarray(W_v, dtype=float))
    xq = rope(xq, base=base) * (1.0 / np.sqrt(xq.shape[-1]))
    xk = rope(xk, base=base)
    scores = np.einsum("...qd,...kd->...qk", xq, xk)
    scores = scores - scores.max(axis=-1, keepdims=True)
    p = np.exp(scores)
    p /= p.sum(axis=-1, keepdims=True)
    return np.einsum("...qk,...kd->...qd", p, xv)
""",
        (),
        kind="correct",
    ),
    Variant(
        "attention_relative_matrices",
        # RoFormer eq. 16: q_m^T R_{n-m} k_n, the scores built pair of tokens by pair of tokens
        "the RoFormer paper's equation 16, q_m^T R^d_(Θ,n-m) k_n, evaluated with rope_matrix",
        """
def rope_attention(X, W_q, W_k, W_v, base=10000.0):
    X = np.asarray(X, dtype=np.float64)
    if X.ndim == 3:
        outs = [rope_attention(x, W_q, W_k, W_v, base) for x in X]
        if outs:
            return np.stack(outs)
        rope(X @ np.asarray(W_q, dtype=np.float64), base=base)  # an empty batch: the checks
        return X @ np.asarray(W_v, dtype=np.float64)
    q = X @ np.asarray(W_q, dtype=np.float64)
    k = X @ np.asarray(W_k, dtype=np.float64)
    v = X @ np.asarray(W_v, dtype=np.float64)
    rope(q, base=base)  # the same checks on the query width
    T, d_k = q.shape
    S = np.empty((T, T))
    for m in range(T):
        for n in range(T):
            S[m, n] = q[m] @ rope_matrix(n - m, d_k, base=base) @ k[n]
    S = S / np.sqrt(d_k)
    S = np.exp(S - S.max(axis=-1, keepdims=True))
    return (S / S.sum(axis=-1, keepdims=True)) @ v
""",
        (),
        kind="correct",
    ),
)

_CHECKS = """
    X = np.asarray(X, dtype=np.float64)
    if X.ndim not in (2, 3) or X.shape[-1] % 2 or not base > 0:
        raise ValueError("X must be (T, C) or (B, T, C) with C even, and base > 0")
    if layout not in ("interleaved", "halves"):
        raise ValueError(f"unknown layout {layout!r}")
    T, C = X.shape[-2:]
    m = np.arange(T, dtype=np.float64) if positions is None else np.asarray(positions, float)
    if m.shape != (T,):
        raise ValueError("positions must have length T")
"""
"""The argument checks most mistakes of `rope` keep, so that their hints speak of the mistake."""

_HEAD = 'def rope(X, positions=None, base=10000.0, layout="interleaved"):'


def _rope(body: str) -> str:
    """A `rope` made of the usual checks and `body` (which may use X, T, C, m)."""
    return f"\n{_HEAD}{_CHECKS}{body}"


_ROTATE = """
    if layout == "interleaved":
        x0, x1 = X[..., 0::2], X[..., 1::2]
    else:
        x0, x1 = X[..., : C // 2], X[..., C // 2 :]
    y0, y1 = x0 * np.cos(angles) - x1 * np.sin(angles), x0 * np.sin(angles) + x1 * np.cos(angles)
    if layout == "interleaved":
        return np.stack([y0, y1], axis=-1).reshape(X.shape)
    return np.concatenate([y0, y1], axis=-1)
"""
"""The right rotation of the pairs by `angles` (T, C/2), for mistakes in the angles alone."""


def _angles(line: str) -> str:
    """A `rope` whose angles (T, C/2) are computed by `line`, the rotation being right."""
    return _rope(f"    angles = {line}\n{_ROTATE}")


MISTAKES = (
    # ----- rope: the layout -----
    Variant(
        "layout_always_halves",
        # TransformerLens' `if (arch in [...],):` — a one-element tuple is always true, so every
        # model got the GPT-NeoX rotate_half pairing, GPT-J's interleaved pairs included
        "https://github.com/TransformerLensOrg/TransformerLens/pull/365 (a trailing comma made "
        "every model use the halves pairing of GPT-NeoX / LLaMA)",
        _rope("""
    h = C // 2
    angles = m[:, None] * base ** (-2.0 * np.arange(h) / C)
    x1, x2 = X[..., :h], X[..., h:]
    return np.concatenate(
        [x1 * np.cos(angles) - x2 * np.sin(angles), x1 * np.sin(angles) + x2 * np.cos(angles)],
        axis=-1,
    )
"""),
        # the symptom, or the change itself (a reviewer judged the change names it)
        ("halves|layout = 'interleaved' never holds",),
        kind="mistake",
    ),
    Variant(
        "layout_always_interleaved",
        # flash-attention's llama.py sets rotary_emb_interleaved=True for Meta's weights; a
        # student copying it applies the GPT-J pairing whatever layout is asked for
        "https://github.com/Dao-AILab/flash-attention/issues/288 (interleaved=True for Meta's "
        "LLaMA weights, False for Hugging Face's permuted ones): the layout argument ignored",
        _rope("""
    angles = m[:, None] * base ** (-2.0 * np.arange(C // 2) / C)
    x0, x1 = X[..., 0::2], X[..., 1::2]
    out = np.empty_like(X)
    out[..., 0::2] = x0 * np.cos(angles) - x1 * np.sin(angles)
    out[..., 1::2] = x0 * np.sin(angles) + x1 * np.cos(angles)
    return out
"""),
        ("interleaved",),
        kind="mistake",
    ),
    Variant(
        "layouts_exchanged",
        # the LLaMA / Hugging Face confusion: rotate_half taken for the paper's interleaved
        # rotation and rotate_every_two for the "halves" one
        "https://github.com/huggingface/transformers/issues/25199 and "
        "https://github.com/henrywoo/pyllama/issues/83 (is rotate_half the paper's pairing?): "
        "the two layouts exchanged",
        _rope("""
    angles = m[:, None] * base ** (-2.0 * np.arange(C // 2) / C)
    if layout == "halves":
        x0, x1 = X[..., 0::2], X[..., 1::2]
        return np.stack(
            [x0 * np.cos(angles) - x1 * np.sin(angles), x0 * np.sin(angles) + x1 * np.cos(angles)],
            axis=-1,
        ).reshape(X.shape)
    x0, x1 = X[..., : C // 2], X[..., C // 2 :]
    return np.concatenate(
        [x0 * np.cos(angles) - x1 * np.sin(angles), x0 * np.sin(angles) + x1 * np.cos(angles)],
        axis=-1,
    )
"""),
        # the symptom, or the change itself (a reviewer judged the change names it)
        ("halves|layout ≠ 'interleaved' where = belongs",),
        kind="mistake",
    ),
    Variant(
        "cos_tiled_for_interleaved_pairs",
        # emb = cat((freqs, freqs)) (the halves table) used with rotate_every_two: the two
        # channels of a pair get different angles; fixed by repeat_interleave upstream
        "https://github.com/facebookresearch/vjepa2/pull/15 (.repeat where repeat_interleave "
        "was needed), https://github.com/allenai/molmo/issues/49 and "
        "https://github.com/Tongjilibo/bert4torch/issues/1",
        _rope("""
    freqs = m[:, None] * base ** (-2.0 * np.arange(C // 2) / C)
    if layout == "halves":
        emb = np.concatenate([freqs, freqs], axis=-1)
        rotated = np.concatenate([-X[..., C // 2 :], X[..., : C // 2]], axis=-1)
    else:
        emb = np.tile(freqs, 2)  # should have been np.repeat(freqs, 2, axis=-1)
        rotated = np.stack([-X[..., 1::2], X[..., 0::2]], axis=-1).reshape(X.shape)
    return X * np.cos(emb) + rotated * np.sin(emb)
"""),
        ("pair",),
        kind="mistake",
    ),
    # ----- rope: the frequencies -----
    Variant(
        "exponent_i_over_C",
        # the change proposed in the issue, arange(head_dim // 2) / head_dim: θ_i = base^(-i/C)
        "https://github.com/rasbt/LLMs-from-scratch/issues/410 (the proposed inv_freq "
        "arange(head_dim // 2) / head_dim, which the maintainer's test against Hugging Face "
        "rejects)",
        _angles("m[:, None] / base ** (np.arange(C // 2) / C)"),
        ("frequenc",),
        kind="mistake",
    ),
    Variant(
        "exponent_4i_over_C",
        # the head dimension halved twice before the frequencies: arange(0, C, 2) / (C // 2)
        "https://github.com/lucidrains/RETRO-pytorch/issues/12 (the head dimension divided by 2 "
        "before RotaryEmbedding, which halves it again): θ_i = base^(-4i/C)",
        _angles("m[:, None] / base ** (np.arange(0, C, 2) / (C // 2))"),
        ("frequenc",),
        kind="mistake",
    ),
    Variant(
        "exponent_sign_lost",
        # the paper's Θ quoted without its minus: θ_i = base^(+2i/C)
        "https://github.com/labmlai/annotated_deep_learning_paper_implementations/issues/313 "
        "(the annotated RoPE writes θ_i = 10000^(2(i-1)/d), the minus sign missing)",
        _angles("m[:, None] * base ** (2.0 * np.arange(C // 2) / C)"),
        ("frequenc",),
        kind="mistake",
    ),
    Variant(
        "exponent_i_minus_1",
        # the paper's 1-based θ_i = 10000^(-2(i-1)/d) used with a 0-based loop index
        "https://github.com/bkitano/llama-from-scratch/issues/8 (get_rotary_matrix uses "
        "-2 * (i - 1) / d with i from range(d // 2))",
        _angles("m[:, None] * base ** (-2.0 * (np.arange(C // 2) - 1) / C)"),
        ("frequenc",),
        kind="mistake",
    ),
    Variant(
        "exponent_2k_minus_1",
        # the handout's (2k - 1)/d in place of 2(k - 1)/d, k = 1 .. d/2
        "https://github.com/stanford-cs336/assignment1-basics/issues/22 (the handout's RoPE "
        "exponent (2k-1)/d instead of 2(k-1)/d)",
        _angles("m[:, None] * base ** (-(2.0 * (np.arange(C // 2) + 1) - 1) / C)"),
        ("frequenc",),
        kind="mistake",
    ),
    # ----- rope: the positions and the angle -----
    Variant(
        "positions_from_1",
        # a fallback position_ids = arange(1, T + 1), flagged in review as 1-indexed
        "https://github.com/PrimeIntellect-ai/prime-rl/pull/1545 (review: the fallback "
        "position_ids use torch.arange(1, seq_len + 1), 1-indexed) and its fix "
        "https://github.com/PrimeIntellect-ai/prime-rl/pull/3466",
        _angles(
            "(np.arange(1, T + 1) if positions is None else m)[:, None]"
            " * base ** (-2.0 * np.arange(C // 2) / C)"
        ),
        ("position",),
        kind="mistake",
    ),
    Variant(
        "positions_ignored",
        # the rotary table always built for 0 .. T-1, whatever position ids are passed
        "https://github.com/NVIDIA/Megatron-LM/issues/453 (RoPE ignores position IDs) and "
        "https://github.com/lucidrains/rotary-embedding-torch/issues/11 (an offset lost in "
        "the cache)",
        _angles("np.arange(T)[:, None] * base ** (-2.0 * np.arange(C // 2) / C)"),
        ("position",),
        kind="mistake",
    ),
    Variant(
        "positions_sliced_from_table",
        # Meta's freqs_cis[start_pos : start_pos + seqlen]: a table sliced to T rows, so a
        # positions array of the wrong length is cut or broadcast instead of refused
        "Meta's llama/model.py freqs_cis = self.freqs_cis[start_pos : start_pos + seqlen] and "
        "https://github.com/pytorch/executorch/pull/2010 (slicing the precomputed table): "
        "positions of the wrong length accepted",
        """
def rope(X, positions=None, base=10000.0, layout="interleaved"):
    X = np.asarray(X, dtype=np.float64)
    if X.ndim not in (2, 3) or X.shape[-1] % 2 or not base > 0:
        raise ValueError("X must be (T, C) or (B, T, C) with C even, and base > 0")
    if layout not in ("interleaved", "halves"):
        raise ValueError(f"unknown layout {layout!r}")
    T, C = X.shape[-2:]
    start_pos = 0
    table = np.arange(T) if positions is None else np.asarray(positions, dtype=np.float64)
    seq = table[start_pos : start_pos + T]  # freqs_cis[start_pos : start_pos + seqlen]
    angles = np.outer(seq, base ** (-2.0 * np.arange(C // 2) / C))
    if layout == "interleaved":
        x0, x1 = X[..., 0::2], X[..., 1::2]
    else:
        x0, x1 = X[..., : C // 2], X[..., C // 2 :]
    y0, y1 = x0 * np.cos(angles) - x1 * np.sin(angles), x0 * np.sin(angles) + x1 * np.cos(angles)
    if layout == "interleaved":
        return np.stack([y0, y1], axis=-1).reshape(X.shape)
    return np.concatenate([y0, y1], axis=-1)
""",
        ("valueerror",),
        kind="mistake",
    ),
    Variant(
        "angle_negated",
        # freqs_cis conjugated: e^{-i m θ} (the signal-processing sign convention)
        "complex-exponential code that builds freqs_cis as exp(-1j * angles), the e^{-iωt} "
        "convention of signal processing; the question of the sign is "
        "https://github.com/karpathy/nanochat/pull/489",
        _angles("-m[:, None] * base ** (-2.0 * np.arange(C // 2) / C)"),
        ("sign",),
        kind="mistake",
    ),
    Variant(
        "pair_rotated_by_transpose",
        # nanochat's apply_rotary_emb: y1 = x1 cos + x2 sin, y2 = -x1 sin + x2 cos
        "https://github.com/karpathy/nanochat/pull/489 (apply_rotary_emb multiplies by the "
        "transpose of the textbook rotation, kept there as a convention)",
        _rope("""
    angles = m[:, None] * base ** (-2.0 * np.arange(C // 2) / C)
    cos, sin = np.cos(angles), np.sin(angles)
    if layout == "interleaved":
        x1, x2 = X[..., 0::2], X[..., 1::2]
    else:
        x1, x2 = X[..., : C // 2], X[..., C // 2 :]
    y1 = x1 * cos + x2 * sin
    y2 = x1 * (-sin) + x2 * cos
    if layout == "interleaved":
        return np.stack([y1, y2], axis=-1).reshape(X.shape)
    return np.concatenate([y1, y2], axis=-1)
"""),
        ("sign",),
        kind="mistake",
    ),
    Variant(
        "rotate_half_minus_on_wrong_half",
        # rotate_half written cat((x2, -x1)): the halves rotated the other way
        "rotate_half written torch.cat((x2, -x1)), the minus on the wrong half, the point "
        "questioned in https://github.com/jingyaogong/minimind/issues/532 and "
        "https://github.com/lucidrains/PaLM-rlhf-pytorch/issues/56",
        _rope("""
    freqs = m[:, None] * base ** (-2.0 * np.arange(C // 2) / C)
    if layout == "halves":
        emb = np.concatenate([freqs, freqs], axis=-1)
        rotated = np.concatenate([X[..., C // 2 :], -X[..., : C // 2]], axis=-1)
    else:
        emb = np.repeat(freqs, 2, axis=-1)
        rotated = np.stack([-X[..., 1::2], X[..., 0::2]], axis=-1).reshape(X.shape)
    return X * np.cos(emb) + rotated * np.sin(emb)
"""),
        ("sign",),
        kind="mistake",
    ),
    Variant(
        "cos_and_sin_swapped",
        # [x0 sin - x1 cos, x0 cos + x1 sin]: the two tables passed in the wrong order, as in
        # apply_rotary_pos_emb(q, k, sin, cos) against a (q, k, cos, sin) signature
        "call sites passing (sin, cos) to an apply_rotary_pos_emb(x, cos, sin) helper; the "
        "argument order differs between libraries, e.g. https://github.com/kyegomez/zeta/"
        "issues/117 (apply_rotary_pos_emb(x, sin, cos, scale))",
        _rope("""
    angles = m[:, None] * base ** (-2.0 * np.arange(C // 2) / C)
    cos, sin = np.sin(angles), np.cos(angles)
    if layout == "interleaved":
        x0, x1 = X[..., 0::2], X[..., 1::2]
    else:
        x0, x1 = X[..., : C // 2], X[..., C // 2 :]
    y0, y1 = x0 * cos - x1 * sin, x0 * sin + x1 * cos
    if layout == "interleaved":
        return np.stack([y0, y1], axis=-1).reshape(X.shape)
    return np.concatenate([y0, y1], axis=-1)
"""),
        ("cos",),
        kind="mistake",
    ),
    Variant(
        "angles_in_degrees",
        # m·θ_i read as degrees and converted, as rotation exercises in degrees do
        "not from a RoPE thread: the degree-based rotation of school geometry and of graphics "
        "tutorials (np.deg2rad before cos and sin) carried over to RoPE's angles",
        _angles("np.deg2rad(m[:, None] * base ** (-2.0 * np.arange(C // 2) / C))"),
        ("radian",),
        kind="mistake",
    ),
    Variant(
        "angles_in_float16",
        # inv_freq and the positions cast to the model's half precision before their product
        "https://github.com/EleutherAI/gpt-neox/issues/1003 (RotaryEmbedding wrong in fp16 / "
        "bf16) and https://github.com/NVIDIA/Megatron-LM/issues/535 (seq.type_as(inv_freq) "
        "loses bits in fp16)",
        _angles(
            "(m.astype(np.float16)[:, None] * (1.0 / base ** (np.arange(0, C, 2) / C))"
            ".astype(np.float16)).astype(np.float64)"
        ),
        ("precision",),
        kind="mistake",
    ),
    # ----- rope: the arguments and the array -----
    Variant(
        "batch_axis_as_sequence",
        # the rotation applied along the wrong axis of a 3-D array: positions along the batch
        "https://github.com/mlfoundations/open_lm/issues/4 (the rotary embedding applied on the "
        "head dimension instead of the sequence dimension)",
        _rope(
            """
    angles = m[:, None] * base ** (-2.0 * np.arange(C // 2) / C)
    if X.ndim == 3:  # "the first axis is the sequence"
        angles = np.arange(X.shape[0])[:, None, None] * base ** (-2.0 * np.arange(C // 2) / C)
"""
            + _ROTATE
        ),
        ("batch",),
        kind="mistake",
    ),
    Variant(
        "modifies_X_in_place",
        # the rotated halves written back into the caller's array and that array returned
        "https://github.com/bytedance-iaas/vllm/pull/59 (the rope kernel made to update the "
        "query and key in place, as vLLM's rotary_embedding op does)",
        """
def rope(X, positions=None, base=10000.0, layout="interleaved"):
    x = X if isinstance(X, np.ndarray) else np.asarray(X, dtype=np.float64)
    if x.ndim not in (2, 3) or x.shape[-1] % 2 or not base > 0:
        raise ValueError("X must be (T, C) or (B, T, C) with C even, and base > 0")
    if layout not in ("interleaved", "halves"):
        raise ValueError(f"unknown layout {layout!r}")
    T, C = x.shape[-2:]
    m = np.arange(T, dtype=np.float64) if positions is None else np.asarray(positions, float)
    if m.shape != (T,):
        raise ValueError("positions must have length T")
    angles = m[:, None] * base ** (-2.0 * np.arange(C // 2) / C)
    if layout == "interleaved":
        i0, i1 = slice(0, None, 2), slice(1, None, 2)
    else:
        i0, i1 = slice(0, C // 2), slice(C // 2, None)
    x0, x1 = x[..., i0].copy(), x[..., i1].copy()
    x[..., i0] = x0 * np.cos(angles) - x1 * np.sin(angles)  # written into the caller's array
    x[..., i1] = x0 * np.sin(angles) + x1 * np.cos(angles)
    return x
""",
        ("modif",),
        kind="mistake",
    ),
    Variant(
        "keeps_integer_dtype",
        # np.empty_like(x) on the caller's array: integer inputs give integer, truncated outputs
        "np.empty_like(x) output buffers, which keep the input's dtype; what dtype a rotary "
        "embedding returns is the subject of "
        "https://github.com/huggingface/transformers/pull/24262",
        """
def rope(X, positions=None, base=10000.0, layout="interleaved"):
    X = np.asarray(X)
    if X.ndim not in (2, 3) or X.shape[-1] % 2 or not base > 0:
        raise ValueError("X must be (T, C) or (B, T, C) with C even, and base > 0")
    if layout not in ("interleaved", "halves"):
        raise ValueError(f"unknown layout {layout!r}")
    T, C = X.shape[-2:]
    m = np.arange(T, dtype=np.float64) if positions is None else np.asarray(positions, float)
    if m.shape != (T,):
        raise ValueError("positions must have length T")
    angles = m[:, None] * base ** (-2.0 * np.arange(C // 2) / C)
    out = np.empty_like(X)  # the input's dtype, integers included
    if layout == "interleaved":
        i0, i1 = slice(0, None, 2), slice(1, None, 2)
    else:
        i0, i1 = slice(0, C // 2), slice(C // 2, None)
    x0, x1 = X[..., i0], X[..., i1]
    out[..., i0] = x0 * np.cos(angles) - x1 * np.sin(angles)
    out[..., i1] = x0 * np.sin(angles) + x1 * np.cos(angles)
    return out
""",
        ("float",),
        kind="mistake",
    ),
    Variant(
        "odd_C_last_channel_passed",
        # an odd width accepted: the last channel passed through unrotated, as partial rotary
        # code passes the channels beyond rotary_dim
        "https://github.com/skyzh/tiny-llm/pull/9 (assume the RoPE dimension is even) and the "
        "review of https://github.com/explosion/curated-transformers/pull/131 (check that the "
        "width is even): without the check an odd C slips through",
        """
def rope(X, positions=None, base=10000.0, layout="interleaved"):
    X = np.asarray(X, dtype=np.float64)
    if X.ndim not in (2, 3) or not base > 0:
        raise ValueError("X must be (T, C) or (B, T, C), and base > 0")
    if layout not in ("interleaved", "halves"):
        raise ValueError(f"unknown layout {layout!r}")
    T, C = X.shape[-2:]
    m = np.arange(T, dtype=np.float64) if positions is None else np.asarray(positions, float)
    if m.shape != (T,):
        raise ValueError("positions must have length T")
    rot_dim = C - C % 2  # an odd last channel is passed through, like x_pass beyond rotary_dim
    x_rot, x_pass = X[..., :rot_dim], X[..., rot_dim:]
    h = rot_dim // 2
    angles = m[:, None] * base ** (-2.0 * np.arange(h) / max(rot_dim, 1))
    if layout == "interleaved":
        x0, x1 = x_rot[..., 0::2], x_rot[..., 1::2]
    else:
        x0, x1 = x_rot[..., :h], x_rot[..., h:]
    y0, y1 = x0 * np.cos(angles) - x1 * np.sin(angles), x0 * np.sin(angles) + x1 * np.cos(angles)
    if layout == "interleaved":
        x_rot = np.stack([y0, y1], axis=-1).reshape(x_rot.shape)
    else:
        x_rot = np.concatenate([y0, y1], axis=-1)
    return np.concatenate([x_rot, x_pass], axis=-1)
""",
        ("valueerror",),
        kind="mistake",
    ),
    Variant(
        "base_not_checked",
        # rope_theta used as given: base = 0 or a negative base gives inf or nan, no error
        "the one-line inv_freq = 1 / base ** (arange(0, d, 2) / d) of the sources above "
        "(e.g. https://github.com/NVIDIA/Megatron-LM/issues/535), which never check base",
        """
def rope(X, positions=None, base=10000.0, layout="interleaved"):
    X = np.asarray(X, dtype=np.float64)
    if X.ndim not in (2, 3) or X.shape[-1] % 2:
        raise ValueError("X must be (T, C) or (B, T, C) with C even")
    if layout not in ("interleaved", "halves"):
        raise ValueError(f"unknown layout {layout!r}")
    T, C = X.shape[-2:]
    m = np.arange(T, dtype=np.float64) if positions is None else np.asarray(positions, float)
    if m.shape != (T,):
        raise ValueError("positions must have length T")
    with np.errstate(all="ignore"):  # base <= 0: inf and nan, silently
        inv_freq = 1.0 / (base ** (np.arange(0, C, 2) / C))
        angles = m[:, None] * inv_freq
        if layout == "interleaved":
            x0, x1 = X[..., 0::2], X[..., 1::2]
        else:
            x0, x1 = X[..., : C // 2], X[..., C // 2 :]
        y0 = x0 * np.cos(angles) - x1 * np.sin(angles)
        y1 = x0 * np.sin(angles) + x1 * np.cos(angles)
    if layout == "interleaved":
        return np.stack([y0, y1], axis=-1).reshape(X.shape)
    return np.concatenate([y0, y1], axis=-1)
""",
        ("valueerror",),
        kind="mistake",
    ),
    # ----- rope_matrix -----
    Variant(
        "matrix_transposed",
        # the blocks [[cos, sin], [-sin, cos]]: the matrix for row vectors, x @ R
        "https://github.com/karpathy/nanochat/pull/489 (the transpose of the textbook "
        "rotation) and row-vector code that applies R as x @ R, as in "
        "https://github.com/bkitano/llama-from-scratch/issues/8",
        """
def rope_matrix(m, C, base=10000.0, layout="interleaved"):
    R = rope(np.eye(C), positions=np.full(C, m, dtype=float), base=base, layout=layout)
    return R
""",
        ("transpose",),
        kind="mistake",
    ),
    Variant(
        "matrix_always_interleaved",
        # the paper's block-diagonal R_Θ,m with its 2x2 blocks on the diagonal, for any layout
        "the RoFormer paper's block-diagonal R_Θ,m, as in bkitano/llama-from-scratch "
        "get_rotary_matrix (https://github.com/bkitano/llama-from-scratch/issues/8): "
        "the halves layout not handled",
        """
def rope_matrix(m, C, base=10000.0, layout="interleaved"):
    rope(np.zeros((1, C)), positions=[m], base=base, layout=layout)
    R = np.zeros((C, C))
    for i in range(C // 2):
        a = m * base ** (-2.0 * i / C)
        R[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]
    return R
""",
        ("interleaved",),
        kind="mistake",
    ),
    Variant(
        "matrix_always_halves",
        # the blocks placed at (i, i + C/2), the Hugging Face (permuted) pairing, for any layout
        "https://github.com/tatsu-lab/stanford_alpaca/issues/227 and "
        "https://github.com/naklecha/llama3-from-scratch/issues/20 (Hugging Face's permute of "
        "W_q, W_k makes the halves pairing): the matrix always built for halves",
        """
def rope_matrix(m, C, base=10000.0, layout="interleaved"):
    rope(np.zeros((1, C)), positions=[m], base=base, layout=layout)
    h = C // 2
    theta = base ** (-2.0 * np.arange(h) / C)
    c, s = np.cos(m * theta), np.sin(m * theta)
    R = np.zeros((C, C))
    i = np.arange(h)
    R[i, i], R[i, i + h], R[i + h, i], R[i + h, i + h] = c, -s, s, c
    return R
""",
        # the symptom, or the change itself (a reviewer judged the change names it)
        ("halves|the other branch is always taken",),
        kind="mistake",
    ),
    Variant(
        "matrix_exponent_4i",
        # a loop over the even channel index j = 2i that still writes 2*j in the exponent
        "https://github.com/hkproj/pytorch-llama/issues/3 (where did the factor 2 go? "
        "arange(0, head_dim, 2) already holds 2i) answered the wrong way: 2 * i written again "
        "in a loop over range(0, C, 2)",
        """
def rope_matrix(m, C, base=10000.0, layout="interleaved"):
    rope(np.zeros((1, C)), positions=[m], base=base, layout=layout)
    R = np.zeros((C, C))
    for i in range(0, C, 2):
        theta = base ** (-2.0 * i / C)
        a, b = (i, i + 1) if layout == "interleaved" else (i // 2, i // 2 + C // 2)
        R[a, a], R[a, b] = np.cos(m * theta), -np.sin(m * theta)
        R[b, a], R[b, b] = np.sin(m * theta), np.cos(m * theta)
    return R
""",
        ("frequenc",),
        kind="mistake",
    ),
    Variant(
        "matrix_base_hard_coded",
        # theta = 10000. ** (...) written into the matrix builder, base ignored
        "https://github.com/bkitano/llama-from-scratch/issues/8 (get_rotary_matrix hard-codes "
        "10000.)",
        """
def rope_matrix(m, C, base=10000.0, layout="interleaved"):
    rope(np.zeros((1, C)), positions=[m], base=base, layout=layout)
    R = np.zeros((C, C))
    for i in range(C // 2):
        theta = 10000.0 ** (-2.0 * i / C)
        a, b = (2 * i, 2 * i + 1) if layout == "interleaved" else (i, i + C // 2)
        R[a, a], R[a, b] = np.cos(m * theta), -np.sin(m * theta)
        R[b, a], R[b, b] = np.sin(m * theta), np.cos(m * theta)
    return R
""",
        ("base",),
        kind="mistake",
    ),
    Variant(
        "matrix_minus_sign_lost",
        # [[cos, sin], [sin, cos]]: a symmetric block, no longer a rotation
        "not from a RoPE thread: a 2x2 rotation written from memory with its minus sign lost "
        "(the same slip as the positional_encoding corpus's rotation_symmetric)",
        """
def rope_matrix(m, C, base=10000.0, layout="interleaved"):
    rope(np.zeros((1, C)), positions=[m], base=base, layout=layout)
    R = np.zeros((C, C))
    for i in range(C // 2):
        a = m * base ** (-2.0 * i / C)
        j, k = (2 * i, 2 * i + 1) if layout == "interleaved" else (i, i + C // 2)
        R[j, j], R[j, k], R[k, j], R[k, k] = np.cos(a), np.sin(a), np.sin(a), np.cos(a)
    return R
""",
        ("rotation",),
        kind="mistake",
    ),
    # ----- rope_attention -----
    Variant(
        "values_rotated",
        # x-transformers rotated v as well as q and k until 1.20.0
        "https://github.com/lucidrains/x-transformers/issues/182 (rotary embeddings applied to "
        "the values too) and https://github.com/labmlai/annotated_deep_learning_paper_"
        "implementations/issues/251",
        """
def rope_attention(X, W_q, W_k, W_v, base=10000.0):
    X = np.asarray(X, dtype=float)
    Q, K, V = (rope(X @ W, base=base) for W in (W_q, W_k, W_v))
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    P = np.exp(S - S.max(axis=-1, keepdims=True))
    return P / P.sum(axis=-1, keepdims=True) @ V
""",
        ("value",),
        kind="mistake",
    ),
    Variant(
        "keys_not_rotated",
        # only the queries rotated: the scores then depend on absolute, not relative, positions
        "the question of which projections RoPE rotates, "
        "https://github.com/mistralai/mistral-inference/issues/147, answered here by rotating "
        "the queries alone",
        """
def rope_attention(X, W_q, W_k, W_v, base=10000.0):
    X = np.asarray(X, dtype=float)
    Q = rope(X @ W_q, base=base)
    K = X @ W_k
    V = X @ W_v
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    P = np.exp(S - S.max(axis=-1, keepdims=True))
    return P / P.sum(axis=-1, keepdims=True) @ V
""",
        ("key",),
        kind="mistake",
    ),
    Variant(
        "X_rotated_before_projection",
        # RoPE treated like an absolute encoding added at the input: rope(X) @ W
        "not from a single thread: code that applies the position encoding to the token "
        "embeddings X, as sinusoidal encodings are, and projects afterwards",
        """
def rope_attention(X, W_q, W_k, W_v, base=10000.0):
    Xr = rope(np.asarray(X, dtype=float), base=base)
    Q, K, V = Xr @ W_q, Xr @ W_k, np.asarray(X, dtype=float) @ W_v
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    P = np.exp(S - S.max(axis=-1, keepdims=True))
    return P / P.sum(axis=-1, keepdims=True) @ V
""",
        ("W_q",),
        kind="mistake",
    ),
    Variant(
        "output_rotated_after_attention",
        # the rotation applied once, to the attention output, instead of to Q and K
        "not from a single thread: rotating after the scores (here the attention's output) "
        "rather than the queries and keys before their dot product",
        """
def rope_attention(X, W_q, W_k, W_v, base=10000.0):
    X = np.asarray(X, dtype=float)
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    P = np.exp(S - S.max(axis=-1, keepdims=True))
    return rope(P / P.sum(axis=-1, keepdims=True) @ V, base=base)
""",
        ("before",),
        kind="mistake",
    ),
    Variant(
        "no_sqrt_d_k",
        # scores Q Kᵀ without the 1/√d_k
        "https://github.com/PAIR-code/tiny-transformers/issues/71 (the raw attention not "
        "divided by the square root of the dimension) and "
        "https://github.com/mlc-ai/mlc-llm/pull/3426 (sm_scale left at 1.0)",
        """
def rope_attention(X, W_q, W_k, W_v, base=10000.0):
    X = np.asarray(X, dtype=float)
    Q, K, V = rope(X @ W_q, base=base), rope(X @ W_k, base=base), X @ W_v
    S = Q @ np.swapaxes(K, -1, -2)
    P = np.exp(S - S.max(axis=-1, keepdims=True))
    return P / P.sum(axis=-1, keepdims=True) @ V
""",
        ("√d",),
        kind="mistake",
    ),
    Variant(
        "scaled_by_d_k_not_sqrt",
        # scores divided by d_k itself
        "https://github.com/charliezchen/scaling-matrix-preconditioning/issues/2 (1/d_head "
        "against 1/sqrt(d_head)): the scores divided by d_k itself",
        """
def rope_attention(X, W_q, W_k, W_v, base=10000.0):
    X = np.asarray(X, dtype=float)
    Q, K, V = rope(X @ W_q, base=base), rope(X @ W_k, base=base), X @ W_v
    S = Q @ np.swapaxes(K, -1, -2) / Q.shape[-1]
    P = np.exp(S - S.max(axis=-1, keepdims=True))
    return P / P.sum(axis=-1, keepdims=True) @ V
""",
        ("√d",),
        kind="mistake",
    ),
    Variant(
        "scaled_by_model_width",
        # √d_model (the width of X) instead of √d_k
        "https://github.com/Graylab/DL4Proteins-notebooks/issues/12 (scores scaled by "
        "C**-0.5, the embedding width) and "
        "https://github.com/FareedKhan-dev/train-llm-from-scratch/pull/3",
        """
def rope_attention(X, W_q, W_k, W_v, base=10000.0):
    X = np.asarray(X, dtype=float)
    Q, K, V = rope(X @ W_q, base=base), rope(X @ W_k, base=base), X @ W_v
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(X.shape[-1])
    P = np.exp(S - S.max(axis=-1, keepdims=True))
    return P / P.sum(axis=-1, keepdims=True) @ V
""",
        ("d_k",),
        kind="mistake",
    ),
    Variant(
        "scaled_by_value_width",
        # the scale taken from W_v's width, which equals d_k only when d_v = d_k
        "https://github.com/cneuralnetwork/solving-ml-papers/issues/1 (the scale right only "
        "while all the widths are equal): here taken from W_v, wrong once d_v != d_k",
        """
def rope_attention(X, W_q, W_k, W_v, base=10000.0):
    X = np.asarray(X, dtype=float)
    Q, K, V = rope(X @ W_q, base=base), rope(X @ W_k, base=base), X @ W_v
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(np.shape(W_v)[1])
    P = np.exp(S - S.max(axis=-1, keepdims=True))
    return P / P.sum(axis=-1, keepdims=True) @ V
""",
        ("d_k",),
        kind="mistake",
    ),
    Variant(
        "softmax_over_queries",
        # the softmax taken over axis -2 (the queries) instead of the keys
        "https://github.com/labmlai/annotated_deep_learning_paper_implementations/issues/146 "
        "(attn.softmax(dim=1) over the queries of 'bij') and "
        "https://github.com/jadore801120/attention-is-all-you-need-pytorch/issues/52",
        """
def rope_attention(X, W_q, W_k, W_v, base=10000.0):
    X = np.asarray(X, dtype=float)
    Q, K, V = rope(X @ W_q, base=base), rope(X @ W_k, base=base), X @ W_v
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    P = np.exp(S - S.max(axis=-2, keepdims=True))
    return P / P.sum(axis=-2, keepdims=True) @ V
""",
        ("axis",),
        kind="mistake",
    ),
    Variant(
        "softmax_axis_1_for_batches",
        # axis=1 is the keys' axis of a (T, T) matrix but the queries' of (B, T, T)
        "https://github.com/FudanNLP/fastNLP/issues/254 (a softmax dim right for 3-D tensors, "
        "wrong with one more axis): softmax(axis=1) written for one (T, T) score matrix",
        """
def rope_attention(X, W_q, W_k, W_v, base=10000.0):
    X = np.asarray(X, dtype=float)
    Q, K, V = rope(X @ W_q, base=base), rope(X @ W_k, base=base), X @ W_v
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    P = np.exp(S - S.max(axis=1, keepdims=True))
    return P / P.sum(axis=1, keepdims=True) @ V
""",
        # the symptom, or the change itself (a reviewer judged the change names it)
        ("batch|axis 1 where axis -1 belongs",),
        kind="mistake",
    ),
    Variant(
        "softmax_without_max",
        # exp(S) / sum exp(S): overflows to inf / nan for large scores
        "https://github.com/NVIDIA/FasterTransformer/issues/43 (softmax input not protected by "
        "subtracting the max, NaN outputs) and https://github.com/numenta/nupic-legacy/pull/3818",
        """
def rope_attention(X, W_q, W_k, W_v, base=10000.0):
    X = np.asarray(X, dtype=float)
    Q, K, V = rope(X @ W_q, base=base), rope(X @ W_k, base=base), X @ W_v
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    with np.errstate(over="ignore", invalid="ignore"):
        P = np.exp(S)
        return P / P.sum(axis=-1, keepdims=True) @ V
""",
        # the symptom, or the change itself (a reviewer judged the change names it)
        ("overflow|the maximum is not subtracted",),
        kind="mistake",
    ),
    Variant(
        "base_not_passed_on",
        # rope called with its default base: the attention's base argument ignored
        "not from a single thread: a wrapper that forgets to forward rope_theta, the way model "
        "configs' rope_theta is lost when a layer builds its rotary embedding with defaults",
        """
def rope_attention(X, W_q, W_k, W_v, base=10000.0):
    X = np.asarray(X, dtype=float)
    Q, K, V = rope(X @ W_q), rope(X @ W_k), X @ W_v
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    P = np.exp(S - S.max(axis=-1, keepdims=True))
    return P / P.sum(axis=-1, keepdims=True) @ V
""",
        ("base",),
        kind="mistake",
    ),
)

VARIANTS = CORRECT + MISTAKES
