"""A submission's share of the processors: a cgroup where the kit can make one, the lowest
priority where it cannot.

`--jobs N` grades N submissions at once, each in its own runner with its own zygote. A
submission that starts busy loops must not slow its neighbours' calls into their time limits,
nor the trusted side that checks them. So:

- `cgroup`: each runner makes a CPU cgroup of its own (cgroup v1's `cpu` controller, or v2's
  `cpu.max`, at the top of the hierarchy as root or in a delegated subtree) capped at its
  share of the machine (its cores over the number of jobs), and starts its zygote inside it:
  every process of every submission it grades (workers, their children, daemons) is counted
  together, and all of them get at most that share however many they are;
- `nice`: the worker lowers its own priority before any student code runs: niceness 19,
  SCHED_IDLE, and its session's autogroup at niceness 19 (Linux weighs sessions against each
  other first). Its children inherit all three; without CAP_SYS_NICE (the worker runs as an
  unprivileged user or as a grader's own) and with RLIMIT_NICE at 0 (limits.py) none can be
  raised back. Without a cgroup it is all there is; with one it keeps the zygote, which serves
  the grader, ahead of the student's processes in their cgroup. A child that starts a session
  of its own gets a fresh autogroup at niceness 0: the CPU-time judgement of cpu_time.py, and
  grading a starved submission again alone, protect the neighbours from that.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from autograder.sandbox.scratch import process_alive

PERIOD_US = 100_000
"""The period over which the quota is counted: the kernel's default."""
PREFIX = "autograder-"
"""A runner's cgroup is PREFIX + its pid; one left by a runner that was killed is removed by
the next runner that finds it."""
MOUNTINFO = Path("/proc/self/mountinfo")
OWN_CGROUPS = Path("/proc/self/cgroup")
NICEST = 19
AUTOGROUP = Path("/proc/self/autogroup")


@dataclass(frozen=True)
class CpuCgroup:
    """A cgroup made for one runner's zygote, capped at `cores` processors."""

    path: Path
    version: int
    cores: float

    def enter(self, command: Sequence[str]) -> list[str]:
        """`command`, started inside this cgroup: the shell joins it, then becomes the
        command, so no process of the command ever runs outside it."""
        procs = shlex.quote(str(self.path / "cgroup.procs"))
        return ["/bin/sh", "-c", f'echo $$ > {procs} && exec "$@"', "sh", *command]

    def remove(self) -> None:
        """Remove the cgroup once the processes in it ended (a killed zygote's take a moment)."""
        deadline = time.monotonic() + 5
        while True:
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:  # busy: its last processes are still on their way out
                if time.monotonic() > deadline:
                    return
                time.sleep(0.02)


def make_cpu_cgroup(
    cores: float,
    *,
    mountinfo: Path = MOUNTINFO,
    own_cgroups: Path = OWN_CGROUPS,
    name: str | None = None,
) -> CpuCgroup | None:
    """A fresh cgroup capped at `cores` processors, or None where this process may make none
    (not Linux, no cpu controller, no write access to a place in the hierarchy for it)."""
    if not sys.platform.startswith("linux") or cores <= 0:
        return None
    try:
        mounts = mountinfo.read_text(encoding="utf-8", errors="replace")
        own = own_cgroups.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    name = name or f"{PREFIX}{os.getpid()}"
    for parent, version in _places(mounts, own):
        made = _make(parent / name, version, cores)
        if made is not None:
            return made
    return None


def _places(mounts: str, own: str) -> list[tuple[Path, int]]:
    """Where a child cgroup with the cpu controller may go, most likely first: cgroup v1's
    `cpu` hierarchy under this process's own cgroup (v1 allows processes beside children); in
    cgroup v2, beside this process's own cgroup (a cgroup holding processes may not give
    controllers to children), when the cpu controller is enabled there."""
    v1_mount, v2_mount = None, None
    for line in mounts.splitlines():
        before, _, after = line.partition(" - ")
        fields, tail = before.split(), after.split()
        if len(fields) < 5 or len(tail) < 3:
            continue
        point = Path(_unescape(fields[4]))
        if tail[0] == "cgroup" and "cpu" in tail[2].split(","):
            v1_mount = v1_mount or point
        elif tail[0] == "cgroup2":
            v2_mount = v2_mount or point
    places: list[tuple[Path, int]] = []
    for line in own.splitlines():
        number, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        relative = path.strip().lstrip("/")
        if v1_mount is not None and "cpu" in controllers.split(","):
            places.append((v1_mount / relative, 1))
        elif v2_mount is not None and number == "0" and controllers == "":
            mine = v2_mount / relative
            parent = mine.parent if mine != v2_mount else mine
            if "cpu" in _read(parent / "cgroup.subtree_control").split():
                places.append((parent, 2))
    return places


def _make(path: Path, version: int, cores: float) -> CpuCgroup | None:
    _remove_stale(path.parent)
    try:
        path.mkdir()
    except FileExistsError:
        pass
    except OSError:
        return None
    quota = max(int(cores * PERIOD_US), 1000)  # the kernel's smallest quota is 1 ms
    try:
        if version == 1:
            (path / "cpu.cfs_period_us").write_text(str(PERIOD_US))
            (path / "cpu.cfs_quota_us").write_text(str(quota))
        else:
            (path / "cpu.max").write_text(f"{quota} {PERIOD_US}")
    except OSError:
        with contextlib.suppress(OSError):
            path.rmdir()
        return None
    made = CpuCgroup(path, version, cores)
    if not _can_enter(made):  # cgroup v2 also asks for the right to move out of ours
        made.remove()
        return None
    return made


def _can_enter(cgroup: CpuCgroup) -> bool:
    """A process of ours can join `cgroup` (tried with one that then ends)."""
    try:
        done = subprocess.run(cgroup.enter(["true"]), capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def _remove_stale(parent: Path) -> None:
    """Remove the cgroups of runners that are gone (killed before they could remove theirs)."""
    with contextlib.suppress(OSError):
        for entry in parent.iterdir():
            match = re.fullmatch(re.escape(PREFIX) + r"(\d+)", entry.name)
            if match and not process_alive(int(match[1])):
                with contextlib.suppress(OSError):
                    entry.rmdir()


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""


def _unescape(field: str) -> str:
    """A mountinfo path, whose spaces and such are written as octal escapes."""
    return re.sub(r"\\(\d{3})", lambda m: chr(int(m[1], 8)), field)


def share_of_machine(jobs: int) -> float:
    """The processors one of `jobs` submissions graded at once may use: its share of the
    machine, but never less than one processor, so that more jobs than cores cannot cap a
    correct call below what it needs on an idle machine (the priority and the CPU-time
    judgement keep a hog from its neighbours then)."""
    return max(1.0, (os.cpu_count() or 1) / max(jobs, 1))


def lower_priority() -> list[str]:
    """Give this process (and all it will start) the lowest priority it can take; the layer
    names that held ("cpu-nice"), none where the platform has no such thing."""
    if not hasattr(os, "nice"):  # pragma: no cover - students' checks on Windows only
        return []
    try:
        os.nice(NICEST - os.getpriority(os.PRIO_PROCESS, 0))
    except OSError:
        return []
    if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    with contextlib.suppress(OSError):  # the session's own group of the scheduler (Linux)
        AUTOGROUP.write_text(str(NICEST))
    return ["cpu-nice"]
