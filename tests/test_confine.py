"""Confinement without namespaces, tried as a hostile student would from inside it: a confined
child signals a process outside it, connects to a path and an abstract Unix socket, re-limits
another process; every attempt must fail, while what a worker legitimately does still works."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from configurations import unavailable

from autograder.sandbox.confine import SCOPES_FROM_ABI, available, landlock_abi

ROOT = Path(__file__).resolve().parents[1]
PROBE = r"""
import json, os, signal, socket, sys, resource
sys.path.insert(0, sys.argv[1])
from autograder.sandbox.confine import confine
victim, slot, path, abstract = int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
scoped = sys.argv[6] == "1"
os.setsid()
confine(readable=["/usr", sys.prefix, sys.base_prefix, sys.argv[1]], writable=[slot], scoped=scoped)
seen = {}
pair = socket.socketpair()
def attempt(name, action):
    try:
        action()
        seen[name] = "done"
    except OSError as error:
        seen[name] = type(error).__name__
def connect(address):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(address)
    s.sendall(b"x")
attempt("kill_victim", lambda: os.kill(victim, signal.SIGUSR1))
attempt("kill_everyone", lambda: os.kill(-1, signal.SIGUSR1))
attempt("killpg_victim", lambda: os.killpg(victim, signal.SIGUSR1))
attempt("path_socket", lambda: connect(path))
attempt("abstract_socket", lambda: connect("\0" + abstract))
attempt("tcp", lambda: socket.create_connection(("127.0.0.1", 9), timeout=1))
attempt("prlimit_victim", lambda: resource.prlimit(victim, resource.RLIMIT_NOFILE, (1, 1)))
attempt("read_outside", lambda: open(path + ".txt").read())
attempt("chmod_outside", lambda: os.chmod(path + ".txt", 0o777))
attempt("priority_victim", lambda: os.setpriority(os.PRIO_PROCESS, victim, 19))
attempt("priority_user", lambda: os.setpriority(os.PRIO_USER, 0, 19))
attempt("affinity_victim", lambda: os.sched_setaffinity(victim, {0}))
def sigio():  # the kernel would send SIGIO (or any signal) to the owner of a pipe
    import fcntl
    r, w = os.pipe()
    fcntl.fcntl(r, fcntl.F_SETOWN, victim)
attempt("sigio_owner", sigio)
def datagram():  # a datagram pair still addresses a name
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
    a.sendto(b"x", path)
attempt("datagram_pair", datagram)
attempt("bind_abstract", lambda: pair[0].bind("\0" + abstract + "-taken"))
attempt("memfd", lambda: os.memfd_create("hidden"))
def sysv():
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.msgget(0, 0o1600) < 0:  # IPC_PRIVATE, IPC_CREAT
        raise OSError(ctypes.get_errno(), "msgget")
attempt("sysv_queue", sysv)
def namespace():
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(0x10000000) < 0:  # CLONE_NEWUSER
        raise OSError(ctypes.get_errno(), "unshare")
attempt("user_namespace", namespace)
attempt("own_limit", lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (50, 50)))
attempt("own_group", lambda: os.kill(0, 0))
attempt("socketpair", lambda: pair[0].send(b"x") and pair[1].recv(1))
attempt("write_slot", lambda: open(os.path.join(slot, "f"), "w").write("x"))
signal.signal(signal.SIGUSR2, lambda *a: seen.__setitem__("raised_self", "done"))
signal.raise_signal(signal.SIGUSR2)
print(json.dumps(seen))
"""


@pytest.mark.parametrize("scoped", [True, False], ids=["landlock-scopes", "seccomp-signals"])
def test_a_confined_process_reaches_nothing_outside_itself(scoped: bool, tmp_path: Path) -> None:
    if not available():
        raise AssertionError("Landlock and seccomp are needed (Linux 5.13+, libseccomp)")
    if scoped and landlock_abi() < SCOPES_FROM_ABI:
        unavailable(f"this kernel's Landlock ABI {landlock_abi()} has no scopes (Linux 6.12+)")
    with tempfile.TemporaryDirectory(prefix="autograder-probe-", dir="/tmp") as outside:
        path = str(Path(outside) / "bus.sock")
        Path(path + ".txt").write_text("a secret", encoding="utf-8")
        abstract = f"autograder-confine-{os.getpid()}-{scoped}"
        listeners = []
        for address in (path, "\0" + abstract):
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            listener.bind(address)
            listener.listen(4)
            listener.setblocking(False)
            listeners.append(listener)
        got_signal = tmp_path / "victim-signalled"
        victim = subprocess.Popen(
            [sys.executable, "-c",
             "import signal, sys, time, pathlib\n"
             f"signal.signal(signal.SIGUSR1, lambda *a: pathlib.Path({str(got_signal)!r})"
             ".write_text('yes'))\n"
             "time.sleep(30)"],
            start_new_session=True,
        )  # fmt: skip
        try:
            time.sleep(0.3)  # its handler is in place
            slot = tmp_path / "slot"
            slot.mkdir()
            done = subprocess.run(
                [sys.executable, "-c", PROBE, str(ROOT), str(victim.pid), str(slot), path,
                 abstract, "1" if scoped else "0"],
                capture_output=True, text=True, timeout=60, check=False,
            )  # fmt: skip
            assert done.returncode == 0, done.stderr[-2000:]
            seen = json.loads(done.stdout)
            time.sleep(0.2)
            assert victim.poll() is None and not got_signal.exists(), "the victim was signalled"
            for listener in listeners:
                with pytest.raises(BlockingIOError):
                    listener.accept()
        finally:
            victim.kill()
            victim.wait()
            for listener in listeners:
                listener.close()
    refused = ("kill_victim", "killpg_victim", "path_socket", "abstract_socket", "tcp",
               "prlimit_victim", "read_outside", "chmod_outside", "priority_victim",
               "priority_user", "affinity_victim", "sigio_owner", "datagram_pair",
               "bind_abstract", "memfd", "sysv_queue", "user_namespace")  # fmt: skip
    for name in refused:
        assert seen[name] in ("PermissionError", "ProcessLookupError"), (name, seen)
    # kill(-1) reaches no one but the caller's own domain (Linux never signals the caller)
    assert seen["kill_everyone"] in ("done", "PermissionError", "ProcessLookupError")
    for allowed in ("own_limit", "own_group", "socketpair", "write_slot", "raised_self"):
        assert seen[allowed] == "done", (allowed, seen)
