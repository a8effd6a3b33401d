# Sample submission: a student whose name is not plain ASCII, who wrote causal_mask alone.
import numpy as np


def causal_mask(T):
    if type(T) is bool or not isinstance(T, (int, np.integer)) or T < 0:
        raise ValueError(f"T must be a count of positions (an integer >= 0), got {T!r}")
    rows, cols = np.indices((T, T))
    return cols <= rows
