# Sample submission: hostile: ends the process at import time, before any function can run.
import os

os._exit(0)


def causal_mask(T):
    raise AssertionError("never reached")
