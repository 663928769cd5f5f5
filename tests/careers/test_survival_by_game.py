"""An engine battle applied to careers under each game's survival rules (issue 25):
a pilot shot down with heavy damage is not treated as untouched, each case of
ruling "A battle of one game, the bail-out of another" with fixed dice, and the
kill credited by the rule of the game that flew it, on the kill and on the page."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from careers.models import PilotEvent
from careers.records import record_from_engine_result
from careers.services import engagement_apply
from roster.models import PilotStatus
from rules.dice import ScriptedDice

from .conftest import refresh

GOLDENS = Path(__file__).resolve().parents[1] / "golden" / "battles"
# The Spitfire (#2, Allied) went down with 3 points of damage, shot by #1 (a Bf 109E):
HEAVY = "dogfight-advanced-tactical-random"
# The Spitfire (#2) went down with no damage before, through its vital armor, by #0:
LIGHT = "dogfight-advanced-tactical-tactical"


def _battle(name: str, *, engine_roll: bool = False) -> dict:
    """The golden battle's result with Bader flying the Spitfire and Mölders the
    Bf 109E that shot it down. Without ``engine_roll`` the engine rolled no 000
    'PILOT SURVIVAL' die (a campaign on another survival rule turns it off)."""
    result = copy.deepcopy(json.loads((GOLDENS / f"{name}.json").read_text())["head"]["result"])
    kill = result["kills"][0]
    refs = {kill["target"]: "p-bader", kill["attacker"]: "p-molders"}
    for craft in result["aircraft"]:
        craft["pilot_ref"] = refs.get(craft["id"], "")
        if not engine_roll:
            craft.update(survival_roll=None, survival_modifier=None, pilot_survived=None)
    kill.update(attacker_pilot_ref="p-molders", target_pilot_ref="p-bader")
    return result


def _apply(cast, result, *, rule, script, game="angels20", key="battle:1"):
    bader, molders = cast["Bader"], cast["Mölders"]
    campaign = cast["campaign"]
    campaign.survival_rule = rule
    record = record_from_engine_result(
        result, battle_ref=key, pilot_ids={"p-bader": bader.pk, "p-molders": molders.pk},
        territory="allied", game=game,
    )  # fmt: skip
    engagement_apply(source_key=key, result=record, campaign=campaign, dice=ScriptedDice(script))
    refresh(bader, molders)
    return PilotEvent.objects.get(pilot=bader, kind="survival_roll")


@pytest.mark.parametrize(
    ("rule", "script", "outcome"),
    [
        # 2 "C" hits: bails out on 1-2 only; a 3 was "Bail Out" on the 0 column
        ("air_force", [3], "killed"),
        # 1 crew hit: d10 7 - 3 = 4, short of 5; unmodified it was a bail-out
        ("air_pirates", [7], "killed"),
    ],
)
def test_a_pilot_shot_down_with_heavy_damage_is_not_treated_as_untouched(
    cast, rule, script, outcome
):
    roll = _apply(cast, _battle(HEAVY), rule=rule, script=script)
    assert roll.details["outcome"] == outcome
    assert cast["Bader"].status == PilotStatus.KILLED


@pytest.mark.parametrize(
    ("battle", "rule", "script", "hits", "outcome", "turns_out"),
    [
        # Air Force table: 2+ points of damage are 2 "C" hits (bails out on 1-2),
        # seriously wounded: wound d6 1 + 3 = 4 turns
        (HEAVY, "air_force", [2, 1], {"cockpit_hits": 2, "crew_hits": 0, "fires": 0},
         "seriously_wounded", 4),
        # destroyed with less: 1 "C" hit (bails out on 1-4), wounded: d6 6 -> 3 turns
        (LIGHT, "air_force", [4, 6], {"cockpit_hits": 1, "crew_hits": 0, "fires": 0},
         "wounded", 3),
        (LIGHT, "air_force", [5], {"cockpit_hits": 1, "crew_hits": 0, "fires": 0}, "killed", None),
        # Air Pirates 13c1: 2+ points of damage are a crew hit (-3), wounded: 8 - 3 = 5; d6 2 -> 1
        (HEAVY, "air_pirates", [8, 2], {"cockpit_hits": 0, "crew_hits": 1, "fires": 0},
         "wounded", 1),
        # destroyed with less: a fire (-2): 7 - 2 = 5 bails out unhurt; 6 - 2 = 4 does not
        (LIGHT, "air_pirates", [7], {"cockpit_hits": 0, "crew_hits": 0, "fires": 1}, "returned", None),
        (LIGHT, "air_pirates", [6], {"cockpit_hits": 0, "crew_hits": 0, "fires": 1}, "killed", None),
    ],
)  # fmt: skip
def test_each_case_of_the_mapping(cast, battle, rule, script, hits, outcome, turns_out):
    roll = _apply(cast, _battle(battle), rule=rule, script=script)
    assert roll.details["outcome"] == outcome
    assert roll.details["rule_set"] == rule and roll.details["battle_game"] == "angels20"
    assert roll.details["hits_read"] == hits
    assert [d[2] for d in roll.dice] == script  # every die of the script, no more
    if turns_out is not None:
        wound = PilotEvent.objects.get(pilot=cast["Bader"], kind="wounded")
        assert wound.details["turns_out"] == turns_out


def test_under_angels20_survival_the_engines_roll_stands(cast):
    """The campaign's own game: the engine's d6 (5, +1 friendly) is the roll; nothing
    is rolled again (the scripted 1 would have killed him)."""
    roll = _apply(cast, _battle(HEAVY, engine_roll=True), rule="angels20", script=[1, 1])
    assert roll.dice[0][2] == 5 and roll.details["outcome"] == "returned"
    assert "battle_game" not in roll.details


def test_a_battle_that_already_rolled_its_pilot_survival_keeps_that_fate(cast):
    """An Angels 20 "destroyed" with the engine's 000 'PILOT SURVIVAL' roll under an
    Air Force campaign: the battle's roll decides (one roll, one fate), not a second one."""
    roll = _apply(cast, _battle(HEAVY, engine_roll=True), rule="air_force", script=[6])
    assert roll.details["rule_set"] == "angels20" and roll.details["survival_rule"] == "air_force"
    assert roll.dice[0][2] == 5 and roll.details["outcome"] == "returned"


