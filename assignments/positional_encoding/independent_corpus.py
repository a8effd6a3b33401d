"""Independent student code for `positional_encoding`, kept apart from `misconceptions.py`.

Each variant replaces ONE public function of the reference with code in the style of public
implementations, tutorials, textbooks or forum threads. A "correct" variant is another right way
to write the function: the grader must accept it and give no hint. A "mistake" variant is wrong
on some input its docstring allows; none of them is a catalogued misconception: each is how a
student who learnt from a public implementation, a textbook or a forum question would get one
function wrong. The grader must name each mistake from what it measures on the output
(signatures.py) or from a catalogued replay that truly explains it, and say nothing misleading:
every hint a mistake receives must carry the variant's keywords. `source` is appended after the
reference's source, so it may use `np`, `sp` and the reference's other functions.
"""

from __future__ import annotations

from autograder.authoring import Variant

CORRECT = (
    # ----- sinusoidal_encoding -----
    Variant(
        "encoding_torch_div_term",
        # the PyTorch tutorial's PositionalEncoding: div_term = exp(arange(0, C, 2) * -log(base)/C),
        # with the cosine half cut to C // 2 frequencies so that an odd C works too
        "PyTorch's 'Language Modeling with nn.Transformer' tutorial, PositionalEncoding.__init__",
        """
def sinusoidal_encoding(T, C, base=10000.0):
    import math

    for name, value, low in (("T", T, 0), ("C", C, 1)):
        if type(value) is bool or not isinstance(value, (int, np.integer)):
            raise ValueError(f"{name} must be an int, got {type(value).__name__} {value!r}")
        if value < low:
            raise ValueError(f"{name} must be at least {low}, got {value}")
    position = np.arange(T, dtype=np.float64)[:, None]
    div_term = np.exp(np.arange(0, C, 2, dtype=np.float64) * (-math.log(base) / C))
    pe = np.zeros((T, C))
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term[: C // 2])
    return pe
""",
        (),
        kind="correct",
    ),
    Variant(
        "encoding_double_loop",
        # the blog-post double loop over positions and even columns, with math.sin / math.cos
        # and the exponent written with the even column index i itself (i / C = 2i' / C)
        "blog posts and Kaggle notebooks: for pos in range(T): for i in range(0, C, 2): ...",
        """
def sinusoidal_encoding(T, C, base=10000.0):
    import math

    if isinstance(T, bool) or not isinstance(T, (int, np.integer)):
        raise ValueError("T must be an integer number of positions, got %r" % (T,))
    if T < 0:
        raise ValueError("T must be non-negative, got %r" % (T,))
    if isinstance(C, bool) or not isinstance(C, (int, np.integer)):
        raise ValueError("C must be an integer number of dimensions, got %r" % (C,))
    if C < 1:
        raise ValueError("C must be positive, got %r" % (C,))
    PE = np.zeros((T, C), dtype=np.float64)
    for pos in range(T):
        for i in range(0, C, 2):
            denominator = base ** (i / C)
            PE[pos, i] = math.sin(pos / denominator)
            if i + 1 < C:
                PE[pos, i + 1] = math.cos(pos / denominator)
    return PE
""",
        (),
        kind="correct",
    ),
    Variant(
        "encoding_outer_interleaved",
        # inverse frequencies and np.outer, as in rotary / Transformer-XL code
        # (inv_freq = 1 / base ** (arange(0, C, 2) / C)), then sin and cos interleaved by stacking
        "Transformer-XL and rotary-embedding code: inv_freq and an outer product, interleaved",
        """
def sinusoidal_encoding(T, C, base=10000.0):
    for name, value, low in (("T", T, 0), ("C", C, 1)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    inv_freq = 1.0 / (float(base) ** (np.arange(0, C, 2) / C))
    angles = np.outer(np.arange(T), inv_freq)
    pe = np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(T, 2 * len(inv_freq))
    return pe[:, :C]
""",
        (),
        kind="correct",
    ),
    Variant(
        "encoding_tf_get_angles",
        # the TensorFlow tutorial's get_angles(pos, i, d_model) over the whole (T, C) grid, then
        # sin on the even columns and cos on the odd ones, in place on its own array
        "TensorFlow's 'Transformer model for language understanding' tutorial, get_angles",
        """
def sinusoidal_encoding(T, C, base=10000.0):
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 0:
        raise ValueError(f"T must be an integer >= 0, got {T!r}")
    if isinstance(C, bool) or not isinstance(C, (int, np.integer)) or C < 1:
        raise ValueError(f"C must be an integer >= 1, got {C!r}")

    def get_angles(pos, i, d_model):
        angle_rates = 1 / np.power(base, (2 * (i // 2)) / np.float64(d_model))
        return pos * angle_rates

    angle_rads = get_angles(np.arange(T)[:, np.newaxis], np.arange(C)[np.newaxis, :], C)
    angle_rads = angle_rads.astype(np.float64)
    angle_rads[:, 0::2] = np.sin(angle_rads[:, 0::2])
    angle_rads[:, 1::2] = np.cos(angle_rads[:, 1::2])
    return angle_rads
""",
        (),
        kind="correct",
    ),
    Variant(
        "encoding_einsum_where",
        # the angle grid as an einsum outer product, sin or cos chosen per column with np.where
        "einsum-style notebooks: np.einsum('t,c->tc', positions, frequencies)",
        """
def sinusoidal_encoding(T, C, base=10000.0):
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)):
        raise ValueError(f"T must be an integer, not {type(T).__name__}")
    if isinstance(C, bool) or not isinstance(C, (int, np.integer)):
        raise ValueError(f"C must be an integer, not {type(C).__name__}")
    if T < 0 or C < 1:
        raise ValueError(f"need T >= 0 and C >= 1, got T={T}, C={C}")
    freq = np.power(float(base), -2.0 * (np.arange(C) // 2) / C)
    angles = np.einsum("t,c->tc", np.arange(T, dtype=np.float64), freq)
    return np.where(np.arange(C) % 2 == 0, np.sin(angles), np.cos(angles))
""",
        (),
        kind="correct",
    ),
    # ----- softmax -----
    Variant(
        "softmax_logsumexp",
        # scipy-free softmax through logsumexp: exp(S - (m + log(sum(exp(S - m)))))
        "the log-sum-exp trick of numerically careful ML notes, without scipy.special",
        """
def softmax(S, axis=-1):
    x = np.asarray(S, dtype=np.float64)
    m = np.max(x, axis=axis, keepdims=True)
    lse = m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))
    return np.exp(x - lse)
""",
        (),
        kind="correct",
    ),
    Variant(
        "softmax_moveaxis",
        # d2l.ai's X_exp / partition on the last axis, the requested axis moved there and back
        "d2l.ai's softmax (X_exp / partition), generalised with np.moveaxis",
        """
def softmax(S, axis=-1):
    X = np.moveaxis(np.array(S, dtype=np.float64), axis, -1)
    X_exp = np.exp(X - X.max(axis=-1, keepdims=True))
    partition = X_exp.sum(axis=-1, keepdims=True)
    return np.moveaxis(X_exp / partition, -1, axis)
""",
        (),
        kind="correct",
    ),
    # ----- self_attention -----
    Variant(
        "attention_einsum_prescaled",
        # the queries scaled before the product (q = q * scaling, as in PyTorch's
        # MultiheadAttention), the products written as einsums that batch by themselves
        "PyTorch's multi_head_attention_forward (q scaled first), written with np.einsum",
        """
def self_attention(X, W_q=None, W_k=None, W_v=None):
    X = np.array(X, dtype=np.float64)
    if X.ndim not in (2, 3):
        raise ValueError(f"X must have 2 or 3 dimensions, got {X.ndim}")
    Q = X if W_q is None else X @ np.asarray(W_q, dtype=np.float64)
    K = X if W_k is None else X @ np.asarray(W_k, dtype=np.float64)
    V = X if W_v is None else X @ np.asarray(W_v, dtype=np.float64)
    Q = Q / np.sqrt(Q.shape[-1])
    weights = softmax(np.einsum("...qd,...kd->...qk", Q, K), axis=-1)
    return np.einsum("...qk,...kd->...qd", weights, V)
""",
        (),
        kind="correct",
    ),
    Variant(
        "attention_loop_over_batch",
        # a batch handled by looping over its sequences and stacking the results
        "from-scratch tutorials that loop over the batch and np.stack the outputs",
        """
def self_attention(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X, dtype=np.float64)
    if X.ndim == 3:
        outputs = [self_attention(x, W_q, W_k, W_v) for x in X]
        if outputs:
            return np.stack(outputs)
        width = X.shape[-1] if W_v is None else np.shape(W_v)[-1]
        softmax(np.zeros((0, X.shape[1], X.shape[1])))  # an empty batch: the same checks
        return np.zeros((0, X.shape[1], width))
    if X.ndim != 2:
        raise ValueError(f"X must be (T, d) or (B, T, d), got {X.shape}")
    Q = X if W_q is None else X.dot(np.asarray(W_q, dtype=np.float64))
    K = X if W_k is None else X.dot(np.asarray(W_k, dtype=np.float64))
    V = X if W_v is None else X.dot(np.asarray(W_v, dtype=np.float64))
    d_k = Q.shape[1]
    return softmax(Q.dot(K.T) / np.sqrt(d_k)).dot(V)
""",
        (),
        kind="correct",
    ),
    # ----- rotation_matrix and shift_matrix -----
    Variant(
        "rotation_math_module",
        # cos and sin computed once with the math module, the matrix built from the two numbers
        "textbook 2-D rotation code: c, s = math.cos(theta), math.sin(theta)",
        """
def rotation_matrix(k, freq):
    import math

    theta = k * freq
    c, s = math.cos(theta), math.sin(theta)
    return np.array([[c, s], [-s, c]], dtype=np.float64)
""",
        (),
        kind="correct",
    ),
    Variant(
        "shift_fancy_indexing",
        # the four entries of every block set at once with index arrays, no loop
        "vectorised NumPy answers: M[even, even] = cos, M[even, even + 1] = sin, ...",
        """
def shift_matrix(k, C, base=10000.0):
    if isinstance(C, bool) or not isinstance(C, (int, np.integer)) or C < 1:
        raise ValueError(f"C must be a positive integer, got {C!r}")
    if C % 2 == 1:
        raise ValueError(f"C must be even, got {C}: the last sine has no cosine partner")
    even = np.arange(0, C, 2)
    theta = k * float(base) ** (-even / C)
    M = np.zeros((C, C))
    M[even, even] = np.cos(theta)
    M[even, even + 1] = np.sin(theta)
    M[even + 1, even] = -np.sin(theta)
    M[even + 1, even + 1] = np.cos(theta)
    return M
""",
        (),
        kind="correct",
    ),
    Variant(
        "shift_block_diag",
        # scipy.linalg.block_diag of the per-pair rotations
        "SciPy users: scipy.linalg.block_diag(*[rotation_matrix(k, w) for w in freqs])",
        """
def shift_matrix(k, C, base=10000.0):
    from scipy.linalg import block_diag

    if isinstance(C, bool) or not isinstance(C, (int, np.integer)):
        raise ValueError(f"C must be an integer, got {C!r}")
    if C < 1 or C % 2 != 0:
        raise ValueError(f"C must be a positive even integer, got {C}")
    freqs = [1.0 / float(base) ** (2 * i / C) for i in range(C // 2)]
    return np.asarray(block_diag(*[rotation_matrix(k, w) for w in freqs]), dtype=np.float64)
""",
        (),
        kind="correct",
    ),
    # ----- the SymPy functions -----
    Variant(
        "pe_pair_sympified",
        # the arguments sympified first, the angle formed once
        "SymPy tutorials that sympify their inputs before building expressions",
        """
def pe_pair(pos, w):
    angle = sp.sympify(w) * sp.sympify(pos)
    return sp.sin(angle), sp.cos(angle)
""",
        (),
        kind="correct",
    ),
    Variant(
        "rotation_symbolic_rot_axis3",
        # SymPy's own rotation about the z axis, whose top-left 2×2 block is exactly R_k
        "SymPy's sympy.rot_axis3(theta), its top-left 2×2 block",
        """
def rotation_matrix_symbolic(k, w):
    return sp.rot_axis3(k * w)[:2, :2]
""",
        (),
        kind="correct",
    ),
    Variant(
        "relative_dot_fu",
        # SymPy's Fu et al. trigonometric simplification, sympy.fu, in one call
        "SymPy's sympy.simplify.fu (the Fu-Zhong-Zeng trigonometric simplifier)",
        """
def relative_dot(pos, k, w):
    s0, c0 = pe_pair(pos, w)
    s1, c1 = pe_pair(pos + k, w)
    return sp.fu(s0 * s1 + c0 * c1)
""",
        (),
        kind="correct",
    ),
    Variant(
        "relative_dot_cos_difference",
        # the cosine-difference identity applied by hand: cos(A - B) with A = w(pos + k) and
        # B = w·pos, the difference of the angles expanded so that pos cancels
        "the lessons' derivation, cos(A − B) = cos A cos B + sin A sin B, applied directly",
        """
def relative_dot(pos, k, w):
    A, B = w * (pos + k), w * pos
    return sp.cos(sp.expand(A - B))
""",
        (),
        kind="correct",
    ),
    # ----- permutation_matrix -----
    Variant(
        "permutation_eye_rows",
        # the rows of the identity picked in the order perm gives: np.eye(n)[perm]
        "Stack Overflow's 'permutation matrix from a permutation vector': np.eye(n)[perm]",
        """
def permutation_matrix(perm):
    perm = list(perm)
    n = len(perm)
    for p in perm:
        if isinstance(p, bool) or not isinstance(p, (int, np.integer)):
            raise ValueError(f"perm entries must be integers, got {p!r}")
    if sorted(perm) != list(range(n)):
        raise ValueError(f"{perm} is not a permutation of range({n})")
    return np.eye(n)[perm]
""",
        (),
        kind="correct",
    ),
    Variant(
        "permutation_set_and_loop",
        # a set comparison for the check and a loop that places each 1
        "introductory courses: set(perm) == set(range(n)), then P[i, perm[i]] = 1 in a loop",
        """
def permutation_matrix(perm):
    order = list(perm)
    n = len(order)
    if any(type(p) is bool or not isinstance(p, (int, np.integer)) for p in order):
        raise ValueError("perm must contain only integers")
    if set(order) != set(range(n)):
        raise ValueError(f"perm must be an ordering of 0..{n - 1}, got {order}")
    P = np.zeros((n, n))
    for i, j in enumerate(order):
        P[i, j] = 1.0
    return P
""",
        (),
        kind="correct",
    ),
)

