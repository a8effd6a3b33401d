# Sample submission: correct, written with loops over the pairs (each pair's angle broadcast over
# the positions), R_m built block by block, and attention row by row.
import numpy as np


def rope_angles(positions, C, base=10000.0):
    if isinstance(C, bool) or not isinstance(C, (int, np.integer)) or C < 2 or C % 2 == 1:
        raise ValueError(f"bad C: {C}")
    if base <= 0:
        raise ValueError(f"bad base: {base}")
    positions = np.asarray(positions, dtype=float)
    table = np.zeros((len(positions), C // 2))
    for i in range(C // 2):
        table[:, i] = positions * base ** (-2.0 * i / C)
    return table


def rope(X, positions=None, base=10000.0, layout="interleaved"):
    X = np.array(X, dtype=float)
    T, C = X.shape[-2:]
    if C % 2 == 1:
        raise ValueError("odd C")
    if base <= 0:
        raise ValueError("bad base")
    if layout not in ("interleaved", "halves"):
        raise ValueError("bad layout")
    positions = np.arange(T) if positions is None else np.asarray(positions, dtype=float)
    if len(positions) != T:
        raise ValueError("positions")
    out = X.copy()
    for i in range(C // 2):
        a, b = (2 * i, 2 * i + 1) if layout == "interleaved" else (i, i + C // 2)
        angle = positions * base ** (-2.0 * i / C)
        c, s = np.cos(angle)[:, None], np.sin(angle)[:, None]
        x0, x1 = X[..., a : a + 1], X[..., b : b + 1]
        out[..., a : a + 1] = x0 * c - x1 * s
        out[..., b : b + 1] = x0 * s + x1 * c
    return out


def rope_matrix(m, C, base=10000.0, layout="interleaved"):
    if layout not in ("interleaved", "halves"):
        raise ValueError("bad layout")
    R = np.zeros((C, C))
    for i, angle in enumerate(rope_angles([m], C, base)[0]):
        a, b = (2 * i, 2 * i + 1) if layout == "interleaved" else (i, i + C // 2)
        R[a, a], R[a, b] = np.cos(angle), -np.sin(angle)
        R[b, a], R[b, b] = np.sin(angle), np.cos(angle)
    return R


def rope_attention(X, W_q, W_k, W_v, base=10000.0):
    X = np.asarray(X, dtype=float)
    if X.ndim == 3:
        return np.stack([rope_attention(x, W_q, W_k, W_v, base) for x in X])
    Q, K, V = rope(X @ W_q, base=base), rope(X @ W_k, base=base), X @ W_v
    out = np.zeros((X.shape[0], V.shape[1]))
    for t in range(X.shape[0]):
        scores = np.array([Q[t] @ K[s] for s in range(X.shape[0])]) / np.sqrt(Q.shape[1])
        w = np.exp(scores - scores.max())
        out[t] = (w / w.sum()) @ V
    return out
