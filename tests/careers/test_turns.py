"""Replacements, return to duty, the organiser's acts, and the card-mode hook."""

from __future__ import annotations

import pytest

from angels.errors import RuleViolation
from campaign import services as campaign_services
from campaign.models import CampaignPlane
from campaign.results import plane_lost
from careers.models import PilotEvent
from careers.records import EngagementRecord, FlownRecord
from careers.services import (
    campaign_turn_begin,
    career_settings_update,
    engagement_apply,
    pilot_add,
    pilot_retire,
    pilot_revive,
    pilot_transfer,
    pilots_return_to_duty,
    replacements_draft,
)
from roster.models import Pilot, PilotStatus
from rules.dice import ScriptedDice

from .conftest import refresh


def test_squadrons_below_strength_draft_replacements_at_the_set_rate_once_per_turn(cast):
    campaign, raf, jg = cast["campaign"], cast["raf"], cast["jg"]
    career_settings_update(
        campaign=campaign, by="orga", replacement_rate=1, characteristics=True, year=1940
    )
    drafted = replacements_draft(campaign=campaign, campaign_turn=2)
    # issue 24: replacements fill the campaign's planes. The cast's pilots were enlisted
    # after the campaign began (free, not enrolled), so the four Allied planes in play
    # wait for pilots: the RAF drafts one at rate 1; the Axis has no plane in play yet,
    # so JG 51 drafts none, whatever its target strength.
    assert campaign.planes.filter(side="allied", pilot__isnull=True).count() == 4
    assert not campaign.planes.filter(side="axis").exists()
    assert sorted(p.squadron.name for p in drafted) == ["No. 19 Squadron"]
    for pilot in drafted:
        assert pilot.quality_scale == "air_force" and pilot.quality in ("novice", "average", "ace")
        joined = PilotEvent.objects.get(pilot=pilot, kind="joined")
        assert joined.details["replacement"] and joined.dice  # characteristics rolled, with dice
        assert joined.campaign_id == campaign.pk
    assert replacements_draft(campaign=campaign, campaign_turn=2) == []
    # the RAF's planes still lack three pilots (nothing manned them between the calls)
    assert [p.squadron.name for p in replacements_draft(campaign=campaign, campaign_turn=3)] == [
        "No. 19 Squadron"
    ]
    assert raf.pilots.count() == 5 and jg.pilots.count() == 2


def test_replacement_entry_quality_without_characteristics_is_novice_in_air_force(cast):
    drafted = replacements_draft(campaign=cast["campaign"], campaign_turn=2)
    assert drafted and {p.quality for p in drafted} == {"novice"}
    assert {p.entry_quality for p in drafted} == {"novice"}


def test_wounded_pilots_return_to_duty_on_their_turn(cast):
    bader = cast["Bader"]
    record = EngagementRecord(mode="engine", battle_ref="W", campaign_turn=3, territory="allied",
                              flown=(FlownRecord(pilot_id=bader.pk, destroyed=True),))  # fmt: skip
    engagement_apply(
        source_key="w", result=record, campaign=cast["campaign"], dice=ScriptedDice([3, 4])
    )
    refresh(bader)
    assert bader.status == "wounded" and bader.wounded_until_turn == 5
    assert pilots_return_to_duty(campaign_turn=4, campaign=cast["campaign"]) == []
    out = campaign_turn_begin(campaign=cast["campaign"], campaign_turn=5)
    refresh(bader)
    assert [p.pk for p in out["returned"]] == [bader.pk]
    assert bader.status == PilotStatus.ACTIVE and bader.wounded_until_turn is None
    assert PilotEvent.objects.get(pilot=bader, kind="returned").campaign_turn == 5


