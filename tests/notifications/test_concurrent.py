"""The same event sent by two processes at once (two transactions that overlap) tells
each person once: the unique (user, key) constraint decides, not a check before insert."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections, transaction

from angels.events import DEADLINE_PASSED, send_campaign_event
from notifications.models import Delivery, Notification

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite writes one at a time")
def test_two_senders_at_once_tell_once(campaign):
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def sender() -> None:
        try:
            with transaction.atomic():
                barrier.wait(timeout=10)
                send_campaign_event(campaign_id=campaign.pk, kind=DEADLINE_PASSED,
                                    key="deadline_passed:race", text="x", side="axis")  # fmt: skip
        except BaseException as exc:  # noqa: BLE001 (reported below)
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=sender) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert not errors
    assert Notification.objects.filter(key="deadline_passed:race").count() == 1
    assert Delivery.objects.filter(dedup__endswith=":deadline_passed:race").count() == 1
