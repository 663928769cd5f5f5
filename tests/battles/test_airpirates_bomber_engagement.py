"""A campaign flown under Air Pirates whose engagement has bombers (002 [20], issue 26):
the engine flies the card game's mission with its bombers under the bomber rules (they mark
first, their gunners roll the bomber class's die every impulse, a formation's bombers
together), and the result, the hits of the bombers' gunnery among them, reaches careers
(a kill by the gunners is credited to the bomber: tests/rules/airpirates/test_airpirates_bombers)."""

from __future__ import annotations

import pytest

from careers.models import PilotEvent
from rules.airpirates import bombers as bb
from rules.airpirates import interception as ic
from rules.dice import ScriptedDice
from tests.battles.airpirates_product import (
    engine_campaign,
    first_engine_battle,
    organiser_with_demo_roster,
)

pytestmark = pytest.mark.django_db

LANCASTER = "Avro 683 Lancaster"


def test_a_campaign_engagement_with_bombers_is_flown_under_20_and_reaches_careers(
    catalog, django_capture_on_commit_callbacks, monkeypatch
):
    # the card game's flak before the battle (interception.py) misses: the battle of seed 4
    monkeypatch.setattr(ic, "flak_dice", lambda seed: ScriptedDice([1] * 4))
    organiser = organiser_with_demo_roster()
    # seed 4: two Lancasters against an Me 262, two Bf 109s and an Fw 190
    campaign = engine_campaign(organiser, name="Night raid", seed=4)
    battle = first_engine_battle(campaign, organiser, django_capture_on_commit_callbacks)
    assert battle.status == "finished" and battle.applied_at is not None
    assert battle.apply_error == ""
    assert battle.setup["options"] == ["bailout", "bombers", "points"]
    units = battle.setup["units"]
    bombers = [i + 1 for i, u in enumerate(units) if u["card"]["bomber_class"] != "none"]
    assert [units[i - 1]["name"] for i in bombers] == [LANCASTER, LANCASTER]
    assert {units[i - 1]["card"]["bomber_class"] for i in bombers} == {"early_fortress"}
    # 20a: the bombers mark before all other aircraft
    marks = [e["unit"] for e in battle.log if e["event"] == "marked" and e["impulse"] == 0]
    assert marks[:2] == bombers
    # 20f: the gunners' rolls, each with its die, the formation's bombers in range
    gunnery = [e for e in battle.log if e["event"] == "defensive fire"]
    assert gunnery and all(e["die"] in bb.DICE for e in gunnery)
    assert any(e["bombers"] == bombers for e in gunnery)  # both Lancasters: a formation
    jet = next(i + 1 for i, u in enumerate(units) if u["name"] == "Messerschmitt Me 262")
    assert {e["rule"] for e in gunnery if e["target"] == jet} == {"002 '20f1.1'"}
    assert any(e["roll"] == 1 and e["hits"] >= 1 for e in gunnery)
    # the result in careers: every kill, the bombers' gunners' too, and each hit aircraft
    result = battle.result
    events = PilotEvent.objects.filter(applied_result__source_key=f"battle:{battle.pk}")
    assert events.filter(kind="kill").count() == len(result["kills"]) >= 1
    # seed 4: the gunners' roll of 1 puts hits on a Bf 109; its damage reaches its pilot
    gunned = {e["target"] for e in gunnery if e["hits"]}
    by_id = {a["id"]: a for a in result["aircraft"]}
    assert gunned and all(by_id[t]["damage"] for t in gunned)
    damaged = [
        (e.details["aircraft"], e.details["damage_by_part"], e.details["crew_hits"])
        for e in events.filter(kind="damaged")
    ]
    hit = [
        (a["name"], a["damage_by_part"], a["crew_hits"]) for a in result["aircraft"] if a["damage"]
    ]
    assert sorted(damaged, key=str) == sorted(hit, key=str) and hit
    downed = [a for a in result["aircraft"] if a["fate"] == "destroyed"]
    assert events.filter(kind="shot_down").count() == len(downed)
    assert all(a["bailout"] is not None for a in downed)  # 13c1 rolled for each
