"""Who is told of a campaign event, and how (issue 15, "Reminders and notifications").

:func:`event_record` is the listener's work: it picks the campaign's people the
event concerns, records one :class:`Notification` per user and event key (never
two: a unique constraint, so an event sent twice, or by two processes at once,
tells each person once), queues one :class:`Delivery` per e-mail and for the
campaign's webhook, and sends them after the sender's transaction commits
(``notifications.tasks.deliver``), so no request waits on a mail server or a
webhook and a rolled-back action tells nobody.

Who is told (ruling "Notifications: who is told", docs/rulings.md):

- an event of one side (``side`` given: that side must act, its deadline, its
  pilot lost or its new ace) goes to that side's commanders; a side without a
  commander is played by the organiser, who is told instead;
- an event of the whole campaign (a battle's result, the campaign's end) goes
  to every member: the organiser, both sides' commanders and the spectators.

One message when a side must act (issue 24): the campaign clock announces every
decision it waits for (each phase, each window of a mission), but a side's people
are told **once per side and campaign turn**: the first time in a turn that their
side must act. The phases and windows that follow in the same turn are not told
again (not by mail, not on the webhook, not in the list); when the turn passes
(the other side's turn, then theirs again) they are told again. The key told is
``must_act:campaign:<id>:turn<n>:<side>``, so the unique (user, key) constraint
holds the rule even between two processes. A battle that waits for a person to fly
it in the browser is told on its own (once per battle and side).

How mail comes is each user's choice (:class:`MailChoice`): every message as it
happens (the default), a daily digest (the notification waits, ``for_digest``, and
:mod:`notifications.digests` mails the day's in one message) or no e-mail. Every
link in a mail or a webhook post starts with ``ANGELS_SITE_URL``; every text is in
words, never the product's codes (:mod:`notifications.wording`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from angels.errors import RuleViolation
from angels.events import DEADLINE_PASSED, DEADLINE_SOON, KINDS, MUST_ACT
from campaign.models import Campaign, CampaignMember, Role
from campaign.services import is_organiser

from . import wording
from .models import Channel, Delivery, MailChoice, MailMode, Notification, Preference
from .webhooks import host_problem

logger = logging.getLogger(__name__)

#: Kinds sent by e-mail unless the user says otherwise; every kind is in the in-app list.
DEFAULT_EMAIL = frozenset({MUST_ACT, DEADLINE_SOON, DEADLINE_PASSED})
LABELS = {
    "must_act": "Your side must act",
    "deadline_soon": "A deadline is near",
    "deadline_passed": "A deadline passed",
    "battle_result": "A battle's result",
    "new_ace": "A new ace",
    "pilot_lost": "A pilot lost",
    "campaign_end": "The campaign's end",
}
DISCORD_LIMIT = 2000  # characters of a Discord message's content


# -- who ---------------------------------------------------------------------------
def recipients(campaign: Campaign, side: str | None) -> list[User]:
    """The users an event of ``side`` (None: the whole campaign) concerns, each once."""
    members = list(
        CampaignMember.objects.filter(campaign=campaign, user__is_active=True).select_related(
            "user"
        )
    )
    if side is None:
        chosen = members
    else:
        chosen = [m for m in members if m.role == Role.COMMANDER and m.side == side]
        if not chosen:  # nobody commands that side: the organiser plays it
            chosen = [m for m in members if m.role == Role.ORGANISER]
    users: dict[int, User] = {}
    for m in chosen:
        users.setdefault(m.user_id, m.user)
    return list(users.values())


# -- what each user wants -----------------------------------------------------------
def preferences(user: Any) -> dict[str, dict[str, bool]]:
    """``{kind: {"email": bool, "in_app": bool}}`` for every kind, defaults filled in."""
    chosen = {p.kind: p for p in Preference.objects.filter(user=user)}
    return {
        kind: {"email": chosen[kind].email, "in_app": chosen[kind].in_app}
        if kind in chosen
        else {"email": kind in DEFAULT_EMAIL, "in_app": True}
        for kind in KINDS
    }


def preferences_set(*, user: Any, values: dict[str, dict[str, bool]]) -> dict[str, dict[str, bool]]:
    """Store the user's choices; a kind not in ``values`` keeps its current choice."""
    for kind in values:
        if kind not in KINDS:
            raise RuleViolation(
                f"{kind!r} is not a kind of notification ({', '.join(KINDS)})",
                field=f"preferences.{kind}",
                code="invalid",
            )
    current = preferences(user)
    with transaction.atomic():
        for kind, choice in values.items():
            merged = {
                **current[kind],
                **{k: bool(v) for k, v in choice.items() if k in ("email", "in_app")},
            }
            Preference.objects.update_or_create(user=user, kind=kind, defaults=merged)
    return preferences(user)


