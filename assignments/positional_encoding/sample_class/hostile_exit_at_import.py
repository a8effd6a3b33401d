# Sample submission: hostile: ends the process at import time, before any function can run.
import os

os._exit(0)


def sinusoidal_encoding(T, C, base=10000.0):
    raise AssertionError("never reached")
