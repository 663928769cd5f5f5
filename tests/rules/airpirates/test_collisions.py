"""002 13d1 mid-air collisions (option ``collisions``), resolved after the Fire Phase:
two units in one hex at one altitude that have not tallied each other (a unit that fired
its forward guns lost its tally: the ruling) roll two d10 plus their combined speeds;
more than 21 eliminates both, whose pilots may bail out with 13c3's +2."""

import pytest
from airpirates_helpers import SPITFIRE, battle, mark_all, move_all, unit

from rules.airpirates.actions import Fire, Hold
from rules.airpirates.units import Scenario
from rules.dice import ScriptedDice


def wingmen(options=("collisions",), speed=4):
    """Axis units 1 and 2 in one hex at altitude 3, allied unit 3 two hexes ahead: after
    impulse I's move the two axis units may fire at it (and only they may fire)."""
    units = [unit(s, SPITFIRE, speed=speed, altitude=3) for s in ("axis", "axis", "allied")]
    b = battle(units, [((8, 8), 0), ((8, 8), 0), ((10, 8), 0)], marker="axis")
    b.scenario = Scenario.from_json({**b.scenario.to_json(), "options": list(options)})
    mark_all(b, {})
    move_all(b)
    assert b.phase == "fire" and b.unit(1).hex == b.unit(2).hex
    return b


MISS = [1, 10]  # the firer's d10 and the target's: no hit (6e)


def both_fire(b, collision_rolls):
    b.dice = ScriptedDice([*MISS, *MISS, *collision_rolls])
    b.apply(Fire(1, 3))
    b.apply(Fire(2, 3))
    assert b.dice.remaining == 0
    return [e for e in b.log if e["rule"] == "002 '13d1.1'"]


def test_13d1_1_two_d10_and_combined_speeds_above_21_collide():
    b = wingmen()
    rolls = both_fire(b, [7, 7])  # 14 + 4 + 4 = 22 > 21
    assert rolls[0]["event"] == "collided" and rolls[0]["modifier"] == 8
    assert b.unit(1).eliminated and b.unit(2).eliminated and not b.unit(3).eliminated
    gone = [e for e in b.log if e["event"] == "eliminated"]
    assert [e["rule"] for e in gone] == ["002 '13d1'", "002 '13d1'"]
    # a collision is nobody's kill; the enemy still scores both units ([8])
    assert all(k["attacker"] is None for k in b.kills)
    assert b.victory_points()["allied"] == 20.0
    assert b.is_over()


def test_13d1_1_exactly_21_is_no_collision():
    b = wingmen()
    rolls = both_fire(b, [6, 7])  # 13 + 8 = 21: not greater than 21
    assert rolls[0]["event"] == "missed each other"
    assert not b.unit(1).eliminated and not b.unit(2).eliminated
    assert b.phase == "mark"


def test_13d1_2_one_tally_cancels_the_collision():
    """Unit 2 held its fire: it kept its tally (13d: "fire or evade"), so no roll."""
    b = wingmen()
    b.dice = ScriptedDice([*MISS])
    b.apply(Fire(1, 3))
    b.apply(Hold(2))
    assert b.dice.remaining == 0 and b.phase == "mark"
    assert not [e for e in b.log if e["rule"] == "002 '13d1.1'"]


def test_collisions_off_no_roll_even_when_both_fired():
    b = wingmen(options=())
    assert both_fire(b, []) == []
    assert not b.unit(1).eliminated and not b.unit(2).eliminated


def test_13d1_pilots_bail_out_with_13c3s_plus_two():
    b = wingmen(options=("bailout", "collisions"))
    both_fire(b, [9, 9, 3, 2])  # collided; bail-outs 3 + 2 = 5 survives, 2 + 2 = 4 fails
    assert b.unit(1).bailout["modifier"] == 2 and b.unit(1).bailout["outcome"] == "survived"
    assert b.unit(2).bailout["outcome"] == "failed" and b.unit(2).bailout["early"] is True


def test_13d1_3_the_faster_pair_first_and_a_unit_collides_once():
    """Three units in one hex, none with a tally: the pairs by the faster speed (13d1.3);
    unit 1 and 2 collide first, so unit 3 has nobody left to collide with."""
    from rules.airpirates import collisions as co

    b = wingmen()
    b.unit(3).hex, b.unit(3).altitude, b.unit(3).speed = b.unit(1).hex, 3, 3
    b.unit(2).speed = 5
    b.shots = [[u, "forward", 9] for u in (1, 2, 3)]
    pairs = [(p[0].id, p[1].id) for p in co.at_risk(b)]
    assert pairs == [(1, 2), (2, 3), (1, 3)]
    b.dice = ScriptedDice([9, 9])
    co.resolve(b)
    assert b.dice.remaining == 0
    assert [b.unit(u).eliminated for u in (1, 2, 3)] == [True, True, False]


@pytest.mark.parametrize("altitude", [2, 4])
def test_13d1_a_different_altitude_is_no_collision(altitude):
    b = wingmen()
    b.unit(2).altitude = altitude
    b.dice = ScriptedDice([*MISS])
    b.apply(Fire(1, 3))
    if b.phase == "fire":
        b.dice = ScriptedDice([*MISS])
        b.apply(Fire(2, 3))
    assert b.phase == "mark" and not b.unit(1).eliminated and not b.unit(2).eliminated
