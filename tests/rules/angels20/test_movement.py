"""Movement: the book's three movement examples, every difficult maneuver, speeds,
turns, high speed, altitude limits, leaving the map, stacking, unequal numbers."""

from __future__ import annotations

import pytest
from engine_helpers import advance, battle, events, plane, play, where

from rules.angels20 import CATALOGUE, Activate, EndMove, IllegalAction, Maneuver, Rules, Turn
from rules.angels20.actions import STRAIGHT
from rules.angels20.attacks import can_attack

L, R = Turn(-1), Turn(1)
INIT_AXIS_WINS = [6, 6, 1, 1]  # Axis wins: Allied player moves first
INIT_ALLIED_WINS = [1, 1, 6, 6]


def duel(name, q=0, r=0, facing=0, alt=3, dice=(), enemy_at=(10, -8)):
    """``name`` (Axis) plus a far-away Allied Hurricane that has already moved."""
    s = battle(
        [
            plane(name, "axis", q, r, facing, alt),
            plane("Hurricane Mk I", "allied", *enemy_at, 3, 3),
        ],
        INIT_AXIS_WINS + list(dice),
    )
    play(s, Activate(1, 2), STRAIGHT, STRAIGHT)
    assert s.current_side() == 0
    return s


def test_movement_example_1_zero_tight_turn():
    # 000 "Movement Example 1": speed 3; forward, turn left; Tight Turn (6 + 6 = 12); forward.
    s2 = battle(
        [plane('A6M2 "Zeke"', "axis", 0, 0, 0), plane("P-40C Flying Tiger", "allied", -1, -1, 3)],
        INIT_AXIS_WINS + [3, 3],
    )
    play(s2, Activate(1, 2), STRAIGHT, STRAIGHT)
    assert where(s2, 1) == ((-1, 1), 3, 3)
    play(s2, Activate(0, 3), L, Maneuver("tight_turn", -1), STRAIGHT)
    m = events(s2, "maneuver")[0]
    assert (m["dice"], m["bonus"], m["target"], m["total"], m["success"]) == (
        [3, 3],
        6,
        10,
        12,
        True,
    )
    assert where(s2, 0) == ((-1, 0), 3, 3)  # right behind the P-40
    assert s2.tailing(0, 1)


def test_movement_example_2_high_speed_break():
    # 000 "Movement Example 2": speed 5 is high speed; Break right, 8 + 5 = 13 succeeds.
    s = duel("P-40C Flying Tiger", dice=[4, 4])
    s.apply(Activate(0, 5))
    assert s.planes[0].high
    s.apply(Maneuver("break", 1))
    assert events(s, "maneuver")[0]["target"] == 13 and events(s, "maneuver")[0]["success"]
    assert where(s, 0) == ((1, -1), 1, 3)
    # no turn or maneuver in the hex after a maneuver at high speed
    with pytest.raises(IllegalAction) as err:
        s.apply(L)
    assert "High Speed" in err.value.rule
    play(s, STRAIGHT, L)
    with pytest.raises(IllegalAction) as err:
        s.apply(L)  # "she has to turn in the previous hex too"
    assert "consecutive" in str(err.value)
    play(s, STRAIGHT, L)
    assert where(s, 0) == ((3, -5), 5, 3)
    assert [e["n"] for e in events(s, "step") if e["plane"] == 0] == [1, 2, 3, 4, 5]


def test_movement_example_3_failed_split_s():
    # 000 "Movement Example 3": Bf 109 at altitude 4, speed 3, Split S: 4 + 4 = 8 fails.
    s = duel("Bf 109E Wingman", alt=4, dice=[1, 3])
    play(s, Activate(0, 3), Maneuver("split_s", 3))
    m = events(s, "maneuver")[0]
    assert (m["bonus"], m["total"], m["success"]) == (4, 8, False)
    assert where(s, 0) == ((0, -1), 0, 3)  # straight ahead, but still lost the altitude
    with pytest.raises(IllegalAction) as err:
        s.apply(Maneuver("tight_turn", 1))
    assert "one difficult maneuver per move" in str(err.value)
    play(s, R, R)  # two normal turns at normal speed, in consecutive hexes
    assert where(s, 0) == ((1, -3), 2, 3)


SUCCESS, FAIL = [6, 6], [1, 1]


