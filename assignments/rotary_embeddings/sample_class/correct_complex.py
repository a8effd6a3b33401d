# Sample submission: correct, in the style of Meta's LLaMA reference code: each pair is a complex
# number x0 + i·x1 multiplied by exp(i·mθ) (torch.polar, view_as_complex), then read back.
import numpy as np


def rope_angles(positions, C, base=10000.0):
    if isinstance(C, bool) or not isinstance(C, (int, np.integer)) or C < 2 or C % 2:
        raise ValueError("C must be a positive even integer")
    if not base > 0:
        raise ValueError("base must be positive")
    freqs = 1.0 / (base ** (np.arange(0, C, 2)[: C // 2] / C))
    return np.asarray(positions, dtype=float)[:, None] * freqs[None, :]


def rope(X, positions=None, base=10000.0, layout="interleaved"):
    X = np.asarray(X, dtype=float)
    T, C = X.shape[-2], X.shape[-1]
    if C % 2 != 0:
        raise ValueError("the width must be even")
    if layout not in ("interleaved", "halves"):
        raise ValueError("unknown layout")
    if positions is None:
        positions = np.arange(T)
    positions = np.asarray(positions)
    if positions.shape != (T,):
        raise ValueError("one position per row")
    freqs_cis = np.exp(1j * rope_angles(positions, C, base))
    if layout == "interleaved":
        pairs = X[..., 0::2] + 1j * X[..., 1::2]
        turned = pairs * freqs_cis
        return np.stack([turned.real, turned.imag], axis=-1).reshape(X.shape)
    pairs = X[..., : C // 2] + 1j * X[..., C // 2 :]
    turned = pairs * freqs_cis
    return np.concatenate([turned.real, turned.imag], axis=-1)
