"""Security headers on every response (issue 23).

* **Content-Security-Policy** (``settings.ANGELS_CSP``): scripts only from this site,
  no inline script and no ``on*=`` attribute, no plug-ins, no framing. It is the second
  wall behind the templates' escaping: were some user text ever written into a page
  as markup, the browser still would not run it. The pages' scripts are static files
  (``*/static/*/*.js``) reading their data from ``json_script`` elements and
  ``data-`` attributes.
* **Private caching**: a response to a signed-in user (a session, a token or Basic
  credentials) may show what only that user may see (a hand of cards, a seat's
  choices), so it carries ``Cache-Control: private, no-store``: no shared cache keeps
  it and no browser writes it to disk. A view that declares itself ``public`` (the
  favicon) keeps its own header. Every response varies on ``Cookie`` and
  ``Authorization``, so no cache hands one user's answer to another.

Why one small middleware rather than ``django-csp``: the policy is one fixed string,
with no nonces or per-view exceptions (the API docs use drf-spectacular's inline-free
Swagger view), so the package would add a dependency for what these lines do.
``X-Content-Type-Options``, ``Referrer-Policy`` and ``X-Frame-Options`` come from
Django's own ``SecurityMiddleware`` and ``XFrameOptionsMiddleware`` (settings beside
``ANGELS_CSP``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers

PRIVATE = "private, no-store"


def csp_header(policy: Mapping[str, Sequence[str]]) -> str:
    """``{"script-src": ["'self'"], ...}`` as the header's text."""
    return "; ".join(" ".join([name, *sources]) for name, sources in policy.items())


def _signed_in(request: HttpRequest) -> bool:
    # request.user is the session's user, or the API's token or Basic user once DRF
    # has authenticated the request (it sets the user on the Django request too)
    user = getattr(request, "user", None)
    return bool(getattr(user, "is_authenticated", False)) or "HTTP_AUTHORIZATION" in request.META


class SecurityHeadersMiddleware:
    """The site's CSP on every response; private caching for signed-in users."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.csp = csp_header(settings.ANGELS_CSP)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", self.csp)
        patch_vary_headers(response, ("Cookie", "Authorization"))
        if _signed_in(request) and "public" not in response.get("Cache-Control", ""):
            response["Cache-Control"] = PRIVATE
        return response