@pytest.mark.parametrize(
    "maneuver, option, dice, expect",
    [
        ("break", 1, SUCCESS, ((1, -1), 1, 3)),
        ("break", -1, SUCCESS, ((-1, 0), 5, 3)),
        ("break", 1, FAIL, ((0, -1), 0, 3)),
        ("barrel_roll", 1, SUCCESS, ((1, -1), 0, 3)),
        ("barrel_roll", -1, SUCCESS, ((-1, 0), 0, 3)),
        ("barrel_roll", -1, FAIL, ((0, -1), 0, 3)),
        ("climb", 0, SUCCESS, ((0, -1), 0, 4)),
        ("climb", 0, FAIL, ((0, -1), 0, 3)),
        ("power_dive", 1, SUCCESS, ((0, -1), 0, 2)),
        ("power_dive", 2, SUCCESS, ((0, -1), 0, 1)),
        ("power_dive", 2, FAIL, ((0, -1), 0, 2)),
        ("split_s", 2, SUCCESS, ((0, -1), 2, 2)),
        ("split_s", -2, SUCCESS, ((0, -1), 4, 2)),
        ("split_s", 3, SUCCESS, ((0, -1), 3, 2)),
        ("split_s", 3, FAIL, ((0, -1), 0, 2)),
        ("scissors", 0, SUCCESS, ((0, 0), 0, 3)),
        ("scissors", 0, FAIL, ((0, -1), 0, 3)),
        ("tight_turn", 1, SUCCESS, ((0, -1), 2, 3)),
        ("tight_turn", -1, SUCCESS, ((0, -1), 4, 3)),
        ("tight_turn", 1, FAIL, ((0, -1), 1, 3)),
    ],
)
def test_every_difficult_maneuver(maneuver, option, dice, expect):
    # 000 "DIFFICULT MANEUVERS": each maneuver's success and failure result
    s = duel("Bf 109E Wingman", dice=dice)
    play(s, Activate(0, 2), Maneuver(maneuver, option))
    m = events(s, "maneuver")[0]
    assert m["success"] is (dice == SUCCESS)
    card = CATALOGUE["Bf 109E Wingman"]
    assert m["bonus"] == {
        "break": card.roll,  # Roll +4: 000 "Movement Example 3"
        "barrel_roll": card.roll,
        "split_s": card.roll,
        "climb": card.climb,
        "power_dive": card.dive,
    }.get(maneuver, card.turn)
    assert where(s, 0) == expect
    s.apply(STRAIGHT)  # a second hex follows every maneuver, scissors included
    assert [e["n"] for e in events(s, "step") if e["plane"] == 0] == [1, 2]
    assert events(s, "move_end")[-1]["plane"] == 0


def test_maneuver_check_targets_and_crippled_penalty():
    # 000 "MANEUVER CHECKS": 10 at normal speed, 13 at high speed; 000 "CRIPPLED": -2
    s = duel("Bf 109E Wingman", dice=[5, 5])
    play(s, Activate(0, 2), Maneuver("tight_turn", 1))
    m = events(s, "maneuver")[0]
    assert (m["target"], m["total"], m["success"]) == (10, 13, True)
    s = duel("Bf 109E Wingman", dice=[5, 5])
    s.planes[0].damage = CATALOGUE["Bf 109E Wingman"].hits - 1  # one hit point left: crippled
    assert s.condition(0) == "crippled"
    assert not any(a.speed == 5 for a in s.legal_actions())  # no high speed when crippled
    with pytest.raises(IllegalAction) as err:
        s.apply(Activate(0, 5))
    assert "CRIPPLED" in err.value.rule
    play(s, Activate(0, 2), Maneuver("tight_turn", 1))
    m = events(s, "maneuver")[0]
    assert (m["bonus"], m["total"], m["success"]) == (1, 11, True)
    assert ["crippled", -2] in m["bonus_parts"]


def test_high_speed_check_needs_13():
    s = duel("Bf 109E Wingman", dice=[4, 5])
    play(s, Activate(0, 5), Maneuver("tight_turn", 1))
    m = events(s, "maneuver")[0]
    assert (m["target"], m["total"], m["success"]) == (13, 12, False)


def test_speeds_turns_and_must_move():
    s = duel("Bf 109E Wingman")
    assert [a.speed for a in s.legal_actions()] == [2, 3, 4, 5]
    s.apply(Activate(0, 2))
    # no turn before moving: the first action enters a hex; no "end move" early
    with pytest.raises(IllegalAction):
        s.apply(EndMove())
    legal = s.legal_actions()
    assert legal[:3] == [STRAIGHT, L, R]
    play(s, L, L)  # one hex side per hex entered, consecutive hexes fine at normal speed
    assert where(s, 0) == ((-1, -1), 4, 3)
    assert s.phase == "attack" or s.turn == 2


def test_altitude_limits_on_maneuvers():
    s = duel("Bf 109E Wingman", alt=6)
    s.apply(Activate(0, 2))
    kinds = {(a.kind, a.option) for a in s.legal_actions() if isinstance(a, Maneuver)}
    assert ("climb", 0) not in kinds and ("power_dive", 2) in kinds
    with pytest.raises(IllegalAction) as err:
        s.apply(Maneuver("climb"))
    assert "ALTITUDE" in err.value.rule
    s = duel("Bf 109E Wingman", alt=1)
    s.apply(Activate(0, 2))
    kinds = {a.kind for a in s.legal_actions() if isinstance(a, Maneuver)}
    assert "power_dive" not in kinds and "split_s" not in kinds and "climb" in kinds
    s = duel("Bf 109E Wingman", alt=2)
    s.apply(Activate(0, 2))
    assert Maneuver("power_dive", 2) not in s.legal_actions()
    assert Maneuver("power_dive", 1) in s.legal_actions()


