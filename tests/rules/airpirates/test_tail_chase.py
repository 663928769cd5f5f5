"""002 18d TAIL CHASE (among [17]'s optional rules): a unit in the hex immediately to the
rear of an enemy marks after it, whoever holds the sequence marker."""

import pytest
from airpirates_helpers import BF109, SPITFIRE, battle, unit

from rules.airpirates.actions import IllegalAction, Mark
from rules.airpirates.units import Scenario


def chase(places, options=("tail_chase",)):
    b = battle(
        [unit("axis", BF109, speed=3), unit("allied", SPITFIRE, speed=3)], places, marker="axis"
    )
    b.scenario = Scenario.from_json({**b.scenario.to_json(), "options": list(options)})
    return b


def test_18d_the_unit_behind_marks_after_the_enemy_ahead():
    b = chase([((8, 8), 0), ((9, 8), 0)])  # the Bf 109 (axis, holding the marker) behind
    assert b.tailing(b.unit(1)) and not b.tailing(b.unit(2))
    assert b.current_side() == 1
    assert {a.unit for a in b.legal_actions() if isinstance(a, Mark)} == {2}
    with pytest.raises(IllegalAction) as refused:
        b.apply(Mark(1, "straight"))
    assert refused.value.rule == "002 '18d' TAIL CHASE"
    b.apply(Mark(2, "turn_left"))
    assert b.current_side() == 0
    b.apply(Mark(1, "turn_left"))


def test_18d_off_the_sequence_marker_decides():
    b = chase([((8, 8), 0), ((9, 8), 0)], options=())
    assert b.current_side() == 0
    b.apply(Mark(1, "straight"))


def test_18d_tails_to_tails_the_sequence_marker_decides():
    b = chase([((8, 8), 3), ((9, 8), 0)])  # back to back: each in the other's rear hex
    assert b.tailing(b.unit(1)) and b.tailing(b.unit(2))
    assert b.current_side() == 0
    b.apply(Mark(1, "straight"))
