"""Advanced rules: tailing, initiative ties, choosing turn position, aircraft status
(000 "ADVANCED RULES")."""

from __future__ import annotations

import pytest
from engine_helpers import advance, battle, events, plane, play, pre

from rules.angels20 import (
    CATALOGUE,
    Activate,
    Attack,
    ChoosePosition,
    Decline,
    EndMove,
    IllegalAction,
    Maneuver,
    Rules,
    Turn,
)
from rules.angels20.actions import STRAIGHT
from rules.angels20.attacks import can_attack

BF, HURRI = "Bf 109E Wingman", "Hurricane Mk I"


def test_tailing_gives_plus_two_and_wins_ties():
    # Bf 109 two hexes behind the Hurricane, both facing north, same altitude
    s = battle(
        [plane(BF, "axis", 0, 2, 0), plane(HURRI, "allied", 0, 0, 0)],
        [3, 3, 4, 4],  # 6 + 2 = 8 vs 8: tie goes to the better bonus
        Rules(tailing=True),
    )
    assert s.tailing(0, 1) and not s.tailing(1, 0)
    e = events(s, "initiative")[0]
    assert e["tailing"] == {"axis": 1, "allied": 0}
    assert e["bonus"] == {"axis": 2, "allied": 0}
    assert e["total"] == {"axis": 8, "allied": 8} and e["winner"] == "axis"


def test_no_tailing_bonus_without_the_rule_and_reroll_on_full_tie():
    s = battle(
        [plane(BF, "axis", 0, 2, 0), plane(HURRI, "allied", 0, 0, 0)], [3, 3, 2, 4, 1, 1, 6, 6]
    )
    init = events(s, "initiative")
    assert [e["winner"] for e in init] == [None, "allied"]
    assert init[0]["bonus"] == {"axis": 0, "allied": 0}
    assert s.first == 0


@pytest.mark.parametrize(
    "axis_at, axis_alt, tailing",
    [
        ((0, 2), 3, True),
        ((0, 4), 3, True),  # 4 hexes
        ((0, 5), 3, False),  # 5 hexes: too far
        ((0, 2), 4, True),  # 1 altitude apart
        ((0, 2), 5, False),  # 2 apart
        ((2, -1), 3, False),  # abeam (3 o'clock spine): not in the rear half
        ((1, 1), 3, True),  # 5 o'clock spine: rear half
    ],
)
def test_tailing_geometry(axis_at, axis_alt, tailing):
    s = battle(
        [plane(BF, "axis", *axis_at, 0, alt=axis_alt), plane(HURRI, "allied", 0, 0, 0)],
        [1, 1, 1, 2],
        Rules(tailing=True),
    )
    assert s.tailing(0, 1) is tailing


def test_tailed_aircraft_must_be_in_front_half_of_tailer():
    s = battle([plane(BF, "axis", 0, 2, 3), plane(HURRI, "allied", 0, 0, 0)], [1, 1, 1, 2])
    assert not s.tailing(0, 1)  # behind, but flying away


def test_mutual_tailing_cancels():
    s = battle(
        [
            plane(BF, "axis", 0, 2, 0),
            plane(HURRI, "allied", 0, 0, 0),
            plane(HURRI, "allied", 6, 2, 0),
            plane(BF, "axis", 6, 0, 0),
        ],
        [3, 3, 3, 3, 6, 6, 1, 1],
        Rules(tailing=True),
    )
    e = events(s, "initiative")[0]
    assert e["tailing"] == {"axis": 1, "allied": 1} and e["bonus"] == {"axis": 0, "allied": 0}


def test_choosing_turn_position():
    s = battle(
        [plane(BF, "axis", 0, 2, 0), plane(HURRI, "allied", 0, -4, 3)],
        [6, 6, 1, 1],
        Rules(turn_position=True),
    )
    assert s.phase == "position" and s.current_side() == 0
    assert s.legal_actions() == [ChoosePosition(True), ChoosePosition(False)]
    s.apply(ChoosePosition(True))  # the winner chooses to be first player
    assert s.first == 0 and s.current_side() == 0 and s.phase == "movement"


