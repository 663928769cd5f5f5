"""Sending one :class:`Delivery`, exactly once: an e-mail by Django's mail (the
console backend in the embedded default, SMTP with ``EMAIL_HOST``) or a POST of
Discord's ``{"content": ...}`` to the campaign's webhook, connecting only to the
addresses its host resolves to at that moment, each checked public
(:mod:`notifications.webhooks`: a name rebound to a private address is refused).

A delivery is claimed by a conditional update (pending and due -> sending, one
attempt more), so two workers given the same delivery never both send it. A
failure is recorded with its error; it is tried again after :data:`BACKOFF`
seconds, and after :data:`MAX_ATTEMPTS` attempts it stays failed.
"""

from __future__ import annotations

import json
import socket
import ssl
import urllib.request
from collections.abc import Callable
from datetime import timedelta
from http.client import HTTPConnection, HTTPSConnection
from typing import Any
from urllib.parse import urlsplit

from django.core.mail import send_mail
from django.db.models import F, Q
from django.utils import timezone

from .models import Channel, Delivery, DeliveryStatus
from .webhooks import addresses_checked

MAX_ATTEMPTS = 3
BACKOFF = (60, 300)  # seconds before the second and the third attempt
WEBHOOK_TIMEOUT = 5.0  # seconds: connecting and each read of the webhook's answer
STALE_SENDING = timedelta(minutes=15)  # a claim older than this was a worker that died


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A webhook that answers with a redirect has failed: following it could lead the
    server to an address the https check never saw."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


def _connect_to(addresses: list[str]) -> Callable[..., socket.socket]:
    """A ``create_connection`` that connects to the checked ``addresses`` (in turn) on the
    port asked, whatever the host name would resolve to by now."""

    def connect(address: tuple[str, int], timeout: Any = None, source: Any = None) -> socket.socket:
        error: OSError | None = None
        for ip in addresses:
            try:
                return socket.create_connection((ip, address[1]), timeout, source)
            except OSError as exc:
                error = exc
        raise error or OSError("no address to connect to")

    return connect


def _pinned(connection_class: type[HTTPConnection], host: str, addresses: list[str]) -> Any:
    """``connection_class`` whose connection to ``host`` goes to ``addresses``; TLS still
    checks the certificate against ``host``. (A connection to a proxy is left alone.)"""

    def make(to: str, **kwargs: Any) -> HTTPConnection:
        connection = connection_class(to, **kwargs)
        if connection.host == host:
            connection._create_connection = _connect_to(addresses)  # type: ignore[attr-defined]
        return connection

    return make


class _PinnedHTTP(urllib.request.HTTPHandler):
    def __init__(self, host: str, addresses: list[str]) -> None:
        super().__init__()
        self._connection = _pinned(HTTPConnection, host, addresses)

    def http_open(self, req: urllib.request.Request) -> Any:
        return self.do_open(self._connection, req)


class _PinnedHTTPS(urllib.request.HTTPSHandler):
    def __init__(self, host: str, addresses: list[str]) -> None:
        self._tls = ssl.create_default_context()  # checks the certificate against ``host``
        super().__init__(context=self._tls)
        self._connection = _pinned(HTTPSConnection, host, addresses)

    def https_open(self, req: urllib.request.Request) -> Any:
        return self.do_open(self._connection, req, context=self._tls)


def _opener(url: str) -> urllib.request.OpenerDirector:
    """No redirects, and the webhook's host resolved and checked now, at the post (its
    name may point elsewhere than when it was set): WebhookRefused if it is not public."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    addresses = addresses_checked(host, port)
    return urllib.request.build_opener(
        _NoRedirects, _PinnedHTTP(host, addresses), _PinnedHTTPS(host, addresses)
    )


def _post_webhook(url: str, content: str) -> None:
    request = urllib.request.Request(
        url,
        data=json.dumps({"content": content}).encode(),
        headers={"Content-Type": "application/json", "User-Agent": "Angels-notifications/1"},
        method="POST",
    )
    with _opener(url).open(request, timeout=WEBHOOK_TIMEOUT) as answer:  # noqa: S310 (checked)
        if not 200 <= answer.status < 300:
            raise OSError(f"the webhook answered HTTP {answer.status}")


def _send(delivery: Delivery) -> None:
    if delivery.channel == Channel.EMAIL:
        send_mail(delivery.subject, delivery.text, None, [delivery.target], fail_silently=False)
    else:
        _post_webhook(delivery.target, delivery.text)


def delivery_attempt(delivery_id: int) -> int | None:
    """Try one delivery if it is due; return the seconds until its next attempt
    after a failure that will be retried, else None."""
    now = timezone.now()
    due = Q(status=DeliveryStatus.PENDING) & (
        Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now)
    )
    claimed = Delivery.objects.filter(due, pk=delivery_id).update(
        status=DeliveryStatus.SENDING, attempts=F("attempts") + 1, next_attempt_at=now
    )
    if not claimed:
        return None  # sent, failed for good, not yet due, or another worker has it
    delivery = Delivery.objects.get(pk=delivery_id)
    try:
        _send(delivery)
    except Exception as exc:  # any failure of the mail server or the webhook is recorded
        error = f"{type(exc).__name__}: {exc}"[:2000]
        if delivery.attempts >= MAX_ATTEMPTS:
            Delivery.objects.filter(pk=delivery_id).update(
                status=DeliveryStatus.FAILED, last_error=error, next_attempt_at=None
            )
            return None
        wait = BACKOFF[min(delivery.attempts, len(BACKOFF)) - 1]
        Delivery.objects.filter(pk=delivery_id).update(
            status=DeliveryStatus.PENDING,
            last_error=error,
            next_attempt_at=timezone.now() + timedelta(seconds=wait),
        )
        return wait
    Delivery.objects.filter(pk=delivery_id).update(
        status=DeliveryStatus.SENT, sent_at=timezone.now(), last_error=""
    )
    return None


def deliveries_due(now=None) -> list[int]:
    """Deliveries to try now: pending and due, or claimed by a worker long gone."""
    now = now or timezone.now()
    Delivery.objects.filter(
        status=DeliveryStatus.SENDING, next_attempt_at__lt=now - STALE_SENDING
    ).update(status=DeliveryStatus.PENDING)
    return list(
        Delivery.objects.filter(
            Q(status=DeliveryStatus.PENDING)
            & (Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now))
        ).values_list("pk", flat=True)[:500]
    )
