"""Campaign reads. Only the game core's views leave the server: a side sees its
own hand, never the other's, and no one sees a deck's order."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet

from battles.rules_settings import optional_rules_on
from rules.cardgame import spectator_view, view_for

from .models import Campaign, CampaignAction, CampaignPlane
from .services import game_state, is_organiser, membership, viewer_side


def campaign_list() -> QuerySet[Campaign]:
    return Campaign.objects.select_related("created_by").defer("state", "setup")


def engine_rules_view(campaign: Campaign) -> dict[str, Any]:
    """The optional rules of the campaign's engine engagements, and their names in force."""
    return {
        "engine_rules": campaign.engine_rules,
        "engine_territory": campaign.engine_territory,
        "optional_rules": list(optional_rules_on(campaign.engine_rules)),
    }


def campaign_view(
    campaign: Campaign, user: User | AnonymousUser | None, *, log_since: int = 0
) -> dict[str, Any]:
    """What ``user`` may see of the campaign now.

    A commander sees the game as their side; the organiser, who may act for
    either side, sees it as the side whose move it is; anyone else gets the
    spectator's view (no hand at all).
    """
    state = game_state(campaign)
    organiser = is_organiser(campaign, user)
    side = viewer_side(campaign, user)
    if organiser and side is None:
        side = state.current_side()
    view = (
        view_for(state, side, log_since=log_since)
        if side
        else spectator_view(state, log_since=log_since)
    )
    member = membership(campaign, user)
    pilots = {p.plane_id: p for p in campaign_planes(campaign)}
    for plane in view["planes"]:
        record = pilots.get(plane["id"])
        plane["pilot"] = _pilot_json(record)
    view["campaign"] = {
        "id": campaign.pk,
        "name": campaign.name,
        "version": campaign.version,
        "status": campaign.status,
        "winner": campaign.winner,
        "resolution_mode": campaign.resolution_mode,
        "progression_rule": campaign.progression_rule,
        "survival_rule": campaign.survival_rule,
        **engine_rules_view(campaign),
    }
    view["you"] = {
        "role": "organiser" if organiser else (member.role if member else "spectator"),
        "side": viewer_side(campaign, user),
        "acting_as": side if (organiser or viewer_side(campaign, user)) else None,
    }
    if not (organiser or (side and side == view["current_side"])):
        view["legal_actions"] = []
    return view


def _pilot_json(record: CampaignPlane | None) -> dict[str, Any] | None:
    if record is None or record.pilot is None:
        return None
    p = record.pilot
    return {
        "id": p.pk,
        "name": str(p),
        "quality": p.quality,
        "experience_markers": p.experience_markers,
        "air_kills": p.air_kills,
    }


def campaign_planes(campaign: Campaign) -> QuerySet[CampaignPlane]:
    return campaign.planes.select_related("pilot", "aircraft_type")


def campaign_actions(campaign: Campaign) -> QuerySet[CampaignAction]:
    return campaign.actions.select_related("actor", "undone_by").order_by("sequence")


def plane_crews(campaign_ref: Any, plane_ids: set[str]) -> dict[str, dict[str, Any]]:
    """Who flew each of a campaign's planes (``campaign_ref``: its pk, or its name as
    the card game's carry-over entries give it): ``{plane id: {"pilot_id", "pilot",
    "aircraft"}}``. Fills ``careers.selectors.PLANE_CREWS``, so a kill on "allied-8"
    names its victim. One query."""
    key = (
        {"campaign_id": campaign_ref}
        if isinstance(campaign_ref, int)
        else {"campaign__name": campaign_ref}
    )
    rows = CampaignPlane.objects.filter(plane_id__in=plane_ids, **key).select_related(
        "pilot", "aircraft_type"
    )
    return {
        p.plane_id: {
            "pilot_id": p.pilot_id,
            "pilot": str(p.pilot) if p.pilot_id else "",
            "aircraft": p.aircraft_type.name,
        }
        for p in rows
    }
