"""The zygote: a warm process inside the sandbox that forks one fresh worker per submission.

Starting Python and importing numpy and sympy costs far more than grading a submission, so the
sandbox is set up once (bwrap, its allow-listed file system, a scrubbed environment) around a
process that has done those imports; each worker is a fork of it that limits itself, drops to
the unprivileged user and only then imports student code. After each worker the zygote ends
every process the worker left (it is their subreaper; under bwrap it kills everything in its PID
namespace but bwrap's init and itself) and removes the submission's slot and, with a private
/tmp, empties that: the next submission finds nothing of the last.

Each submission gets a fresh slot: at its first worker the zygote copies the inbox (the
submission as the runner laid it out, read-only under bwrap) into a new folder owned by the
worker's user alone (under bwrap inside the sandbox's size-capped /tmp), and it removes that
folder at the submission's end with a removal no depth, permission or link can stop.

The grader talks to it over a Unix socket: JSON lines, the worker's pipes passed as file
descriptors. The zygote never runs student code itself, and a worker closes the socket before
it does.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import gc
import itertools
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from autograder.errors import AutograderError
from autograder.protocol import zygote as messages
from autograder.protocol.messages import MessageError
from autograder.protocol.zygote import WorkerStart, ZygoteStart
from autograder.sandbox.cpu_share import CpuCgroup
from autograder.sandbox.cpu_time import Usage, descendants_usage
from autograder.sandbox.isolation import SANDBOX_WORKDIR, Isolation, hand_to_worker
from autograder.sandbox.limits import scrubbed_environment
from autograder.sandbox.reaper import become_subreaper, end_children, wait_for_exit
from autograder.sandbox.scratch import private_folder, remove_tree

ENGINE_ROOT = str(Path(__file__).resolve().parents[2])
"""The folder holding this `autograder` package: the zygote imports the very same engine."""
ZYGOTE_BOOTSTRAP = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from autograder.sandbox.zygote import serve; sys.exit(serve(int(sys.argv[2]), sys.argv[3]))"
)
"""`python -I` ignores PYTHONPATH and the current folder: the engine's place is passed in."""
STARTUP_ALLOWANCE_S = 30.0
"""Starting the zygote (Python with numpy and sympy) is not the student's time."""
REPLY_TIMEOUT_S = 30.0
PR_SET_DUMPABLE = 4
MAX_LINE = 1 << 20


class ZygoteFailed(AutograderError):
    """The zygote did not start, or stopped answering."""


