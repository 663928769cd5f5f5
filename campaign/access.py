"""Who may reach what of a campaign: its own pilots and squadrons, its battles,
and who may start a campaign at all (issue 13, "nobody where they don't belong").

The lower floors ask through the one extension point this app installs in
``CampaignConfig.ready()`` (``roster.campaign_hooks``: ``campaign_pilots``,
``campaign_squadrons``, ``battle_organised_by``), so careers and battles never
import campaign.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet

from roster.models import Pilot, Squadron

from .models import Campaign

CREATORS = ("signed-in", "staff")


def campaign_pilots(campaign: Campaign) -> QuerySet[Pilot]:
    """THE campaign's own pilots: the one definition every organiser write is checked against.

    A pilot belongs to a campaign when he is enrolled in it
    (``Pilot.enrolled_in``, issue 12: "a pilot serves in one campaign at a
    time", ``campaign.enrolment``), or is on the free roster in one of the
    campaign's squadrons (a pilot enlisted since; the first result he flies
    for the campaign enrols him). A pilot serving in another campaign is never
    this one's.
    """
    return Pilot.objects.filter(
        Q(enrolled_in=campaign) | Q(enrolled_in__isnull=True, squadron__campaigns=campaign)
    ).distinct()


def campaign_squadrons(campaign: Campaign) -> QuerySet[Squadron]:
    """The squadrons an organiser may add pilots to: the campaign's own."""
    return campaign.squadrons.all()


def battle_campaign(battle: Any) -> Campaign | None:
    """The campaign an engine battle was flown for, if any (its key and settings name it)."""
    campaign_id = battle.settings.get("campaign") if isinstance(battle.settings, dict) else None
    if not isinstance(campaign_id, int) or not battle.source_key.startswith("campaign:"):
        return None
    return Campaign.objects.filter(pk=campaign_id).first()


def organised_campaigns(user: Any) -> QuerySet[Campaign]:
    """``roster.campaign_hooks``' ``organised_campaigns``: the campaigns ``user``
    organises (``services.is_organiser``: a superuser organises every one)."""
    from .models import Role

    if getattr(user, "is_superuser", False):
        return Campaign.objects.all()
    if not getattr(user, "is_authenticated", False):
        return Campaign.objects.none()
    return Campaign.objects.filter(members__user=user, members__role=Role.ORGANISER).distinct()


def battle_organised_by(battle: Any, user: Any) -> bool:
    """``roster.campaign_hooks``' ``battle_organised_by``: a campaign battle is its organiser's."""
    from .services import is_organiser

    campaign = battle_campaign(battle)
    return campaign is not None and is_organiser(campaign, user)


def may_create_campaign(user: Any) -> bool:
    """``settings.ANGELS_CAMPAIGN_CREATORS``: "signed-in" (default, any signed-in user) or "staff"."""
    if user is None or not user.is_authenticated:
        return False
    if settings.ANGELS_CAMPAIGN_CREATORS == "staff":
        return bool(user.is_staff)
    return True