def test_an_air_pirates_battle_under_its_own_rule_takes_its_bail_out_die(cast):
    """A result from an Air Pirates engine: its own crew hit, fire and d10 are the roll
    (10 - 3 - 2 = 5 bails out, wounded by the crew hit: wound d6 2 -> 1 turn)."""
    result = _battle(HEAVY)
    craft = next(c for c in result["aircraft"] if c["pilot_ref"] == "p-bader")
    craft.update(
        damage_by_part={"crew": 1, "engine": 1, "wing": 1}, crew_hits=1, cockpit_hits=0, fires=1,
        bailout={"roll": 10, "die": "d10", "modifier": -5, "outcome": "survived", "early": False},
        victory_points=7,
    )  # fmt: skip
    result["kills"][0].update(
        credit_rule="001 'How Kills are Scored'", contenders=[1], credit_rolls=[]
    )
    roll = _apply(cast, result, rule="air_pirates", script=[2], game="air_pirates")
    assert [d[2] for d in roll.dice] == [10, 2] and roll.details["outcome"] == "wounded"
    damaged = PilotEvent.objects.get(pilot=cast["Bader"], kind="damaged")
    assert damaged.details["damage_by_part"] == {"crew": 1, "engine": 1, "wing": 1}


def test_the_kill_is_credited_by_the_rule_of_the_game_that_flew_it(cast, client):
    _apply(cast, _battle(HEAVY), rule="air_force", script=[3])
    kill = PilotEvent.objects.get(pilot=cast["Mölders"], kind="kill")
    assert kill.details["credit_rule"] == "000 'RESOLVING ATTACKS'"
    page = client.get(f"/pilots/{cast['Mölders'].pk}/").content.decode()
    # the kills table and the career log both name the game's rules, the section as a tooltip
    cited = '<span class="cite" title="rulebook 000, Resolving attacks">Angels 20 rules</span>'
    assert f"Credited under the {cited}" in page
    assert f"credited under the {cited}" in page