MISTAKES = (
    Variant(
        "exponent_column_j",
        # "PE(pos, j) = sin(pos / 10000^(j/d))": the exponent written with the column index j
        # instead of the pair index, as forum answers explaining the formula often state it
        "forum explanations that write the exponent with the column index j",
        """
def sinusoidal_encoding(T, C, base=10000.0):
    angles = np.arange(T)[:, None] / np.power(base, np.arange(C) / C)
    return np.where(np.arange(C) % 2 == 0, np.sin(angles), np.cos(angles))
""",
        # the symptom, or the change itself (a reviewer judged the change names it)
        ("different frequencies|a quotient where an integer division belongs",),
        kind="mistake",
    ),
    Variant(
        "exponent_4i",
        # the loop `for i in range(0, d_model, 2)` of many tutorials, with the formula's 2i
        # applied to an index that is already even
        "tutorial loops over range(0, C, 2) that still write 2*i in the exponent",
        """
def sinusoidal_encoding(T, C, base=10000.0):
    PE = np.zeros((T, C))
    for pos in range(T):
        for i in range(0, C, 2):
            angle = pos / base ** (2 * i / C)
            PE[pos, i] = np.sin(angle)
            if i + 1 < C:
                PE[pos, i + 1] = np.cos(angle)
    return PE
""",
        # the symptom, or the change itself: the 2 applied to an index already even
        ("4i/C|twice the pair index i where the pair index i belongs",),
        kind="mistake",
    ),
    Variant(
        "frequencies_inverted",
        # PyTorch's div_term = exp(arange(0, d, 2) * (-log(10000.0) / d)) with the minus lost
        "PyTorch tutorials' exp(arange(0, C, 2) * -(log(base) / C)) with the sign dropped",
        """
def sinusoidal_encoding(T, C, base=10000.0):
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 0:
        raise ValueError(f"T must be an integer >= 0, got {T!r}")
    if isinstance(C, bool) or not isinstance(C, (int, np.integer)) or C < 1:
        raise ValueError(f"C must be an integer >= 1, got {C!r}")
    div_term = np.exp(np.arange(0, C, 2) * (np.log(base) / C))
    position = np.arange(T)[:, None]
    PE = np.zeros((T, C))
    PE[:, 0::2] = np.sin(position * div_term)
    PE[:, 1::2] = np.cos(position * div_term[: C // 2])
    return PE
""",
        ("grow|multiplied by the wavelength",),  # the symptom, or the change that gives it
        kind="mistake",
    ),
    Variant(
        "all_sines",
        # "why is the positional encoding all sine?": sin applied to the whole angle matrix
        "forum question about an encoding that applies np.sin to every column",
        """
def sinusoidal_encoding(T, C, base=10000.0):
    angles = np.arange(T)[:, None] / np.power(base, 2 * (np.arange(C) // 2) / C)
    return np.sin(angles)
""",
        ("sine",),
        kind="mistake",
    ),
    Variant(
        "exponent_integer_division",
        # Python 2 code `pos / 10000 ** (2 * i / d_model)` where 2 * i / d_model was 0
        "Python 2 era implementations where 2 * i / d_model was an integer division",
        """
def sinusoidal_encoding(T, C, base=10000.0):
    pair = np.arange(C) // 2
    angles = np.arange(T)[:, None] / np.power(base, (2 * pair) // C)
    return np.where(np.arange(C) % 2 == 0, np.sin(angles), np.cos(angles))
""",
        # the symptom, or the change itself (a reviewer judged the change names it)
        ("frequency 1|base^(2i/C): 0 where 2 belongs",),
        kind="mistake",
    ),
    Variant(
        "ignores_base",
        # the constant 10000 hard-coded, as in the paper's formula, though `base` is passed
        "implementations that hard-code the paper's 10000",
        """
def sinusoidal_encoding(T, C, base=10000.0):
    angles = np.arange(T)[:, None] / np.power(10000.0, 2 * (np.arange(C) // 2) / C)
    return np.where(np.arange(C) % 2 == 0, np.sin(angles), np.cos(angles))
""",
        ("base",),
        kind="mistake",
    ),
    Variant(
        "softmax_default_axis_0",
        # scipy.special.softmax normalises over all entries by default, NumPy reductions
        # default to axis=None or 0: a softmax written with axis=0 as its default
        "softmax helpers whose default axis is 0",
        """
def softmax(S, axis=0):
    S = np.asarray(S, dtype=np.float64)
    e = np.exp(S - np.max(S, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)
""",
        ("axis",),
        kind="mistake",
    ),
    Variant(
        "softmax_global_max",
        # the common "stable softmax" snippet `e = np.exp(x - np.max(x))` applied to a matrix
        "the one-dimensional stable-softmax snippet exp(x - max(x)) used on a matrix",
        """
def softmax(S, axis=-1):
    S = np.asarray(S, dtype=np.float64)
    e = np.exp(S - np.max(S))
    return e / np.sum(e, axis=axis, keepdims=True)
""",
        # the symptom, or the change itself (a reviewer judged the change names it)
        ("own maximum|the maximum of the whole array",),
        kind="mistake",
    ),
    Variant(
        "softmax_total_sum",
        # the one-dimensional snippet `e / e.sum()` used on a matrix
        "the one-dimensional softmax snippet e / e.sum() used on a matrix",
        """
def softmax(S, axis=-1):
    S = np.asarray(S, dtype=np.float64)
    e = np.exp(S - np.max(S, axis=axis, keepdims=True))
    return e / np.sum(e)
""",
        ("whole array",),
        kind="mistake",
    ),
    Variant(
        "scaled_by_width_of_X",
        # "scale by sqrt(d_model)": the model width instead of the key width d_k
        "implementations that scale by √d_model rather than √d_k",
        """
def self_attention(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X, dtype=np.float64)
    Q = X if W_q is None else X @ W_q
    K = X if W_k is None else X @ W_k
    V = X if W_v is None else X @ W_v
    return softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(X.shape[-1])) @ V
""",
        ("width",),
        kind="mistake",
    ),
    Variant(
        "scale_multiplied",
        # "multiply by sqrt(d_k)": the scale written upside down
        "forum question: the scores multiplied by √d_k",
        """
def self_attention(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X, dtype=np.float64)
    Q = X if W_q is None else X @ W_q
    K = X if W_k is None else X @ W_k
    V = X if W_v is None else X @ W_v
    return softmax(Q @ np.swapaxes(K, -1, -2) * np.sqrt(Q.shape[-1])) @ V
""",
        ("√d_k",),
        kind="mistake",
    ),
    Variant(
        "keys_from_queries",
        # a copy-paste slip: K = X @ W_q
        "a copy-pasted line: the keys computed with W_q",
        """
def self_attention(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X, dtype=np.float64)
    Q = X if W_q is None else X @ W_q
    K = X if W_q is None else X @ W_q
    V = X if W_v is None else X @ W_v
    return softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])) @ V
""",
        # the symptom, or the change itself (a reviewer judged the change names it)
        ("symmetric|W_q where the key projection W_k belongs",),
        kind="mistake",
    ),
    Variant(
        "rotation_entries_exchanged",
        # sin where cos belongs: [[sin, cos], [-cos, sin]]
        "a rotation written with sin on the diagonal",
        """
def rotation_matrix(k, freq):
    theta = k * freq
    return np.array([[np.sin(theta), np.cos(theta)], [-np.cos(theta), np.sin(theta)]])
""",
        # the symptom, or the change itself (a reviewer judged the change names it)
        ("π/2|the cosine and the sine are swapped",),
        kind="mistake",
    ),
    Variant(
        "rotation_symmetric",
        # the sign of the bottom-left sine lost
        "a rotation matrix with the minus sign lost",
        """
def rotation_matrix(k, freq):
    theta = k * freq
    return np.array([[np.cos(theta), np.sin(theta)], [np.sin(theta), np.cos(theta)]])
""",
        # the symptom, or the change itself (a reviewer judged the change names it)
        ("not a rotation|the sign of the sine is flipped",),
        kind="mistake",
    ),
    Variant(
        "shift_one_frequency",
        # every block built with the first pair's frequency
        "a block-diagonal shift that reuses one frequency for every pair",
        """
def shift_matrix(k, C, base=10000.0):
    if isinstance(C, bool) or not isinstance(C, (int, np.integer)) or C < 1 or C % 2:
        raise ValueError(f"C must be an even integer >= 1, got {C!r}")
    matrix = np.zeros((C, C))
    for i in range(C // 2):
        matrix[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = rotation_matrix(k, 1.0)
    return matrix
""",
        # the symptom, or the change itself (a reviewer judged the change names it)
        ("same angle|the frequency ω: not divided by a term",),
        kind="mistake",
    ),
    Variant(
        "permutation_inverse",
        # P[perm[i], i] = 1: the column convention of some linear-algebra texts
        "linear-algebra texts that put the 1 of column i in row perm[i]",
        """
def permutation_matrix(perm):
    order = list(perm)
    if sorted(int(p) for p in order) != list(range(len(order))):
        raise ValueError(f"perm must be an ordering of range({len(order)}), got {order!r}")
    matrix = np.zeros((len(order), len(order)))
    matrix[order, np.arange(len(order))] = 1.0
    return matrix
""",
        # the symptom, or the change itself (a reviewer judged the change names it)
        ("transpose|the permutation's order swapped",),
        kind="mistake",
    ),
    Variant(
        "no_argument_checks",
        # the formula right, the ValueError contract ignored: only the contract may be named
        "a correct formula that never validates its arguments",
        """
def sinusoidal_encoding(T, C, base=10000.0):
    angles = np.arange(T)[:, None] / np.power(base, 2 * (np.arange(C) // 2) / C)
    return np.where(np.arange(C) % 2 == 0, np.sin(angles), np.cos(angles))
""",
        ("ValueError",),
        kind="mistake",
    ),
    # ----- sinusoidal_encoding: the argument contract -----
    Variant(
        "encoding_assert_arguments",
        # cause: the checks are `assert` statements, so a bad T or C raises AssertionError, not
        # the ValueError the docstring requires
        "tutorial code that guards its arguments with assert (e.g. `assert d_model % 2 == 0`)",
        """
def sinusoidal_encoding(T, C, base=10000.0):
    assert isinstance(T, (int, np.integer)) and not isinstance(T, bool) and T >= 0, "bad T"
    assert isinstance(C, (int, np.integer)) and not isinstance(C, bool) and C >= 1, "bad C"
    angles = np.arange(T)[:, None] / np.power(float(base), 2 * (np.arange(C) // 2) / C)
    return np.where(np.arange(C) % 2 == 0, np.sin(angles), np.cos(angles))
""",
        ("ValueError",),
        kind="mistake",
    ),
    Variant(
        "encoding_typeerror_for_wrong_type",
        # cause: a non-integer T or C (2.5, "8", True) raises TypeError, not ValueError; only
        # the range checks raise ValueError
        "Python's own convention (range(), np.zeros) of TypeError for an argument of wrong type",
        """
def sinusoidal_encoding(T, C, base=10000.0):
    for name, value, low in (("T", T, 0), ("C", C, 1)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
        if value < low:
            raise ValueError(f"{name} must be >= {low}, got {value}")
    angles = np.arange(T)[:, None] / np.power(float(base), 2 * (np.arange(C) // 2) / C)
    return np.where(np.arange(C) % 2 == 0, np.sin(angles), np.cos(angles))
""",
        ("ValueError",),
        kind="mistake",
    ),
    Variant(
        "encoding_refuses_numpy_integers",
        # cause: `isinstance(T, int)` is False for np.int64, so NumPy integers (valid counts)
        # raise ValueError
        "the plain isinstance(x, int) check of forum answers, which NumPy integers fail",
        """
def sinusoidal_encoding(T, C, base=10000.0):
    for name, value, low in (("T", T, 0), ("C", C, 1)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{name} must be an int, got {type(value).__name__}")
        if value < low:
            raise ValueError(f"{name} must be >= {low}, got {value}")
    angles = np.arange(T)[:, None] / np.power(float(base), 2 * (np.arange(C) // 2) / C)
    return np.where(np.arange(C) % 2 == 0, np.sin(angles), np.cos(angles))
""",
        ("NumPy",),
        kind="mistake",
    ),
    Variant(
        "encoding_accepts_booleans",
        # cause: bool is a subclass of int, so True / False pass `isinstance(T, int)` and are
        # used as counts 1 / 0 instead of raising ValueError
        "the classic isinstance(x, int) check, true for True and False",
        """
def sinusoidal_encoding(T, C, base=10000.0):
    for name, value, low in (("T", T, 0), ("C", C, 1)):
        if not isinstance(value, (int, np.integer)) or value < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    angles = np.arange(T)[:, None] / np.power(float(base), 2 * (np.arange(C) // 2) / C)
    return np.where(np.arange(C) % 2 == 0, np.sin(angles), np.cos(angles))
""",
        ("bool",),
        kind="mistake",
    ),
    Variant(
        "encoding_accepts_whole_floats",
        # cause: a whole float such as 8.0 is accepted as a count (float.is_integer()), though
        # the docstring says floats such as 8.0 must raise ValueError
        "forum answers to 'check if a number is a whole number': float(x).is_integer()",
        """
def sinusoidal_encoding(T, C, base=10000.0):
    for name, value, low in (("T", T, 0), ("C", C, 1)):
        whole = isinstance(value, (int, np.integer)) or (
            isinstance(value, float) and value.is_integer()
        )
        if isinstance(value, bool) or not whole or value < low:
            raise ValueError(f"{name} must be a whole number >= {low}, got {value!r}")
    T, C = int(T), int(C)
    angles = np.arange(T)[:, None] / np.power(float(base), 2 * (np.arange(C) // 2) / C)
    return np.where(np.arange(C) % 2 == 0, np.sin(angles), np.cos(angles))
""",
        ("float",),
        kind="mistake",
    ),
    # ----- sinusoidal_encoding: the values -----
    Variant(
        "encoding_positions_from_one",
        # cause: positions counted from 1 (off by one): row r holds PE(r + 1), row 0 is not
        # [0, 1, 0, 1, ...]
        "fairseq's make_positions, which numbers tokens from padding_idx + 1, copied as 1..T",
        """
def sinusoidal_encoding(T, C, base=10000.0):
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 0:
        raise ValueError(f"T must be an integer >= 0, got {T!r}")
    if isinstance(C, bool) or not isinstance(C, (int, np.integer)) or C < 1:
        raise ValueError(f"C must be an integer >= 1, got {C!r}")
    position = np.arange(1, T + 1, dtype=np.float64)[:, None]
    angles = position / np.power(float(base), 2 * (np.arange(C) // 2) / C)
    return np.where(np.arange(C) % 2 == 0, np.sin(angles), np.cos(angles))
""",
        ("start",),
        kind="mistake",
    ),
    Variant(
        "encoding_positions_reversed",
        # cause: the rows are in reversed order: row r holds PE(T - 1 - r)
        "Transformer-XL's relative encoding, pos_seq = arange(klen - 1, -1, -1), reused as PE",
        """
def sinusoidal_encoding(T, C, base=10000.0):
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 0:
        raise ValueError(f"T must be an integer >= 0, got {T!r}")
    if isinstance(C, bool) or not isinstance(C, (int, np.integer)) or C < 1:
        raise ValueError(f"C must be an integer >= 1, got {C!r}")
    pos_seq = np.arange(T - 1, -1, -1, dtype=np.float64)[:, None]
    angles = pos_seq / np.power(float(base), 2 * (np.arange(C) // 2) / C)
    return np.where(np.arange(C) % 2 == 0, np.sin(angles), np.cos(angles))
""",
        ("reversed",),
        kind="mistake",
    ),
    Variant(
        "encoding_odd_last_column_zero",
        # cause: with an odd C the last column (a lone sine) is left at 0
        "the fix posted for the PyTorch tutorial's shape error at odd d_model: C // 2 sines",
        """
def sinusoidal_encoding(T, C, base=10000.0):
    import math

    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 0:
        raise ValueError(f"T must be an integer >= 0, got {T!r}")
    if isinstance(C, bool) or not isinstance(C, (int, np.integer)) or C < 1:
        raise ValueError(f"C must be an integer >= 1, got {C!r}")
    position = np.arange(T, dtype=np.float64)[:, None]
    div_term = np.exp(np.arange(0, C, 2, dtype=np.float64) * (-math.log(base) / C))[: C // 2]
    pe = np.zeros((T, C))
    pe[:, 0 : 2 * (C // 2) : 2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term)
    return pe
""",
        ("last column",),
        kind="mistake",
    ),
    Variant(
        "encoding_odd_width_breaks",
        # cause: the PyTorch tutorial's code as is: with an odd C the cosine assignment cannot
        # broadcast (C // 2 columns, ceil(C / 2) frequencies) and the call raises
        "PyTorch tutorial's PositionalEncoding, which fails for odd d_model (forum questions)",
        """
def sinusoidal_encoding(T, C, base=10000.0):
    import math

    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 0:
        raise ValueError(f"T must be an integer >= 0, got {T!r}")
    if isinstance(C, bool) or not isinstance(C, (int, np.integer)) or C < 1:
        raise ValueError(f"C must be an integer >= 1, got {C!r}")
    position = np.arange(T, dtype=np.float64)[:, None]
    div_term = np.exp(np.arange(0, C, 2, dtype=np.float64) * (-math.log(base) / C))
    pe = np.zeros((T, C))
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term)
    return pe
""",
        ("odd",),
        kind="mistake",
    ),
    Variant(
        "encoding_float16",
        # cause: computed and returned in float16 (half precision): errors of about 1e-3
        "mixed-precision code (fairseq / AMP) that builds the sinusoids in half precision",
        """
def sinusoidal_encoding(T, C, base=10000.0):
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 0:
        raise ValueError(f"T must be an integer >= 0, got {T!r}")
    if isinstance(C, bool) or not isinstance(C, (int, np.integer)) or C < 1:
        raise ValueError(f"C must be an integer >= 1, got {C!r}")
    position = np.arange(T, dtype=np.float16)[:, None]
    exponent = (2 * (np.arange(C) // 2) / C).astype(np.float16)
    angles = position / np.power(np.float16(base), exponent)
    return np.where(np.arange(C) % 2 == 0, np.sin(angles), np.cos(angles)).astype(np.float16)
""",
        ("float16",),
        kind="mistake",
    ),
    Variant(
        "encoding_transposed",
        # cause: the matrix is returned transposed, (C, T) instead of (T, C)
        "channels-first (d_model, max_len) buffers built for Conv1d-style models",
        """
def sinusoidal_encoding(T, C, base=10000.0):
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 0:
        raise ValueError(f"T must be an integer >= 0, got {T!r}")
    if isinstance(C, bool) or not isinstance(C, (int, np.integer)) or C < 1:
        raise ValueError(f"C must be an integer >= 1, got {C!r}")
    freq = 1.0 / np.power(float(base), 2 * (np.arange(C) // 2) / C)
    angles = freq[:, None] * np.arange(T)[None, :]
    return np.where((np.arange(C) % 2 == 0)[:, None], np.sin(angles), np.cos(angles))
""",
        ("transpose",),
        kind="mistake",
    ),
    Variant(
        "encoding_scaled_by_sqrt_C",
        # cause: every entry multiplied by the constant factor √C (entries leave [-1, 1])
        "the Annotated Transformer's Embeddings, which multiply by √d_model, applied to PE",
        """
def sinusoidal_encoding(T, C, base=10000.0):
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 0:
        raise ValueError(f"T must be an integer >= 0, got {T!r}")
    if isinstance(C, bool) or not isinstance(C, (int, np.integer)) or C < 1:
        raise ValueError(f"C must be an integer >= 1, got {C!r}")
    angles = np.arange(T)[:, None] / np.power(float(base), 2 * (np.arange(C) // 2) / C)
    pe = np.where(np.arange(C) % 2 == 0, np.sin(angles), np.cos(angles))
    return pe * np.sqrt(C)
""",
        ("factor",),
        kind="mistake",
    ),
    # ----- softmax -----
    Variant(
        "softmax_no_max_subtraction",
        # cause: exp(S) / sum(exp(S)) without subtracting the maximum: exp overflows and scores
        # of 1e4 give nan
        "the textbook definition np.exp(x) / np.exp(x).sum(axis, keepdims=True), unshifted",
        """
def softmax(S, axis=-1):
    e = np.exp(np.asarray(S, dtype=np.float64))
    return e / np.sum(e, axis=axis, keepdims=True)
""",
        ("max",),
        kind="mistake",
    ),
    Variant(
        "softmax_sum_without_keepdims",
        # cause: the sum is taken without keepdims=True, so it broadcasts against the wrong
        # axis (a square S is divided column-wise; other shapes fail to broadcast)
        "Stack Overflow: 'softmax rows do not sum to 1' — e / e.sum(axis=1) without keepdims",
        """
def softmax(S, axis=-1):
    S = np.asarray(S, dtype=np.float64)
    e = np.exp(S - np.max(S, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis)
""",
        ("keepdims",),
        kind="mistake",
    ),
    Variant(
        "softmax_ignores_axis",
        # cause: the axis parameter is ignored: the last axis is always used
        "a classifier's softmax over the last axis, copied with an unused axis parameter",
        """
def softmax(S, axis=-1):
    S = np.asarray(S, dtype=np.float64)
    e = np.exp(S - S.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
        ("axis",),
        kind="mistake",
    ),
    Variant(
        "softmax_shift_in_place",
        # cause: `f -= max` modifies the caller's float array S in place (the result is right)
        "CS231n's notes on stable softmax: `f -= np.max(f)`, on the caller's array",
        """
def softmax(S, axis=-1):
    f = np.asarray(S, dtype=np.float64)
    f -= np.max(f, axis=axis, keepdims=True)
    p = np.exp(f)
    return p / np.sum(p, axis=axis, keepdims=True)
""",
        ("caller's",),
        kind="mistake",
    ),
    # ----- self_attention -----
    Variant(
        "attention_dot_T_on_batches",
        # cause: K.T reverses every axis of a batch (B, T, d), so batched inputs fail; only the
        # last two axes may be swapped
        "Stack Overflow: NumPy's .T on a 3-D array is not the transpose of each matrix",
        """
def self_attention(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X, dtype=np.float64)
    if X.ndim not in (2, 3):
        raise ValueError(f"X must be (T, d) or (B, T, d), got shape {X.shape}")
    Q = X if W_q is None else X @ W_q
    K = X if W_k is None else X @ W_k
    V = X if W_v is None else X @ W_v
    return softmax(Q @ K.T / np.sqrt(Q.shape[-1])) @ V
""",
        ("batch",),
        kind="mistake",
    ),
    Variant(
        "attention_ignores_W_v",
        # cause: W_v is ignored: the values are always X itself
        "step-by-step blog posts whose first, weight-free attention keeps V = X",
        """
def self_attention(X, W_q=None, W_k=None, W_v=None):
    X = np.asarray(X, dtype=np.float64)
    if X.ndim not in (2, 3):
        raise ValueError(f"X must be (T, d) or (B, T, d), got shape {X.shape}")
    Q = X if W_q is None else X @ W_q
    K = X if W_k is None else X @ W_k
    return softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])) @ X
