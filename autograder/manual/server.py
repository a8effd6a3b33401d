"""The grading page for teaching assistants: one written answer at a time, on 127.0.0.1 only.

Built on Starlette, served by uvicorn with bounds on connections, time and logs (bounded.py):
a small, maintained ASGI toolkit whose TestClient lets the tests send any request (a forged
origin, no token) without a browser; no HTTP parsing is written here.

Why the token stays with the page. A browser scopes cookies by host, not by port, and SameSite
counts every port of 127.0.0.1 as the same site: a cookie would go to any other local server
that a link in a student's answer points at. So there is no cookie, nor anything else the
browser sends by itself:
- the grader opens `/?token=...` once (as printed); the page, a static file with no token and
  no student data, takes the token from its address into sessionStorage (kept per origin, port
  included, and per tab) and removes it from the address bar;
- every request for data and every save carries it in the `X-Autograder-Token` header; any
  request but for the page and its static files gets 403 without it. A script of another
  origin cannot add that header without a CORS preflight, which is refused (no
  Access-Control-Allow-* header is ever sent), so it can neither read an answer nor save a
  grade, with or without credentials;
- links in students' answers are shown as text, never as links (render.py), so an answer cannot
  lead the grading tab elsewhere.

In the order a request meets it: the Host header must be the server's own (no DNS rebinding);
a request for anything but the page and its static files needs the token header, and neither
an Origin nor a Sec-Fetch-Site naming another origin; a change is a POST of JSON, at most
MAX_BODY_BYTES, whose Origin (or Referer) is the server's own.
Every response forbids inline script, framing and sniffing (CSP, X-Content-Type-Options,
frame-ancestors 'none'), sends no referrer, and keeps other origins' windows away from the page
(Cross-Origin-Opener-Policy, Cross-Origin-Resource-Policy); answers go in as sanitised HTML.

Concurrent graders: each grade and rubric item has a version; a save naming a stale one is
answered 409 with the current value, which the page shows beside the grader's own.

Each answer comes with its status (STATUSES), which the page's list of answers shows: graded,
not graded yet, not graded yet because the answer changed since its grade, or no answer (none
in the submission, or the placeholder left as released: 0 points unless someone grades it).
"""

from __future__ import annotations

import json
import math
import secrets
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    Response,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from autograder.course.rubric import AssignmentSpec
from autograder.grading.written_answers import ANSWER_PLACEHOLDER
from autograder.manual.render import answer_html
from autograder.manual.sheet import students_of
from autograder.manual.store import Answer, Conflict, Grade, Item, ManualStore, grade_points
from autograder.safe_text import storable

TOKEN_HEADER = "x-autograder-token"
STATIC = Path(__file__).parent / "static"
MAX_BODY_BYTES = 64 * 1024
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
    "connect-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; "
    "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}


STATUSES = ("graded", "not_graded", "answer_changed", "no_answer")


def answer_status(answer: Answer | None, grade: Grade | None) -> str:
    """One of STATUSES: what the grader has left to do with an answer."""
    if grade is not None and not grade.answer_changed:
        return "graded"
    if answer is not None and answer.text is None:
        return "no_answer"  # as the totals count it: 0 points, nothing to wait for
    return "answer_changed" if grade is not None else "not_graded"


def new_token() -> str:
    return secrets.token_urlsafe(32)


