"""Optional rules of 000 with scripted dice, on and off: midair collision (000 "OPTIONAL
RULE: MIDAIR COLLISION"), the later-edition sixes of *Bandits High*, the territory of
"PILOT SURVIVAL", the settings, and JSON and undo with every option on."""

from __future__ import annotations

import pytest
from engine_helpers import at, at_attack, battle, events, plane, play, pre, where
from optional_helpers import BF, HURRI, INIT, fly, purposes, rear_shot

from rules.angels20 import (
    CATALOGUE,
    Activate,
    Attack,
    ChoosePosition,
    CloudShape,
    Decline,
    EndMove,
    Rules,
)
from rules.angels20.actions import STRAIGHT, Direct, EnterClouds
from rules.angels20.state import CLOUD_CHART, BattleState

# ====================================================================== midair collision


def head_on(rules: Rules, dice, axis_pilot=None, allied_pilot=None):
    """Bf 109 #0 and Hurricane #1 fly head-on into hex (0, 0) at altitude 3."""
    s = battle(
        [
            pre(BF, "axis", 0, 0, 0, pilot=axis_pilot),
            pre(HURRI, "allied", 0, 0, 3, pilot=allied_pilot),
        ],
        INIT + list(dice),
        rules,
    )
    fly(s)
    return s


def test_collision_both_roll_one_both_destroyed():
    """000 "OPTIONAL RULE: MIDAIR COLLISION": both roll a possible collision -> both
    destroyed at once; VP scored, no kill credit, pilot survival rolled (ruling
    "Losses to flak, balloons and collisions")."""
    s = head_on(Rules(midair_collision=True), [1, 1, 5, 2])  # collision x2, survival x2
    (c,) = events(s, "collision")
    assert c["alt"] == 3 and c["collided"] == [0, 1]
    assert [(r["plane"], r["roll"], r["possible"]) for r in c["rolls"]] == [
        (0, 1, True),
        (1, 1, True),
    ]
    assert [(e["plane"], e["how"], e["by"]) for e in events(s, "destroyed")] == [
        (0, "midair collision", -1),
        (1, "midair collision", -1),
    ]
    assert [p.out for p in s.planes] == [1, 1]
    # each side scores the other's aircraft, but nobody shot it down
    assert s.vp == [float(CATALOGUE[HURRI].cost), float(CATALOGUE[BF].cost)]
    assert [(e["plane"], e["roll"], e["survived"]) for e in events(s, "survival")] == [
        (0, 5, True),
        (1, 2, False),
    ]
    r = s.result()
    assert r["kills"] == [] and [a["destroyed_by"] for a in r["aircraft"]] == [None, None]
    # the check comes after the Movement phase, before the Attack phase
    kinds = [e["e"] for e in s.log]
    assert kinds.index("collision") > max(i for i, k in enumerate(kinds) if k == "move_end")


@pytest.mark.parametrize("rolls", [(1, 2), (6, 1), (2, 2), (3, 5)])
def test_collision_needs_both_to_roll_a_possible_collision(rolls):
    """000 "OPTIONAL RULE: MIDAIR COLLISION": a 1 is only a *possible* collision;
    average pilots do not collide on a 2."""
    s = head_on(Rules(midair_collision=True), rolls)
    (c,) = events(s, "collision")
    assert [r["roll"] for r in c["rolls"]] == list(rolls)
    assert [r["possible"] for r in c["rolls"]] == [r == 1 for r in rolls]
    assert c["collided"] == [] and events(s, "destroyed") == []
    assert [p.out for p in s.planes] == [0, 0] and s.turn == 2


