"""Reading notifications: a user's own list and unread count, a campaign's deliveries."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from campaign.models import Campaign, Role

from .models import Delivery, Notification


def notifications_of(user: Any) -> QuerySet[Notification]:
    """The user's in-app notifications, newest first (only the user's own)."""
    return Notification.objects.filter(user=user, in_app=True).select_related("campaign")


def unread_count(user: Any) -> int:
    if user is None or not user.is_authenticated:
        return 0
    return Notification.objects.filter(user=user, in_app=True, read_at__isnull=True).count()


def campaign_deliveries(campaign: Campaign) -> QuerySet[Delivery]:
    """What went to the campaign's webhook and how (for its organiser)."""
    return Delivery.objects.filter(campaign=campaign, channel="webhook")


def campaigns_organised_by(user: Any) -> QuerySet[Campaign]:
    """The campaigns whose webhook the user may set."""
    return Campaign.objects.filter(members__user=user, members__role=Role.ORGANISER).order_by(
        "name"
    )
