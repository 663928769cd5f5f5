"""Issue 17: the statistics page and the leaderboard read kept tallies, which must
equal a recount of the entries after every change: a result applied, undone and
applied again, a confirmed claim denied, a pilot moved to a squadron flying
another type, a card-game entry naming its campaign. Query counts are pinned."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from careers import tallies
from careers.models import Claim, ClaimState
from careers.records import EngagementRecord, FlownRecord, KillRecord
from careers.services import (
    applied_result_revert,
    claim_deny,
    engagement_apply,
    pilot_log,
    pilot_transfer,
    table_battle_record,
)
from roster.models import AircraftType
from roster.services import squadron_create
from rules.dice import ScriptedDice


def _agree(campaign) -> dict:
    """The kept tallies equal the recounts; returns the campaign's."""
    kept = tallies.campaign_tallies(campaign)
    assert kept == tallies.campaign_recount(campaign)
    assert tallies.pilot_tallies() == tallies.pilot_recount()
    return kept


def _sides(client, campaign) -> dict:
    return client.get(f"/api/roster/campaigns/{campaign.pk}/stats/").json()["sides"]


def _dogfight(cast, turn: int, victim: str = "Mölders") -> EngagementRecord:
    """Bader downs the victim (who is shot down); Tuck flies."""
    bader, tuck, molders = cast["Bader"], cast["Tuck"], cast[victim]
    return EngagementRecord(
        mode="card", battle_ref=f"dogfight {turn}", campaign_turn=turn, territory="allied",
        flown=(FlownRecord(pilot_id=bader.pk), FlownRecord(pilot_id=tuck.pk),
               FlownRecord(pilot_id=molders.pk, destroyed=True)),
        kills=(KillRecord(shooter_pilot_id=bader.pk, victim_pilot_id=molders.pk),),
    )  # fmt: skip


def test_tallies_equal_a_recount_after_apply_undo_and_reapply(client, cast):
    campaign = cast["campaign"]
    applied, _ = engagement_apply(
        source_key="card:t1", result=_dogfight(cast, 2), campaign=campaign,
        dice=ScriptedDice([6, 6, 6]),
    )  # fmt: skip
    kept = _agree(campaign)
    assert kept[(2, "allied", "Supermarine Spitfire")]["kills"] == 1
    assert kept[(2, "axis", "Messerschmitt Bf 109")]["losses"] == 1
    assert tallies.pilot_tallies() == {cast["Bader"].pk: 1}
    assert _sides(client, campaign)["allied"] == {"kills": 1, "losses": 0, "ratio": None}
    assert client.get("/api/roster/aces/").json()["results"][0]["confirmed_kills"] == 1

    applied_result_revert(applied=applied)
    assert _agree(campaign) == {}
    assert _sides(client, campaign)["allied"]["kills"] == 0
    assert client.get("/api/roster/aces/").json()["results"] == []

    engagement_apply(
        source_key="card:t1", result=_dogfight(cast, 2), campaign=campaign,
        dice=ScriptedDice([6, 6, 6]),
    )  # fmt: skip
    assert _agree(campaign) == kept
    html = client.get(f"/statistics/{campaign.pk}/").content.decode()
    allied = html[html.index('data-side="allied"') :].split("</tr>")[0]
    assert re.search(r'data-figure="kills">\s*1\s*<', allied)


def test_a_denied_claim_a_transfer_and_a_named_entry_keep_the_tallies(client, cast, organiser):
    campaign = cast["campaign"]
    bader, molders = cast["Bader"], cast["Mölders"]
    table_battle_record(
        name="Table 1", system="angels20", territory="neutral", campaign=campaign, campaign_turn=3,
        flights=[{"pilot_id": bader.pk}, {"pilot_id": molders.pk}],
        kills=[{"victim_pilot_id": molders.pk, "attacks": [[bader.pk, 1, 0]]}],
        recorded_by=organiser.username, confirm=True, survival_dice=ScriptedDice([6, 6]),
    )  # fmt: skip
    assert _agree(campaign)[(3, "allied", "Supermarine Spitfire")]["kills"] == 1
    claim = Claim.objects.get(pilot=bader, state=ClaimState.CONFIRMED)
    claim_deny(claim_id=claim.pk, by=organiser.username, reason="gun camera film blank")
    assert _agree(campaign)[(3, "allied", "Supermarine Spitfire")]["kills"] == 0
    assert _sides(client, campaign)["allied"]["kills"] == 0

    # a card-game carry-over entry names its campaign without the key
    pilot_log(pilot=bader, kind="kill", campaign_turn=4, details={"campaign": campaign.name})
    assert _agree(campaign)[(4, "allied", "Supermarine Spitfire")]["kills"] == 1

    # moved to a squadron flying Hurricanes: his kills count for the Hurricane now
    hurricane = AircraftType.objects.get(name="Hawker Hurricane")
    hurricanes = squadron_create(
        name="No. 303 Squadron", nation="Poland", side="allied", aircraft_type=hurricane
    )
    pilot_transfer(pilot_id=bader.pk, squadron=hurricanes, by="orga", reason="posting")
    kept = _agree(campaign)
    assert kept[(4, "allied", "Hawker Hurricane")]["kills"] == 1
    assert (4, "allied", "Supermarine Spitfire") not in kept
    ratios = client.get(f"/api/roster/campaigns/{campaign.pk}/stats/").json()["ratios"]
    assert {r["aircraft"] for r in ratios} >= {"Hawker Hurricane"}


