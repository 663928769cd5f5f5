"""002 [16] breaking contact, an option (3f0: "Optional Rule 16")."""

import pytest
from airpirates_helpers import BF109, SPITFIRE, battle, mark_all, move_all, unit

from rules.airpirates.actions import BreakContact, EndAnnouncements
from rules.airpirates.state import BREAK_MODIFIER
from rules.airpirates.units import Scenario
from rules.dice import ScriptedDice


def to_turn(turn, options=("break_contact",)):
    b = battle(
        [unit("axis", BF109, speed=2), unit("allied", SPITFIRE, speed=2)],
        [((5, 3), 0), ((5, 12), 0)],  # far apart: nobody fires
        marker="allied",
    )
    b.scenario = Scenario.from_json({**b.scenario.to_json(), "options": list(options)})
    seen = []
    while b.turn < turn and not b.is_over():
        seen.append(b.phase)
        if b.phase == "move":
            move_all(b)
        else:
            mark_all(b, {})
    assert "break" not in seen  # 16a1: "No breaking contact attempts ... during Turn One"
    return b


def test_16b1_the_modifiers_by_turn():
    assert BREAK_MODIFIER == {2: -6, 3: -5, 4: -4, 5: -3, 6: -2, 7: -1, 8: 0}


def test_16a2_both_sides_announce_before_any_attempt_is_resolved():
    b = to_turn(2)
    assert b.phase == "break" and b.current_side() == 1  # the holder announces first
    b.apply(BreakContact(2))
    assert b.current_side() == 0 and b.unit(2).eliminated is False  # nothing resolved yet
    b.dice = ScriptedDice([10, 3])  # 10 - 6 = 4 against 3: it breaks contact
    b.apply(EndAnnouncements())
    spit = b.unit(2)
    assert spit.disengaged and spit.eliminated
    event = [e for e in b.log if e["event"] == "broke contact"][0]
    assert (event["roll"], event["modifier"], event["against"]) == (10, -6, 3)
    assert b.is_over() and b.result()["aircraft"][1]["fate"] == "retreated"


@pytest.mark.parametrize(("rolls", "broke"), [([9, 3], False), ([10, 4], False), ([10, 3], True)])
def test_16b2_more_than_the_opponent_breaks_contact(rolls, broke):
    b = to_turn(2)
    b.apply(EndAnnouncements())
    b.dice = ScriptedDice(rolls)
    b.apply(BreakContact(1))  # its side's last unit: announcements over, attempts resolved
    assert b.unit(1).disengaged is broke
    if not broke:
        assert b.phase == "move" and b.turn == 2


def test_16b2_hits_on_a_unit_that_broke_contact_still_count():
    b = to_turn(2)
    b.unit(1).damage["wing"] = 2
    b.apply(EndAnnouncements())
    b.dice = ScriptedDice([10, 1])
    b.apply(BreakContact(1))
    assert b.victory_points()["allied"] == 2


def test_off_no_break_contact_phase():
    b = to_turn(2, options=())
    assert b.phase == "move" and not any(
        isinstance(a, BreakContact | EndAnnouncements) for a in b.legal_actions()
    )
