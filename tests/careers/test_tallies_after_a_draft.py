"""Issue 24 §2 (tests that would not notice): a replacement draft is roster
housekeeping, not a battle. After one, the kept tallies equal a recount and the
statistics page still counts only the battle fought."""

from __future__ import annotations

import re

import pytest

from careers import tallies
from careers.records import EngagementRecord, FlownRecord, KillRecord
from careers.services import career_settings_update, engagement_apply, replacements_draft
from rules.dice import ScriptedDice

pytestmark = pytest.mark.django_db


def test_a_replacement_draft_is_not_a_battle(client, cast):
    campaign, bader, molders = cast["campaign"], cast["Bader"], cast["Mölders"]
    engagement_apply(
        source_key="card:one", campaign=campaign, dice=ScriptedDice([6, 6]),
        result=EngagementRecord(
            mode="card", battle_ref="dogfight", campaign_turn=1, territory="allied",
            flown=(FlownRecord(pilot_id=bader.pk), FlownRecord(pilot_id=molders.pk, destroyed=True)),
            kills=(KillRecord(shooter_pilot_id=bader.pk, victim_pilot_id=molders.pk),)),
    )  # fmt: skip
    career_settings_update(campaign=campaign, by="orga", replacement_rate=1, year=1940)
    assert replacements_draft(campaign=campaign, campaign_turn=2)  # a draft was made

    kept = tallies.campaign_tallies(campaign)
    assert kept == tallies.campaign_recount(campaign)
    assert kept[tallies.BATTLES]["battles"] == 1
    html = client.get(f"/statistics/{campaign.pk}/").content.decode()
    assert re.search(r"<p>1 result applied to the roster", html)
    tallies.campaign_tallies_rebuild(campaign)
    assert tallies.campaign_tallies(campaign) == kept