def test_collision_poor_pilot_collides_on_two():
    """000 "OPTIONAL RULE: MIDAIR COLLISION": "1 or 2 for a poor pilot"."""
    s = head_on(Rules(midair_collision=True), [2, 1, 4, 4], axis_pilot="poor")
    (c,) = events(s, "collision")
    assert [r["possible"] for r in c["rolls"]] == [True, True]
    assert c["collided"] == [0, 1]
    # both poor: 2 and 2 collide
    s = head_on(Rules(midair_collision=True), [2, 2, 4, 4], "poor", "poor")
    assert events(s, "collision")[0]["collided"] == [0, 1]
    # a poor pilot's 3 is no possible collision
    s = head_on(Rules(midair_collision=True), [3, 1], axis_pilot="poor")
    assert events(s, "collision")[0]["collided"] == [] and s.turn == 2
    # the same 2 from an average pilot is nothing
    s = head_on(Rules(midair_collision=True), [2, 1])
    c = events(s, "collision")[0]
    assert [r["possible"] for r in c["rolls"]] == [False, True] and c["collided"] == []


def test_collision_switched_off_rolls_nothing():
    """000 "OPTIONAL RULE: MIDAIR COLLISION" is optional: off, two aircraft in one hex
    and altitude roll no die (the next dice are the turn-2 initiative)."""
    s = head_on(Rules(), [])
    assert where(s, 0)[0] == where(s, 1)[0] == (0, 0) and s.turn == 2
    assert events(s, "collision") == []
    assert "collision" not in purposes(s)
    assert s.dice.position == len(INIT) + 4  # turn 1 and turn 2 initiative only


def test_collision_only_same_hex_and_altitude():
    """000 "OPTIONAL RULE: MIDAIR COLLISION": "same hex and at the same altitude"."""
    s = battle(
        [pre(BF, "axis", 0, 0, 0, alt=4), pre(HURRI, "allied", 0, 0, 3, alt=3)],
        INIT,
        Rules(midair_collision=True),
    )
    fly(s)
    assert events(s, "collision") == [] and "collision" not in purposes(s)


def test_collision_after_same_side_stacking():
    """000 "STACKING" is resolved first (ruling "Midair collision"): the later Axis
    arrival goes back, so only the first Axis aircraft and the Hurricane roll."""
    s = battle(
        [
            plane(BF, "axis", 0, 2, 0),  # into (0, 0) first
            plane(BF, "axis", 2, 0, 5),  # into (0, 0) second: stacked back to (1, 0)
            plane(HURRI, "allied", 0, -2, 3),  # into (0, 0) from the north
        ],
        INIT + [1, 3],
        Rules(midair_collision=True),
    )
    play(s, Activate(2, 2), STRAIGHT, STRAIGHT)
    play(s, Activate(0, 2), STRAIGHT, STRAIGHT)
    play(s, Activate(1, 2), STRAIGHT, STRAIGHT)
    assert [e["plane"] for e in events(s, "stacking")] == [1]
    assert where(s, 1)[0] == (1, 0)
    (c,) = events(s, "collision")
    assert [r["plane"] for r in c["rolls"]] == [0, 2] and c["collided"] == []
    kinds = [e["e"] for e in s.log]
    assert kinds.index("stacking") < kinds.index("collision")


# ====================================================================== later-edition sixes


def two_oclock_shot(attack_dice, rules: Rules, attacker=BF):
    """Bf 109 #0 at the Hurricane's 2 o'clock, range 1: target number 6, 7 dice."""
    s = at_attack(
        [pre(attacker, "axis", 1, -1, 4), pre(HURRI, "allied", 0, 0, 0)], attack_dice, rules
    )
    if s.current_side() == 1:
        s.apply(Decline())
    s.apply(Attack(0, 1))
    a = events(s, "attack")[0]
    assert (a["aspect"], a["target_number"], a["dice"]) == ("2 o'clock", 6, 7)
    return a


@pytest.mark.parametrize("later, hits", [(True, 1), (False, 2)])
def test_later_sixes_when_modifiers_raise_the_number_to_seven(later, hits):
    """Later-edition sixes (*Bandits High*, 2013): target number 6 with -1 per die
    (moonlight) is 7+, so an unmodified 6 scores one hit instead of two."""
    a = two_oclock_shot([6, 5, 5, 1, 1, 1, 1], Rules(night="moonlight", later_sixes=later))
    assert a["modifier"] == -1
    assert a["rolls"][:2] == [[6, 5, hits], [5, 4, 0]] and a["hits"] == hits


