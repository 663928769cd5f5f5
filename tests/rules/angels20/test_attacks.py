"""Attacks: range, target aspect, arc, altitude, modifiers, armor and damage states,
alternation, declining, one attack each, immediate effect (000 "ATTACK AND DEFENSE")."""

from __future__ import annotations

import pytest
from engine_helpers import at_attack, events, pre

from rules.angels20 import CATALOGUE, Attack, Decline, IllegalAction
from rules.angels20.attacks import attack_problem, can_attack, distance

BF, HURRI, ACE = "Bf 109E Wingman", "Hurricane Mk I", "Bf 109E Ace"
MISS = [1] * 7


def one_shot(
    attacker_at, attacker_facing, dice=MISS, attacker=BF, target=HURRI, target_facing=0, **kw
):
    """Hurricane (id 1) at the origin; the Axis attacker (id 0) where asked."""
    s = at_attack(
        [
            pre(attacker, "axis", *attacker_at, attacker_facing),
            pre(target, "allied", 0, 0, target_facing),
        ],
        dice,
        **kw,
    )
    return s


@pytest.mark.parametrize(
    "at, facing, clock, number",
    [
        ((0, -1), 3, "12 o'clock", 5),
        ((1, -1), 4, "2 o'clock", 6),
        ((1, 0), 5, "4 o'clock", 5),
        ((0, 1), 0, "6 o'clock", 4),
        ((-1, 1), 1, "8 o'clock", 5),
        ((-1, 0), 2, "10 o'clock", 6),
        ((2, -1), 5, "2 o'clock", 6),  # 3 o'clock spine: the higher number
        ((1, -2), 3, "2 o'clock", 6),  # 1 o'clock spine
        ((1, 1), 0, "4 o'clock", 5),  # 5 o'clock spine
        ((-1, 2), 0, "8 o'clock", 5),  # 7 o'clock spine
        ((0, 3), 0, "6 o'clock", 4),
    ],
)
def test_target_aspect(at, facing, clock, number):
    # 000 "TARGET ASPECT" (numbers from shared/rules/README.md)
    s = one_shot(at, facing)
    if s.current_side() == 1:  # head-on: the Allied first player declines
        s.apply(Decline())
    s.apply(Attack(0, 1))
    a = events(s, "attack")[0]
    assert (a["aspect"], a["target_number"]) == (clock, number)


@pytest.mark.parametrize("rng, dice", [(1, 7), (2, 5), (3, 3)])
def test_dice_by_range(rng, dice):
    s = one_shot((0, rng), 0)
    s.apply(Attack(0, 1))
    a = events(s, "attack")[0]
    assert (a["range"], a["dice"]) == (rng, dice)


def test_firing_arc_range_altitude_and_range_0():
    # out of arc: the Hurricane sits at the attacker's 2 o'clock; nobody can fire,
    # so the turn ended on its own
    s = one_shot((-1, 1), 0)
    assert s.turn == 2 and not can_attack(s, 0, 1)
    assert "FIRING ARC" in attack_problem(s, 0, 1)[0]
    with pytest.raises(IllegalAction) as err:
        s.apply(Attack(0, 1))
    assert "SEQUENCE OF PLAY" in err.value.rule
    # the arc at range 2 takes the spine hexes (ruling), not the 60-degree neighbours
    s = one_shot((-1, 2), 0)  # target offset (1, -2): 30 degrees right of the nose
    assert can_attack(s, 0, 1)
    s = one_shot((-2, 2), 0)  # target offset (2, -2): 60 degrees right -> out
    assert not can_attack(s, 0, 1)
    # range 4: no dice
    s = one_shot((0, 4), 0)
    assert not can_attack(s, 0, 1)
    # different altitude
    s = at_attack([pre(BF, "axis", 0, 1, 0, alt=4), pre(HURRI, "allied", 0, 0, 0)], MISS)
    assert not can_attack(s, 0, 1)
    assert "altitude" in attack_problem(s, 0, 1)[1]
    # range 0: same hex
    s = at_attack([pre(BF, "axis", 0, 0, 0), pre(HURRI, "allied", 0, 0, 3)], MISS)
    assert distance(s, 0, 1) == 0
    assert "No Range 0" in attack_problem(s, 0, 1)[0]


def test_pilot_quality_bonus_and_unmodified_six():
    # Ace vs Average: +1 per die; a modified 6 is one hit, an unmodified 6 two
    s = one_shot((0, 2), 0, dice=[6, 5, 3, 2, 1], attacker=ACE)
    s.apply(Attack(0, 1))
    a = events(s, "attack")[0]
    assert a["modifier"] == 1 and a["modifiers"] == [["better pilot", 1]]
    assert [r[2] for r in a["rolls"]] == [2, 1, 1, 0, 0]  # TN 4: 6->2 hits, 5+1, 3+1
    assert a["hits"] == 4 and a["outcome"] == "damage"
    # worse pilot gets no penalty
    s = at_attack(
        [pre(ACE, "axis", 0, 0, 0), pre(HURRI, "allied", 0, 2, 0)], MISS, init=(1, 1, 6, 6)
    )
    assert s.current_side() == 1
    s.apply(Attack(1, 0))
    assert events(s, "attack")[0]["modifier"] == 0


