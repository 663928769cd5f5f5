"""Per-user rate limits (issue 13): DRF's ScopedRateThrottle, with the rates read
from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` when asked rather than when
DRF was imported, so a settings override (a test, a deployment's reload) holds."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

from rest_framework import throttling
from rest_framework.settings import api_settings


class ScopedRateThrottle(throttling.ScopedRateThrottle):
    """Limits a view's ``throttle_scope`` per signed-in user (per address for the anonymous).

    A request over the rate is answered 429 in the API's error shape (code
    ``throttled``) with a ``Retry-After`` header.
    """

    # DRF's class attribute (bound at import), as a property read when asked
    @property
    def THROTTLE_RATES(self) -> Any:  # type: ignore[override]  # noqa: N802 - DRF's name
        return api_settings.DEFAULT_THROTTLE_RATES


def page_throttled(request: Any, scope: str) -> float | None:
    """The API's per-user limit of ``scope`` applied to a page's form post, on the same
    counts: ``None`` when allowed (and counted), else the seconds to wait."""
    throttle = ScopedRateThrottle()
    if throttle.allow_request(request, cast(Any, SimpleNamespace(throttle_scope=scope))):
        return None
    return throttle.wait() or 1.0
