# Sample submission: hostile: sinusoidal_encoding returns an object equal to everything (it is
# appended to the reference, whose other functions are correct).
import numpy as np


class EqualToEverything:
    """Compares equal to anything, is close to anything, and has any shape you ask about."""

    shape = property(lambda self: _wanted_shape)
    dtype = np.dtype("float64")

    def __eq__(self, other):
        return True

    def __array__(self, *args, **kwargs):
        return np.zeros(_wanted_shape)


_wanted_shape = (0, 0)


def sinusoidal_encoding(T, C, base=10000.0):
    global _wanted_shape
    _wanted_shape = (T, C)
    return EqualToEverything()
