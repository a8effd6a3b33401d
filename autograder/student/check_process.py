"""The child process of `autograder check`: pytest on the public tests, then an exit without
the interpreter's teardown.

`python -m autograder.student.check_process ARGS` is `python -m pytest ARGS`, except for its
end: once pytest has finished (every hook run, the kit's plugin's results written, its own
clean-ups done) and the output is flushed, the process ends with `os._exit`. Tearing down an
interpreter that holds SymPy and NumPy frees every object one by one and took about 0.15 s of
each check, for nothing anyone reads; what is skipped is that and the `atexit` handlers (the
student's module's among them, whose effects a check never reports).
"""

from __future__ import annotations

import contextlib
import os
import sys

import pytest


def main(argv: list[str]) -> int:
    """Run pytest with `argv`; its exit code."""
    return int(pytest.main(argv))


if __name__ == "__main__":
    code = main(sys.argv[1:])
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # a stream the tests closed or replaced
            stream.flush()
    os._exit(code)
