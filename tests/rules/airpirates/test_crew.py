"""002 13b2.1 multi-crew hits: a crew hit on a crew of two or three rolls again for the
crewman hit; the pilot's hits are the unit's crew hits, a rear gunner out of action
silences the rear guns until a centre crewman takes his place in a Change Phase."""

import pytest
from airpirates_helpers import SPITFIRE, battle, mark_all, move_all, unit

from rules.airpirates import crew as cw
from rules.airpirates.actions import Change, Fire
from rules.airpirates.change import steady
from rules.airpirates.fire import defence_modifier
from rules.airpirates.units import catalog_card
from rules.dice import ScriptedDice

BF110 = "Bf 110C"  # two crew, a rear gun
CREW_HIT = 3  # 13b2's hit location


def chase(**card):
    """A Spitfire Mk I (allied, 2) two hexes behind a Bf 110C (axis, 1) in the Fire Phase."""
    target = dict(unit("axis", BF110, speed=2))
    target["card"] = dict(catalog_card(BF110), pilot_armor=True, **card)
    b = battle([target, unit("allied", SPITFIRE, speed=4)], [((10, 8), 0), ((8, 8), 0)],
               marker="allied")  # fmt: skip
    mark_all(b, {})
    move_all(b)
    assert b.phase == "fire"
    return b


def crew_hit(b, *crewman):
    """One hit (the Spitfire's 2 + 5 = 7 against the Bf 110's 4) on the crew, whose
    second d10 is ``crewman`` (none for a single seat)."""
    target = b.unit(1)
    defence = sum(defence_modifier(target).values())
    b.dice = ScriptedDice([2, 4 - defence, CREW_HIT, *crewman])
    b.apply(Fire(2, 1))
    assert b.dice.remaining == 0
    return target


@pytest.mark.parametrize(
    ("roll", "pilot", "out"),
    [(1, 1, []), (5, 1, []), (6, 0, ["gunner"]), (9, 0, ["gunner"]), (10, 1, ["gunner"])],
)
def test_13b2_1_two_crew_1_5_pilot_6_9_gunner_10_both(roll, pilot, out):
    b = chase()
    before = sum(defence_modifier(b.unit(1)).values())
    target = crew_hit(b, roll)
    assert target.damage["crew"] == pilot and target.crew_out == out
    # a hit is a hit: the defence factor falls by one (13b1.3), the enemy scores one ([8])
    assert sum(defence_modifier(target).values()) == before - 1
    assert b.victory_points()["allied"] == 1.0
    fired = [e for e in b.log if e["event"] == "fired"][-1]
    assert fired["crewmen"] == [["pilot", "gunner"] if roll == 10 else
                                ["pilot"] if pilot else ["gunner"]]  # fmt: skip


@pytest.mark.parametrize(
    ("roll", "men"),
    [(3, ["pilot"]), (4, ["centre"]), (6, ["centre"]), (7, ["gunner"]),
     (10, ["pilot", "centre", "gunner"])],
)  # fmt: skip
def test_13b2_1_three_crew_1_3_pilot_4_6_centre_7_9_gunner_10_all(roll, men):
    target = crew_hit(chase(crew=3), roll)
    assert target.damage["crew"] == (1 if "pilot" in men else 0)
    assert sorted(target.crew_out) == sorted(m for m in men if m != "pilot")


def test_13b2_1_the_rear_gun_is_silent_once_the_gunner_is_hit():
    b = chase()
    assert b.targets(b.unit(1), "rear")  # the Bf 110's gunner sees the Spitfire
    assert b._fire_refusal(b.unit(1), b.unit(2), "rear") is None
    crew_hit(b, 6)
    rule, words = b._fire_refusal(b.unit(1), b.unit(2), "rear")
    assert rule == "002 '13b2.1'" and "rear gunner is out of action" in words


def to_change(b):
    from rules.airpirates.actions import Hold, Mark, Move

    while b.phase != "change":
        u = b.pending(b.current_side())[0]
        if b.phase == "move":
            b.apply(Move(u.id))
        elif b.phase == "fire":
            b.apply(Hold(u.id))
        else:
            b.apply(Mark(u.id, "straight"))
    while b.phase == "change":
        u = b.pending(b.current_side())[0]
        b.apply(Change(u.id, *steady(u)))


def test_13b2_1_the_centre_crewman_takes_the_gun_in_the_change_phase():
    b = chase(crew=3)
    target = crew_hit(b, 8)
    assert target.crew_out == ["gunner"]
    to_change(b)
    assert b.unit(1).crew_out == ["centre"]
    took = [e for e in b.log if e["event"] == "the centre crewman took the rear gun"]
    assert took[0]["unit"] == 1 and took[0]["rule"] == "002 '13b2.1'"
    assert b._fire_refusal(b.unit(1), b.unit(2), "rear") != (
        "002 '13b2.1'",
        "Bf 110C's rear gunner is out of action",
    )


def test_13b2_1_two_crew_nobody_takes_the_gun():
    b = chase()
    crew_hit(b, 7)
    to_change(b)
    assert b.unit(1).crew_out == ["gunner"]


def test_13b2_1_a_crewman_hit_again_has_no_further_effect():
    b = chase()
    target = crew_hit(b, 6)
    cw.mark(target, ["gunner"])  # the gunner hit again: a hit, but no further effect
    assert target.crew_out == ["gunner"] and target.crew_other_hits == 2
    assert target.damage["crew"] == 0


def test_a_single_seat_rolls_no_crewman():
    b = chase(crew=1)
    target = crew_hit(b)  # no second d10 (armoured: no 13b3.3.1 roll either)
    assert target.damage["crew"] == 1 and target.crew_out == []
