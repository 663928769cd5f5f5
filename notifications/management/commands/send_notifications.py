"""``manage.py send_notifications``: send the e-mails and webhook posts that are due
(failed ones waiting for their next attempt, or any a broker never took)."""

from django.core.management.base import BaseCommand

from notifications.delivery import deliveries_due, delivery_attempt
from notifications.models import Delivery


class Command(BaseCommand):
    help = "Send the notification deliveries that are due (retries after failures)."

    def handle(self, *args, **options):
        ids = deliveries_due()
        for delivery_id in ids:
            delivery_attempt(delivery_id)
        sent = Delivery.objects.filter(pk__in=ids, status="sent").count()
        self.stdout.write(f"{len(ids)} due, {sent} sent, {len(ids) - sent} not sent")
