"""The career log: one row per thing that happened to a pilot, and enlisting a
pilot, which opens it."""

from __future__ import annotations

from typing import Any, cast

from django.db import transaction

from roster.models import Pilot, Squadron
from roster.services import pilot_create

from ..models import AppliedResult, PilotEvent, PilotEventKind
from ..types import CampaignLike, CampaignModel


def pilot_log(
    *, pilot: Pilot, kind: str, campaign_turn: int | None = None, battle_ref: str = "",
    details: dict[str, Any] | None = None, dice: list[Any] | None = None, recorded_by: str = "",
    campaign: CampaignLike | None = None, applied_result: AppliedResult | None = None,
) -> PilotEvent:  # fmt: skip
    return PilotEvent.objects.create(
        pilot=pilot, kind=kind, campaign_turn=campaign_turn, battle_ref=battle_ref,
        details=details or {}, dice=dice or [], recorded_by=recorded_by,
        campaign=cast(CampaignModel, campaign), applied_result=applied_result,
    )  # fmt: skip


@transaction.atomic
def pilot_enlist(
    *, squadron: Squadron, name: str, rank: str = "", quality: str = "average", quality_scale: str = "card_game",
    campaign_turn: int | None = None, recorded_by: str = "", entry_quality: str = "",
    campaign: CampaignLike | None = None, details: dict[str, Any] | None = None, dice: list[Any] | None = None,
    **characteristics: Any,
) -> Pilot:  # fmt: skip
    """Enlist a pilot in a squadron (``roster.services.pilot_create``) and open the career log."""
    pilot = pilot_create(
        squadron=squadron, name=name, rank=rank, quality=quality, quality_scale=quality_scale,
        entry_quality=entry_quality, **characteristics,
    )  # fmt: skip
    pilot_log(
        pilot=pilot, kind=PilotEventKind.JOINED, campaign_turn=campaign_turn, campaign=campaign,
        details={"squadron": squadron.name, "quality": quality, **(details or {})},
        dice=dice, recorded_by=recorded_by,
    )  # fmt: skip
    return pilot
