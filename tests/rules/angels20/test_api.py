"""The library's API: errors that name the rule, actions, stats, ability hooks, golden counts."""

from __future__ import annotations

import pytest
from engine_helpers import at_attack, battle, events, plane, play, pre

from rules.angels20 import (
    CATALOGUE,
    Activate,
    AircraftStats,
    Attack,
    Decline,
    Dice,
    EndMove,
    IllegalAction,
    Maneuver,
    MovePlan,
    Rules,
    Straight,
    Turn,
    abilities,
    action_from_json,
    dogfight,
    new_battle,
)
from rules.angels20.actions import STRAIGHT
from rules.angels20.plans import legal_move_plans

BF, HURRI = "Bf 109E Wingman", "Hurricane Mk I"


def test_no_django_in_the_engine():
    import pathlib

    for f in pathlib.Path("rules/angels20").glob("*.py"):
        text = f.read_text()
        assert "import django" not in text and "from django" not in text, f


def test_illegal_actions_name_the_rule():
    s = battle([plane(BF, "axis", 0, 0, 0), plane(HURRI, "allied", 6, 0, 0)], [6, 6, 1, 1])
    assert s.current_side() == 1
    cases = [
        (Activate(0, 2), "UNEQUAL NUMBERS"),  # not the Axis's move
        (Activate(1, 9), "Choose Speed"),
        (Straight(), "MOVING AIRCRAFT"),  # nothing activated
        (Attack(1, 0), "SEQUENCE OF PLAY"),
        (Decline(), "SEQUENCE OF PLAY"),
    ]
    for action, rule in cases:
        with pytest.raises(IllegalAction) as err:
            s.apply(action)
        assert rule in err.value.rule, (action, err.value)
    before = s.dumps()
    play(s, Activate(1, 2), STRAIGHT, STRAIGHT)
    with pytest.raises(IllegalAction) as err:
        s.apply(Activate(1, 2))
    assert "already moved" in str(err.value) or "UNEQUAL" in err.value.rule
    assert s.dumps() != before


def test_failed_plan_leaves_state_unchanged():
    s = battle([plane(BF, "axis", 0, 0, 0), plane(HURRI, "allied", 6, 0, 0)], [6, 6, 1, 1])
    before = s.dumps()
    with pytest.raises(IllegalAction) as err:
        s.apply(MovePlan(1, 3, (STRAIGHT, Turn(1), Turn(1), STRAIGHT)))
    assert "MOVING AIRCRAFT" in err.value.rule
    with pytest.raises(IllegalAction) as err:
        s.apply(MovePlan(1, 4, (STRAIGHT, Maneuver("climb"), STRAIGHT, Maneuver("climb"))))
    assert "one difficult maneuver" in str(err.value)
    assert s.dumps() == before


def test_plan_equals_its_steps():
    a = battle([plane(BF, "axis", 0, 0, 0), plane(HURRI, "allied", 6, 0, 0)], [6, 6, 1, 1, 4, 4])
    b = battle([plane(BF, "axis", 0, 0, 0), plane(HURRI, "allied", 6, 0, 0)], [6, 6, 1, 1, 4, 4])
    steps = (Turn(-1), Maneuver("tight_turn", 1), STRAIGHT)
    a.apply(MovePlan(1, 3, steps))
    play(b, Activate(1, 3), *steps)
    assert a.log == b.log and a.dumps() == b.dumps()


def test_actions_print_and_round_trip():
    acts = [
        Activate(2, 4),
        Straight(),
        Turn(-1),
        Maneuver("split_s", 3),
        Maneuver("break", 1),
        EndMove("diving"),
        MovePlan(1, 2, (Straight(), Turn(1)), "evading_left"),
        Attack(0, 3),
        Decline(),
    ]
    for a in acts:
        assert action_from_json(a.to_json()) == a
        assert str(a)
    assert str(Maneuver("break", 1)) == "break right"
    assert str(Turn(-1)) == "straight, turn left"
    assert sorted(reversed(acts)) == sorted(acts)


def test_golden_legal_action_counts():
    # perft-style: Bf 109E speeds 2-5 on the first decision; then step options
    s = battle([plane(BF, "axis", 0, 0, 0), plane(HURRI, "allied", 6, 0, 0)], [1, 1, 6, 6])
    assert s.current_side() == 0 and len(s.legal_actions()) == 4
    s.apply(Activate(0, 2))
    # straight, two turns, and 13 maneuver options at altitude 3
    assert len(s.legal_actions()) == 3 + 13
    s.apply(Maneuver("climb"))
    assert len(s.legal_actions()) == 3  # the one maneuver is used
    s = new_battle(dogfight(), Dice(7))
    assert len(s.legal_actions()) == 7  # Spitfire 2-4 and 5; Hurricane 2-3 and 4
    # Hurricane speed 2: 3 x 3 without a maneuver + 2 x 3 x 13 with one; speed 3 and 4 likewise
    plans = legal_move_plans(s, 3)
    assert len([p for p in plans if p.speed == 2]) == 9 + 2 * 3 * 13


def test_aircraft_stats_validation_and_round_trip():
    t = CATALOGUE["Typhoon Interceptor"]
    assert AircraftStats.from_json(t.to_json()) == t
    assert t.with_pilot("ace").pilot == "ace"
    with pytest.raises(ValueError, match="pilot quality"):
        AircraftStats.from_json({**t.to_json(), "pilot": "rookie"})
    with pytest.raises(ValueError, match="high speed"):
        AircraftStats.from_json({**t.to_json(), "high_speed_min": 3})


def test_pilot_override_changes_the_attack_bonus():
    s = at_attack(
        [pre(BF, "axis", 0, 2, 0, pilot="ace"), pre(HURRI, "allied", 0, 0, 0)],
        [1] * 5,
    )
    s.apply(Attack(0, 1))
    assert events(s, "attack")[0]["modifiers"] == [["better pilot", 1]]


def test_ability_hooks_dispatch():
    calls = []

    def extra_die(state, plane, target, dice):
        calls.append("attack_dice")
        return dice + 2

    def steady(state, plane, maneuver):
        calls.append(maneuver)
        return 3

    def initiative(state, plane):
        return 1

    with pytest.raises(ValueError):
        abilities.register("Test Gunner", "attack_dice", extra_die)  # not defined yet
    abilities.define("Test Gunner", "two more dice", "test")
    abilities.register("Test Gunner", "attack_dice", extra_die)
    abilities.register("Test Gunner", "maneuver", steady)
    abilities.register("Test Gunner", "initiative", initiative)
    with pytest.raises(ValueError):
        abilities.register("Test Gunner", "no such hook", extra_die)
    stats = AircraftStats.from_json({**CATALOGUE[BF].to_json(), "abilities": ["Test Gunner"]})
    s = at_attack([pre(BF, "axis", 0, 2, 0, stats=stats), pre(HURRI, "allied", 0, 0, 0)], [1] * 7)
    assert events(s, "initiative")[0]["bonus"] == {"axis": 1, "allied": 0}
    s.apply(Attack(0, 1))
    assert events(s, "attack")[0]["dice"] == 7  # 5 at range 2, +2
    assert calls == ["attack_dice"]
    assert "Test Gunner" in abilities.registered()
    del abilities.ABILITIES["Test Gunner"]


def test_rules_object_and_scenario_round_trip():
    r = Rules.advanced(max_turns=9)
    assert Rules.from_json(r.to_json()) == r and r.tailing and r.status and r.turn_position
    sc = dogfight(r)
    from rules.angels20 import Scenario

    assert Scenario.from_json(sc.to_json()) == sc
