"""A submission's share of the processors: its runner's cgroup where one can be made (v1 and v2,
found from the mount table and the process's own cgroups), and the lowest priority for every
process of the student's, which none of them can raise back."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from configurations import unavailable

from autograder.sandbox.client import StudentSession
from autograder.sandbox.cpu_share import PERIOD_US, PREFIX, make_cpu_cgroup
from autograder.sandbox.isolation import WORKER_UID_BASE, choose
from autograder.sandbox.limits import Limits

V1_MOUNTS = (
    "30 25 0:26 / {root}/cpu rw,relatime shared:9 - cgroup cgroup rw,cpu\n"
    "31 25 0:27 / {root}/memory rw,relatime shared:10 - cgroup cgroup rw,memory\n"
)
V2_MOUNTS = "29 24 0:25 / {root} rw,relatime shared:4 - cgroup2 cgroup2 rw\n"


def _tables(tmp_path: Path, mounts: str, own: str) -> tuple[Path, Path]:
    mountinfo, cgroups = tmp_path / "mountinfo", tmp_path / "cgroup"
    mountinfo.write_text(mounts.format(root=tmp_path / "fs"))
    cgroups.write_text(own)
    return mountinfo, cgroups


def test_a_v1_cgroup_goes_under_the_own_cpu_cgroup_with_its_quota(tmp_path: Path) -> None:
    (tmp_path / "fs" / "cpu" / "grading").mkdir(parents=True)
    mountinfo, own = _tables(tmp_path, V1_MOUNTS, "4:memory:/x\n2:cpu,cpuacct:/grading\n0::/\n")
    cgroup = make_cpu_cgroup(0.5, mountinfo=mountinfo, own_cgroups=own, name="runner")
    assert cgroup is not None and cgroup.version == 1
    assert cgroup.path == tmp_path / "fs" / "cpu" / "grading" / "runner"
    assert (cgroup.path / "cpu.cfs_period_us").read_text() == str(PERIOD_US)
    assert (cgroup.path / "cpu.cfs_quota_us").read_text() == str(PERIOD_US // 2)
    entered = subprocess.run(cgroup.enter(["sh", "-c", "echo inside"]), capture_output=True,
                             text=True, check=True)  # fmt: skip
    assert entered.stdout == "inside\n"
    assert (cgroup.path / "cgroup.procs").read_text().strip().isdigit()  # the shell wrote itself


def test_a_v2_cgroup_goes_beside_the_own_one_where_cpu_is_delegated(tmp_path: Path) -> None:
    parent = tmp_path / "fs" / "user.slice"
    (parent / "session").mkdir(parents=True)
    mountinfo, own = _tables(tmp_path, V2_MOUNTS, "0::/user.slice/session\n")
    assert make_cpu_cgroup(1.5, mountinfo=mountinfo, own_cgroups=own, name="r") is None
    (parent / "cgroup.subtree_control").write_text("cpuset cpu io memory pids\n")
    cgroup = make_cpu_cgroup(1.5, mountinfo=mountinfo, own_cgroups=own, name="r")
    assert cgroup is not None and cgroup.version == 2 and cgroup.path == parent / "r"
    assert (cgroup.path / "cpu.max").read_text() == f"{PERIOD_US * 3 // 2} {PERIOD_US}"


def test_no_cgroup_where_the_hierarchy_is_not_writable(tmp_path: Path) -> None:
    (tmp_path / "fs" / "cpu").mkdir(parents=True)
    mountinfo, own = _tables(tmp_path, V1_MOUNTS, "2:cpu:/\n")
    (tmp_path / "fs" / "cpu").chmod(0o555)
    try:
        if os.geteuid() == 0:  # root writes anyway: a missing controller stands in for it
            mountinfo.write_text(V1_MOUNTS.format(root=tmp_path / "fs").replace("rw,cpu", "rw"))
        assert make_cpu_cgroup(1.0, mountinfo=mountinfo, own_cgroups=own, name="r") is None
    finally:
        (tmp_path / "fs" / "cpu").chmod(0o755)


def test_the_cgroups_of_runners_that_are_gone_are_removed(tmp_path: Path) -> None:
    cpu = tmp_path / "fs" / "cpu"
    gone, alive = cpu / f"{PREFIX}{2**22 + 1}", cpu / f"{PREFIX}{os.getpid()}"
    gone.mkdir(parents=True)
    alive.mkdir()
    mountinfo, own = _tables(tmp_path, V1_MOUNTS, "2:cpu:/\n")
    assert make_cpu_cgroup(1.0, mountinfo=mountinfo, own_cgroups=own, name="new") is not None
    assert not gone.exists() and alive.exists()


HOLD = (
    "import os, sys\n"
    "pid = os.fork()\n"
    "if pid:\n"
    "    print(os.getpid(), pid, flush=True)\n"
    "sys.stdin.read()\n"  # both hold until the test closes their input
)


def test_every_process_started_in_a_real_cgroup_stays_in_it() -> None:
    """On this machine's own hierarchy: the command and the child it forks are in the
    cgroup, whose quota is the share asked for; the cgroup goes once they have ended."""
    cgroup = make_cpu_cgroup(0.25)
    if cgroup is None:
        unavailable("no CPU cgroup can be made here (cgroup v1 `cpu`, or v2 delegated `cpu`)")
    try:
        quota = "cpu.cfs_quota_us" if cgroup.version == 1 else "cpu.max"
        assert (cgroup.path / quota).read_text().split()[0] == str(PERIOD_US // 4)
        command = cgroup.enter([sys.executable, "-c", HOLD])
        held = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert held.stdout is not None and held.stdin is not None
        parent, child = (int(p) for p in held.stdout.readline().split())
        members = {int(p) for p in (cgroup.path / "cgroup.procs").read_text().split()}
        assert {parent, child} <= members
        held.stdin.close()
        held.wait()
    finally:
        cgroup.remove()
    assert not cgroup.path.exists()


PRIORITY_PROBE = """
import json, os, sys
from pathlib import Path
from autograder.sandbox.cpu_share import lower_priority
from autograder.sandbox.limits import Limits, apply_limits

