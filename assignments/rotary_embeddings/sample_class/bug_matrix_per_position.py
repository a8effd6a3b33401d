# Sample submission: right but slow. rope builds the (C, C) matrix R_m for every position and
# multiplies: O(T·C²) where RoPE is O(T·C). Its numbers are right on every small input; the
# hidden test with a long, wide input runs out of the call's time limit.
import numpy as np


def rope(X, positions=None, base=10000.0, layout="interleaved"):
    X = np.asarray(X, dtype=float)
    T, C = X.shape[-2:]
    if C % 2:
        raise ValueError("C must be even")
    positions = np.arange(T) if positions is None else np.asarray(positions, dtype=float)
    if positions.shape != (T,):
        raise ValueError("positions must have length T")
    out = np.empty_like(X)
    for t, m in enumerate(positions):
        out[..., t, :] = X[..., t, :] @ rope_matrix(m, C, base, layout).T
    return out
