"""Headless Chromium for the kit's tests: Debian's `chromium` driven by Playwright, with the
network off (only file: and data: addresses load), every console error and failed load kept."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = Path(os.environ.get("AUTOGRADER_TEST_ARTIFACTS", ROOT / "build" / "test-artifacts"))
FLAGS = [
    "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic",
]  # fmt: skip


def chromium_or_skip() -> str:
    """The Chromium executable; the test skips, saying what is missing, where there is none."""
    executable = os.environ.get("CHROMIUM") or shutil.which("chromium")
    if executable is None:
        pytest.skip("Chromium is not installed (apt-get install chromium; `make test` does it)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.skip("Playwright is not installed (pip install -e '.[dev]')")
    return executable


@dataclass
class Visit:
    """What one page did: console errors, uncaught errors, loads that failed or were refused."""

    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    @property
    def problems(self) -> list[str]:
        return self.console_errors + self.page_errors + self.refused + self.failed


@contextmanager
def offline_browser() -> Iterator[Any]:
    """A browser context that loads only file: and data: addresses."""
    from playwright.sync_api import sync_playwright

    executable = chromium_or_skip()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=FLAGS)
        try:
            context = browser.new_context(offline=True, viewport={"width": 1200, "height": 900})
            yield context
        finally:
            browser.close()


def open_page(context: Any, path: Path) -> tuple[Any, Visit]:
    """`path` opened in a new page of `context`, and what happened while it loaded."""
    visit = Visit()
    page = context.new_page()
    page.on("console", lambda m: m.type == "error" and visit.console_errors.append(m.text))
    page.on("pageerror", lambda error: visit.page_errors.append(str(error)))
    page.on("requestfailed", lambda r: visit.failed.append(f"{r.url}: {r.failure}"))

    def only_local(route: Any) -> None:
        url = route.request.url
        if url.startswith(("file:", "data:")):
            route.continue_()
        else:
            visit.refused.append(url)
            route.abort()

    page.route("**/*", only_local)
    page.goto(path.resolve().as_uri(), wait_until="load")
    return page, visit


SERIOUS = ("serious", "critical")


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on `page` (its rule, impact, what it asks
    and the elements at fault), printed so a test's output can be quoted."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    found = [
        {
            "id": violation["id"],
            "impact": violation["impact"],
            "help": violation["help"],
            "nodes": [" ".join(node["target"]) for node in violation["nodes"]][:10],
        }
        for violation in results.response["violations"]
        if violation.get("impact") in SERIOUS
    ]
    others = [v["id"] for v in results.response["violations"] if v.get("impact") not in SERIOUS]
    print(f"\naxe-core on {page.url[-60:]}: serious or critical violations: {found}")
    print(f"  (minor or moderate: {others}; rules passed: {len(results.response['passes'])})")
    return found