layers = lower_priority()
apply_limits(Limits(), own_user=True)
if os.geteuid() == 0:  # as the worker: the user dropped after the priority is lowered
    uid = int(sys.argv[1])
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)
read, write = os.pipe()
if os.fork() == 0:  # a grandchild of the grader's: what the student's own child can do
    seen = {"nice": os.getpriority(os.PRIO_PROCESS, 0),
            "idle": os.sched_getscheduler(0) == os.SCHED_IDLE,
            "autogroup": Path("/proc/self/autogroup").read_text().split()[-1]}
    for name, undo in (("nice", lambda: os.nice(-1)),
                       ("policy", lambda: os.sched_setscheduler(0, os.SCHED_OTHER,
                                                                os.sched_param(0))),
                       ("autogroup", lambda: Path("/proc/self/autogroup").write_text("0"))):
        try:
            undo()
            seen[name + "_raised"] = True
        except OSError:
            seen[name + "_raised"] = False
    os.write(write, json.dumps(seen).encode())
    os._exit(0)
os.close(write)
print(json.dumps({"layers": layers, **json.loads(os.read(read, 4096))}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's scheduler")
def test_the_lowest_priority_is_inherited_and_cannot_be_raised_back() -> None:
    """What the worker does before student code runs: its children are at niceness 19, in
    SCHED_IDLE, in an autogroup at 19, and can undo none of it (as an unprivileged user)."""
    engine = str(Path(__file__).resolve().parents[1])
    done = subprocess.run(
        [sys.executable, "-c", PRIORITY_PROBE, str(WORKER_UID_BASE + 7)],
        capture_output=True, text=True, check=True, start_new_session=True,
        env={**os.environ, "PYTHONPATH": engine},
    )  # fmt: skip
    seen = json.loads(done.stdout)
    assert seen["layers"] == ["cpu-nice"]
    assert seen["nice"] == 19 and seen["idle"] and seen["autogroup"] == "19"
    assert not seen["nice_raised"] and not seen["policy_raised"] and not seen["autogroup_raised"]


def test_a_worker_runs_student_code_at_the_lowest_priority(tmp_path: Path) -> None:
    """Through the sandbox itself: the worker reports the layer, and the student's module
    reads its own priority at import."""
    folder = tmp_path / "submission"
    folder.mkdir()
    tmp_path.chmod(0o755)
    module = folder / "vectors.py"
    module.write_text("import os\nNICE = os.getpriority(os.PRIO_PROCESS, 0)\n")
    isolation = choose(hidden=[Path(__file__).resolve().parents[1]])
    with StudentSession(
        submission=module, module_name="vectors", limits=Limits(), isolation=isolation
    ) as student:
        assert student.attribute("NICE") == 19
        assert "cpu-nice" in student.rlimits and "RLIMIT_NICE" in student.rlimits
    assert "cpu-nice" in isolation.layers


def test_a_runner_is_told_its_share_as_a_positive_number_of_processors() -> None:
    from autograder.protocol.messages import MessageError
    from autograder.protocol.runner import RunnerStart

    start = RunnerStart(course="/c", assignment="a", cores=0.5)
    assert RunnerStart.from_json(start.to_json()) == start
    assert RunnerStart.from_json({"course": "/c", "assignment": "a"}).cores is None
    for bad in (0, -1, "1", True, float("nan")):
        with pytest.raises(MessageError):
            RunnerStart.from_json({**start.to_json(), "cores": bad})