def status_battle(
    axis_alt=4, allied_alt=3, axis_status="none", allied_status="none", dice=(), climb_first=False
):
    """Bf 109 (id 0) two hexes behind the Hurricane (id 1); statuses set at the end of move."""
    s = battle(
        [pre(BF, "axis", 0, 2, 0, alt=axis_alt), pre(HURRI, "allied", 0, 0, 0, alt=allied_alt)],
        [6, 6, 1, 1],
        Rules(status=True),
        pad=False,
    )
    play(s, Activate(1, 2), STRAIGHT, STRAIGHT, EndMove(allied_status))
    s.dice.extend(list(dice) + [6, 6, 1, 1] * 3)
    play(s, Activate(0, 2), STRAIGHT, STRAIGHT, EndMove(axis_status))
    return s


def test_diving_attacks_one_lower_with_bonus():
    s = status_battle(axis_alt=4, allied_alt=3, axis_status="diving", dice=[1] * 5)
    assert s.phase == "attack" and Attack(0, 1) in s.legal_actions()
    s.apply(Attack(0, 1))
    a = events(s, "attack")[0]
    assert ["diving on target below", 1] in a["modifiers"]
    # without the status, no attack one band lower
    s = status_battle(axis_alt=4, allied_alt=3, axis_status="none")
    assert s.turn == 2 and not can_attack(s, 0, 1)


def test_diving_requires_power_dive_next_move():
    s = status_battle(axis_alt=4, allied_alt=3, axis_status="diving", dice=[1] * 5)
    s.apply(Attack(0, 1))
    assert s.turn == 2
    play(s, Activate(1, 2), STRAIGHT, STRAIGHT, EndMove())
    s.apply(Activate(0, 2))
    assert s.legal_actions() == [Maneuver("power_dive", 1), Maneuver("power_dive", 2)]
    with pytest.raises(IllegalAction) as err:
        s.apply(STRAIGHT)
    assert "Required Maneuver" in err.value.rule


def test_climbing_attacks_one_higher_and_required_climb_gets_plus_four():
    s = status_battle(axis_alt=3, allied_alt=4, axis_status="climbing", dice=[1] * 5)
    assert Attack(0, 1) in s.legal_actions()
    s.apply(Attack(0, 1))
    assert s.turn == 2
    play(s, Activate(1, 2), STRAIGHT, STRAIGHT, EndMove())
    s.apply(Activate(0, 2))
    assert s.legal_actions() == [Maneuver("climb", 0)]
    s.apply(Maneuver("climb"))
    m = events(s, "maneuver")[0]
    climb = CATALOGUE[BF].climb
    assert m["bonus_parts"] == [["climb", climb], ["climbing status", 4]]
    assert m["total"] == sum(m["dice"]) + climb + 4 and m["success"]
    assert s.planes[0].alt == 4


def test_climbing_target_gives_bonus_to_better_climber():
    # Hurricane (Climb +2) climbing; the Bf 109 (Climb +4) attacks it at the same altitude
    s = status_battle(axis_alt=3, allied_alt=3, allied_status="climbing", dice=[1] * 5)
    s.apply(Attack(0, 1))
    assert ["target climbing, better climb", 1] in events(s, "attack")[0]["modifiers"]


def test_evading_penalties_stack():
    s = status_battle(
        axis_alt=3,
        allied_alt=3,
        axis_status="evading_left",
        allied_status="evading_right",
        dice=[1] * 5,
    )
    s.apply(Attack(0, 1))
    a = events(s, "attack")[0]
    assert ["attacker evading", -1] in a["modifiers"] and ["target evading", -1] in a["modifiers"]
    assert a["modifier"] == -2


def test_evading_requires_turn_or_tight_turn_that_way():
    s = status_battle(axis_alt=3, allied_alt=3, allied_status="evading_right", dice=[1] * 5)
    s.apply(Attack(0, 1))
    assert s.turn == 2
    s.apply(Activate(1, 2))
    assert s.legal_actions() == [Turn(1), Maneuver("tight_turn", 1)]
    with pytest.raises(IllegalAction):
        s.apply(Turn(-1))
    s.apply(Turn(1))
    assert STRAIGHT in s.legal_actions()  # afterwards the move is free


def test_status_effects_off_without_the_rule():
    s = battle([pre(BF, "axis", 0, 2, 0, alt=4), pre(HURRI, "allied", 0, 0, 0)], [6, 6, 1, 1])
    advance(s)
    assert s.turn == 2  # no diving status, no shot one band lower: nobody could attack
    assert Decline() not in s.legal_actions()
