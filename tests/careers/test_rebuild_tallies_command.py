"""``manage.py rebuild_tallies`` (run by bin/serve after migrating): tallies counted
the old way before an upgrade are recounted from the entries, and a second run
changes nothing."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from careers import tallies
from careers.models import CampaignTally, PilotTally
from careers.records import EngagementRecord, FlownRecord, KillRecord
from careers.services import engagement_apply
from rules.dice import ScriptedDice

pytestmark = pytest.mark.django_db


def test_stale_tallies_are_recounted_from_the_entries(cast):
    campaign, bader, molders = cast["campaign"], cast["Bader"], cast["Mölders"]
    engagement_apply(
        source_key="card:one", campaign=campaign, dice=ScriptedDice([6, 6]),
        result=EngagementRecord(
            mode="card", battle_ref="dogfight", campaign_turn=1, territory="allied",
            flown=(FlownRecord(pilot_id=bader.pk), FlownRecord(pilot_id=molders.pk, destroyed=True)),
            kills=(KillRecord(shooter_pilot_id=bader.pk, victim_pilot_id=molders.pk),)),
    )  # fmt: skip
    right = tallies.campaign_tallies(campaign)
    kills = tallies.pilot_tallies([bader.pk])
    # as an older release kept them: under another aircraft, and a kill too many
    CampaignTally.objects.filter(campaign_id=campaign.pk).update(aircraft="Old way")
    PilotTally.objects.filter(pilot_id=bader.pk).update(confirmed_kills=7)
    assert tallies.campaign_tallies(campaign) != right

    call_command("rebuild_tallies")
    assert tallies.campaign_tallies(campaign) == right == tallies.campaign_recount(campaign)
    assert tallies.pilot_tallies([bader.pk]) == kills == {bader.pk: 1}
    call_command("rebuild_tallies")
    assert tallies.campaign_tallies(campaign) == right
