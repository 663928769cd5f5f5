"""Where an engagement's losses reach the roster.

The game core decides which planes are shot down (by the card rolls, the
engine, or a result entered from the table). These functions are the one
point where a loss is applied to the pilot flying that plane. The pilot-career
rules (survival rolls, capture, wounds, replacements) extend
:func:`plane_lost`; until then a loss is logged on the pilot's career and the
pilot leaves the plane.
"""

from __future__ import annotations

from typing import Any

from roster.models import PilotEventKind
from roster.services import pilot_log

from .models import Campaign, CampaignPlane


def plane_lost(
    *, campaign: Campaign, plane: CampaignPlane, loss: dict[str, Any], actor: str
) -> None:
    if plane.pilot is None:
        return
    pilot_log(
        pilot=plane.pilot,
        kind=PilotEventKind.SHOT_DOWN,
        campaign_turn=loss.get("turn"),
        battle_ref=f"{campaign.name}: {loss.get('mission', '')}",
        details={
            "campaign": campaign.name,
            "plane": plane.plane_id,
            "shot_down_by": loss.get("shot_down_by"),
        },
        recorded_by=actor,
    )


def plane_restored(*, campaign: Campaign, plane: CampaignPlane, actor: str) -> None:
    """An organiser's undo brought a lost plane back."""
    if plane.pilot is None:
        return
    pilot_log(
        pilot=plane.pilot,
        kind=PilotEventKind.NOTE,
        details={
            "campaign": campaign.name,
            "plane": plane.plane_id,
            "text": "loss undone by the organiser",
        },
        recorded_by=actor,
    )
