"""The organiser's hand on pilots: add, transfer, retire, revive -- each with
a reason, which is logged."""

from __future__ import annotations

from typing import cast

from django.db import transaction

from angels.errors import RuleViolation
from roster.models import Pilot, PilotStatus, Squadron
from rules.careers import get_rule_set

from ..models import PilotEventKind
from ..types import CampaignLike, CampaignModel
from .log import pilot_enlist, pilot_log
from .results import _unassign_airframe


def _require_reason(reason: str) -> None:
    if not reason.strip():
        raise RuleViolation("say why (it is logged)", field="reason", code="required")


@transaction.atomic
def pilot_add(*, squadron: Squadron, name: str, by: str, reason: str, rank: str = "",
              campaign: CampaignLike | None = None, quality: str | None = None) -> Pilot:  # fmt: skip
    """The organiser enlists a pilot: at the rule set's entry quality unless given."""
    _require_reason(reason)
    rules = get_rule_set(campaign.progression_rule if campaign is not None else "card_game")
    quality = quality or rules.entry_quality(replacement=False)
    pilot = pilot_enlist(
        squadron=squadron, name=name, rank=rank, quality=quality, quality_scale=rules.name,
        recorded_by=by, campaign=campaign, campaign_turn=campaign.turn if campaign is not None else None,
        details={"reason": reason, "added_by_organiser": True},
    )  # fmt: skip
    if campaign is not None:  # added for a campaign, he serves in it (issue 12)
        pilot.enrolled_in = cast(CampaignModel, campaign)
        pilot.save(update_fields=["enrolled_in"])
    return pilot


def _locked_pilot(pilot_id: int) -> Pilot:
    try:
        return (
            Pilot.objects.select_for_update(of=("self",))
            .select_related("squadron")
            .get(pk=pilot_id)
        )
    except Pilot.DoesNotExist:
        raise RuleViolation(f"no pilot with id {pilot_id}", field="pilot", code="exists") from None


@transaction.atomic
def pilot_transfer(*, pilot_id: int, squadron: Squadron, by: str, reason: str) -> Pilot:
    """Move a pilot to another squadron of the same side; the airframe stays behind."""
    _require_reason(reason)
    pilot = _locked_pilot(pilot_id)
    if squadron.pk == pilot.squadron_id:
        raise RuleViolation(
            "the pilot is already in that squadron", field="squadron", code="invalid"
        )
    if squadron.side != pilot.squadron.side:
        raise RuleViolation(
            f"{squadron} fights for the {squadron.side} side", field="squadron", code="invalid"
        )
    old = pilot.squadron.name
    serial = _unassign_airframe(pilot, destroyed=False)
    pilot.squadron = squadron
    pilot._change_reason = f"transfer: {reason}"  # type: ignore[attr-defined]  # issue 16 history
    pilot.save(update_fields=["squadron"])
    pilot_log(pilot=pilot, kind=PilotEventKind.TRANSFER, recorded_by=by,
              details={"from": old, "to": squadron.name, "reason": reason, "airframe_left": serial})  # fmt: skip
    return pilot


@transaction.atomic
def pilot_retire(*, pilot_id: int, by: str, reason: str) -> Pilot:
    _require_reason(reason)
    pilot = _locked_pilot(pilot_id)
    if pilot.status in (PilotStatus.KILLED, PilotStatus.RETIRED):
        raise RuleViolation(f"the pilot is {pilot.status}", field="status", code="state")
    was = pilot.status
    _unassign_airframe(pilot, destroyed=False)
    pilot.status, pilot.wounded_until_turn = PilotStatus.RETIRED, None
    pilot._change_reason = f"retired: {reason}"  # type: ignore[attr-defined]  # issue 16 history
    pilot.save(update_fields=["status", "wounded_until_turn"])
    pilot_log(
        pilot=pilot,
        kind=PilotEventKind.RETIRED,
        recorded_by=by,
        details={"was": was, "reason": reason},
    )
    return pilot


@transaction.atomic
def pilot_revive(*, pilot_id: int, by: str, reason: str) -> Pilot:
    """Bring a killed, captured, missing, retired or wounded pilot back on duty."""
    _require_reason(reason)
    pilot = _locked_pilot(pilot_id)
    if pilot.status == PilotStatus.ACTIVE:
        raise RuleViolation("the pilot is already on duty", field="status", code="state")
    was = pilot.status
    pilot.status, pilot.wounded_until_turn = PilotStatus.ACTIVE, None
    pilot._change_reason = f"back on duty: {reason}"  # type: ignore[attr-defined]  # issue 16 history
    pilot.save(update_fields=["status", "wounded_until_turn"])
    pilot_log(
        pilot=pilot,
        kind=PilotEventKind.REVIVED,
        recorded_by=by,
        details={"was": was, "reason": reason},
    )
    return pilot
