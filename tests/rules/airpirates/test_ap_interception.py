"""The card game's effects on an interception flown under Air Pirates (issue 26; ruling "Air
Pirates engagements: the card game's effects"): each card's change of 002's set-up, and the
flak roll before the battle with fixed dice."""

from __future__ import annotations

from typing import Any

import pytest

from rules.airpirates import interception as ic
from rules.airpirates.scenarios import campaign_engagement
from rules.airpirates.state import AirPiratesBattle, replay
from rules.airpirates.system import AIRPIRATES
from rules.airpirates.units import Scenario, catalog_card
from rules.dice import ScriptedDice
from rules.tactical import log_sentence

BF109, HURRICANE, SPITFIRE = "Bf 109E Wingman", "Hurricane Mk I", "Spitfire Mk I Ace"
HE111 = "Heinkel He 111"


def entrant(side: str, aircraft: str, pid: str, **extra: Any) -> dict[str, Any]:
    return {"plane_id": pid, "side": side, "aircraft": aircraft, "quality": "average",
            "pilot_ref": f"plane:{pid}", "fighter": True, "experience": 0, **extra}  # fmt: skip


# a raid of two Bf 109s (a1 with more experience) against a Hurricane and a Spitfire
ATTACKERS = [entrant("axis", BF109, "a1", experience=3), entrant("axis", BF109, "a2")]
DEFENDERS = [entrant("allied", HURRICANE, "d1"), entrant("allied", SPITFIRE, "d2")]


def effects(*events: tuple[str, str, str | None], flak: int = 0, **more: Any) -> dict[str, Any]:
    return {
        "mission_id": "m1", "flak_rolls": flak, "flak_af": 7, "night_fighters": [],
        "defending_night_fighters": [],
        "events": [{"name": n, "side": s, "target": t, "force": "af"} for n, s, t in events],
        **more,
    }  # fmt: skip


def built(fx: dict[str, Any] | None, attackers=ATTACKERS, defenders=DEFENDERS) -> dict[str, Any]:
    return campaign_engagement(
        attackers, defenders, name="raid", turns=8, territory={"allied": "friendly"}, effects=fx
    )


