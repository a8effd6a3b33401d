"""A second catalogue of mistakes, kept apart from the assignment's `misconceptions.py`.

None of these is a catalogued misconception: each is how a student who learnt from a public
implementation, a textbook or a forum question would get one function wrong. The grader must
name each mistake from what it measures on the output (signatures.py) or from a catalogued
replay that truly explains it, and say nothing misleading: every hint a variant receives must
carry the variant's keywords. `source` replaces one function of the reference.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Variant:
    name: str
    origin: str
    """Where the mistake comes from."""
    source: str
    keywords: tuple[str, ...]
    """Words every hint on this variant must contain (all of them); empty: no hint at all."""


VARIANTS = (
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
        ("different frequencies",),
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
        ("4i/C",),
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
        ("grow",),
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
        ("frequency 1",),
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
        ("own maximum",),
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
        ("symmetric",),
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
        ("π/2",),
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
        ("not a rotation",),
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
        ("same angle",),
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
        ("transpose",),
    ),
    Variant(
        "no_argument_checks",
        # the formula right, the ValueError contract ignored: no numeric hint may be given
        "a correct formula that never validates its arguments",
        """
def sinusoidal_encoding(T, C, base=10000.0):
    angles = np.arange(T)[:, None] / np.power(base, 2 * (np.arange(C) // 2) / C)
    return np.where(np.arange(C) % 2 == 0, np.sin(angles), np.cos(angles))
""",
        (),
    ),
)