@pytest.mark.parametrize(
    ("url", "queries"),
    [("/statistics/{campaign}/", 2), ("/aces/", 6), ("/aces/?side=allied&status=living", 6),
     ("/pilots/{pilot}/", 3)],
)  # fmt: skip
def test_pages_run_a_fixed_number_of_queries(client, cast, django_assert_num_queries, url, queries):
    campaign, bader = cast["campaign"], cast["Bader"]
    for turn, victim in ((1, "Mölders"), (2, "Balthasar")):
        engagement_apply(
            source_key=f"card:q{turn}", result=_dogfight(cast, turn, victim), campaign=campaign,
            dice=ScriptedDice([6, 6, 6]),
        )  # fmt: skip
    with django_assert_num_queries(queries):
        response = client.get(url.format(campaign=campaign.pk, pilot=bader.pk))
    assert response.status_code == 200


def _tally_queries(ctx) -> int:
    """The queries the tallies make: their rows, and the lookup of the pilots' squadrons."""
    return sum(
        "_pilottally" in q["sql"] or "_campaigntally" in q["sql"] or '"squadron__side"' in q["sql"]
        for q in ctx.captured_queries
    )


def test_apply_and_undo_run_a_fixed_number_of_queries(cast):
    """Pinned (the style guide: query counts are part of the contract). A result's
    entries are tallied once at the end of apply and of undo (tallies_batched): the
    battles row, one update per pilot with kills, one lookup of the pilots'
    squadrons, one update per tally row, not up to four queries per entry."""
    campaign = cast["campaign"]
    engagement_apply(
        source_key="card:q0",
        result=_dogfight(cast, 1, "Mölders"),
        campaign=campaign,
        dice=ScriptedDice([6, 6, 6]),
    )  # fmt: skip  (the tally rows exist from now on)
    with CaptureQueriesContext(connection) as ctx:
        applied, _ = engagement_apply(
            source_key="card:q1", result=_dogfight(cast, 1, "Balthasar"), campaign=campaign,
            dice=ScriptedDice([6, 6, 6]),
        )  # fmt: skip
    assert (len(ctx), _tally_queries(ctx)) == (
        44,
        5,
    )  # (44: the pilot-lost notice reads its readers' mail choice, issue 24 §4)
    _agree(campaign)
    with CaptureQueriesContext(connection) as ctx:
        applied_result_revert(applied=applied)
    assert (len(ctx), _tally_queries(ctx)) == (22, 5)
    _agree(campaign)


def test_a_result_with_more_entries_adds_no_tally_query_per_entry(cast):
    campaign = cast["campaign"]
    bader, tuck, molders, balthasar = (cast[n] for n in ("Bader", "Tuck", "Mölders", "Balthasar"))
    record = EngagementRecord(
        mode="card", battle_ref="big", campaign_turn=1, territory="allied",
        flown=(FlownRecord(pilot_id=bader.pk), FlownRecord(pilot_id=tuck.pk),
               FlownRecord(pilot_id=molders.pk, destroyed=True), FlownRecord(pilot_id=balthasar.pk, destroyed=True)),
        kills=(KillRecord(shooter_pilot_id=bader.pk, victim_pilot_id=molders.pk),
               KillRecord(shooter_pilot_id=bader.pk, victim_pilot_id=balthasar.pk)),
    )  # fmt: skip
    with CaptureQueriesContext(connection) as ctx:
        applied, _ = engagement_apply(
            source_key="card:big", result=record, campaign=campaign, dice=ScriptedDice([6] * 8)
        )
    # 2 kill and 2 shoot-down entries: one lookup of the squadrons, and four rows made
    # here (the battles row, Bader's tally, the turn's kills and losses rows), each
    # an update that finds nothing then an insert; one by one it was 15
    assert _tally_queries(ctx) == 1 + 4 * 2
    _agree(campaign)
    with CaptureQueriesContext(connection) as ctx:
        applied_result_revert(applied=applied)
    assert _tally_queries(ctx) == 5
    _agree(campaign)
