"""002 3b, "Air units are not allowed to exit the gameboard": no unit is placed, or marked
for a maneuver, that leaves it nothing but an exit (docs/rulings.md, 'Air Pirates: the
gameboard')."""

import pytest
from airpirates_helpers import BF109, SPITFIRE, battle, unit

from rules.airpirates.actions import MANEUVERS, IllegalAction, Mark, Place
from rules.airpirates.hexes import neighbour, on_board
from rules.airpirates.state import AirPiratesBattle
from rules.airpirates.units import Scenario, basic_game
from rules.dice import ScriptedDice

EDGES = "002 '3b' GAMEBOARD EXITS"


def placing():
    """The basic game at its set-up, the axis holding the sequence marker (2a: 9 v 1)."""
    scenario = Scenario.from_json(basic_game(BF109, SPITFIRE))
    return AirPiratesBattle(scenario, 0, ScriptedDice([9, 1]))


def test_a_unit_is_not_placed_facing_off_the_board():
    b = placing()
    with pytest.raises(IllegalAction) as refused:
        b.apply(Place(1, (0, 5), 3))  # on the west edge, facing west: every marker is off
    assert refused.value.rule == EDGES and "no maneuver" in refused.value.message
    assert b.unit(1).hex is None  # nothing placed
    b.apply(Place(1, (0, 5), 0))  # facing east, onto the board
    assert b.unit(1).hex == (0, 5)


def test_every_listed_placement_leaves_the_unit_a_way_onto_the_board():
    b = placing()
    places = [a for a in b.legal_actions() if isinstance(a, Place) and a.unit == 1]
    assert all(on_board(neighbour(a.hex, a.facing), 28, 16) for a in places)
    assert Place(1, (10, 0), 0) in places  # along the north edge
    assert Place(1, (10, 0), 5) not in places  # north-east, off it
    for a in places[::25]:  # and each is accepted as listed
        placing().apply(a)


def speed_5_spitfire(other_at):
    """A Spitfire Mk I at speed 5 six hexes from the east edge, flying east; a Bf 109E
    marked straight at ``other_at``."""
    b = battle(
        [unit("axis", BF109, speed=2), unit("allied", SPITFIRE, speed=5)],
        [(other_at, 0), ((22, 8), 0)],
    )
    b.apply(Mark(1, "straight"))
    return b


def listed(b, uid):
    return {a.maneuver for a in b.legal_actions() if isinstance(a, Mark) and a.unit == uid}


def test_a_maneuver_that_would_force_an_exit_is_forbidden():
    b = speed_5_spitfire((0, 8))  # the Bf 109 holds the west edge: no shift westward
    # a straight or a roll ends the Spitfire two hexes from the edge, still flying east: at
    # speed 5 its next marker, whatever the maneuver, lies off the board
    assert listed(b, 2) == set(MANEUVERS) - {"straight", "roll_left", "roll_right"}
    with pytest.raises(IllegalAction) as refused:
        b.apply(Mark(2, "straight"))
    assert refused.value.rule == EDGES
    assert "no maneuver that stays on the gameboard" in refused.value.message
    b.apply(Mark(2, "turn_left"))
    assert b.unit(2).marker["maneuver"] == "turn_left"


def test_the_same_maneuver_is_open_while_the_whole_battle_can_shift():
    b = speed_5_spitfire((10, 8))  # room to the west: the battle shifts, as 3b says first
    assert listed(b, 2) == set(MANEUVERS)
    b.apply(Mark(2, "straight"))


def test_when_every_maneuver_leads_to_the_edge_the_unit_still_chooses():
    b = battle(
        [unit("axis", BF109, speed=2), unit("allied", SPITFIRE, speed=4)],
        [((0, 8), 0), ((25, 8), 0)],  # two hexes short of the east edge, flying east
    )
    b.apply(Mark(1, "straight"))
    # whatever fits now leaves it facing off the board next: none is forbidden for it
    assert listed(b, 2) == {"straight", "roll_left", "roll_right", "turn_left", "turn_right"}