def by_plane(scenario: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {u["pilot_ref"].removeprefix("plane:"): u for u in scenario["units"]}


def test_without_effects_the_engagement_is_built_as_before():
    plain = built(None)
    assert built({}) == plain
    assert "card_flak" not in plain and "sequence_marker" not in plain
    assert [u["altitude"] for u in plain["units"]] == [3, 3, 4, 4]
    assert [u["quality"] for u in plain["units"]] == ["average"] * 4
    # the events that change nothing of 002 leave it so
    assert built(effects()) == plain


def test_defending_night_fighters_fly_one_quality_better_14b():
    made = by_plane(built(effects(defending_night_fighters=["d2"])))
    assert made["d2"]["quality"] == "experienced"
    assert made["d1"]["quality"] == "average" and made["a1"]["quality"] == "average"


def test_superior_tactics_makes_the_players_fighters_one_quality_better_but_ace_stays_ace():
    defenders = [entrant("allied", HURRICANE, "d1", quality="ace"), DEFENDERS[1]]
    made = by_plane(built(effects(("Superior Tactics", "allied", None)), defenders=defenders))
    assert made["d1"]["quality"] == "ace" and made["d2"]["quality"] == "experienced"
    assert made["a1"]["quality"] == "average"
    bombers = [entrant("allied", HURRICANE, "d1", fighter=False), DEFENDERS[1]]
    made = by_plane(built(effects(("Superior Tactics", "allied", None)), defenders=bombers))
    assert made["d1"]["quality"] == "average"  # the card names fighters


def test_radar_towers_and_chaff_move_the_defending_fighters_altitude():
    up = by_plane(built(effects(("Radar Towers", "allied", None))))
    assert [up[p]["altitude"] for p in ("a1", "a2", "d1", "d2")] == [3, 3, 5, 5]
    down = by_plane(built(effects(("Chaff", "axis", None))))
    assert [down[p]["altitude"] for p in ("a1", "a2", "d1", "d2")] == [3, 3, 2, 2]
    both = by_plane(built(effects(("Chaff", "axis", None), ("Chaff", "axis", None))))
    assert both["d1"]["altitude"] == 1  # never below altitude 1


def test_fighter_escort_flies_top_cover():
    raid = [entrant("axis", HE111, "b1", fighter=False), *ATTACKERS]
    escorted = by_plane(built(effects(("Fighter Escort", "axis", None)), attackers=raid))
    assert [escorted[p]["altitude"] for p in ("b1", "a1", "a2")] == [3, 4, 4]
    cover = by_plane(built(effects(("Fighter Escort", "allied", None))))
    assert [cover[p]["altitude"] for p in ("d1", "d2")] == [4, 5]  # every second one


def test_out_of_the_sun_surprise_and_rockets_change_their_target_only():
    made = by_plane(
        built(effects(("Out of the Sun", "axis", "a2"), ("Surprise", "axis", "d1"),
                      ("Rockets", "allied", "d2")))
    )  # fmt: skip
    assert made["a2"]["altitude"] == 5 and made["a1"]["altitude"] == 3
    hurricane = catalog_card(HURRICANE)
    assert made["d1"]["speed"] == hurricane["min_speed"] < hurricane["level_speed"]
    assert made["d1"]["altitude"] == 2
    spitfire = catalog_card(SPITFIRE)
    assert made["d2"]["card"]["gun_factor"] == spitfire["gun_factor"] + 1
    assert made["d1"]["card"]["gun_factor"] == hurricane["gun_factor"]
    gf = effects(("Rockets", "allied", "d2"))
    gf["events"][0]["force"] = "gf"  # played for GF: a bombing bonus
    assert by_plane(built(gf))["d2"]["card"]["gun_factor"] == spitfire["gun_factor"]


def test_scramble_gives_the_defender_the_sequence_marker_2a():
    made = built(effects(("Scramble", "allied", None)))
    assert made["sequence_marker"] == "allied"
    b = AIRPIRATES.new_battle(AIRPIRATES.scenario_json(made), 5)
    assert b.holder == 1 and b.log[0]["event"] == "sequence marker given by the scenario"


def test_dogfight_brings_the_gameboards_edges_nearer():
    one = built(effects(("Dogfight", "axis", None)))
    assert (one["width"], one["height"]) == (22, 12)
    two = built(effects(("Dogfight", "axis", None), ("Dogfight", "allied", None)))
    assert (two["width"], two["height"]) == (16, 10)
    AIRPIRATES.new_battle(AIRPIRATES.scenario_json(two), 1)  # a board the engine flies


@pytest.mark.parametrize("card", ["Overcast", "Inclement Weather"])
def test_the_weather_cards_allow_breaking_contact_16(card):
    made = built(effects((card, "axis", None)))
    assert made["options"] == ["bailout", "break_contact", "points"]


def flak_battle(
    rolls: list[int], bail: list[int], *, flak: int = 2, monkeypatch
) -> AirPiratesBattle:
    """The raid with ``flak`` rolls; the flak's dice and the battle's scripted."""
    made = built(effects(flak=flak))
    monkeypatch.setattr(ic, "flak_dice", lambda seed: ScriptedDice(rolls))
    # 2a's competitive roll (axis 6, allied 2), then the bail-outs
    return AirPiratesBattle(Scenario.from_json(made), 3, ScriptedDice([6, 2, *bail]))


def test_flak_7_or_more_shoots_down_the_least_experienced_attacker(monkeypatch):
    b = flak_battle([7, 6], [5], monkeypatch=monkeypatch)
    rolls = [e for e in b.log if e["event"] == "flak roll"]
    assert [(e["roll"], e["hit"], e["unit"]) for e in rolls] == [(7, True, 2), (6, False, None)]
    a2 = b.unit(2)  # a2: no experience markers, before a1's three
    assert a2.eliminated and not b.unit(1).eliminated
    assert a2.bailout is not None and a2.bailout["roll"] == 5  # 13c1: 5 gets out
    result = b.result()
    assert result["kills"] == []  # credited to nobody
    lost = next(a for a in result["aircraft"] if a["id"] == 2)
    assert lost["fate"] == "destroyed" and lost["destroyed_by"] is None
    assert lost["pilot_survived"] is True and lost["pilot_ref"] == "plane:a2"
    assert b.phase == "place" and not b.is_over()
    assert log_sentence(AIRPIRATES, rolls[0]) == (
        "Flak roll 1: d10 7 against AF 7: unit 2 is shot down by the flak. "
        "[003 'INTERCEPTION SEGMENT']"
    )


def test_flak_that_misses_leaves_the_battle_as_it_was(monkeypatch):
    missed = flak_battle([6, 1], [], monkeypatch=monkeypatch)
    assert not any(u.eliminated for u in missed.units)
    assert [e["roll"] for e in missed.log if e["event"] == "flak roll"] == [6, 1]


def test_flak_downing_every_attacker_ends_the_game(monkeypatch):
    b = flak_battle([9, 10, 8], [2, 1], flak=3, monkeypatch=monkeypatch)
    assert b.is_over() and b.reason == "all air units on one side are eliminated"
    hits = [e["unit"] for e in b.log if e["event"] == "flak roll"]
    assert hits == [2, 1, None]  # the third hit finds nobody left
    assert [b.unit(i).bailout["outcome"] for i in (1, 2)] == ["failed", "failed"]


def test_the_flak_rolls_from_the_battles_seed_and_replays():
    made = built(effects(flak=3))
    b = AIRPIRATES.new_battle(AIRPIRATES.scenario_json(made), 11)
    dice = ic.flak_dice(11)
    rolls = [e["roll"] for e in b.log if e["event"] == "flak roll"]
    assert rolls == [dice.d10() for _ in range(3)]
    assert replay(b.scenario, 11, []).to_json() == b.to_json()
    assert b.clone().to_json() == b.to_json()


def test_a_scenarios_flak_is_checked():
    made = built(effects(flak=1))
    made["card_flak"]["af"] = 11
    with pytest.raises(ValueError, match="INTERCEPTION SEGMENT"):
        Scenario.from_json(made)
    made["card_flak"] = {"rolls": 1, "af": 7, "targets": [9]}
    with pytest.raises(ValueError, match="targets"):
        Scenario.from_json(made)


@pytest.mark.parametrize("seed", range(3))
def test_competent_pilots_fly_an_engagement_with_every_effect_to_its_end(seed):
    fx = effects(
        ("Dogfight", "axis", None), ("Radar Towers", "allied", None), ("Chaff", "axis", None),
        ("Out of the Sun", "axis", "a1"), ("Surprise", "axis", "d2"),
        ("Rockets", "allied", "d1"), ("Overcast", "allied", None), ("Scramble", "allied", None),
        flak=1, defending_night_fighters=["d1"],
    )  # fmt: skip
    made = built(fx)
    b = AIRPIRATES.new_battle(AIRPIRATES.scenario_json(made), seed)
    sides = AIRPIRATES.sides
    pilots = [AIRPIRATES.computer_pilot("competent", AIRPIRATES.pilot_seed(seed, s)) for s in sides]
    for _ in range(5000):
        if b.is_over():
            break
        b.apply(pilots[b.current_side()].choose(b))
    assert b.is_over()
    assert len([e for e in b.log if e["event"] == "flak roll"]) == 1
    assert b.actions  # one flak roll leaves an attacker: the battle is flown
    refs = {a["pilot_ref"] for a in b.result()["aircraft"]}
    assert refs == {"plane:a1", "plane:a2", "plane:d1", "plane:d2"}