def test_later_sixes_do_not_touch_a_number_of_six_or_less():
    """Later-edition sixes: "where modifiers raise the target number to 7 or more"
    only - at target number 6 (no modifier), or 4 with -1, a 6 is still two hits."""
    a = two_oclock_shot([6, 1, 1, 1, 1, 1, 1], Rules(later_sixes=True))
    assert a["modifier"] == 0 and a["rolls"][0] == [6, 6, 2] and a["hits"] == 2
    s = rear_shot([6, 1, 1, 1, 1], Rules(night="moonlight", later_sixes=True))
    s.apply(Attack(0, 1))
    a = events(s, "attack")[0]
    assert (a["target_number"], a["modifier"], a["rolls"][0], a["hits"]) == (4, -1, [6, 5, 2], 2)
    # an Ace's +1 cancels the moonlight: 6 - 0 = 6, two hits
    a = two_oclock_shot(
        [6, 1, 1, 1, 1, 1, 1], Rules(night="moonlight", later_sixes=True), "Bf 109E Ace"
    )
    assert a["modifier"] == 0 and a["rolls"][0] == [6, 6, 2]


# ====================================================================== territory


@pytest.mark.parametrize(
    "territory, roll, modifier, survived",
    [
        ("friendly", 3, 1, True),
        ("friendly", 2, 1, False),
        ("neutral", 4, 0, True),
        ("neutral", 3, 0, False),
        ("enemy", 5, -1, True),
        ("enemy", 4, -1, False),
    ],
)
def test_territory_modifies_pilot_survival(territory, roll, modifier, survived):
    """000 "PILOT SURVIVAL": d6, 4+ survives; +1 over friendly territory, -1 over
    enemy territory. The territory is that of the downed aircraft's side."""
    other = "enemy" if territory == "friendly" else "friendly"
    s = at_attack(
        [pre(BF, "axis", 0, 2, 0), pre(HURRI, "allied", 0, 0, 0)],
        [6, 6, 6, 1, 1, roll],
        territory=(other, territory),
    )
    s.apply(Attack(0, 1))
    e = events(s, "survival")[0]
    assert (e["plane"], e["roll"], e["modifier"], e["survived"]) == (1, roll, modifier, survived)
    assert s.planes[1].survival == [roll, modifier, survived]


# ====================================================================== settings


@pytest.mark.parametrize(
    "kw, rule",
    [
        ({"flak_fields": ((3, 3, 1),)}, "FLAK FIELDS"),
        ({"flak_fields": ((3, 3, 5),)}, "FLAK FIELDS"),
        ({"barrage_balloons": ((3, 3, 1),)}, "BARRAGE BALLOONS"),
        ({"clouds": ("solid",) * 5}, "CLOUDS"),
        ({"clouds": ("solid",) * 5 + ("fog",)}, "CLOUDS"),
        ({"night": "dusk"}, "NIGHT COMBAT"),
        ({"fighter_direction": (-1, 0)}, "FIGHTER DIRECTION"),
    ],
)
def test_bad_settings_name_the_rule(kw, rule):
    """000 "FLAK FIELDS" (altitude 2, 3 or 4), "BARRAGE BALLOONS" (one hex),
    "CLOUDS" (a band for each of altitudes 1-6), "NIGHT COMBAT", "FIGHTER DIRECTION"."""
    with pytest.raises(ValueError, match=rule):
        Rules(**kw)


def test_all_off_by_default():
    """Every optional rule and special condition is off unless switched on."""
    r = Rules()
    assert r.optional_rules_on == ()
    assert not (r.midair_collision or r.later_sixes or r.random_clouds)
    assert r.night == "day" and r.fighter_direction == (0, 0)


# ====================================================================== JSON and undo

ALL_ON = Rules(
    tailing=True,
    turn_position=True,
    status=True,
    midair_collision=True,
    random_clouds=True,
    cloud_shapes=(CloudShape(hexes=(at(6, 0),), base=3, top=4),),
    flak_fields=((*at(3, -2), 3),),
    barrage_balloons=(at(8, 0),),
    night="darkness",
    fighter_direction=(1, 1),
    searchlights=(True, True),
    later_sixes=True,
)


