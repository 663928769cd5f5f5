"""Celery tasks of the notifications: thin wrappers around :mod:`notifications.delivery`.

``deliver`` is idempotent (the delivery's row decides whether anything is sent)
and never raises: a failure is recorded on the row. Outside eager mode a failure
to retry is sent again after its backoff; ``send_due`` (and ``manage.py
send_notifications``) sends whatever is due, which is how the embedded default,
with no worker to wait for, retries. ``send_digests`` queues and sends the day's
digests (:mod:`notifications.digests`; once a day per user, however often it runs).
"""

from __future__ import annotations

import logging

from celery import shared_task

from . import delivery, digests

logger = logging.getLogger(__name__)


@shared_task(
    name="notifications.deliver", bind=True, acks_late=True, soft_time_limit=60, time_limit=90
)
def deliver(self, delivery_id: int) -> None:
    try:
        retry_in = delivery.delivery_attempt(delivery_id)
    except Exception:  # a database error: the row stays pending for send_due
        logger.exception("notification delivery %s failed unexpectedly", delivery_id)
        return
    if retry_in is not None and not self.request.is_eager:
        try:
            deliver.apply_async((delivery_id,), countdown=retry_in)
        except Exception:
            logger.exception("notification delivery %s: retry not queued", delivery_id)


@shared_task(name="notifications.send_due", acks_late=True, soft_time_limit=120, time_limit=150)
def send_due() -> int:
    ids = delivery.deliveries_due()
    for delivery_id in ids:
        delivery.delivery_attempt(delivery_id)
    return len(ids)


@shared_task(name="notifications.send_digests", acks_late=True, soft_time_limit=120, time_limit=150)
def send_digests() -> int:
    ids = digests.digests_queue()
    for delivery_id in ids:
        delivery.delivery_attempt(delivery_id)
    return len(ids)
