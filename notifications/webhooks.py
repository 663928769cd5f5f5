"""Where a webhook may post: only to the internet, never to this machine or a private network.

A webhook URL is checked twice. When the organiser sets it (:func:`host_problem`,
by :func:`notifications.services.webhook_url_check`) its host is resolved and
refused, with a 400 naming the field and the rule, if it is or resolves to an
address that is not public: loopback (``localhost``, 127.x), private (10.x,
192.168.x ...), link-local (169.254.x: cloud metadata), reserved, multicast or
unspecified. And again at each post (:func:`addresses_checked`, by
:mod:`notifications.delivery`): a name may resolve elsewhere later (DNS
rebinding), so the post connects to the very addresses just checked, not to
whatever a second look-up would answer.

:data:`resolve` is the resolver (``socket.getaddrinfo``'s addresses); tests
replace it so that they never ask the network. ``NOTIFICATIONS_WEBHOOK_ALLOW_LOOPBACK``
(off) lets a test post to a receiver on 127.0.0.1.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable

from django.conf import settings

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
REFUSED = "a webhook must be on the internet, not this machine or a private network"


def _getaddrinfo(host: str, port: int) -> list[str]:
    return [str(info[4][0]) for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)]


#: host, port -> the addresses the host resolves to (raises OSError when it does not)
resolve: Callable[[str, int], list[str]] = _getaddrinfo


class WebhookRefused(OSError):
    """The webhook's host is, or resolves to, an address the product does not post to.
    An OSError: at send time it is recorded on the delivery like any failed post."""


NAT64 = ipaddress.IPv6Network("64:ff9b::/96")  # RFC 6052: the IPv4 address in the last 32 bits
NAT64_LOCAL = ipaddress.IPv6Network("64:ff9b:1::/48")  # RFC 8215: a site's own translator
IPV4_COMPATIBLE = ipaddress.IPv6Network("::/96")  # RFC 4291 (deprecated): ::127.0.0.1


def _embedded_ipv4(address: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries to (6to4, Teredo, NAT64, IPv4-compatible):
    a packet to 2002:7f00:1:: may end on 127.0.0.1, so that is the address to check."""
    last32 = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address.sixtofour is not None:  # 2002::/16
        return [address.sixtofour]
    if address.teredo is not None:  # 2001::/32: the server and the client
        return list(address.teredo)
    if address in NAT64 or (address in IPV4_COMPATIBLE and int(address) > 1):
        return [last32]
    return []


def _kind(address: Address) -> str | None:
    """What is wrong with posting to ``address`` ("a private address"), or None if public.
    An IPv6 address wrapping an IPv4 one is judged by the IPv4 address too (issue 23)."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped  # ::ffff:127.0.0.1 is 127.0.0.1
    if isinstance(address, ipaddress.IPv6Address):
        if address in NAT64_LOCAL:
            return "a local-use NAT64 address (a private network's IPv4)"
        for inner in _embedded_ipv4(address):
            kind = _kind(inner)
            if kind is not None:
                return f"{kind} wrapped in IPv6 ({inner})"
    if address.is_loopback:
        allowed = getattr(settings, "NOTIFICATIONS_WEBHOOK_ALLOW_LOOPBACK", False)
        return None if allowed else "this machine (loopback)"
    for test, kind in (
        (address.is_unspecified, "an unspecified address"),
        (address.is_link_local, "a link-local address"),
        (address.is_multicast, "a multicast address"),
        (address.is_private, "a private address"),
        (address.is_reserved, "a reserved address"),
    ):
        if test:
            return kind
    return None if address.is_global else "an address not on the internet"


def addresses_checked(host: str, port: int) -> list[str]:
    """The addresses ``host`` resolves to, all of them public; WebhookRefused naming the
    first that is not (a name that resolves to one private address among public ones
    is refused: which one a client uses is not ours to choose)."""
    loopback_ok = getattr(settings, "NOTIFICATIONS_WEBHOOK_ALLOW_LOOPBACK", False)
    if (host == "localhost" or host.endswith(".localhost")) and not loopback_ok:
        # names of this machine wherever they are looked up (RFC 6761)
        raise WebhookRefused(f"{REFUSED}: {host} is this machine (loopback)")
    try:
        found = resolve(host, port)
    except (OSError, UnicodeError) as exc:
        raise WebhookRefused(f"the webhook's host {host} could not be found ({exc})") from exc
    if not found:
        raise WebhookRefused(f"the webhook's host {host} could not be found")
    for text in found:
        address = ipaddress.ip_address(text.split("%", 1)[0])  # no IPv6 zone (fe80::1%eth0)
        kind = _kind(address)
        if kind is not None:
            named = host if text == host else f"{host} resolves to {text},"
            raise WebhookRefused(f"{REFUSED}: {named} {kind}")
    return list(dict.fromkeys(found))


def host_problem(host: str, port: int) -> str | None:
    """Why a webhook on ``host`` is refused (a sentence for the 400), or None."""
    try:
        addresses_checked(host, port)
    except WebhookRefused as exc:
        return str(exc)
    return None