def test_leaving_the_map_is_a_retreat_worth_half_cost():
    # 000 "THE BATTLE MAP": flying off the map = retreated; VP = half cost
    s = battle(
        [plane("Bf 109E Wingman", "axis", 0, 0, 0), plane("Hurricane Mk I", "allied", 5, -5, 3)],
        INIT_AXIS_WINS,
    )
    s.planes[1].hex = s.st.map.index(20, 0)  # top row, facing south is fine; move it to face north
    s.planes[1].facing = 0
    play(s, Activate(1, 2), STRAIGHT)
    assert s.planes[1].out == 2
    assert events(s, "retreat")[0]["edge"] == "north"
    assert s.vp == [CATALOGUE["Hurricane Mk I"].cost / 2, 0.0]  # half the Hurricane's cost
    assert s.current_side() == 0 and s.mover == -1


def test_stacking_later_arrival_goes_back_and_may_not_attack():
    # 000 "STACKING"
    s = battle(
        [
            plane("Bf 109E Wingman", "axis", 0, 2, 0),
            plane("Bf 109E Ace", "axis", 2, 0, 5),
            plane("Hurricane Mk I", "allied", -2, 2, 0),
        ],
        INIT_AXIS_WINS,
    )
    play(s, Activate(2, 2), STRAIGHT, STRAIGHT)  # Hurricane to (-2, 0)
    play(s, Activate(0, 2), STRAIGHT, STRAIGHT)  # Wingman to (0, 0) first
    play(s, Activate(1, 2), STRAIGHT, STRAIGHT)  # Ace to (0, 0) second
    st = events(s, "stacking")
    assert [e["plane"] for e in st] == [1]
    assert where(s, 1) == ((1, 0), 5, 3)  # back to its previous hex, same facing
    assert where(s, 0) == ((0, 0), 0, 3)
    # the Ace has the Hurricane dead ahead at range 3, but may not attack:
    assert can_attack(s, 1, 2)
    assert [e["side"] for e in events(s, "no_attacks")] == ["allied", "axis"]
    assert events(s, "attack") == [] and s.turn == 2


def test_stacking_allows_other_altitudes_and_enemies():
    s = battle(
        [
            plane("Bf 109E Wingman", "axis", 0, 2, 0, alt=3),
            plane("Bf 109E Ace", "axis", 2, 0, 5, alt=4),
            plane("Hurricane Mk I", "allied", 0, 3, 0),
        ],
        INIT_AXIS_WINS,
    )
    play(s, Activate(2, 3), STRAIGHT, STRAIGHT, STRAIGHT)  # Hurricane into (0, 0) too
    play(s, Activate(0, 2), STRAIGHT, STRAIGHT)
    play(s, Activate(1, 2), STRAIGHT, STRAIGHT)
    assert events(s, "stacking") == []


def _order(n_axis, n_allied, init):
    ac = [plane("Bf 109E Wingman", "axis", 3 * i, 0, 0) for i in range(n_axis)]
    ac += [plane("Hurricane Mk I", "allied", 3 * i, 8, 0) for i in range(n_allied)]
    s = battle(ac, init)
    advance(s)
    return "".join("A" if s.planes[e["plane"]].side == 0 else "L" for e in events(s, "activate"))


@pytest.mark.parametrize(
    "n_axis, n_allied, init, expect",
    [
        (2, 2, INIT_AXIS_WINS, "LALA"),  # equal: alternate, first player first
        (3, 1, INIT_AXIS_WINS, "LAAA"),  # winner has more: keeps moving after the loser runs out
        (1, 3, INIT_AXIS_WINS, "LLLA"),  # winner has fewer: opponent moves until outnumbered
        (2, 4, INIT_ALLIED_WINS, "ALALLL"),
        (4, 2, INIT_ALLIED_WINS, "AAALAL"),
        (1, 5, INIT_ALLIED_WINS, "ALLLLL"),
        (2, 3, INIT_AXIS_WINS, "LLALA"),
    ],
)
def test_unequal_numbers_order(n_axis, n_allied, init, expect):
    # 000 "UNEQUAL NUMBERS": the loser always moves first, the winner always last
    assert _order(n_axis, n_allied, init) == expect


def test_status_choice_only_with_advanced_rules():
    s = battle(
        [
            plane("Bf 109E Wingman", "axis", 0, 0, 0, alt=1),
            plane("Hurricane Mk I", "allied", 6, 0, 0, alt=6),
        ],
        INIT_AXIS_WINS,
        Rules(status=True),
    )
    play(s, Activate(1, 2), STRAIGHT, STRAIGHT)
    statuses = [a.status for a in s.legal_actions()]
    assert "climbing" not in statuses and "diving" in statuses  # 000: no Climbing at 6
    s.apply(EndMove("evading_left"))
    play(s, Activate(0, 2), STRAIGHT, STRAIGHT)
    with pytest.raises(IllegalAction) as err:
        s.apply(EndMove("diving"))  # no Diving at altitude 1
    assert "AIRCRAFT STATUS" in err.value.rule
    s.apply(EndMove("climbing"))
    assert s.planes[0].status == 2 and s.planes[1].status == 3