""",
        ("W_v",),
        kind="mistake",
    ),
    # ----- rotation_matrix and shift_matrix -----
    Variant(
        "rotation_angle_divided_by_freq",
        # cause: the angle is k / freq instead of k * freq (freq taken for the formula's
        # denominator 10000^(2i/C))
        "the formula's form pos / 10000^(2i/C) carried over: freq treated as a divisor",
        """
def rotation_matrix(k, freq):
    theta = k / freq
    return np.array([[np.cos(theta), np.sin(theta)], [-np.sin(theta), np.cos(theta)]])
""",
        ("freq",),
        kind="mistake",
    ),
    Variant(
        "shift_ignores_base",
        # cause: the base parameter is ignored: 10000 is hard-coded in the frequencies
        "implementations that hard-code the paper's 10000 in the frequencies",
        """
def shift_matrix(k, C, base=10000.0):
    if isinstance(C, bool) or not isinstance(C, (int, np.integer)) or C < 1:
        raise ValueError(f"C must be an integer >= 1, got {C!r}")
    if C % 2:
        raise ValueError(f"C must be even, got {C}")
    matrix = np.zeros((C, C))
    for i in range(C // 2):
        matrix[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = rotation_matrix(k, 10000.0 ** (-2 * i / C))
    return matrix
""",
        ("base",),
        kind="mistake",
    ),
    Variant(
        "shift_odd_width_passthrough",
        # cause: an odd C does not raise ValueError: the lone last column is passed through
        # unrotated (a 1 on the diagonal)
        "GPT-NeoX / GPT-J partial rotary embeddings, which pass the unrotated dimensions through",
        """
def shift_matrix(k, C, base=10000.0):
    if isinstance(C, bool) or not isinstance(C, (int, np.integer)) or C < 1:
        raise ValueError(f"C must be an integer >= 1, got {C!r}")
    matrix = np.zeros((C, C))
    for i in range(C // 2):
        freq = 1.0 / float(base) ** (2 * i / C)
        matrix[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = rotation_matrix(k, freq)
    if C % 2:
        matrix[-1, -1] = 1.0
    return matrix
""",
        ("even",),
        kind="mistake",
    ),
    Variant(
        "shift_assert_even",
        # cause: an odd C fails an `assert`, raising AssertionError instead of ValueError
        "the `assert d_model % 2 == 0` guard of many positional-encoding implementations",
        """
def shift_matrix(k, C, base=10000.0):
    if isinstance(C, bool) or not isinstance(C, (int, np.integer)) or C < 1:
        raise ValueError(f"C must be an integer >= 1, got {C!r}")
    assert C % 2 == 0, "C must be even"
    matrix = np.zeros((C, C))
    for i in range(C // 2):
        freq = 1.0 / float(base) ** (2 * i / C)
        matrix[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = rotation_matrix(k, freq)
    return matrix
""",
        ("ValueError",),
        kind="mistake",
    ),
    Variant(
        "shift_rotates_backwards",
        # cause: every block is the transpose R_kᵀ = R_{-k}, so M shifts by -k (backwards)
        "RoPE's rotate_half form [[cos, -sin], [sin, cos]], written for (x1, x2) pairs, used on "
        "(sin, cos) pairs",
        """
def shift_matrix(k, C, base=10000.0):
    if isinstance(C, bool) or not isinstance(C, (int, np.integer)) or C < 1:
        raise ValueError(f"C must be an integer >= 1, got {C!r}")
    if C % 2:
        raise ValueError(f"C must be even, got {C}")
    matrix = np.zeros((C, C))
    for i in range(C // 2):
        theta = k / float(base) ** (2 * i / C)
        c, s = np.cos(theta), np.sin(theta)
        matrix[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[c, -s], [s, c]]
    return matrix
""",
        # the symptom, or the change itself: R_kᵀ = R_{-k} (a turn by -k names it)
        ("transpose|the shift k with its sign flipped",),
        kind="mistake",
    ),
    # ----- the SymPy functions -----
    Variant(
        "pe_pair_numpy_functions",
        # cause: np.sin / np.cos on SymPy symbols raise TypeError: sp.sin / sp.cos are needed
        "numeric code copied into the symbolic part: np.sin(w * pos) on SymPy symbols",
        """
def pe_pair(pos, w):
    return (np.sin(w * pos), np.cos(w * pos))
""",
        ("SymPy",),
        kind="mistake",
    ),
    Variant(
        "relative_dot_not_simplified",
        # cause: expanded but never simplified: pos still appears in the result
        "SymPy sessions that stop after expand_trig, before trigsimp",
        """
def relative_dot(pos, k, w):
    here, there = pe_pair(pos, w), pe_pair(pos + k, w)
    return sp.expand_trig(sp.expand(here[0] * there[0] + here[1] * there[1]))
""",
        ("simplif",),
        kind="mistake",
    ),
    Variant(
        "rotation_symbolic_numpy_array",
        # cause: a NumPy object array is returned instead of a SymPy Matrix
        "students who build every matrix with np.array, SymPy entries included",
        """
def rotation_matrix_symbolic(k, w):
    return np.array([[sp.cos(k * w), sp.sin(k * w)], [-sp.sin(k * w), sp.cos(k * w)]])
""",
        ("Matrix",),
        kind="mistake",
    ),
    # ----- permutation_matrix -----
    Variant(
        "permutation_unchecked_eye_rows",
        # cause: no check at all: np.eye(n)[perm] raises IndexError for [1, 2, 3] and returns a
        # matrix with repeated rows for [0, 0, 1], where ValueError is required
        "Stack Overflow's one-liner np.eye(n)[perm], used without validating perm",
        """
def permutation_matrix(perm):
    perm = list(perm)
    return np.eye(len(perm))[perm]
""",
        ("ValueError",),
        kind="mistake",
    ),
)

VARIANTS = CORRECT + MISTAKES
