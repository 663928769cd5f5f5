"""Card-mode counts reach the pilot at once (issue 12): the missions and kills
the card game gives a plane are carried to its pilot when the action that gave
them is applied, with his quality, ace status and awards updated then -- not at
his next applied result. Each carry is an :class:`AppliedResult` tied to its
campaign action, so undoing the action takes it back (``.undo``)."""

from __future__ import annotations

from typing import Any, cast

from django.db import transaction

from roster.models import Pilot

from ..models import AppliedResult, PilotEventKind, ResultMode
from ..types import CampaignLike, CampaignModel
from .progress import _context, _granted, _progress, _seed_for
from .undo import undo_begin, undo_end


@transaction.atomic
def pilot_counts_carry(
    *, campaign: CampaignLike, pilot_id: int, source_key: str, campaign_action: int | None,
    campaign_turn: int, missions: int, kills: list[dict[str, Any]], details: dict[str, Any],
    recorded_by: str = "",
) -> AppliedResult | None:  # fmt: skip
    """Give the pilot ``missions`` missions flown and one air kill per entry of
    ``kills`` (``{"turn", "battle_ref", "victim", "victim_aircraft", "credit_rule"}``),
    logged, then his progress (quality by his rule set, ace, the campaign's awards).
    Exactly once per ``source_key``; locks the pilot."""
    if missions <= 0 and not kills:
        return None
    if AppliedResult.objects.filter(source_key=source_key).exists():
        return None
    pilot = Pilot.objects.select_for_update(of=("self",)).get(pk=pilot_id)
    applied = AppliedResult.objects.create(
        source_key=source_key, campaign=cast(CampaignModel, campaign), mode=ResultMode.CARD,
        battle_ref=details.get("battle_ref", ""), campaign_turn=campaign_turn, seed=_seed_for(source_key, campaign),
        record={"pilot_id": pilot_id, "missions": missions, "kills": kills, **details},
        recorded_by=recorded_by, campaign_action=campaign_action,
    )  # fmt: skip
    undo = undo_begin({pilot.pk: pilot})
    ctx = _context(campaign, applied=applied, turn=campaign_turn, recorded_by=recorded_by)
    kills_before = pilot.air_kills
    base = {k: v for k, v in details.items() if k != "battle_ref"}
    for _ in range(missions):
        pilot.experience_markers += 1
        ctx.log(pilot, PilotEventKind.MISSION,
                details={**base, "experience_markers": pilot.experience_markers})  # fmt: skip
    for kill in kills:
        pilot.air_kills += 1
        ctx.log(pilot, PilotEventKind.KILL, campaign_turn=kill.get("turn", campaign_turn),
                battle_ref=kill.get("battle_ref", ""),
                details={**base, "victim": kill.get("victim", ""), "victim_aircraft": kill.get("victim_aircraft", ""),
                         "credit_rule": kill.get("credit_rule", "")})  # fmt: skip
    _progress(
        pilot, ctx, kills_before=kills_before, granted=_granted([pilot.pk]).get(pilot.pk, set())
    )
    applied.summary = {
        str(pilot.pk): {"pilot": str(pilot), "missions": missions, "kills": len(kills)}
    }
    applied.undo = undo_end(undo, {pilot.pk: pilot})
    applied.save(update_fields=["summary", "undo"])
    return applied