def mail_mode(user: Any) -> str:
    """How the user's e-mails come: every message (the default), a daily digest or none."""
    return mail_modes([user])[user.pk]


def mail_modes(users: Iterable[Any]) -> dict[int, str]:
    """:func:`mail_mode` per user id, in one query."""
    ids = [u.pk for u in users]
    stored = dict(MailChoice.objects.filter(user_id__in=ids).values_list("user_id", "mode"))
    return {uid: stored.get(uid, MailMode.EVERY) for uid in ids}


def mail_mode_set(*, user: Any, mode: str) -> str:
    """Store how the user's e-mails come; an unknown mode is a RuleViolation on ``email_mode``."""
    if mode not in MailMode.values:
        raise RuleViolation(
            f"{mode!r} is not a way to send e-mail ({', '.join(MailMode.values)})",
            field="email_mode", code="invalid",
        )  # fmt: skip
    MailChoice.objects.update_or_create(user=user, defaults={"mode": mode})
    return mode


def preferences_and_mode_set(
    *, user: Any, values: dict[str, dict[str, bool]], mode: str | None
) -> None:
    """Both choices of the settings page and API at once: nothing stored if either is wrong."""
    with transaction.atomic():
        preferences_set(user=user, values=values)
        if mode is not None:
            mail_mode_set(user=user, mode=mode)


def _choices_for(users: Iterable[Any], kind: str) -> dict[int, tuple[bool, bool]]:
    """(e-mail, in-app) per user id for one kind, in one query."""
    ids = [u.pk for u in users]
    stored = {
        p.user_id: (p.email, p.in_app)
        for p in Preference.objects.filter(user_id__in=ids, kind=kind)
    }
    default = (kind in DEFAULT_EMAIL, True)
    return {uid: stored.get(uid, default) for uid in ids}


# -- the campaign's webhook ----------------------------------------------------------
def webhook_url_check(url: str) -> str:
    """A webhook URL the product may post to: https, naming a host that is, and resolves
    only to, public addresses (:mod:`notifications.webhooks`; checked again at each post)."""
    url = url.strip()
    if not url:
        return ""
    parts = urlsplit(url)
    try:
        port = 443 if parts.port is None else parts.port
    except ValueError:  # "https://host:99999" or "https://host:x"
        port = 0
    if parts.scheme != "https" or not parts.hostname or not 1 <= port <= 65535:
        raise RuleViolation(
            "a webhook URL starts with https:// and names a host (and a port from 1 to 65535)",
            field="url", code="format",
        )  # fmt: skip
    if len(url) > 500:
        raise RuleViolation("a webhook URL has at most 500 characters", field="url", code="range")
    problem = host_problem(parts.hostname, port)
    if problem is not None:
        raise RuleViolation(problem, field="url", code="invalid")
    return url


def webhook_view(campaign: Campaign) -> dict[str, Any]:
    from .models import CampaignWebhook

    hook = CampaignWebhook.objects.filter(campaign=campaign).first()
    return {
        "campaign": campaign.pk,
        "url": hook.url if hook else "",
        "kinds": list(hook.kinds) if hook else list(KINDS),
    }


def webhook_set(
    *, campaign: Campaign, by: Any, url: str, kinds: list[str] | None = None
) -> dict[str, Any]:
    """The organiser sets (or, with an empty URL, removes) the campaign's webhook."""
    from .models import CampaignWebhook

    if not is_organiser(campaign, by):
        raise RuleViolation("only the campaign's organiser may set its webhook", code="permission")
    url = webhook_url_check(url)
    kinds = list(KINDS) if kinds is None else kinds
    for i, kind in enumerate(kinds):
        if kind not in KINDS:
            raise RuleViolation(
                f"{kind!r} is not a kind of notification ({', '.join(KINDS)})",
                field=f"kinds[{i}]",
                code="invalid",
            )
    CampaignWebhook.objects.update_or_create(
        campaign=campaign, defaults={"url": url, "kinds": [k for k in KINDS if k in kinds]}
    )
    return webhook_view(campaign)


# -- recording an event ----------------------------------------------------------------
def absolute(url: str) -> str:
    """A path in the product as a link a mail client opens (``ANGELS_SITE_URL`` + path)."""
    return f"{settings.ANGELS_SITE_URL}{url}" if url.startswith("/") else url


