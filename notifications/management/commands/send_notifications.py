"""``manage.py send_notifications``: queue the day's digests once their hour has come
(:mod:`notifications.digests`), then send the e-mails and webhook posts that are due
(the digests, failed ones waiting for their next attempt, or any a broker never took)."""

from django.core.management.base import BaseCommand

from notifications.delivery import deliveries_due, delivery_attempt
from notifications.digests import digests_queue
from notifications.models import Delivery


class Command(BaseCommand):
    help = "Queue the day's digests, then send the notification deliveries that are due."

    def handle(self, *args, **options):
        digests = digests_queue()
        ids = deliveries_due()
        for delivery_id in ids:
            delivery_attempt(delivery_id)
        sent = Delivery.objects.filter(pk__in=ids, status="sent").count()
        self.stdout.write(
            f"{len(digests)} digests queued; {len(ids)} due, {sent} sent, {len(ids) - sent} not sent"
        )
