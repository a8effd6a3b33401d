"""The grading page served on a free port of 127.0.0.1 (bounded as `manual serve` serves it),
and headless Chromium that loads the addresses it is given and no other."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from browser import FLAGS, chromium_or_skip

from autograder.course.rubric import AssignmentSpec
from autograder.manual.bounded import bounded_server
from autograder.manual.server import bound_socket, create_app, new_token


@contextlib.contextmanager
def grading_server(out: Path, spec: AssignmentSpec) -> Iterator[tuple[str, str]]:
    """The grading page of `out` served in a thread: (origin, token)."""
    sock = bound_socket(0)
    origin = f"http://127.0.0.1:{sock.getsockname()[1]}"
    token = new_token()
    app = create_app(out, spec, token=token, origin=origin, grader="ta")
    server = bounded_server(app)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        yield origin, token
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


@contextlib.contextmanager
def local_browser(*origins: str) -> Iterator[Any]:
    """Chromium that loads `origins` alone; every other address is refused and recorded.
    Yields (a function making a new context, the refused addresses, the browser)."""
    from playwright.sync_api import sync_playwright

    executable = chromium_or_skip()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=FLAGS)
        refused: list[str] = []

        def context() -> Any:
            made = browser.new_context(viewport={"width": 1200, "height": 900})

            def only_local(route: Any) -> None:
                if route.request.url.startswith(tuple(o + "/" for o in origins)):
                    route.continue_()
                else:
                    refused.append(route.request.url)
                    route.abort()

            made.route("**/*", only_local)
            return made

        try:
            yield context, refused
        finally:
            browser.close()