def test_crippled_attacker_and_target_and_stacking_modifiers():
    s = one_shot((0, 2), 0, dice=[6, 4, 4, 1, 1], attacker=ACE)
    s.planes[0].damage = CATALOGUE[ACE].hits - 1  # one hit point left: crippled
    s.planes[1].damage = CATALOGUE[HURRI].hits - 1
    s.apply(Attack(0, 1))
    a = events(s, "attack")[0]
    assert sorted(m[0] for m in a["modifiers"]) == [
        "attacker crippled",
        "better pilot",
        "target crippled",
    ]
    assert a["modifier"] == 1  # +1 +1 -1: they stack
    assert a["hits"] == 4  # 6 -> 2, 4+1 >= 4, 4+1 >= 4
    # crippled attacker alone: -1; the unmodified 6 still counts 2
    s = one_shot((0, 2), 0, dice=[6, 4, 5, 1, 1])
    s.planes[0].damage = CATALOGUE[BF].hits - 1
    s.apply(Attack(0, 1))
    a = events(s, "attack")[0]
    assert a["modifier"] == -1 and [r[2] for r in a["rolls"]] == [2, 0, 1, 0, 0]


def test_armor_vital_armor_and_damage_states():
    # Hurricane: armor 3, vital 6, 3 hit points
    s = one_shot((0, 2), 0, dice=[4, 4, 1, 1, 1])  # 2 hits < armor 3
    s.apply(Attack(0, 1))
    assert events(s, "attack")[0]["outcome"] == "miss" and s.planes[1].damage == 0
    s = one_shot((0, 2), 0, dice=[4, 4, 4, 1, 1])  # 3 hits = armor: 1 damage
    s.apply(Attack(0, 1))
    assert s.planes[1].damage == 1 and events(s, "condition")[0]["to"] == "damaged"
    s = one_shot((0, 2), 0, dice=[4, 4, 4, 1, 1])
    s.planes[1].damage = 1
    s.apply(Attack(0, 1))
    assert events(s, "condition")[0] == {
        **events(s, "condition")[0],
        "from": "damaged",
        "to": "crippled",
    }
    s = one_shot((0, 2), 0, dice=[4, 4, 4, 1, 1, 5])
    s.planes[1].damage = 2
    s.apply(Attack(0, 1))  # last hit point gone
    d = events(s, "destroyed")[0]
    assert (d["plane"], d["by"], d["how"]) == (1, 0, "hit points")
    s = one_shot((0, 2), 0, dice=[6, 6, 6, 1, 1, 2])  # 6 hits = vital armor
    s.apply(Attack(0, 1))
    assert events(s, "destroyed")[0]["how"] == "vital armor" and s.planes[1].out == 1
    assert s.vp[0] == float(CATALOGUE[HURRI].cost)  # destroyed: VP = cost


def head_on():
    """Two head-on pairs at range 2; Allied (ids 2, 3) is first player."""
    return at_attack(
        [
            pre(BF, "axis", 0, 1, 0),
            pre(BF, "axis", 5, 1, 0),
            pre(HURRI, "allied", 0, -1, 3),
            pre(HURRI, "allied", 5, -1, 3),
        ],
        [6, 6, 6, 6, 3] + [1] * 10,  # Hurricane 2 destroys Bf #0; survival roll 3
    )


def test_alternation_immediate_effect_one_attack_and_decline():
    s = head_on()
    assert s.current_side() == 1  # the first player attacks first
    assert set(a for a in s.legal_actions() if isinstance(a, Attack)) == {
        Attack(2, 0),
        Attack(3, 1),
    }
    s.apply(Attack(2, 0))
    assert s.planes[0].out == 1
    assert events(s, "survival")[0]["survived"] is False  # 3: below 4
    assert s.current_side() == 0
    # the destroyed Bf 109 cannot fire back
    assert Attack(0, 2) not in s.legal_actions()
    with pytest.raises(IllegalAction) as err:
        s.apply(Attack(0, 2))
    assert "Immediate Effect" in err.value.rule
    s.apply(Decline())
    # the Axis is done for the phase; the Allies go on
    assert s.current_side() == 1
    with pytest.raises(IllegalAction) as err:
        s.apply(Attack(2, 1))
    assert "One Attack per Game Turn" in err.value.rule or "FIRING ARC" in err.value.rule
    s.apply(Attack(3, 1))
    assert s.turn == 2  # nobody left with a shot: end of turn
    attackers = [e["attacker"] for e in events(s, "attack")]
    assert attackers == [2, 3]


def test_one_attack_per_aircraft():
    s = head_on()
    s.apply(Attack(3, 1))
    s.apply(Attack(1, 3)) if Attack(1, 3) in s.legal_actions() else s.apply(Decline())
    assert all(not (isinstance(a, Attack) and a.attacker == 3) for a in s.legal_actions())
