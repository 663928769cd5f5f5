"""Collisions and ramming (002 13d) with spotting on: "two air units that have not tallied
each other" (13d1), friends spotting each other to avoid one (13d1.2), the ram's target's
tally (13d2.1.4) and the rammer's (13d2)."""

from airpirates_helpers import BF109, SPITFIRE, mark_all, unit
from test_spotting import spotting_battle

from rules.airpirates import collisions as co
from rules.airpirates.actions import EndSpotting, Spot
from rules.dice import ScriptedDice

OPTIONS = ("spotting", "collisions")


def one_hex(*sides, options=OPTIONS, **extra):
    """Units of ``sides`` at speed 2 in hex (5, 5) at one altitude, and an allied unit far
    off; impulse I's Spotting Phase."""
    units = [unit(s, BF109 if s == "axis" else SPITFIRE, speed=2, **extra) for s in sides]
    units.append(unit("allied", SPITFIRE, speed=2))
    places = [((5, 5), 0)] * len(sides) + [((20, 12), 3)]
    b = spotting_battle(units, places, options=options)
    mark_all(b, {})
    assert b.phase == "spot"
    return b


def test_13d1_untallied_units_in_one_hex_may_collide():
    b = one_hex("axis", "allied")
    assert [(a.id, c.id) for a, c in co.at_risk(b)] == [(1, 2)]
    b.dice = ScriptedDice([9, 9])  # 18 + speeds 4 = 22 > 21
    b.apply(EndSpotting())
    b.apply(EndSpotting())
    assert b.unit(1).eliminated and b.unit(2).eliminated
    assert any(e["event"] == "collided" for e in b.log)


def test_13d1_2_one_tally_cancels_the_collision():
    b = one_hex("axis", "allied")
    b.dice = ScriptedDice([10, 1])
    b.apply(Spot(1, 2))  # 10 against 1: a tally
    assert co.at_risk(b) == []
    b.apply(EndSpotting())
    assert not any(e["event"] in ("collided", "missed each other") for e in b.log)
    assert not b.unit(1).eliminated


def test_13d1_2_friends_in_one_hex_may_spot_each_other_only_with_collisions():
    b = one_hex("axis", "axis")
    assert Spot(1, 2) in b.legal_actions()
    b.dice = ScriptedDice([10, 1])
    b.apply(Spot(1, 2))
    assert co.at_risk(b) == [] and b.spotting["free"] == []  # no enemy seen: no bounce let go
    off = one_hex("axis", "axis", options=("spotting",))
    assert Spot(1, 2) not in off.legal_actions()


def test_13d2_1_4_the_ram_target_adds_four_only_with_its_tally_on_the_rammer():
    b = one_hex("axis", "allied", options=("spotting", "ramming"), nation="russian")
    for tallies, defence in (([[1, 2], [2, 1]], 2 + 4), ([[1, 2]], 2 - 4)):
        b.spotting["tallies"] = tallies
        b.dice = ScriptedDice([5, 5])
        co.ram(b, b.unit(1), b.unit(2))
        ram = next(e for e in reversed(b.log) if e["event"] in ("rammed", "ram failed"))
        assert ram["modifiers"] == [2, defence]
        assert ram["event"] == ("ram failed" if defence == 6 else "rammed")  # 7 against 11, then 3
