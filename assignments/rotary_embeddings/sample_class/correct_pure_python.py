# Sample submission: correct, in plain Python: a loop over every position and every pair, with
# math.cos and math.sin. O(T·C) as RoPE is, only with a slower constant: it stays within the
# time limit of the hidden test's long, wide input, which a (C, C) matrix per position does not.
import math

import numpy as np


def rope(X, positions=None, base=10000.0, layout="interleaved"):
    X = np.array(X, dtype=float)
    *batch, T, C = X.shape
    if C % 2:
        raise ValueError("C must be even")
    if not base > 0:
        raise ValueError("base must be positive")
    if layout not in ("interleaved", "halves"):
        raise ValueError("unknown layout")
    positions = list(range(T)) if positions is None else [float(p) for p in positions]
    if len(positions) != T:
        raise ValueError("one position per row")
    flat = X.reshape(-1, T, C)
    out = flat.copy()
    for b in range(flat.shape[0]):
        for t, m in enumerate(positions):
            row, new = flat[b, t].tolist(), out[b, t]
            for i in range(C // 2):
                a, c = (2 * i, 2 * i + 1) if layout == "interleaved" else (i, i + C // 2)
                angle = m * base ** (-2 * i / C)
                cos, sin = math.cos(angle), math.sin(angle)
                new[a] = row[a] * cos - row[c] * sin
                new[c] = row[a] * sin + row[c] * cos
    return out.reshape(X.shape)
