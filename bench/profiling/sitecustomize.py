"""Loaded by every interpreter started with this folder on PYTHONPATH (profile_grading.py puts
it there for the runner it starts): in the runner, profile the runner itself and each test
child it forks, and leave each profile in $AUTOGRADER_PROFILE_DIR. Other processes are untouched."""

from __future__ import annotations

import atexit
import cProfile
import os
from pathlib import Path

_FOLDER = os.environ.get("AUTOGRADER_PROFILE_DIR")
_RUNNER = b"autograder.grading.serve" in Path("/proc/self/cmdline").read_bytes()

if _FOLDER and _RUNNER:
    _runner_pid = os.getpid()
    _profile = cProfile.Profile()
    _real_exit = os._exit

    def _dump(role: str) -> None:
        _profile.disable()
        _profile.dump_stats(os.path.join(_FOLDER, f"{role}-{os.getpid()}.prof"))

    def _in_child() -> None:
        global _profile
        _profile.disable()  # the runner's, inherited
        if os.getppid() == _runner_pid:  # a test child (not a helper forked by one)
            _profile = cProfile.Profile()
            _profile.enable()

    def _exit(code: int) -> None:  # a test child ends with os._exit, past atexit
        if os.getppid() == _runner_pid:
            _dump("child")
        _real_exit(code)

    os.register_at_fork(after_in_child=_in_child)
    os._exit = _exit
    atexit.register(_dump, "runner")
    _profile.enable()

_CPU_FILE = os.environ.get("AUTOGRADER_CHILD_CPU")
if _CPU_FILE and _RUNNER and not _FOLDER:
    import resource

    _runner_pid = os.getpid()
    _real_exit = os._exit
    _start: list[float] = []

    def _child_started() -> None:
        if os.getppid() == _runner_pid:
            usage = resource.getrusage(resource.RUSAGE_SELF)
            _start[:] = [usage.ru_utime, usage.ru_stime]

    def _exit(code: int) -> None:
        if os.getppid() == _runner_pid and _start:
            usage = resource.getrusage(resource.RUSAGE_SELF)
            with open(_CPU_FILE, "a") as out:
                out.write(f"{usage.ru_utime - _start[0]:.4f} {usage.ru_stime - _start[1]:.4f}\n")
        _real_exit(code)

    os.register_at_fork(after_in_child=_child_started)
    os._exit = _exit
