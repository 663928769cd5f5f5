"""Where an engagement's losses reach the roster.

The game core decides which planes are shot down (by the card rolls, the
engine, or a result entered from the table). These functions are the one
point where a loss is applied to the pilot flying that plane: the loss is
converted into the roster's normalised record (:mod:`careers.records`) and
applied by :func:`careers.services.engagement_apply` -- the shoot-down, the
campaign's survival roll with its dice, and its outcome (returned, wounded,
captured, killed, missing). Missions and kills are carried over by
``campaign.planes.carry_counts``, so only the loss belongs here.

Territory (ruling "Careers: card mode territory"): the mission is flown over
the defender's ground, so a plane of the side that flew the mission (the
campaign's current side, or any plane downed by flak) comes down over enemy
territory, a defending plane over friendly territory.
"""

from __future__ import annotations

from typing import Any

from careers.models import PilotEventKind
from careers.records import EngagementRecord, FlownRecord
from careers.services import engagement_apply, pilot_log
from roster.models import PilotStatus
from rules.cardgame import GameSetup

from .models import Campaign, CampaignPlane


def _mission_name(campaign: Campaign, loss: dict[str, Any]) -> str:
    """The lost plane's mission by its card's name ("Attack Refinery", not "m12"), read
    from the campaign's game setup; the id where the setup does not know it."""
    mission = str(loss.get("mission", ""))
    try:
        return GameSetup.from_json(campaign.state["setup"]).card_name(mission)
    except (KeyError, TypeError, ValueError):
        return mission


def plane_lost(
    *, campaign: Campaign, plane: CampaignPlane, loss: dict[str, Any], actor: str,
    action: int | None = None,
) -> None:  # fmt: skip
    """The loss reaches the plane's pilot, once; ``action`` is the campaign action
    whose consequence it is, so undoing that action takes it back (issue 12)."""
    pilot = plane.pilot
    if pilot is None:
        return
    turn = loss.get("turn", campaign.turn)
    battle_ref = f"{campaign.name}: {loss.get('mission_name') or _mission_name(campaign, loss)}"
    if pilot.status != PilotStatus.ACTIVE:  # already out (an organiser's correction)
        pilot_log(pilot=pilot, kind=PilotEventKind.SHOT_DOWN, campaign_turn=turn, battle_ref=battle_ref,
                  campaign=campaign, details={"plane": plane.plane_id, "shot_down_by": loss.get("shot_down_by"),
                                              "text": f"pilot was already {pilot.status}: no survival roll"},
                  recorded_by=actor)  # fmt: skip
        return
    attacking_side = loss.get("attacker_side", campaign.current_side)
    attacker = loss.get("shot_down_by") == "flak" or plane.side == attacking_side
    territory = plane.side if not attacker else ("axis" if plane.side == "allied" else "allied")
    record = EngagementRecord(
        mode="card",
        battle_ref=battle_ref,
        campaign_turn=turn,
        territory=territory,
        flown=(
            FlownRecord(
                pilot_id=pilot.pk, aircraft=plane.aircraft_type.name, mission=False, destroyed=True
            ),
        ),
    )
    engagement_apply(
        source_key=f"card:{campaign.pk}:{plane.plane_id}:{turn}",
        result=record,
        campaign=campaign,
        recorded_by=actor,
        campaign_action=action,
        leave_out_unavailable=True,
    )


def plane_restored(*, campaign: Campaign, plane: CampaignPlane, actor: str) -> None:
    """An organiser's undo brought a lost plane back."""
    if plane.pilot is None:
        return
    pilot_log(
        pilot=plane.pilot,
        kind=PilotEventKind.NOTE,
        campaign=campaign,
        details={
            "campaign": campaign.name,
            "plane": plane.plane_id,
            "text": "loss undone by the organiser",
        },
        recorded_by=actor,
    )