def mail_footer(campaign: Campaign | None = None) -> str:
    of = f", campaign {campaign.name}" if campaign is not None else ""
    return (
        f"-- Angels{of}. Choose what you are told, and how: {absolute('/notifications/settings/')}"
    )


def _email_body(campaign: Campaign, text: str, url: str) -> str:
    link = f"\n\n{absolute(url)}" if url else ""
    return f"{text}{link}\n\n{mail_footer(campaign)}"


def _webhook_content(campaign: Campaign, text: str, url: str) -> str:
    link = f" {absolute(url)}" if url else ""
    text = text.removeprefix(f"{campaign.name}: ")  # most events name their campaign already
    return f"**{campaign.name}**: {text}{link}"[:DISCORD_LIMIT]


def _told_key(campaign: Campaign, kind: str, key: str, side: str | None) -> str:
    """The key a user is told of an event under: the sender's, except that the campaign
    clock's "must act" (one per decision) is told once per side and campaign turn
    (module docstring, "One message when a side must act")."""
    if kind == MUST_ACT and key.startswith("must_act:campaign:"):
        return f"must_act:campaign:{campaign.pk}:turn{campaign.turn}:{side}"
    return key


def event_record(
    *, campaign_id: int, kind: str, key: str, text: str, side: str | None = None, url: str = ""
) -> list[int]:
    """Tell the event's people once each; return the ids of the deliveries queued.

    Runs in the sender's transaction; the deliveries are sent after it commits.
    """
    from .models import CampaignWebhook

    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None or kind not in KINDS:
        return []
    key = _told_key(campaign, kind, key, side)
    text, url = wording.event_words(campaign, kind=kind, key=key, text=text, side=side, url=url)
    subject = f"[Angels] {campaign.name}: {LABELS[kind]}"
    users = recipients(campaign, side)
    choices = _choices_for(users, kind)
    modes = mail_modes(users)
    queued: list[int] = []
    for user in users:
        email, in_app = choices[user.pk]
        email = email and bool(user.email) and modes[user.pk] != MailMode.NONE
        if not (email or in_app):
            continue
        digest = email and modes[user.pk] == MailMode.DAILY
        notification, created = Notification.objects.get_or_create(
            user=user, key=key,
            defaults={"campaign": campaign, "kind": kind, "text": text, "url": url,
                      "in_app": in_app, "for_digest": digest},
        )  # fmt: skip
        if created and email and not digest:
            delivery, made = Delivery.objects.get_or_create(
                dedup=f"email:{user.pk}:{key}",
                defaults={"channel": Channel.EMAIL, "notification": notification, "campaign": campaign,
                          "kind": kind, "target": user.email, "subject": subject,
                          "text": _email_body(campaign, text, url)},
            )  # fmt: skip
            if made:
                queued.append(delivery.pk)
    hook = CampaignWebhook.objects.filter(campaign=campaign).exclude(url="").first()
    if hook is not None and kind in hook.kinds:
        delivery, made = Delivery.objects.get_or_create(
            dedup=f"webhook:{campaign.pk}:{key}",
            defaults={"channel": Channel.WEBHOOK, "campaign": campaign, "kind": kind,
                      "target": hook.url, "subject": subject,
                      "text": _webhook_content(campaign, text, url)},
        )  # fmt: skip
        if made:
            queued.append(delivery.pk)
    if queued:
        transaction.on_commit(lambda: dispatch(queued), robust=True)
    return queued


def dispatch(delivery_ids: list[int]) -> None:
    """Hand the deliveries to Celery; never raises (a delivery not handed over stays
    pending and ``manage.py send_notifications`` or the next retry sends it)."""
    from .tasks import deliver

    for delivery_id in delivery_ids:
        try:
            deliver.delay(delivery_id)
        except Exception:  # a broker down or an eager task's error: recorded, not raised
            logger.exception("notification delivery %s not dispatched", delivery_id)


# -- the in-app list --------------------------------------------------------------------
def notification_read(*, user: Any, notification_id: int) -> Notification:
    """Mark one of the user's own notifications read (another's is not found)."""
    notification = Notification.objects.filter(pk=notification_id, user=user, in_app=True).first()
    if notification is None:
        raise Notification.DoesNotExist(f"no notification {notification_id} of yours")
    if notification.read_at is None:
        notification.read_at = timezone.now()
        notification.save(update_fields=["read_at"])
    return notification


def notifications_read_all(*, user: Any) -> int:
    return Notification.objects.filter(user=user, in_app=True, read_at__isnull=True).update(
        read_at=timezone.now()
    )