def test_a_tie_for_the_last_shot_shows_its_roll_off(cast, client):
    """An Air Force result credits the last to fire, a die roll for ties (001 XIX):
    the roll-off is kept on the kill and shown in the shooter's log."""
    result = _battle(HEAVY)
    result["kills"][0].update(
        credit_rule="001 'How Kills are Scored'",
        contenders=[0, 1],
        credit_rolls=[["kill credit roll-off: 0", 6, 2], ["kill credit roll-off: 1", 6, 5]],
    )
    _apply(cast, result, rule="air_force", script=[3], game="air_force")
    kill = PilotEvent.objects.get(pilot=cast["Mölders"], kind="kill")
    assert kill.details["credit_rule"] == "001 'How Kills are Scored'"
    assert [d[2] for d in kill.dice] == [2, 5]
    page = client.get(f"/pilots/{cast['Mölders'].pk}/").content.decode()
    assert "a tie settled by the dice" in page and "Bf 109E Ace=2, Bf 109E Wingman=5" in page


@pytest.fixture
def api(organiser):
    client = APIClient()
    client.force_authenticate(organiser)
    return client


def _engine_record(cast, **flown):
    return {
        "mode": "engine", "battle_ref": "battle:9", "territory": "allied", "game": "angels20",
        "flown": [{"pilot_id": cast["Bader"].pk, "aircraft": "Spitfire Mk I", "destroyed": True,
                   "damage": 3, "damage_by_part": {"airframe": 3}, **flown}],
    }  # fmt: skip


def test_the_engagement_api_takes_the_game_and_its_detail(api, cast):
    campaign = cast["campaign"]
    campaign.survival_rule = "air_force"
    campaign.save(update_fields=["survival_rule"])
    body = {"source_key": "api:9", "campaign": campaign.pk, "record": _engine_record(cast)}
    response = api.post("/api/roster/engagements/", body, format="json")
    assert response.status_code == 201, response.json()
    roll = PilotEvent.objects.get(pilot=cast["Bader"], kind="survival_roll")
    assert roll.details["rule_set"] == "air_force" and roll.details["battle_game"] == "angels20"
    assert roll.details["hits_read"]["cockpit_hits"] == 2


@pytest.mark.parametrize(
    ("record", "field"),
    [
        ({"game": "chess"}, "game"),
        ({"flown": [{"pilot_id": 1, "damage_by_part": {"wing": -1}}]}, "flown[0].damage_by_part"),
        ({"flown": [{"pilot_id": 1, "damage_by_part": ["wing"]}]}, "flown[0].damage_by_part"),
    ],
)
def test_a_bad_game_or_detail_is_a_400_naming_the_field(api, cast, record, field):
    body = {"source_key": "api:10", "campaign": cast["campaign"].pk,
            "record": {**_engine_record(cast), **record}}  # fmt: skip
    response = api.post("/api/roster/engagements/", body, format="json")
    assert response.status_code == 400
    assert response.json()["field"].startswith(field), response.json()
    assert not PilotEvent.objects.filter(kind="survival_roll").exists()


def test_an_angels20_survival_die_above_six_is_refused(api, cast):
    """The die is the game's: a d6 for Angels 20 (a d10 only for Air Pirates)."""
    body = {"source_key": "api:11", "campaign": cast["campaign"].pk,
            "record": _engine_record(cast, survival_die=8)}  # fmt: skip
    response = api.post("/api/roster/engagements/", body, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "flown[0].survival_die"
