"""002 [2] set-up and 3a the sequence marker."""

import pytest
from airpirates_helpers import BF109, SPITFIRE, battle, mark_all, move_all, unit

from rules.airpirates.actions import IllegalAction, Mark, PassMarker, Place
from rules.airpirates.state import AirPiratesBattle
from rules.airpirates.units import Scenario, basic_game
from rules.dice import ScriptedDice


def scripted(values, **extra):
    scenario = Scenario.from_json({**basic_game(BF109, SPITFIRE), **extra})
    return AirPiratesBattle(scenario, 0, ScriptedDice(values))


def test_2a_the_high_roll_gets_the_sequence_marker():
    b = scripted([3, 7])  # axis 3, allied 7
    assert b.holder == 1 and b.current_side() == 1
    assert [r.purpose for r in b.dice.rolls] == [
        "002 2a sequence marker: axis",
        "002 2a sequence marker: allied",
    ]


def test_2a_a_tie_is_rolled_again():
    b = scripted([5, 5, 9, 2])
    assert b.holder == 0
    assert [e["event"] for e in b.log][:2] == [
        "competitive die roll tied: rolled again",
        "competitive die roll",
    ]


def test_2b_the_basic_game_gives_each_player_two_identical_units():
    units = basic_game(BF109, SPITFIRE)["units"]
    assert [u["side"] for u in units] == ["axis", "axis", "allied", "allied"]
    assert units[0]["card"] == units[1]["card"] and units[2]["card"] == units[3]["card"]


def test_2f_the_holder_places_first_on_edge_hexes_only():
    b = scripted([9, 1])  # axis holds the marker
    assert b.phase == "place" and b.current_side() == 0
    with pytest.raises(IllegalAction) as refused:
        b.apply(Place(1, (5, 5), 0))
    assert refused.value.rule == "002 '2f'" and "edge hex" in refused.value.message
    with pytest.raises(IllegalAction) as refused:
        b.apply(Place(3, (0, 5), 0))
    assert refused.value.rule == "002 '3a1'"
    b.apply(Place(1, (0, 5), 0))
    b.apply(Place(2, (0, 7), 0))
    assert b.current_side() == 1  # "Then, similarly, the other side"
    b.apply(Place(3, (27, 5), 3))
    b.apply(Place(4, (27, 8), 3))
    # 2g: the holder marks first, then the other side
    assert b.phase == "setup_mark" and b.current_side() == 0


def test_2f_every_listed_placement_is_on_the_edge():
    b = scripted([9, 1])
    places = [a for a in b.legal_actions() if isinstance(a, Place)]
    assert places and all(a.hex[0] in (0, 27) or a.hex[1] in (0, 15) for a in places)
    assert {a.facing for a in places} == set(range(6))


def two_units():
    return battle(
        [unit("axis", BF109), unit("allied", SPITFIRE, speed=4)],
        [((5, 5), 0), ((5, 10), 0)],
    )


def test_3a1_the_holder_goes_first_in_every_phase():
    b = two_units()
    assert b.phase == "setup_mark" and b.current_side() == 0
    b.apply(Mark(1, "straight"))
    assert b.current_side() == 1


def test_3a2_passing_the_marker_makes_the_other_side_go_first_from_then_on():
    b = two_units()
    assert PassMarker() in b.legal_actions()
    b.apply(PassMarker())
    assert b.holder == 1 and b.current_side() == 1
    mark_all(b, {})
    assert b.phase == "move" and b.current_side() == 1  # "and all later Phases"


def test_3b3_never_more_than_once_per_phase():
    b = two_units()
    b.apply(PassMarker())
    assert PassMarker() not in b.legal_actions()
    with pytest.raises(IllegalAction) as refused:
        b.apply(PassMarker())
    assert refused.value.rule == "002 '3b3'"


def test_3a2_only_at_the_start_of_a_phase():
    b = two_units()
    b.apply(Mark(1, "straight"))
    with pytest.raises(IllegalAction) as refused:
        b.apply(PassMarker())
    assert refused.value.rule == "002 '3a2'"
    assert "start" in refused.value.message


def test_a_new_phase_allows_a_new_pass():
    b = two_units()
    b.apply(PassMarker())
    mark_all(b, {})
    assert PassMarker() in b.legal_actions()  # a new Phase: the new holder may pass back


def test_2d_speed_and_altitude_within_the_card():
    with pytest.raises(ValueError, match="speed"):
        Scenario.from_json({"units": [unit("axis", BF109, speed=9), unit("allied", SPITFIRE)]})
    with pytest.raises(ValueError, match="altitude"):
        Scenario.from_json({"units": [unit("axis", BF109, altitude=-1), unit("allied", SPITFIRE)]})
    with pytest.raises(ValueError, match="both sides"):
        Scenario.from_json({"units": [unit("axis", BF109)]})


def test_8_the_game_ends_after_the_eighth_turn():
    b = two_units()
    while not b.is_over():
        if b.phase == "move":
            move_all(b)
        else:
            mark_all(b, {})
    assert b.turn == 8 and b.reason == "the eighth Turn has been completed"
    assert [e["event"] for e in b.log].count("change phase") == 8
