"""The grading page's server without a browser (Starlette's TestClient): the token, the origin
check, the headers, sanitised answers, versioned saves and rubric items."""

from __future__ import annotations

from pathlib import Path

import pytest
from manual_class import build_class
from starlette.testclient import TestClient

from autograder.course.rubric import AssignmentSpec
from autograder.manual.render import answer_html
from autograder.manual.server import create_app
from autograder.manual.totals import class_totals

ORIGIN = "http://127.0.0.1:8765"
TOKEN = "test-token-abc"


@pytest.fixture
def out(tmp_path: Path) -> Path:
    return build_class(tmp_path / "out")


@pytest.fixture
def client(out: Path, spec: AssignmentSpec) -> TestClient:
    app = create_app(out, spec, token=TOKEN, origin=ORIGIN, grader="ta")
    return TestClient(app, base_url=ORIGIN, follow_redirects=False)


def _signed_in(client: TestClient) -> TestClient:
    landing = client.get(f"/?token={TOKEN}")
    assert landing.status_code == 303
    assert landing.headers["location"] == "/"  # the token leaves the address bar
    cookie = landing.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie
    return client


def _post(client: TestClient, path: str, body: dict[str, object], **headers: str) -> object:
    sent = {"Origin": ORIGIN, "X-Autograder-Token": TOKEN} | headers
    return client.post(path, json=body, headers={k: v for k, v in sent.items() if v})


def test_every_request_without_the_token_is_refused(client: TestClient) -> None:
    for path in ("/", "/api/state", "/static/manual.js", "/?token=wrong"):
        response = client.get(path)
        assert response.status_code == 403, path
        assert "Content-Security-Policy" in response.headers
    assert client.post("/api/grade", json={}).status_code == 403
    client.cookies.set("autograder_manual", "wrong")
    assert client.get("/").status_code == 403


def test_the_page_and_its_headers(client: TestClient) -> None:
    page = _signed_in(client).get("/")
    assert page.status_code == 200
    assert '<html lang="en">' in page.text and "<script>" not in page.text
    assert page.headers["content-security-policy"].startswith(
        "default-src 'none'; script-src 'self'"
    )
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    assert page.headers["x-content-type-options"] == "nosniff"
    assert page.headers["referrer-policy"] == "no-referrer"
    assert client.get("/static/manual.js").status_code == 200


def test_a_change_from_another_origin_or_without_the_header_is_refused(
    client: TestClient, out: Path, spec: AssignmentSpec
) -> None:
    _signed_in(client)
    body = {"student": "ada", "part": "why_unit", "adjustment": 2, "version": 0}
    assert _post(client, "/api/grade", body, Origin="http://evil.example").status_code == 403
    assert (
        _post(client, "/api/grade", body, Origin="", Referer="http://evil.example/").status_code
        == 403
    )
    assert _post(client, "/api/grade", body, **{"X-Autograder-Token": ""}).status_code == 403
    assert _post(client, "/api/grade", body, **{"X-Autograder-Token": "wrong"}).status_code == 403
    form = client.post("/api/grade", data={"student": "ada"},
                       headers={"Origin": ORIGIN, "X-Autograder-Token": TOKEN})  # fmt: skip
    assert form.status_code == 415  # JSON only
    other_host = client.get("/api/state", headers={"Host": "evil.example:8765"})
    assert other_host.status_code == 403  # DNS rebinding
    assert class_totals(out, spec)["ada"].manual[0].points is None  # nothing was written
    ok = _post(client, "/api/grade", body, Origin="", Referer=f"{ORIGIN}/")
    assert ok.status_code == 200  # the page's own Referer is enough without an Origin


def test_versions_and_rubric_items(client: TestClient, out: Path, spec: AssignmentSpec) -> None:
    _signed_in(client)
    item = _post(client, "/api/item", {"part": "why_unit", "text": "direction", "points": 2})
    assert item.status_code == 200
    item_id = item.json()["item"]["id"]
    first = {"student": "ada", "part": "why_unit", "adjustment": 0, "items": [item_id],
             "comment": "ok", "version": 0}  # fmt: skip
    saved = _post(client, "/api/grade", first)
    assert saved.json()["grade"]["points"] == 2 and saved.json()["grade"]["version"] == 1
    stale = _post(client, "/api/grade", first | {"adjustment": -1, "comment": "mine"})
    assert stale.status_code == 409
    assert stale.json()["conflict"]["comment"] == "ok"  # theirs, never overwritten
    assert (
        _post(client, "/api/grade", {**first, "student": "ben", "adjustment": 0.5}).status_code
        == 200
    )
    changed = _post(client, "/api/item", {"id": item_id, "part": "why_unit", "text": "direction",
                                          "points": 1, "version": 1})  # fmt: skip
    assert changed.status_code == 200
    totals = class_totals(out, spec)
    assert (totals["ada"].manual[0].points, totals["ben"].manual[0].points) == (1.0, 1.5)
    again = _post(client, "/api/item", {"id": item_id, "part": "why_unit", "text": "x",
                                        "points": 0, "version": 1})  # fmt: skip
    assert again.status_code == 409
    for bad in ({"adjustment": "nan"}, {"items": [999]}, {"student": "zed"}, {"part": "numeric"}):
        assert _post(client, "/api/grade", first | {"version": 1} | bad).status_code == 400


def test_hostile_answers_are_inert() -> None:
    from manual_class import HOSTILE_ANSWER

    assert answer_html(HOSTILE_ANSWER) == (
        '<p>=HYPERLINK("http://evil.example/","x")</p>\n'
        "<p>&lt;script&gt;document.title='pwned'&lt;/script&gt; &lt;img src=x "
        "onerror=\"document.title='img'\"&gt;</p>\n"
        "<p>[click me](javascript:document.title='link') \\x1b]52;c;cGF5bG9hZA==\\x07\\x1b[2J</p>\n"
    )  # HTML as text, the javascript: link not a link, terminal escapes spelled out
    linked = answer_html(
        '[ok](https://example.org "t") [bad](javascript:alert(1)) <a href="x">y</a> '
        "![i](http://x/i.png) [d](data:text/html,x)"
    )
    assert linked == (
        '<p><a href="https://example.org" title="t" rel="noopener noreferrer nofollow">ok</a> '
        '[bad](javascript:alert(1)) &lt;a href="x"&gt;y&lt;/a&gt;  [d](data:text/html,x)</p>\n'
    )  # no image (it would load from elsewhere), no data: link