def all_on_battle():
    """Every optional rule on. Chart roll 1: altitude 3 heavy. The Axis wins the
    initiative and chooses to move first."""
    s = battle(
        [
            pre(BF, "axis", 0, 2, 0),
            pre(HURRI, "allied", 0, 0, 0),
            pre(BF, "axis", 3, 0, 0),  # flies through the flak field
            pre(HURRI, "allied", 6, 0, 0),  # ends in the placed cloud
        ],
        [1] + INIT + [4, 5, 3, 6, 2, 5, 3] + [1] * 30 + [6, 5, 1, 1] * 6,  # never a tie
        ALL_ON,
    )
    return s


def round_trip(s) -> BattleState:
    t = BattleState.loads(s.dumps())
    assert t == s and t.dumps() == s.dumps()
    assert t.legal_actions() == s.legal_actions()
    assert t.cloud_bands == s.cloud_bands and isinstance(t.cloud_bands, tuple)
    assert [p.as_tuple() for p in t.planes] == [p.as_tuple() for p in s.planes]
    return t


def test_json_round_trip_mid_battle_with_every_option():
    """The battle record (000 "SEQUENCE OF PLAY" with every special condition): at
    every step the JSON round trip equals the original and plays on identically."""
    s = all_on_battle()
    assert s.scenario.rules == Rules.from_json(s.scenario.rules.to_json())
    assert set(s.scenario.rules.optional_rules_on) == {
        "midair collision",
        "clouds",
        "flak fields",
        "barrage balloons",
        "darkness",
        "fighter direction",
        "illumination",
        "later-edition sixes",
    }
    assert s.cloud_bands == CLOUD_CHART[0]
    twin = round_trip(s)
    seen = set()
    steps = 0
    while not s.is_over() and s.turn <= 2 and steps < 200:
        seen.add(s.phase)
        acts = s.legal_actions()
        if s.phase == "movement" and s.mover < 0:
            act = next(a for a in acts if isinstance(a, Activate) and a.speed == 2)
        elif s.awaiting_cloud:
            act = EnterClouds(True)
        elif s.phase == "direction":
            act = acts[1] if len(acts) > 1 else acts[0]
        elif s.phase == "movement":
            act = STRAIGHT if STRAIGHT in acts else acts[0]
        elif s.phase == "position":
            act = ChoosePosition(True)
        else:
            act = acts[0]
        s.apply(act)
        twin.apply(act)
        assert twin == s
        twin = round_trip(s)
        steps += 1
    assert {"position", "direction", "movement"} <= seen
    got = {e["e"] for e in s.log}
    assert {"clouds", "clouds_check", "direction", "flak", "illumination"} <= got
    assert any(p.cloud for p in s.planes) or any(e["in_clouds"] for e in events(s, "clouds_check"))


def test_undo_after_enter_clouds_and_direct():
    """Undo (python-chess ``pop``) restores the state exactly after an EnterClouds
    (000 "CLOUDS") or a Direct (000 "FIGHTER DIRECTION"), dice included."""
    s = all_on_battle()
    s.apply(ChoosePosition(True))
    assert s.phase == "direction" and s.current_side() == 0
    before = s.dumps()
    s.apply(Direct((0,)))
    assert s.planes[0].directed and s.current_side() == 1
    s.undo()
    assert s.dumps() == before and not s.planes[0].directed
    s.apply(Direct((2,)))
    s.apply(Direct((1,)))
    assert s.phase == "movement"
    play(s, Activate(0, 2), STRAIGHT, STRAIGHT, EndMove("none"))
    assert s.awaiting_cloud
    before = s.dumps()
    position = s.dice.position
    s.apply(EnterClouds(True))
    assert s.dice.position == position + 1 and events(s, "clouds_check")
    cloud_after = s.planes[0].cloud
    s.undo()
    assert s.dumps() == before and s.awaiting_cloud and s.dice.position == position
    assert not s.planes[0].cloud
    s.apply(EnterClouds(True))  # the same die again
    assert s.planes[0].cloud == cloud_after
    s.undo()
    s.apply(EnterClouds(False))
    assert s.dice.position == position and not s.planes[0].cloud
