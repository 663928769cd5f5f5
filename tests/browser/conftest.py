"""Browser tests: Playwright driving Debian's Chromium (``/usr/bin/chromium``, installed by
bin/_setup; never ``playwright install``, which downloads a browser). One browser for the
session (tests/browser_fixtures.py); each test opens its own page against pytest-django's ``live_server``.

Where no browser can be had the tests skip and say why; under CI (``CI`` set) a missing
browser is a failure instead, so CI cannot pass without running them."""

from __future__ import annotations

import os
import time
from pathlib import Path

from tests.browser_fixtures import _chromium, _no_browser  # noqa: F401 - used by other tests

# the fixtures ``browser`` and ``open_page`` are tests/browser_fixtures.py's (one per process)
SHOTS = Path(os.environ.get("ANGELS_SCREENSHOTS", "var/screenshots"))


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
