"""Every tactical system honours the common interface (rules/tactical.py).

Written against the interface only, so a new system (Air Force, Air Pirates)
is checked by adding it to ``tactical_systems()`` and a scenario below.
"""

from __future__ import annotations

import json
import random

import pytest

from rules.angels20 import Rules, dogfight
from rules.tactical import TacticalBattle, check_result, tactical_systems

SCENARIOS = {
    "angels20": lambda: dogfight(rules=Rules.advanced(max_turns=8)).to_json(),
    "airpirates": lambda: tactical_systems()["airpirates"].scenario("fighters", 0),
}


def _play(system, scenario, seed, rng):
    battle = system.new_battle(scenario, seed)
    actions = []
    while not battle.is_over():
        side = battle.current_side()
        assert side in range(len(system.sides))
        legal = list(battle.legal_actions())
        assert legal, "a side to act always has a legal action"
        action = rng.choice(legal)
        battle.apply(action)
        actions.append(action.to_json())
    return battle, actions


@pytest.mark.parametrize("name", sorted(tactical_systems()))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_battle_plays_to_a_result_of_the_one_shape_and_replays(name, seed):
    system = tactical_systems()[name]
    scenario = SCENARIOS[name]()
    battle, actions = _play(system, scenario, seed, random.Random(seed))
    assert isinstance(battle, TacticalBattle)
    result = battle.result()
    assert check_result(result) == []
    again = system.replay(scenario, seed, actions)
    assert json.dumps(again.log) == json.dumps(battle.log)
    assert again.result() == result
    restored = system.battle_from_json(json.loads(json.dumps(battle.to_json())))
    assert restored.result() == result


@pytest.mark.parametrize("name", sorted(tactical_systems()))
def test_undo_and_clone_leave_the_battle_as_it_was(name):
    system = tactical_systems()[name]
    battle = system.new_battle(SCENARIOS[name](), 5)
    rng = random.Random(5)
    for _ in range(30):
        if battle.is_over():
            break
        before = json.dumps(battle.to_json(), sort_keys=True)
        copy = battle.clone()
        battle.apply(rng.choice(list(battle.legal_actions())))
        assert json.dumps(copy.to_json(), sort_keys=True) == before
        battle.undo()
        assert json.dumps(battle.to_json(), sort_keys=True) == before
        battle.apply(rng.choice(list(battle.legal_actions())))


def test_an_illegal_action_is_refused_citing_the_rule():
    system = tactical_systems()["angels20"]
    battle = system.new_battle(SCENARIOS["angels20"](), 9)
    legal = {json.dumps(a.to_json(), sort_keys=True) for a in battle.legal_actions()}
    bogus = system.action_from_json({"type": "pass"})
    assert json.dumps(bogus.to_json(), sort_keys=True) not in legal
    with pytest.raises(ValueError) as refused:
        battle.apply(bogus)
    assert refused.value.rule.startswith("000 '")


def test_check_result_names_what_is_wrong():
    assert check_result([]) == ["a result is a JSON object"]
    assert check_result({"winner": "nobody"})[0].startswith("result keys")
