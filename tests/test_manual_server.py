"""The grading page's server without a browser (Starlette's TestClient): the token header, the
origin check, the headers, inert sanitised answers, versioned saves and rubric items."""

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


def _post(client: TestClient, path: str, body: dict[str, object], **headers: str) -> object:
    sent = {"Origin": ORIGIN, "X-Autograder-Token": TOKEN} | headers
    return client.post(path, json=body, headers={k: v for k, v in sent.items() if v})


def _state(client: TestClient, **headers: str) -> object:
    sent = {"X-Autograder-Token": TOKEN} | headers
    return client.get("/api/state", headers={k: v for k, v in sent.items() if v})


def test_data_without_the_token_header_is_refused(client: TestClient) -> None:
    refused = [
        client.get("/api/state"),
        client.get(f"/api/state?token={TOKEN}"),  # the address does not count, nor a cookie
        client.get("/api/state", headers={"Cookie": f"autograder_manual_8765={TOKEN}"}),
        _state(client, **{"X-Autograder-Token": "wrong"}),
        _state(client, **{"X-Autograder-Token": TOKEN[:-1]}),
        client.get("//api/state"),  # any path but the page's own files needs the token
        client.post("/api/grade", json={}, headers={"Origin": ORIGIN}),
    ]
    for response in refused:
        assert response.status_code == 403, response.request.url
        assert "Content-Security-Policy" in response.headers
        assert "ada" not in response.text
    assert _state(client).status_code == 200


def test_the_page_holds_no_token_and_sets_no_cookie(client: TestClient) -> None:
    for path in ("/", f"/?token={TOKEN}", "/?token=wrong", "/static/manual.js"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert "set-cookie" not in response.headers
        assert TOKEN not in response.text
        for student_text in ("ada", "unit vector", "HYPERLINK"):
            assert student_text not in response.text


def test_another_origin_is_refused_even_with_the_token(client: TestClient) -> None:
    """A preflight (what a browser sends before a cross-origin request with a custom header)
    is refused and never allowed; so is a request naming another origin or site."""
    preflight = client.options("/api/grade", headers={
        "Origin": "http://127.0.0.1:9999", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type,x-autograder-token",
    })  # fmt: skip
    assert preflight.status_code == 403
    assert not any(h.startswith("access-control-") for h in preflight.headers)
    assert _state(client, Origin="http://127.0.0.1:9999").status_code == 403
    assert _state(client, **{"Sec-Fetch-Site": "same-site"}).status_code == 403
    assert _state(client, **{"Sec-Fetch-Site": "cross-site"}).status_code == 403
    same = _state(client, **{"Sec-Fetch-Site": "same-origin"})
    assert same.status_code == 200
    assert not any(h.startswith("access-control-") for h in same.headers)


def test_the_page_and_its_headers(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert '<html lang="en">' in page.text and "<script>" not in page.text
    assert page.headers["content-security-policy"].startswith(
        "default-src 'none'; script-src 'self'"
    )
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    assert page.headers["x-content-type-options"] == "nosniff"
    assert page.headers["referrer-policy"] == "no-referrer"
    assert page.headers["cross-origin-opener-policy"] == "same-origin"
    assert client.get("/static/manual.js").status_code == 200


def test_a_change_from_another_origin_or_without_the_header_is_refused(
    client: TestClient, out: Path, spec: AssignmentSpec
) -> None:
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
    other_host = _state(client, Host="evil.example:8765")
    assert other_host.status_code == 403  # DNS rebinding
    assert client.get("/", headers={"Host": "evil.example:8765"}).status_code == 403
    assert class_totals(out, spec)["ada"].manual[0].points is None  # nothing was written
    ok = _post(client, "/api/grade", body, Origin="", Referer=f"{ORIGIN}/")
    assert ok.status_code == 200  # the page's own Referer is enough without an Origin


def test_versions_and_rubric_items(client: TestClient, out: Path, spec: AssignmentSpec) -> None:
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
        "![i](http://x/i.png) [d](data:text/html,x) <http://127.0.0.1:9/> [r][1]\n\n"
        "[1]: http://127.0.0.1:9/ref"
    )
    assert linked == (
        '<p>[ok](https://example.org "t") [bad](javascript:alert(1)) &lt;a href="x"&gt;y&lt;/a&gt; '
        "![i](http://x/i.png) [d](data:text/html,x) &lt;http://127.0.0.1:9/&gt; [r][1]</p>\n"
        "<p>[1]: http://127.0.0.1:9/ref</p>\n"
    )  # no link, image or reference: every address shown as the student typed it, none followable
