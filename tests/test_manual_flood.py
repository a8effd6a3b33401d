"""`autograder manual serve` under a flood from a local process without the token: more
connections held idle or half-sent than the server may open files (a limit of 1024 it cannot
raise), then hundreds of malformed requests. The grading page keeps answering within seconds,
during the flood and after it; stalled connections are dropped; the terminal gets a few lines,
not one per connection."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from manual_class import build_class

FIXTURE_COURSE = Path(__file__).resolve().parent / "fixtures" / "course"

FLOOD = 1200
MALFORMED = 300
FILE_LIMIT = 1024
ANSWER_SECONDS = 5.0
"""How long the grader's request may take, flood or not (it takes milliseconds when served)."""
DROP_SECONDS = 20.0
"""How long a stalled connection may stay open: the server's header deadline is 5 seconds."""


@dataclass
class Served:
    """A running `manual serve`: its process, address, token and everything it printed."""

    process: subprocess.Popen[bytes]
    output: list[bytes] = field(default_factory=list)
    started: threading.Event = field(default_factory=threading.Event)
    port: int = 0
    token: str = ""

    def read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.output.append(line)
            found = re.search(rb"http://127\.0\.0\.1:(\d+)/\?token=(\S+)", line)
            if found:
                self.port, self.token = int(found[1]), found[2].decode()
                self.started.set()

    def open_files(self) -> int:
        return len(os.listdir(f"/proc/{self.process.pid}/fd"))


def _limited_files() -> None:
    """In the server's process, before it starts: a soft and hard limit of FILE_LIMIT files."""
    resource.setrlimit(resource.RLIMIT_NOFILE, (FILE_LIMIT, FILE_LIMIT))


@contextlib.contextmanager
def serving(out: Path) -> Iterator[Served]:
    command = [sys.executable, "-m", "autograder", "manual", "serve", str(out), "--port", "0",
               "--course", str(FIXTURE_COURSE)]  # fmt: skip
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, preexec_fn=_limited_files
    )
    served = Served(process)
    reader = threading.Thread(target=served.read, daemon=True)
    reader.start()
    try:
        assert served.started.wait(timeout=60), b"".join(served.output)
        yield served
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        reader.join(timeout=30)


def _answers(served: Served) -> None:
    """The grader's request for the answers gets them within ANSWER_SECONDS."""
    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=ANSWER_SECONDS)
    try:
        connection.request("GET", "/api/state", headers={"X-Autograder-Token": served.token})
        response = connection.getresponse()
        assert response.status == 200
        assert json.loads(response.read())["assignment"] == "vectors"
    finally:
        connection.close()


def _dropped(sock: socket.socket) -> bool:
    """Whether the server closes `sock` within DROP_SECONDS, whatever it answered first."""
    sock.settimeout(DROP_SECONDS)
    try:
        while sock.recv(65536):
            pass
    except (ConnectionResetError, BrokenPipeError):
        pass
    except TimeoutError:
        return False
    return True


def _raise_own_file_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 2 * FLOOD + 256
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


def test_a_flood_without_the_token_leaves_the_page_answering(tmp_path: Path) -> None:
    out = build_class(tmp_path / "out")
    _raise_own_file_limit()
    with serving(out) as served:
        host = f"Host: 127.0.0.1:{served.port}\r\n".encode()
        starts = [b"", b"GET /api/st", b"GET /api/state HTTP/1.1\r\n" + host]  # never finished
        held = []
        try:
            for n in range(FLOOD):
                sock = socket.create_connection(("127.0.0.1", served.port), timeout=10)
                sock.sendall(starts[n % len(starts)])
                held.append(sock)
            _answers(served)  # while the flood is held
            assert served.open_files() < FILE_LIMIT // 2
        finally:
            for sock in held:
                sock.close()
        _answers(served)  # and after

        # hundreds of malformed requests: each answered 400 and logged, the log throttled
        for _ in range(MALFORMED):
            with socket.create_connection(("127.0.0.1", served.port), timeout=10) as sock:
                sock.sendall(b"\x00\x01 not http\r\n\r\n")
                assert _dropped(sock)

        # connections that stall, before a request or in the middle of the next one, are dropped
        stalled = socket.create_connection(("127.0.0.1", served.port), timeout=10)
        stalled.sendall(b"GET / HT")
        second = socket.create_connection(("127.0.0.1", served.port), timeout=10)
        second.sendall(b"GET /static/manual.css HTTP/1.1\r\n" + host + b"\r\nGET / HT")
        assert _dropped(stalled) and _dropped(second)
        stalled.close()
        second.close()
        _answers(served)

    printed = b"".join(served.output)
    lines = printed.splitlines()
    print(f"\nthe server printed {len(lines)} lines, {len(printed)} bytes:\n{printed.decode()}")
    assert len(lines) <= 20 and len(printed) < 4096, printed[:4096]
    assert b"Too many open files" not in printed and b"Traceback" not in printed, printed


PIPELINED = 300
"""More connections than the server keeps open (at most 200)."""


def test_requests_pipelined_and_never_read_leave_the_page_answering(tmp_path: Path) -> None:
    """Connections that each ask for the page's script many times over and read none of it are
    busy, not idle: once the server's writes to them stall, they must still give way."""
    out = build_class(tmp_path / "out")
    _raise_own_file_limit()
    with serving(out) as served:
        host = f"Host: 127.0.0.1:{served.port}\r\n".encode()
        request = b"GET /static/manual.js HTTP/1.1\r\n" + host + b"\r\n"
        held = []
        try:
            for _ in range(PIPELINED):
                sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                sock.settimeout(10)
                sock.connect(("127.0.0.1", served.port))
                with contextlib.suppress(OSError):  # a connection evicted while we write
                    sock.sendall(request * 50)
                held.append(sock)
            _answers(served)  # while they are held, their responses unread
            assert served.open_files() < FILE_LIMIT // 2
        finally:
            for sock in held:
                sock.close()
        _answers(served)
    printed = b"".join(served.output)
    assert b"Too many open files" not in printed and b"Traceback" not in printed, printed
