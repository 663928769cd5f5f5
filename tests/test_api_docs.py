"""The API docs work without the internet (issue 16): Swagger UI at /api/docs/ and ReDoc at
/api/redoc/ load only scripts, styles and icons the product serves itself."""

from __future__ import annotations

import re
import urllib.request

import pytest
from django.contrib.staticfiles import finders

DOC_PAGES = ("/api/docs/", "/api/redoc/")
ASSET = re.compile(r"""(?:src|href|spec-url)\s*=\s*["']([^"']+)["']""")


def _assets(client, page: str) -> tuple[str, list[str]]:
    response = client.get(page)
    assert response.status_code == 200
    body = response.content.decode()
    return body, ASSET.findall(body)


@pytest.mark.parametrize("page", DOC_PAGES)
def test_docs_page_names_only_local_urls(client, page):
    body, urls = _assets(client, page)
    assert urls, "the page loads its viewer from somewhere"
    assert not re.search(r"https?://|//[a-z0-9.-]+\.[a-z]{2,}/", body), "an address on another host"
    for url in urls:
        # the viewer's own files, and the header's links back to the site and between the docs
        assert url.startswith(("/static/", "/api/schema/", "/api/docs/?script")) or url in (
            "/",
            "/api/docs/",
            "/api/redoc/",
        ), url


@pytest.mark.django_db(transaction=True)
def test_docs_static_files_are_served(client, live_server):
    scripts = set()
    for page in DOC_PAGES:
        scripts |= {u for u in _assets(client, page)[1] if u.startswith("/static/")}
    assert any(u.endswith("swagger-ui-bundle.js") for u in scripts)
    assert any(u.endswith("redoc.standalone.js") for u in scripts)
    for url in sorted(scripts):
        with urllib.request.urlopen(live_server.url + url, timeout=10) as response:  # noqa: S310
            assert response.status == 200, url
            shipped = finders.find(url.removeprefix("/static/"))
            assert shipped, url
            with open(shipped, "rb") as f:
                assert response.read() == f.read(), url  # the real file, whole
