"""Air Pirates behind the common tactical interface (rules/tactical.py), checked as
tests/rules/test_tactical_interface.py checks the registered systems, and registered."""

import json

import pytest

from rules.airpirates.system import AIRPIRATES
from rules.airpirates.units import basic_game
from rules.tactical import TacticalBattle, check_result, tactical_systems

SCENARIO = {**basic_game("Bf 110C", "Spitfire Mk I Ace"), "options": ["bailout", "points"]}


def flown_by_computers(seed):
    battle = AIRPIRATES.new_battle(SCENARIO, seed)
    pilots = [
        AIRPIRATES.computer_pilot("random", AIRPIRATES.pilot_seed(seed, side))
        for side in AIRPIRATES.sides
    ]
    actions = []
    while not battle.is_over():
        action = pilots[battle.current_side()].choose(battle)
        battle.apply(action)
        actions.append(action.to_json())
    return battle, actions


def test_in_the_registry_with_its_scenarios_and_competent_pilot_first():
    assert tactical_systems()["airpirates"] is AIRPIRATES
    assert AIRPIRATES.pilots == ("competent", "novice", "random")
    assert set(AIRPIRATES.scenarios) == {"basic", "fighters", "built", "bounce"}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_battle_plays_to_a_result_of_the_one_shape_and_replays(seed):
    battle, actions = flown_by_computers(seed)
    assert isinstance(battle, TacticalBattle)
    result = battle.result()
    assert check_result(result) == []
    for checked in (True, False):
        again = AIRPIRATES.replay(SCENARIO, seed, actions, checked=checked)
        assert json.dumps(again.log) == json.dumps(battle.log)
        assert again.result() == result
    restored = AIRPIRATES.battle_from_json(json.loads(json.dumps(battle.to_json())))
    assert restored.result() == result


def test_the_scenario_and_refusal_as_the_interface_says():
    assert AIRPIRATES.scenario_json(SCENARIO)["options"] == ["bailout", "points"]
    with pytest.raises(ValueError):
        AIRPIRATES.scenario_json({"units": []})
    battle = AIRPIRATES.new_battle(SCENARIO, 1)
    with pytest.raises(AIRPIRATES.refusal) as refused:
        battle.apply(AIRPIRATES.action_from_json({"kind": "move", "unit": 1}))
    assert refused.value.rule.startswith("002 ")


def test_the_computer_pilots_seeds_differ_by_side():
    assert AIRPIRATES.pilot_seed(7, "axis") != AIRPIRATES.pilot_seed(7, "allied")


def test_the_log_in_words_with_its_dice_and_rule():
    bailout = {"event": "bail-out", "rule": "002 '13c1'", "unit": 4, "roll": 1, "die": "d10",
               "modifier": -5, "outcome": "failed", "early": False}  # fmt: skip
    assert AIRPIRATES.log_sentence(bailout) == (
        "The pilot of unit 4 bails out: d10 1 -5 = -4 against 5: does not get out. [002 '13c1']"
    )
    fired = {"event": "fired", "rule": "002 '6e'", "unit": 3, "target": 1, "gun": "forward",
             "attack": {"6c1.1 gun factor": 4}, "defence": {"6c3.2 defence factor": 3},
             "numbers": [12, 5], "hits": 2, "parts": ["wing", "crew"],
             "rolls": [["a", 10, 8], ["b", 10, 2], ["c", 10, 4], ["d", 10, 2]]}  # fmt: skip
    assert AIRPIRATES.log_sentence(fired) == (
        "unit 3 fires its guns at unit 1: d10 8 and 2; attack 6c1.1 gun factor +4, defence "
        "6c3.2 defence factor +3; firing numbers 12 against 5: 2 hits (wing, crew). [002 '6e']"
    )
    assert AIRPIRATES.log_sentence({"event": "impulse II", "rule": "002 '4a'"}) is None
