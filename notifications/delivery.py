"""Sending one :class:`Delivery`, exactly once: an e-mail by Django's mail (the
console backend in the embedded default, SMTP with ``EMAIL_HOST``) or a POST of
Discord's ``{"content": ...}`` to the campaign's webhook.

A delivery is claimed by a conditional update (pending and due -> sending, one
attempt more), so two workers given the same delivery never both send it. A
failure is recorded with its error; it is tried again after :data:`BACKOFF`
seconds, and after :data:`MAX_ATTEMPTS` attempts it stays failed.
"""

from __future__ import annotations

import json
import urllib.request
from datetime import timedelta

from django.core.mail import send_mail
from django.db.models import F, Q
from django.utils import timezone

from .models import Channel, Delivery, DeliveryStatus

MAX_ATTEMPTS = 3
BACKOFF = (60, 300)  # seconds before the second and the third attempt
WEBHOOK_TIMEOUT = 5.0  # seconds: connecting and each read of the webhook's answer
STALE_SENDING = timedelta(minutes=15)  # a claim older than this was a worker that died


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A webhook that answers with a redirect has failed: following it could lead the
    server to an address the https check never saw."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


_OPENER = urllib.request.build_opener(_NoRedirects)


def _post_webhook(url: str, content: str) -> None:
    request = urllib.request.Request(
        url,
        data=json.dumps({"content": content}).encode(),
        headers={"Content-Type": "application/json", "User-Agent": "Angels-notifications/1"},
        method="POST",
    )
    with _OPENER.open(request, timeout=WEBHOOK_TIMEOUT) as answer:  # noqa: S310 (https checked)
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
