"""Issue 24 §2: the statistics count a kill or a loss under the aircraft the pilot
flew in that engagement, not his squadron's type (a Curtiss P-40 lost while his
squadron flies Spitfires is a P-40 loss), on the page and in its CSV; an entry
that records no aircraft (written before it was recorded) counts under the
squadron's type."""

from __future__ import annotations

import csv
import io

import pytest

from careers import tallies
from careers.records import EngagementRecord, FlownRecord, KillRecord
from careers.services import engagement_apply, pilot_log, table_battle_record
from rules.dice import ScriptedDice

pytestmark = pytest.mark.django_db


def _aircraft_rows(client, campaign) -> dict[str, list[str]]:
    body = client.get(f"/statistics/{campaign.pk}/statistics.csv").content.decode()
    return {r[1]: r[3:5] for r in csv.reader(io.StringIO(body)) if r and r[0] == "aircraft"}


def _page_rows(client, campaign) -> dict[str, tuple[str, str]]:
    html = client.get(f"/statistics/{campaign.pk}/").content.decode()
    table = html[html.index("Kill ratios by aircraft type") :]
    rows = {}
    for row in table.split("<tr>")[2:]:
        cells = [c.split(">", 1)[1].split("<", 1)[0] for c in row.split("<td")[1:]]
        rows[cells[0]] = (cells[1], cells[2])
    return rows


def test_a_loss_and_a_kill_count_under_the_aircraft_flown(client, cast):
    campaign, bader, molders = cast["campaign"], cast["Bader"], cast["Mölders"]
    record = EngagementRecord(
        mode="engine", battle_ref="web battle 1", campaign_turn=1, territory="allied",
        flown=(FlownRecord(pilot_id=bader.pk, aircraft="Curtiss P-40", destroyed=True),
               FlownRecord(pilot_id=molders.pk, aircraft="Messerschmitt Bf 109E")),
        kills=(KillRecord(shooter_pilot_id=molders.pk, victim_pilot_id=bader.pk,
                          victim_aircraft="Curtiss P-40"),),
    )  # fmt: skip
    engagement_apply(source_key="engine:p40", result=record, campaign=campaign,
                     dice=ScriptedDice([6, 6]))  # fmt: skip

    assert _aircraft_rows(client, campaign) == {
        "Curtiss P-40": ["0", "1"],
        "Messerschmitt Bf 109E": ["1", "0"],
    }
    page = _page_rows(client, campaign)
    assert page["Curtiss P-40"] == ("0", "1")
    assert "Supermarine Spitfire" not in page  # his squadron's type flew nothing here
    assert tallies.campaign_tallies(campaign) == tallies.campaign_recount(campaign)


def test_a_table_kill_and_its_denial_count_under_the_aircraft_flown(client, cast, organiser):
    from careers.models import Claim, ClaimState
    from careers.services import claim_deny

    campaign, bader, molders = cast["campaign"], cast["Bader"], cast["Mölders"]
    table_battle_record(
        name="Table 1", system="angels20", territory="neutral", campaign=campaign, campaign_turn=3,
        flights=[{"pilot_id": bader.pk, "aircraft": "Hawker Hurricane"}, {"pilot_id": molders.pk}],
        kills=[{"victim_pilot_id": molders.pk, "attacks": [[bader.pk, 1, 0]]}],
        recorded_by=organiser.username, confirm=True, survival_dice=ScriptedDice([6, 6]),
    )  # fmt: skip
    assert _aircraft_rows(client, campaign)["Hawker Hurricane"] == ["1", "0"]
    claim = Claim.objects.get(pilot=bader, state=ClaimState.CONFIRMED)
    claim_deny(claim_id=claim.pk, by=organiser.username, reason="no witness")
    assert _aircraft_rows(client, campaign).get("Hawker Hurricane", ["0", "0"]) == ["0", "0"]
    assert tallies.campaign_tallies(campaign) == tallies.campaign_recount(campaign)


def test_an_entry_recording_no_aircraft_counts_under_the_squadrons_type(client, cast):
    campaign, bader = cast["campaign"], cast["Bader"]
    pilot_log(pilot=bader, kind="shot_down", campaign=campaign, campaign_turn=1, details={})
    assert _aircraft_rows(client, campaign) == {"Supermarine Spitfire": ["0", "1"]}
    page = client.get(f"/statistics/{campaign.pk}/").content.decode()
    assert "count under the aircraft type of the pilot's squadron" in page
