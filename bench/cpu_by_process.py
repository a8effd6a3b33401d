"""Where a graded submission's CPU time goes: the grader, the runner, its test child, the
sandbox (bwrap and the zygote) and the worker that runs the student's code.

Runs `autograder grade` on a generated class and accounts every process's CPU time with Linux
control groups (cgroup v2's cpu.stat): a watcher moves each new process into its role's group
as soon as it sees it (every 2 ms; a process's first moments count for its parent's role). With
`--closed-form`, every submission's `relative_dot` returns cos(w·k) without SymPy's
simplification, so the difference between the two runs is the students' own SymPy work. Each
role's share spent in the kernel (system time: forks, copied pages, pipes) is printed beside.
`--kinds correct buggy` grades a class of each group of kinds in turn and compares what the
kit itself (everything but the worker) spends on each; `--kinds template` grades the released
stub, whose every function raises NotImplementedError: what the kit spends on a submission that
computes nothing, the worker's figure then being the kit's own code inside it. Needs root and a
cgroup v2 hierarchy; prints figures, asserts nothing.

    .venv/bin/python bench/cpu_by_process.py --n 70 --jobs 1
    .venv/bin/python bench/cpu_by_process.py --n 70 --jobs 1 --closed-form
    .venv/bin/python bench/cpu_by_process.py --n 40 --jobs 1 --kinds all correct buggy --rounds 3
    .venv/bin/python bench/cpu_by_process.py --sizes 10 80 --jobs 1

`--sizes A B` grades a class of each size (rounded up to whole cycles of the kinds, so that
both mix them alike) and splits each role's CPU into what a run spends
once (starting the runner, the zygote, the grader: the same for a class of 10 or of 1,000) and
what each further submission adds, the figure that a large class's cost tends to.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from grade_class import ASSIGNMENT, BIN, ROOT, TEMPLATE, closed_form_class, kinds_of, make_class

from autograder.course.course import Course
from autograder.course.solutions import solution_source
from autograder.diagnosis.mutant_match import MutantModels

ROLES = ("grader", "runner", "test child", "sandbox", "worker")
HIERARCHIES = (Path("/sys/fs/cgroup/unified"), Path("/sys/fs/cgroup"))


def cgroup_root() -> Path:
    for root in HIERARCHIES:
        if (root / "cgroup.procs").is_file() and (root / "cgroup.controllers").is_file():
            return root
    raise SystemExit("needs a cgroup v2 hierarchy (mounted at /sys/fs/cgroup or .../unified)")


class Accounts:
    """One control group per role, created under `root` and removed at the end."""

    def __init__(self, root: Path) -> None:
        self.base = root / f"autograder-bench-{os.getpid()}"
        self.groups = {role: self.base / role.replace(" ", "-") for role in ROLES}
        for group in self.groups.values():
            group.mkdir(parents=True)

    def seconds(self, role: str, field: str = "usage_usec") -> float:
        """CPU seconds of `role`'s group: in all, or `system_usec` (the kernel's share)."""
        for line in (self.groups[role] / "cpu.stat").read_text().splitlines():
            if line.startswith(field + " "):
                return int(line.split()[1]) / 1e6
        return 0.0

    def members(self, role: str) -> list[int]:
        return [int(pid) for pid in (self.groups[role] / "cgroup.procs").read_text().split()]

    def move(self, pid: int, role: str) -> None:
        with contextlib.suppress(OSError):  # it has ended
            (self.groups[role] / "cgroup.procs").write_text(str(pid))

    def remove(self) -> None:
        for group in self.groups.values():
            group.rmdir()
        self.base.rmdir()


def _process(pid: int) -> tuple[bytes, int] | None:
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
        parent = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return command, parent


def sort_processes(accounts: Accounts, grader: int, stop: threading.Event) -> None:
    """Moves every process of the grader's tree to its role's group, again and again (a fork
    of the runner is a test child until it executes bwrap)."""
    while not stop.is_set():
        for role in ROLES:
            for pid in accounts.members(role):
                found = role_of(pid, grader)
                if found is not None and found != role:
                    accounts.move(pid, found)
        time.sleep(0.002)


def role_of(pid: int, grader: int) -> str | None:
    """By ancestry: under bwrap, bwrap itself and the zygote (a child of bwrap's init) are the
    sandbox and anything the zygote forked a worker; otherwise a runner or its test child."""
    if pid == grader:
        return "grader"
    chain: list[bytes] = []
    current: int | None = pid
    while current is not None and current != grader:
        seen = _process(current)
        if seen is None or current <= 1:
            return None
        chain.append(seen[0])
        current = seen[1]
    under_bwrap = [b"bwrap" in command for command in chain]
    if any(under_bwrap):
        return "worker" if not any(under_bwrap[:2]) else "sandbox"
    return "runner" if len(chain) == 1 else "test child"


def grade_accounted(accounts: Accounts, folder: Path, jobs: int) -> float:
    """Grade `folder` with its processes sorted into `accounts`; the wall time in seconds."""
    with tempfile.TemporaryDirectory() as out:
        command = [str(BIN / "autograder"), "grade", str(folder), "--out", out,
                   "--jobs", str(jobs), "--course", str(ROOT), "--format", "json",
                   "--assignment", "positional_encoding"]  # fmt: skip
        procs = accounts.groups["grader"] / "cgroup.procs"
        stop = threading.Event()
        started = time.perf_counter()
        grader = subprocess.Popen(
            ["/bin/sh", "-c", f'echo $$ > "{procs}" && exec "$@"', "sh", *command],
            stdout=subprocess.DEVNULL,
        )
        watcher = threading.Thread(
            target=sort_processes, args=(accounts, grader.pid, stop), daemon=True
        )
        watcher.start()
        grader.wait()
        stop.set()
        watcher.join()
        return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=70)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--closed-form", action="store_true", help="relative_dot returns cos(w·k) unsimplified"
    )
    parser.add_argument(
        "--without-hostile", action="store_true", help="the correct and buggy kinds only"
    )
    parser.add_argument(
        "--kinds",
        nargs="+",
        metavar="GROUP",
        help="a class of each: correct, buggy, hostile, "
        "honest, all, template (the released stub), or a kind's name "
        "(default: all, or honest with --without-hostile)",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="measure every group this many times, in turns, and print the medians (a busy "
        "machine's speed drifts from minute to minute: turns compare groups at the same time)",
    )
    parser.add_argument(
        "--sizes",
        type=int,
        nargs=2,
        metavar=("A", "B"),
        help="grade a class of A and one of B (instead of --n) and split each role's CPU into "
        "a run's start-up and each further submission's cost",
    )
    args = parser.parse_args()
    print_precomputation()
    if args.closed_form and TEMPLATE in (args.kinds or ()):
        raise SystemExit("--closed-form gives the template a working relative_dot: not both")
    if args.sizes:
        split_by_size(args)
        return
    groups = args.kinds or ["honest" if args.without_hostile else "all"]
    rounds: dict[str, list[dict[str, float]]] = {group: [] for group in groups}
    for _ in range(args.rounds):
        for group in groups:
            rounds[group].append(measure(group, args))
    kit = {group: _kit(rounds[group][0]) for group in groups}
    if args.rounds > 1:
        print(f"\nmedians of {args.rounds} rounds, measured in turns:")
        for group in groups:
            middle = {role: statistics.median(r[role] for r in rounds[group]) for role in ROLES}
            report(f"{args.n} submissions (kinds: {group}), median", middle)
            kit[group] = statistics.median(_kit(r) for r in rounds[group])
    if len(groups) > 1:
        first = groups[0]
        for group in groups[1:]:
            print(f"kit {group} / {first}: {kit[group] / kit[first]:.2f} (CPU of everything but "
                  "the worker, per submission)")  # fmt: skip


def print_precomputation() -> None:
    """What each runner computes once before its first submission for the diagnosis: the
    reference's mutants (their answers to the rehearsal's calls are primed within the
    runner's CPU that the table below counts)."""
    assignment = Course.load(ROOT).assignment(ASSIGNMENT)
    reference = assignment.load_reference()
    source = solution_source(assignment.reference.read_text(encoding="utf-8"), origin="reference")
    started = time.process_time()
    models = MutantModels(reference, source, assignment.load_words())
    made = time.process_time() - started
    print(
        f"precomputation per runner: {len(models)} mutants of {ASSIGNMENT} made in "
        f"{1000 * made:.0f} ms of CPU (their answers are primed in the runner's rehearsal)"
    )


def split_by_size(args: argparse.Namespace) -> None:
    """Each role's start-up (seconds a run) and marginal cost (ms a submission), from two
    class sizes: the CPU of a run is taken as start-up + size × marginal."""
    for group in args.kinds or ["honest" if args.without_hostile else "all"]:
        cycle = len(kinds_of(group))  # whole cycles of the kinds: both classes mix them alike
        small, large = sorted(-(-size // cycle) * cycle for size in args.sizes)
        if small < 1 or small == large:
            raise SystemExit(f"--sizes needs two different numbers of cycles of {cycle} kinds")
        args.n = small
        at_small = measure(group, args)
        args.n = large
        at_large = measure(group, args)
        print(f"kinds {group}, from classes of {small} and {large}: start-up of a run, and what "
              "each further submission adds:")  # fmt: skip
        marginal = {}
        for role in ROLES:
            total_small, total_large = at_small[role] * small, at_large[role] * large
            marginal[role] = (total_large - total_small) / (large - small)
            start = (total_small - small * marginal[role]) / 1e3
            print(f"  {role:11s} {start:5.2f} s once, {marginal[role]:6.1f} ms a submission")
        kit = _kit(marginal)
        print(f"  {'kit':11s} {kit:6.1f} ms a submission (all but the worker): "
              f"{kit / marginal['worker']:.2f} of the worker's")  # fmt: skip


def measure(group: str, args: argparse.Namespace) -> dict[str, float]:
    """Grade a class of `group`'s kinds with its CPU accounted; print it; return each role's
    CPU per submission in milliseconds."""
    accounts = Accounts(cgroup_root())
    try:
        with tempfile.TemporaryDirectory() as scratch:
            place = Path(scratch) / "class"
            make = closed_form_class if args.closed_form else make_class
            folder = make(place, args.n, kinds=kinds_of(group))
            wall = grade_accounted(accounts, folder, args.jobs)
        used = {role: accounts.seconds(role) * 1e3 / args.n for role in ROLES}
        kernel = {role: accounts.seconds(role, "system_usec") * 1e3 / args.n for role in ROLES}
    finally:
        accounts.remove()
    kind = "closed-form relative_dot, " if args.closed_form else ""
    report(f"{args.n} submissions ({kind}kinds: {group}), --jobs {args.jobs}: "
           f"{wall * 1e3 / args.n:.0f} ms of wall time each", used)  # fmt: skip
    print(
        "  of which the kernel's (system time): "
        + ", ".join(f"{role} {kernel[role]:.1f}" for role in ROLES)
        + " ms"
    )
    return used


def report(title: str, used: dict[str, float]) -> None:
    """The CPU per submission of each role, the total, and the kit's share."""
    print(f"{title}; CPU per submission:")
    for role in ROLES:
        print(f"  {role:11s} {used[role]:6.1f} ms")
    print(f"  {'total':11s} {sum(used.values()):6.1f} ms")
    kit = _kit(used)
    print(f"  {'kit':11s} {kit:6.1f} ms (all but the worker): {kit / used['worker']:.2f} of "
          "the worker's")  # fmt: skip


def _kit(used: dict[str, float]) -> float:
    return sum(used.values()) - used["worker"]


if __name__ == "__main__":
    main()
