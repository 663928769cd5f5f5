"""Browser tests: Playwright driving Debian's Chromium (``/usr/bin/chromium``, installed by
bin/_setup; never ``playwright install``, which downloads a browser). One browser for the
session; each test opens its own page against pytest-django's ``live_server``.

Where no browser can be had the tests skip and say why; under CI (``CI`` set) a missing
browser is a failure instead, so CI cannot pass without running them."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; the tests' own database calls
# (fixtures, assertions) are still plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

SHOTS = Path(os.environ.get("ANGELS_SCREENSHOTS", "var/screenshots"))


def _chromium() -> str | None:
    for candidate in (
        os.environ.get("ANGELS_CHROMIUM"),
        "/usr/bin/chromium",
        shutil.which("chromium"),
    ):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def _no_browser(reason: str):
    if os.environ.get("CI"):
        pytest.fail(f"browser tests cannot run under CI: {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _no_browser("the playwright package is not installed (dev extras)")
    executable = _chromium()
    if executable is None:
        _no_browser(
            "no Chromium at /usr/bin/chromium (bin/_setup installs Debian's chromium as root)"
        )
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=executable, args=["--no-sandbox", "--disable-gpu"]
        )
        yield chromium
        chromium.close()


@pytest.fixture
def open_page(browser, live_server):
    """open_page(path, width) -> a page at that viewport width, signed in if ``user`` given."""
    contexts = []

    def _open(path: str, width: int = 1280, user=None, password: str = ""):
        context = browser.new_context(viewport={"width": width, "height": 900})
        contexts.append(context)
        page = context.new_page()
        if user is not None:
            page.goto(f"{live_server.url}/accounts/login/")
            page.fill("input[name=username]", user.username)
            page.fill("input[name=password]", password)
            page.click("main form [type=submit]")
            page.wait_for_load_state()
        page.goto(f"{live_server.url}{path}")
        return page

    yield _open
    for context in contexts:
        context.close()


def screenshot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def page_width(page) -> int:
    return page.evaluate("document.scrollingElement.scrollWidth")


def wait_for_js(page, expression: str, timeout: float = 30_000) -> None:
    """``page.wait_for_function(expression)`` for pages under the site's CSP: Playwright
    builds that predicate with eval in the page, which the policy (script-src 'self', no
    'unsafe-eval') refuses; ``page.evaluate`` runs through the DevTools protocol, which
    the policy does not govern. Polls every 100 ms until true or ``timeout`` ms pass."""
    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout / 1000:g} s: {expression}")
        page.wait_for_timeout(100)