def test_the_organiser_adds_transfers_retires_and_revives_each_logged_with_who_and_why(cast):
    raf, jg = cast["raf"], cast["jg"]
    new = pilot_add(
        squadron=raf,
        name="Stanford Tuck Jr",
        by="orga",
        reason="reinforcement",
        campaign=cast["campaign"],
    )
    assert new.quality == "average" and new.quality_scale == "air_force"
    other = pilot_add(squadron=raf, name="Mungo", by="orga", reason="posted in")
    pilot_transfer(pilot_id=other.pk, squadron=cast["raf"].__class__.objects.create(
        name="No. 41 Squadron", nation="United Kingdom", side="allied"), by="orga", reason="posting")  # fmt: skip
    with pytest.raises(RuleViolation) as err:
        pilot_transfer(pilot_id=new.pk, squadron=jg, by="orga", reason="defects")
    assert (err.value.field, err.value.code) == ("squadron", "invalid")
    pilot_retire(pilot_id=new.pk, by="orga", reason="tour complete")
    pilot_revive(pilot_id=new.pk, by="orga", reason="second tour")
    events = list(
        PilotEvent.objects.filter(pilot=new)
        .order_by("id")
        .values_list("kind", "recorded_by", "details__reason")
    )
    assert events == [("joined", "orga", "reinforcement"), ("retired", "orga", "tour complete"),
                      ("revived", "orga", "second tour")]  # fmt: skip
    with pytest.raises(RuleViolation) as err:
        pilot_retire(pilot_id=new.pk, by="orga", reason="")
    assert err.value.field == "reason"


def test_card_mode_plane_lost_rolls_survival_and_applies_it_once(cast):
    campaign, molders = cast["campaign"], cast["Mölders"]
    campaign.current_side = (
        "allied"  # the Allies flew the mission: the Bf 109 defended over home ground
    )
    plane = CampaignPlane.objects.create(campaign=campaign, plane_id="p7", side="axis",
                                         aircraft_type=cast["jg"].aircraft_type, pilot=molders)  # fmt: skip
    loss = {"turn": 4, "mission": "m03", "shot_down_by": "p2"}
    plane_lost(campaign=campaign, plane=plane, loss=loss, actor="churchill")
    plane_lost(campaign=campaign, plane=plane, loss=loss, actor="churchill")
    roll = PilotEvent.objects.get(pilot=molders, kind="survival_roll")
    assert roll.details["territory"] == "friendly" and roll.dice and roll.recorded_by == "churchill"
    assert PilotEvent.objects.filter(pilot=molders, kind="shot_down").count() == 1
    assert roll.campaign_turn == 4


def test_a_campaign_drafts_the_same_replacements_from_its_seed_whatever_its_database_id(
    cast, organiser
):
    """A campaign replays from its seed and actions: a second campaign with the same seed
    (another database id) drafts the same names with the same characteristics, and one
    with another seed does not."""
    first = cast["campaign"]
    squadrons = [cast["raf"], cast["jg"]]

    def drafted_by(seed: int) -> list[tuple[str, str, int | None]]:
        # the earlier draft leaves first: its names would be taken (issue 24, no namesakes)
        Pilot.objects.filter(events__details__replacement=True).delete()
        other = campaign_services.campaign_create(
            name=f"Careers 1940, seed {seed}", created_by=organiser, seed=seed,
            progression_rule="air_force", survival_rule="angels20", squadrons=squadrons,
            pilots=[],  # as in the first: nobody enlists, its planes wait for replacements
        )  # fmt: skip
        career_settings_update(campaign=other, by="orga", characteristics=True, year=1940)
        assert other.pk != first.pk
        return [(p.name, p.squadron.name, p.vision) for p in
                replacements_draft(campaign=other, campaign_turn=2)]  # fmt: skip

    career_settings_update(campaign=first, by="orga", characteristics=True, year=1940)
    mine = [(p.name, p.squadron.name, p.vision) for p in
            replacements_draft(campaign=first, campaign_turn=2)]  # fmt: skip
    assert mine and drafted_by(first.seed) == mine
    assert drafted_by(first.seed + 1) != mine