def create_app(
    folder: Path, spec: AssignmentSpec, *, token: str, origin: str, grader: str = ""
) -> Starlette:
    """The grading app of `spec`'s answers in the gradebook of `folder`, answering only at
    `origin` (such as http://127.0.0.1:8765) to requests that carry `token`."""
    store = ManualStore(folder)
    parts = {p.name: p for p in spec.manual}
    host = urlsplit(origin).netloc

    async def state(request: Request) -> Response:
        answers = store.answers(spec.name)
        grades = store.grades(spec.name)
        items = {i.id: i for i in store.items(spec.name)}
        listed = []
        for part in spec.manual:
            for student in students_of(folder, spec):
                answer = answers.get((student, part.name))
                grade = grades.get((student, part.name))
                text = answer.text if answer else None
                listed.append({
                    "student": student,
                    "part": part.name,
                    "html": None if text is None else answer_html(text),
                    "truncated": bool(answer and answer.truncated),
                    "captured": answer is not None,
                    "left_as_released": bool(answer and answer.left_as_released),
                    "status": answer_status(answer, grade),
                    "grade": _grade_json(grade, items, part.points),
                })  # fmt: skip
        return JSONResponse({
            "assignment": spec.name,
            "title": spec.title,
            "grader": grader,
            "placeholder": ANSWER_PLACEHOLDER,
            "parts": [{"name": p.name, "title": p.title, "max": p.points, "rubric": p.rubric}
                      for p in spec.manual],
            "items": [asdict(i) for i in items.values()],
            "answers": listed,
        })  # fmt: skip

    async def save_grade(request: Request) -> Response:
        body = await _json(request)
        part = parts.get(str(body.get("part")))
        student = str(body.get("student"))
        if part is None or student not in students_of(folder, spec):
            return _refusal(400, "no such student or part")
        try:
            adjustment = _number(body.get("adjustment", 0))
            version = int(body.get("version", 0))
            chosen = tuple(int(i) for i in body.get("items", []))
        except (TypeError, ValueError):
            return _refusal(400, "adjustment, version and items must be numbers")
        items = {i.id: i for i in store.items(spec.name)}
        if any(i not in items or items[i].part != part.name for i in chosen):
            return _refusal(400, "an item of another part, or no such item")
        try:
            grade = store.save_grade(
                spec.name, student, part.name, adjustment=adjustment,
                comment=str(body.get("comment", "")), items=chosen, version=version,
                grader=_grader(body, grader), max_points=part.points,
            )  # fmt: skip
        except Conflict as conflict:
            current = conflict.current if isinstance(conflict.current, Grade) else None
            return JSONResponse(
                {"conflict": _grade_json(current, items, part.points)}, status_code=409
            )
        return JSONResponse({"grade": _grade_json(grade, items, part.points)})

    async def save_item(request: Request) -> Response:
        body = await _json(request)
        part = parts.get(str(body.get("part")))
        text = str(body.get("text", "")).strip()
        if part is None or not text:
            return _refusal(400, "an item needs a part and a comment")
        try:
            points = _number(body.get("points"))
            raw_id = body.get("id")
            item_id = None if raw_id is None else int(raw_id)
            version = int(body.get("version", 0))
        except (TypeError, ValueError):
            return _refusal(400, "points, id and version must be numbers")
        if abs(points) > part.points:
            return _refusal(
                400, f"an item's points are between -{part.points:g} and {part.points:g}"
            )
        try:
            item = store.save_item(spec.name, part.name, text=text, points=points,
                                   max_points=part.points, item_id=item_id, version=version,
                                   grader=_grader(body, grader))  # fmt: skip
        except Conflict as conflict:
            current = conflict.current if isinstance(conflict.current, Item) else None
            return JSONResponse({"conflict": current and asdict(current)}, status_code=409)
        return JSONResponse({"item": asdict(item)})

    async def guard(request: Request, call_next: RequestResponseEndpoint) -> Response:
        response = await _checked(request, call_next)
        response.headers.update(HEADERS)
        return response

    async def _checked(request: Request, call_next: RequestResponseEndpoint) -> Response:
        if request.headers.get("host") != host:
            return _refusal(403, "this server answers at its own address only")
        path = request.scope["path"]
        if path == "/" or path.startswith("/static/"):
            return await call_next(request)  # the page and its static files: nothing secret
        if not _same(request.headers.get(TOKEN_HEADER, ""), token):
            return _refusal(403, "open the address with ?token= that `manual serve` printed")
        if request.headers.get("origin", origin) != origin or request.headers.get(
            "sec-fetch-site", "same-origin"
        ) not in ("same-origin", "none"):
            return _refusal(403, "answers are for this page only")
        if request.method not in ("GET", "HEAD"):
            if request.method != "POST" or not _same_origin(request, origin):
                return _refusal(403, "a change must come from this page")
            if request.headers.get("content-type", "").split(";")[0] != "application/json":
                return _refusal(415, "send JSON")
            length = request.headers.get("content-length", "0")
            if not (length.isascii() and length.isdigit()) or int(length) > MAX_BODY_BYTES:
                return _refusal(413, "too large, or no length")
        return await call_next(request)

    async def page(request: Request) -> Response:
        return HTMLResponse(PAGE)

    app = Starlette(
        routes=[
            Route("/", page),
            Route("/api/state", state),
            Route("/api/grade", save_grade, methods=["POST"]),
            Route("/api/item", save_item, methods=["POST"]),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        middleware=[Middleware(BaseHTTPMiddleware, dispatch=guard)],
        lifespan=_closing(store),
    )
    return app


def _closing(store: ManualStore) -> Any:
    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        store.close()

    return lifespan


def _grade_json(grade: Grade | None, items: dict[int, Item], most: float) -> dict[str, Any] | None:
    if grade is None:
        return None
    return {**asdict(grade), "points": grade_points(grade, items, most)}


def _grader(body: dict[str, Any], default: str) -> str:
    """Who saves: the name typed on the page, else the one `manual serve` was given."""
    return storable(str(body.get("grader") or default)[:200])


def _number(value: object) -> float:
    number = float(value)  # type: ignore[arg-type]
    if not math.isfinite(number):
        raise ValueError("not finite")
    return number


def _same(given: str, token: str) -> bool:
    """`given` is the token, compared in constant time (as bytes: any text compares)."""
    return secrets.compare_digest(given.encode("utf-8", "surrogatepass"), token.encode())


async def _json(request: Request) -> dict[str, Any]:
    """The request's JSON object, read up to MAX_BODY_BYTES (a chunked body without a length
    is cut there too): {} for anything else."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            return {}
        chunks.append(chunk)
    body = b"".join(chunks)
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def _same_origin(request: Request, origin: str) -> bool:
    sent = request.headers.get("origin")
    if sent is not None:
        return sent == origin
    referer = request.headers.get("referer", "")
    return referer == origin or referer.startswith(origin + "/")


def _refusal(status: int, why: str) -> Response:
    return PlainTextResponse(f"{status}: {why}\n", status_code=status)


def bound_socket(port: int) -> socket.socket:
    """A listening socket on 127.0.0.1 (port 0: any free port)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(64)
    return sock


PAGE = (STATIC / "page.html").read_text(encoding="utf-8")