class Zygote:
    """The grader's handle on one zygote; started on first use, restarted if it dies."""

    def __init__(
        self,
        isolation: Isolation,
        inbox: Path,
        *,
        preload: tuple[str, ...] = (),
        warm_up: str | None = None,
        cgroup: CpuCgroup | None = None,
    ) -> None:
        """`preload`: modules to import before any submission, beyond the worker's own list;
        `warm_up`: the assignment's warm-up source (trusted instructor code), run once here;
        `cgroup`: the CPU cgroup it starts in, with every process it will fork."""
        self.isolation = isolation
        self.cgroup = cgroup
        self.preload = preload
        self.warm_up = warm_up
        self.inbox = inbox
        """The submission as the runner lays it out; copied into a fresh slot per submission."""
        self._slots: Path | None = None
        """Without bwrap: the host folder (this grader's, 0711) that holds the slot."""
        self._process: subprocess.Popen[bytes] | None = None
        self._socket: socket.socket | None = None
        self._ids = itertools.count()
        self._owner = os.getpid()
        self._ready = False

    def launch(self) -> None:
        """Start its process without waiting for it (it imports numpy and sympy meanwhile)."""
        if not self._alive():
            self._launch()

    def start(self) -> None:
        """Have it ready now rather than at the first worker (a runner does, before it forks)."""
        self.launch()
        if not self._ready:
            self._await_hello()

    def _alive(self) -> bool:
        if self._process is None:
            return False
        if os.getpid() != self._owner:  # a forked child cannot wait for it: its socket will tell
            return True
        return self._process.poll() is None

    @property
    def workdir_in_worker(self) -> str:
        """The slot, as the worker sees it: its working folder, holding the submission."""
        if self.isolation.bwrap:
            return SANDBOX_WORKDIR
        if self._slots is None:
            self._slots = private_folder("slots")
            self._slots.chmod(0o711)  # the worker's user may pass, not list
        return str(self._slots / "submission")

    def spawn(self, config: WorkerStart, fds: tuple[int, int, int]) -> int:
        """Fork a worker serving `config` on (request, response, output) fds; its pid."""
        reply = self._ask(lambda ident: messages.SpawnRequest(ident, config), fds)
        if not isinstance(reply, messages.Spawned):
            raise ZygoteFailed(f"the sandbox's zygote started no worker: {reply}")
        return reply.pid

    def mark(self) -> None:
        """A call starts: the zygote notes what the workers' processes used so far. Nothing is
        awaited (a call must not wait for it); a zygote that does not get it answers a usage
        with what they used since an earlier mark, or since it started."""
        if self._socket is None or not self._ready:
            return
        request = messages.MarkRequest(f"{os.getpid()}-{next(self._ids)}")
        with contextlib.suppress(OSError):
            self._socket.sendall(json.dumps(request.to_json()).encode() + b"\n")

    def usage(self) -> Usage | None:
        """What the workers' processes used since the last mark; None where it cannot tell."""
        try:
            reply = self._ask(lambda ident: messages.UsageRequest(ident))
        except ZygoteFailed:
            return None
        if not isinstance(reply, messages.Usage) or reply.cpu_s is None:
            return None
        return Usage(reply.cpu_s, reply.waited_s, reply.processes)

    def end(self, pid: int | None, *, patient: bool = False) -> tuple[int | None, int]:
        """Kill worker `pid` (given a second to end by itself if `patient`) and everything else
        the workers left; (its exit code, how many other processes were ended).

        Raises ZygoteFailed when it stopped answering: it is killed by then (under bwrap with its
        PID namespace, so every worker in it too), and its next use starts a new one."""
        if self._process is None:
            return None, 0
        reply = self._ask(lambda ident: messages.EndRequest(ident, pid, patient))
        return (reply.code, reply.ended) if isinstance(reply, messages.Ended) else (None, 0)

    def close(self) -> None:
        process, self._process = self._process, None
        if self._socket is not None:
            self._socket.close()
            self._socket = None
        if process is not None:
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        if self._slots is not None and os.getpid() == self._owner:
            remove_tree(self._slots)
            self._slots = None

    def __enter__(self) -> Zygote:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the conversation --------------------------------------------------------------------

    def _ask(
        self,
        make: Callable[[str], messages.ZygoteRequest],
        fds: tuple[int, ...] = (),
    ) -> messages.ZygoteReply:
        """Send the request `make(its id)`, with `fds`, and return the zygote's answer to it
        (a malformed answer, like a closed socket, is a zygote that stopped answering)."""
        for attempt in (1, 2):
            self.start()
            assert self._socket is not None
            request = make(f"{os.getpid()}-{next(self._ids)}")
            try:
                data = json.dumps(request.to_json()).encode() + b"\n"
                socket.send_fds(self._socket, [data], list(fds))
                while True:  # a reply to a request an interrupted caller made is skipped
                    reply = messages.reply_from_json(_read_line(self._socket))
                    if reply.id == request.id:
                        return reply
            except (OSError, ValueError, ZygoteFailed) as error:  # MessageError is a ValueError
                self.close_now()
                if attempt == 2 or not isinstance(request, messages.SpawnRequest):
                    raise ZygoteFailed(f"the sandbox's zygote stopped answering: {error}") from None
        raise AssertionError("unreachable")

    def close_now(self) -> None:
        process, self._process = self._process, None
        self._ready = False
        if self._socket is not None:
            self._socket.close()
            self._socket = None
        if process is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()

    def _launch(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        config = ZygoteStart(
            private_tmp=bool(self.isolation.bwrap),
            inbox=self.isolation.inbox_in_worker(self.inbox),
            slot=self.workdir_in_worker,
            preload=self.preload,
            warm_up=self.warm_up,
        )
        command = [sys.executable, "-I", "-c", ZYGOTE_BOOTSTRAP, ENGINE_ROOT,
                   str(theirs.fileno()), json.dumps(config.to_json())]  # fmt: skip
        try:
            self._process = subprocess.Popen(
                self._started_in_cgroup(self.isolation.wrap(command, self.inbox)),
                cwd=self.inbox,
                env=scrubbed_environment(self.workdir_in_worker),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                pass_fds=(theirs.fileno(),),
                start_new_session=True,
            )
        finally:
            theirs.close()
        self._socket = ours
        self._owner = os.getpid()
        self._ready = False

    def _started_in_cgroup(self, command: list[str]) -> list[str]:
        return command if self.cgroup is None else self.cgroup.enter(command)

    def _await_hello(self) -> None:
        ours = self._socket
        assert ours is not None
        ours.settimeout(STARTUP_ALLOWANCE_S)
        try:
            hello = _read_line(ours)
        except (OSError, ValueError, ZygoteFailed) as error:
            self.close_now()
            raise ZygoteFailed(f"the sandbox's zygote did not start: {error}") from None
        try:
            messages.ZygoteReady.from_json(hello)
        except MessageError as error:
            self.close_now()
            raise ZygoteFailed(f"the sandbox's zygote did not start: {error}") from None
        ours.settimeout(REPLY_TIMEOUT_S)
        self._ready = True


def _read_line(sock: socket.socket) -> Any:
    data = b""
    while not data.endswith(b"\n"):
        chunk = sock.recv(65536)
        if not chunk:
            raise ZygoteFailed("it closed its socket")
        data += chunk
        if len(data) > MAX_LINE:
            raise ZygoteFailed("it sent an over-long message")
    return json.loads(data)


# -- inside the sandbox ------------------------------------------------------------------------


def serve(control_fd: int, config_text: str) -> int:
    """The zygote's loop: spawn workers and end them, until the grader closes the socket."""
    from autograder.sandbox.worker import preload, warm_up

    config = ZygoteStart.from_json(json.loads(config_text))
    _not_dumpable()
    preload(config.preload)
    warm_up(config.warm_up)
    become_subreaper()
    if config.private_tmp:
        _mount_paths()  # read before any worker runs
    control = socket.socket(fileno=control_fd)
    gc.collect()
    gc.freeze()  # the workers share these pages instead of copying them as they touch objects
    _send(control, messages.ZygoteReady())
    pending = b""
    state = _State()
    while True:
        try:
            data, fds, _, _ = socket.recv_fds(control, 65536, 3)
        except OSError:
            data, fds = b"", []
        if not data:
            _end_everything(None, patient=False, config=config)
            remove_tree(Path(config.slot))
            return 0
        pending += data
        if not pending.endswith(b"\n"):
            for fd in fds:
                os.close(fd)
            continue
        lines, pending = pending.splitlines(), b""  # a mark may arrive with the next request
        handed = False
        for number, line in enumerate(lines):
            request: messages.ZygoteRequest | None
            try:
                request = messages.request_from_json(json.loads(line))
            except ValueError:  # not JSON, or not a request (MessageError)
                request = None
            spawning = (  # the fds came with the last request: a spawn's
                isinstance(request, messages.SpawnRequest)
                and number == len(lines) - 1
                and len(fds) == 3
            )
            handed = handed or spawning
            reply = _answer(request, fds if spawning else [], config, control, state)
            if reply is not None:
                _send(control, reply)
        if not handed:
            for fd in fds:
                os.close(fd)


class _State:
    """What the zygote's loop remembers between requests."""

    def __init__(self) -> None:
        self.slot_ready = False
        self.marked: Usage | None = None


def _answer(
    request: messages.ZygoteRequest | None,
    fds: list[int],
    config: ZygoteStart,
    control: socket.socket,
    state: _State,
) -> messages.ZygoteReply | None:
    """Do what `request` asks (the worker's three fds beside a spawn); its answer, if any."""
    if isinstance(request, messages.SpawnRequest) and len(fds) == 3:
        if not state.slot_ready:  # the submission's first worker (a new zygote's too):
            _fresh_slot(config, request.worker.drop_uid)  # whatever is there goes first
            state.slot_ready = True
        pid = os.fork()
        if pid == 0:
            control.close()
            _become_worker(fds, request.worker, config.slot)
        for fd in fds:
            os.close(fd)
        return messages.Spawned(request.id, pid)
    if isinstance(request, messages.EndRequest):
        code, ended = _end_everything(request.pid, request.patient, config)
        if request.pid is None:  # the submission's end: its slot goes with it
            remove_tree(Path(config.slot))
            state.slot_ready = False
        return messages.Ended(request.id, code, ended)
    if isinstance(request, messages.MarkRequest):
        state.marked = descendants_usage(os.getpid())
        return None
    if isinstance(request, messages.UsageRequest):
        now = descendants_usage(os.getpid())
        if now is None:
            return messages.Usage(request.id, None)
        used = now if state.marked is None else now.since(state.marked)
        return messages.Usage(request.id, used.cpu_s, used.waited_s, used.processes)
    return messages.Refused(None if request is None else request.id, "unknown request")


def _send(control: socket.socket, message: messages.ZygoteReady | messages.ZygoteReply) -> None:
    control.sendall(json.dumps(message.to_json()).encode() + b"\n")


def _not_dumpable() -> None:
    """No process of the same user may attach to the zygote (ptrace) or read its memory."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


def _become_worker(fds: list[int], config: WorkerStart, slot: str) -> None:
    """In the forked child: become the submission's worker, and never return to the loop."""
    code = 1
    try:
        request_fd, response_fd, output_fd = fds
        os.setsid()
        os.chdir(slot)
        os.dup2(output_fd, 1)
        os.dup2(output_fd, 2)
        os.close(output_fd)
        for stream in (sys.stdout, sys.stderr):  # what it printed survives a kill at a timeout
            stream.reconfigure(line_buffering=True)  # type: ignore[union-attr]
        from autograder.sandbox.worker import serve as serve_calls

        code = serve_calls(request_fd, response_fd, config)
    except BaseException:  # whatever happens, this process must not fall back into the zygote
        with contextlib.suppress(BaseException):
            traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(BaseException):
                stream.flush()
        os._exit(code)


def _end_everything(pid: int | None, patient: bool, config: ZygoteStart) -> tuple[int | None, int]:
    """End worker `pid` (its exit code) and every other process the workers left; clean /tmp."""
    code = None
    if pid:
        if patient:  # it is ending by itself: let it, so that its exit code is known
            code = wait_for_exit(pid, time.monotonic() + 1.0)
        if code is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
            code = wait_for_exit(pid, None)
    if config.private_tmp:
        ended = _end_namespace()
        _empty_private_folders((config.slot,))
    else:
        ended = end_children()
    return code, ended


def _end_namespace() -> int:
    """Kill every process of this PID namespace but bwrap's init (1) and the zygote."""
    keep = {1, os.getpid()}
    ended: set[int] = set()
    for _ in range(1000):
        alive = [pid for pid in _living_pids() if pid not in keep]
        for pid in alive:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        ended.update(alive)
        with contextlib.suppress(ChildProcessError):
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        if not alive:
            break
        time.sleep(0.002)
    return len(ended)


def _living_pids() -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except (OSError, IndexError):
                continue
            if state not in ("Z", "X"):
                pids.append(int(entry))
    return pids


def _fresh_slot(config: ZygoteStart, uid: int | None) -> None:
    """A new slot holding a copy of the inbox, owned by the worker's user alone."""
    slot, inbox = Path(config.slot), Path(config.inbox)
    remove_tree(slot)
    shutil.copytree(inbox, slot, symlinks=True)
    hand_to_worker(slot, uid)


def _empty_private_folders(keep: tuple[str, ...]) -> None:
    """The sandbox's own /tmp and /dev/shm (tmpfs, seen by no one else): left empty but for
    `keep` (the slot while its submission lasts) and the mounts bwrap made there (the inbox,
    and an allowed folder that lives under /tmp, such as a course's own virtual environment):
    a folder on the way to a mount is emptied around it, never moved or removed."""
    on_the_way = _mount_paths()
    pending = [Path("/tmp"), Path("/dev/shm")]
    while pending:
        folder = pending.pop()
        with contextlib.suppress(OSError):
            for entry in folder.iterdir():
                name = str(entry)
                if name in keep or name in on_the_way["mounts"]:
                    continue
                if name in on_the_way["ancestors"]:
                    pending.append(entry)
                else:
                    remove_tree(entry)


@functools.cache
def _mount_paths() -> dict[str, frozenset[str]]:
    """This sandbox's mount points, and every folder on the way to one (read once: the mounts
    are bwrap's, made before any worker ran)."""
    mounts: set[str] = set()
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/mountinfo").read_text().splitlines():
            fields = line.split()
            if len(fields) > 4:
                mounts.add(re.sub(r"\\(\d{3})", lambda m: chr(int(m[1], 8)), fields[4]))
    ancestors = {str(parent) for mount in mounts for parent in Path(mount).parents}
    return {"mounts": frozenset(mounts), "ancestors": frozenset(ancestors)}
