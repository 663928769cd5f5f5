"""The browser fixtures, one definition for the whole suite (registered by tests/conftest.py
as a plugin): Playwright driving Debian's Chromium (``/usr/bin/chromium``, installed by
bin/_setup; never ``playwright install``, which downloads a browser). One browser per test
process, whichever folder's tests ask for it first: a second ``sync_playwright()`` in the
same process fails ("Sync API inside the asyncio loop"), so no test module defines its own.

Where no browser can be had the tests skip and say why; under CI (``CI`` set) a missing
browser is a failure instead, so CI cannot pass without running them."""

from __future__ import annotations

import os
import shutil

import pytest

# Playwright's sync API runs an event loop in this thread; the tests' own database calls
# (fixtures, assertions) are still plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


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
