"""Per-user rate limits (issue 13): DRF's ScopedRateThrottle, with the rates read
from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` when asked rather than when
DRF was imported, so a settings override (a test, a deployment's reload) holds.

The anonymous are counted by :func:`client_address`, the address the deployment
trusts (issue 23): ``REMOTE_ADDR``, or the right hop of ``X-Forwarded-For`` when
the settings name the proxies in front (``ANGELS_TRUSTED_PROXY_COUNT`` or
``ANGELS_TRUSTED_PROXIES``). DRF's own rule took the whole header as sent, so a
client that changed it at each request was never limited."""

from __future__ import annotations

import ipaddress
from types import SimpleNamespace
from typing import Any, cast

from django.conf import settings
from rest_framework import throttling
from rest_framework.settings import api_settings

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def _address(text: str) -> str | None:
    """``text`` as a normalised IP address, or None when it is not one."""
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return None


def _trusted_networks() -> list[Network]:
    return [
        ipaddress.ip_network(entry, strict=False)
        for entry in getattr(settings, "ANGELS_TRUSTED_PROXIES", [])
    ]


def _is_trusted(address: str, networks: list[Network]) -> bool:
    ip = ipaddress.ip_address(address)
    return any(ip.version == net.version and ip in net for net in networks)


def client_address(request: Any) -> str:
    """The client's address as the deployment trusts it.

    With no trusted proxy configured it is ``REMOTE_ADDR`` and ``X-Forwarded-For``
    is ignored (anyone may send it). ``ANGELS_TRUSTED_PROXY_COUNT = n``: the n-th
    address from the right of ``X-Forwarded-For`` plus ``REMOTE_ADDR`` (the hop the
    outermost of n proxies saw). ``ANGELS_TRUSTED_PROXIES``: addresses or networks
    of the proxies; the hops are read from the right, skipping trusted ones, and
    the first untrusted one is the client.
    """
    meta = request.META
    remote = _address(meta.get("REMOTE_ADDR", "") or "") or "unknown"
    hops = [h for h in (meta.get("HTTP_X_FORWARDED_FOR", "") or "").split(",") if h.strip()]
    count = int(getattr(settings, "ANGELS_TRUSTED_PROXY_COUNT", 0) or 0)
    networks = _trusted_networks()
    if remote == "unknown" or not hops or not (count or networks):
        return remote
    chain = [*hops, remote]
    if count:
        return _address(chain[-min(count + 1, len(chain))]) or remote
    client = remote
    for hop in reversed(chain):
        address = _address(hop)
        if address is None:  # a hop that is not an address: the last good one stands
            break
        client = address
        if not _is_trusted(address, networks):
            break
    return client


class ScopedRateThrottle(throttling.ScopedRateThrottle):
    """Limits a view's ``throttle_scope`` per signed-in user (per address for the anonymous).

    A request over the rate is answered 429 in the API's error shape (code
    ``throttled``) with a ``Retry-After`` header.
    """

    # DRF's class attribute (bound at import), as a property read when asked
    @property
    def THROTTLE_RATES(self) -> Any:  # type: ignore[override]  # noqa: N802 - DRF's name
        return api_settings.DEFAULT_THROTTLE_RATES

    def get_ident(self, request: Any) -> str:
        return client_address(request)


def page_throttled(request: Any, scope: str) -> float | None:
    """The API's per-user limit of ``scope`` applied to a page's form post, on the same
    counts: ``None`` when allowed (and counted), else the seconds to wait."""
    throttle = ScopedRateThrottle()
    if throttle.allow_request(request, cast(Any, SimpleNamespace(throttle_scope=scope))):
        return None
    return throttle.wait() or 1.0
