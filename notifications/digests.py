"""The daily digest (issue 24): one mail a day with everything a user chose to hear of
by e-mail, for the users whose choice is "a daily digest".

Each notification such a user would have been mailed waits (``for_digest``, no
``digest`` yet). From ``ANGELS_DIGEST_HOUR`` (in ``TIME_ZONE``) each day,
:func:`digests_queue` gathers each user's waiting notifications into one
:class:`Delivery` (``dedup`` ``digest:<user>:<date>``: unique, so a user gets at most
one digest a day however often, and by however many processes, it runs) and marks
them as mailed by it; the delivery is then sent like any other (claimed once,
retried after a failure). A notification that arrives after the day's digest waits
for the next day's. The beat runs ``notifications.send_digests`` every 10 minutes,
and ``manage.py send_notifications`` does it by hand.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from .models import DIGEST, Channel, Delivery, MailMode, Notification
from .services import absolute, mail_footer, mail_modes


def digest_text(notifications: list[Notification]) -> str:
    """The digest's body: the messages by campaign, oldest first, each with its link."""
    by_campaign: dict[str, list[Notification]] = defaultdict(list)
    for n in notifications:
        by_campaign[n.campaign.name].append(n)
    count = len(notifications)
    lines = [
        f"{count} message{'s' if count != 1 else ''} from your campaigns since your last digest."
    ]
    for name, items in by_campaign.items():
        lines += ["", name, "=" * len(name)]
        for n in items:
            when = timezone.localtime(n.created_at).strftime("%d %b %H:%M")
            lines.append(f"- {when}: {n.text}")
            if n.url:
                lines.append(f"  {absolute(n.url)}")
    lines += ["", f"All your notifications: {absolute('/notifications/')}", "", mail_footer()]
    return "\n".join(lines)


def digests_queue(*, now: datetime | None = None) -> list[int]:
    """Queue today's digest for each user with notifications waiting, if the digest hour
    has come; return the ids of the deliveries made (none twice a day for a user)."""
    now = now or timezone.now()
    local = timezone.localtime(now)
    if local.hour < settings.ANGELS_DIGEST_HOUR:
        return []
    waiting = Notification.objects.filter(for_digest=True, digest__isnull=True)
    user_ids = sorted(set(waiting.values_list("user_id", flat=True)))
    users = list(get_user_model().objects.filter(pk__in=user_ids))
    modes = mail_modes(users)
    queued: list[int] = []
    for user in users:
        mine = list(
            waiting.filter(user=user).select_related("campaign").order_by("created_at", "pk")
        )
        if modes[user.pk] == MailMode.NONE or not user.email:  # no mail now: they stay in the list
            Notification.objects.filter(pk__in=[n.pk for n in mine]).update(for_digest=False)
            continue
        count = len(mine)
        with transaction.atomic():
            delivery, made = Delivery.objects.get_or_create(
                dedup=f"digest:{user.pk}:{local.date().isoformat()}",
                defaults={"channel": Channel.EMAIL, "kind": DIGEST, "target": user.email,
                          "subject": f"[Angels] Your daily digest: {count} message{'s' if count != 1 else ''}",
                          "text": digest_text(mine)},
            )  # fmt: skip
            if not made:
                continue  # today's digest went already: these wait for tomorrow's
            Notification.objects.filter(pk__in=[n.pk for n in mine], digest__isnull=True).update(
                digest=delivery
            )
        queued.append(delivery.pk)
    return queued
