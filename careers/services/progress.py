"""What every career write shares: its context (campaign, result, turn, battle,
who recorded it, the campaign's awards), the dice seed of a source key, and a
pilot's progress once his counts changed -- quality, Air Force Experience, ace
status and awards."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from angels.events import NEW_ACE, send_campaign_event
from roster.models import Pilot
from rules.careers import Award, PilotRecord, awards_due, get_rule_set, is_ace
from rules.dice import derive_seed

from ..models import AppliedResult, AwardDefinition, PilotAward, PilotEvent, PilotEventKind
from ..types import CampaignLike, CampaignModel
from .log import pilot_log


def _seed_for(key: str, campaign: CampaignLike | None = None) -> int:
    """A stable dice seed derived from a source key, so a result replays.

    In a campaign, from the campaign's own seed and the key with the campaign's
    database id taken out: a campaign replays the same from its seed and actions
    whatever id its database gave it (a survival roll, a replacement's name)."""
    if campaign is None:
        return derive_seed(0, key)
    return derive_seed(campaign.seed, key.replace(f":{campaign.pk}:", ":", 1))


@dataclass
class _Context:
    campaign: CampaignLike | None
    applied_result: AppliedResult | None
    campaign_turn: int | None
    battle_ref: str
    recorded_by: str
    awards: list[Award]

    def log(self, pilot: Pilot, kind: str, **kwargs: Any) -> PilotEvent:
        kwargs.setdefault("campaign_turn", self.campaign_turn)
        kwargs.setdefault("battle_ref", self.battle_ref)
        return pilot_log(
            pilot=pilot, kind=kind, campaign=self.campaign, applied_result=self.applied_result,
            recorded_by=self.recorded_by, **kwargs,
        )  # fmt: skip


def _award_rules(campaign: CampaignLike | None) -> list[Award]:
    if campaign is None:
        return []
    return [
        Award(name=a.name, nation=a.nation or None, threshold_kind=a.threshold_kind, threshold=a.threshold)
        for a in AwardDefinition.objects.filter(campaign=cast(CampaignModel, campaign))
    ]  # fmt: skip


def _context(
    campaign: CampaignLike | None, *, applied: AppliedResult | None = None, turn: int | None = None,
    battle_ref: str = "", recorded_by: str = "",
) -> _Context:  # fmt: skip
    return _Context(campaign, applied, turn, battle_ref, recorded_by, _award_rules(campaign))


def _record_of(pilot: Pilot) -> PilotRecord:
    return PilotRecord.from_obj(pilot, entry_quality=pilot.entry_quality or None)


def _progress(pilot: Pilot, ctx: _Context, *, kills_before: int, granted: set[str]) -> None:
    """After a pilot's counts changed: quality by the pilot's rule set, Air Force
    Experience after five missions, ace status, awards. Saves the pilot."""
    rules = get_rule_set(pilot.quality_scale)
    record = _record_of(pilot)
    quality = rules.quality_for(record)
    if quality != pilot.quality:
        ctx.log(pilot, PilotEventKind.QUALITY,
                details={"from": pilot.quality, "to": quality, "rule_set": rules.name,
                         "missions": pilot.experience_markers, "air_kills": pilot.air_kills,
                         "kill_credits": rules.kill_credits(record)})  # fmt: skip
        pilot.quality = quality
    if rules.name == "air_force" and not pilot.experience and rules.experience_for(record):
        pilot.experience = True
        ctx.log(pilot, PilotEventKind.CHARACTERISTIC,
                details={"characteristic": "Experience", "rule": "001 XIX: five missions completed"})  # fmt: skip
    if not is_ace(kills_before) and is_ace(pilot.air_kills):
        ctx.log(pilot, PilotEventKind.ACE, details={"confirmed_air_kills": pilot.air_kills})
        if ctx.campaign is not None:
            send_campaign_event(campaign_id=ctx.campaign.pk, kind=NEW_ACE, key=f"new_ace:{ctx.campaign.pk}:{pilot.pk}", text=f"{pilot} ({pilot.squadron}) is an ace: {pilot.air_kills} confirmed kills.", side=pilot.squadron.side, url=f"/pilots/{pilot.pk}/")  # fmt: skip
    for award in awards_due(_record_of(pilot), pilot.nation, ctx.awards, granted):
        PilotAward.objects.create(
            pilot=pilot,
            name=award.name,
            campaign=cast(CampaignModel, ctx.campaign),
            campaign_turn=ctx.campaign_turn,
        )
        granted.add(award.name)
        ctx.log(pilot, PilotEventKind.AWARD,
                details={"award": award.name, "threshold_kind": award.threshold_kind, "threshold": award.threshold})  # fmt: skip
    pilot.save()


def _granted(pilot_ids: Any) -> dict[int, set[str]]:
    granted: dict[int, set[str]] = {}
    for pid, name in PilotAward.objects.filter(pilot_id__in=pilot_ids).values_list(
        "pilot_id", "name"
    ):
        granted.setdefault(pid, set()).add(name)
    return granted
