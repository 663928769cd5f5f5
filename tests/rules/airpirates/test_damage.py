"""002 13b3 what particular hits do, and 13b4 fires put out or not in the Change Phase."""

import pytest
from airpirates_helpers import BF109, SPITFIRE, battle, mark_all, move_all, unit

from rules.airpirates.actions import Fire, Hold
from rules.airpirates.units import Scenario, catalog_card
from rules.dice import ScriptedDice

ZERO = 'A6M2 "Zeke"'  # radial engine, no armour, no self-sealing tanks


def chase(target=BF109, options=(), **card):
    """A Spitfire Mk I (allied, 2) fires from two hexes behind at ``target`` (axis, 1)."""
    aircraft = dict(unit("axis", target, speed=2))
    aircraft["card"] = dict(catalog_card(target), **card)
    b = battle([aircraft, unit("allied", SPITFIRE, speed=4)], [((10, 8), 0), ((8, 8), 0)],
               marker="allied")  # fmt: skip
    if options:
        b.scenario = Scenario.from_json({**b.scenario.to_json(), "options": list(options)})
    mark_all(b, {})
    move_all(b)
    assert b.phase == "fire"
    return b


def one_hit(b, location, *effect):
    """Fire once for one hit (2 + 5 = 7 against 4: its die and defence factor, 6c3.2) at
    ``location``'s d10."""
    target = b.unit(1)
    defence = max(0, target.card["defence_factor"] - sum(target.damage.values()))
    b.dice = ScriptedDice([2, 4 - defence, location, *effect])
    b.apply(Fire(2, 1))
    assert b.dice.remaining == 0
    return b.unit(1)


@pytest.mark.parametrize(
    ("aircraft", "roll", "fire"),
    [(BF109, 2, True), (BF109, 3, False), (ZERO, 1, True), (ZERO, 2, False)],
)
def test_13b3_2_one_engine_hit_starts_a_fire_inline_on_1_or_2_radial_on_1(aircraft, roll, fire):
    target = one_hit(chase(aircraft), 1, roll)
    assert bool(target.fires) is fire and target.damage["engine"] == 1


@pytest.mark.parametrize(
    ("tanks", "roll", "fire"),
    [("yes", 3, True), ("yes", 4, False), ("rudimentary", 4, True), ("rudimentary", 5, False),
     ("no", 5, True), ("no", 6, False)],
)  # fmt: skip
def test_13b3_4_one_fuel_hit_and_self_sealing_tanks(tanks, roll, fire):
    b = chase(self_sealing_tanks=tanks)
    target = one_hit(b, 4, roll)
    assert bool(target.fires) is fire
    assert ("fire started" in [e["event"] for e in b.log]) is fire
    if fire:
        assert target.fires[0] == {"part": "fuel", "turn": 1, "by": 2}


@pytest.mark.parametrize(("roll", "killed"), [(1, True), (2, True), (3, False), (10, False)])
def test_13b3_3_1_no_pilot_armour_the_pilot_killed_on_1_or_2(roll, killed):
    b = chase()  # the Bf 109E has no pilot armour (002's list)
    target = one_hit(b, 3, roll)
    assert target.eliminated is killed
    if killed:
        assert [e for e in b.log if e["event"] == "eliminated"][0]["rule"] == "002 '13b3.3.1'"


def test_13b3_3_with_pilot_armour_no_roll():
    one_hit(chase(pilot_armor=True), 3)  # no die follows the crew hit


@pytest.mark.parametrize(("maneuver", "eliminated"), [("tight_left", True), ("straight", False)])
def test_13b3_5_a_second_wing_hit_while_marked_for_a_tight_turn(maneuver, eliminated):
    b = chase()
    b.unit(1).marker["maneuver"] = maneuver
    b.unit(1).damage["wing"] = 1
    assert one_hit(b, 5).eliminated is eliminated


@pytest.mark.parametrize(("maneuver", "eliminated"), [("roll_right", True), ("turn_left", False)])
def test_13b3_6_a_third_fuselage_hit_while_marked_for_a_roll(maneuver, eliminated):
    b = chase()
    b.unit(1).marker["maneuver"] = maneuver
    b.unit(1).damage["fuselage"] = 2
    assert one_hit(b, 7).eliminated is eliminated


def fly_to_the_change_phase(b, rolls):
    b.dice = ScriptedDice(rolls)
    while b.turn == 1 and not b.is_over():
        if b.phase == "fire":
            b.apply(Hold(b.pending(b.current_side())[0].id))
        elif b.phase == "move":
            move_all(b)
        else:
            mark_all(b, {})


@pytest.mark.parametrize(("roll", "out"), [(9, True), (10, True), (8, False)])
def test_13b4_a_fire_not_put_out_in_the_turn_it_started_eliminates(roll, out):
    b = chase()
    target = one_hit(b, 1, 1)  # an engine fire
    fly_to_the_change_phase(b, [roll])
    assert target.eliminated is not out and bool(target.fires) is not out
    if not out:
        assert b.kills == [{"attacker": 2, "target": 1, "turn": 1}]
        assert b.is_over() and b.result()["winner"] == "allied"


def test_13c1_each_fire_costs_2_on_the_bail_out():
    b = chase(options=("bailout",))
    target = one_hit(b, 1, 1)  # an engine fire
    fly_to_the_change_phase(b, [3, 8])  # not put out; the bail-out 8 - 2 = 6 gets him out
    assert target.bailout == {"roll": 8, "die": "d10", "modifier": -2, "outcome": "survived",
                              "early": False}  # fmt: skip
    assert b.result()["aircraft"][0]["fires"] == 1
