"""Angels 20's map described for the pages (issue 25: ``rules.tactical.describe_board``):
at every step of battles flown by the computer pilots the board can be drawn
(``board_problems``) and says where each aircraft in play is, where it faces, its altitude,
speed, status and damage, its counter, and what the optional rules put on the map."""

from __future__ import annotations

import pytest

from rules.angels20 import (
    CloudShape,
    Dice,
    Rules,
    bomber_escort,
    dogfight,
    flight,
    new_battle,
    schnellbomber,
)
from rules.angels20.actions import STATUSES
from rules.angels20.pilots import make_policy
from rules.tactical import board_problems, describe_board, phase_text

MAP_RULES = Rules(
    max_turns=6,
    status=True,
    cloud_shapes=(CloudShape(hexes=((7, 9), (8, 9)), base=2, top=4),),
    flak_fields=((8, 10, 3), (0, 0, 2)),
    barrage_balloons=((5, 12),),
)


BATTLES = {  # a battle and its seed (the pilots': seed and seed + 50), long enough to fight
    "dogfight with clouds, flak and balloons": (lambda: dogfight(MAP_RULES), 1),
    "schnellbomber": (lambda: schnellbomber(Rules.advanced(max_turns=6)), 4),
}


def _check(state, board) -> None:
    assert board_problems(board) == []
    assert (board["columns"], board["rows"]) == (state.st.map.width, state.st.map.height)
    by_id = {p["id"]: p for p in board["pieces"]}
    assert sorted(by_id) == state.in_play()
    for i, piece in by_id.items():
        p = state.planes[i]
        status = STATUSES[p.status]
        assert piece["hex"] == [p.hex % state.st.map.width, p.hex // state.st.map.width]
        assert (piece["facing"], piece["altitude"], piece["speed"]) == (
            p.facing,
            str(p.alt),
            str(p.speed),
        )
        assert piece["damaged"] == (p.damage > 0)
        assert piece["in_cloud"] == p.cloud
        assert piece["label"] == f"#{i} A{p.alt}" + ("" if status == "none" else f" {status}")
        assert f"damage {p.damage}/{state.st.hits[i]}" in piece["title"]
        bomber = state.scenario.aircraft[i].stats.is_bomber
        assert piece["shape"] == ("bomber" if bomber else "fighter")


@pytest.mark.parametrize("name", BATTLES)
def test_every_step_of_a_computer_flown_battle_is_a_drawable_board(name):
    scenario, seed = BATTLES[name]
    state = new_battle(scenario(), Dice(seed))
    pilots = [make_policy("tactical", seed), make_policy("tactical", seed + 50)]
    steps, seen_status, seen_damage = 0, False, False
    while not state.is_over():
        for side in (0, 1, None):  # nothing is hidden: every side sees the same board
            assert describe_board(state, side) == describe_board(state, 0)
        board = describe_board(state, None)
        _check(state, board)
        seen_status |= any(p["status"] for p in board["pieces"])
        seen_damage |= any(p["damaged"] for p in board["pieces"])
        assert phase_text(state).startswith(f"turn {state.turn}: {state.phase} phase")
        state.apply(pilots[state.current_side()].choose(state))
        steps += 1
    assert steps > 20, name
    _check(state, describe_board(state, None))
    assert phase_text(state) == f"game over: {state.reason}"
    assert seen_damage, f"{name}: no aircraft was ever drawn damaged"
    assert seen_status, f"{name}: the advanced rules' statuses never reached the board"


def test_the_bombers_are_drawn_as_bombers():
    fighters = (
        flight("allied", "P-40C Flying Tiger", "Hurricane Mk I"),
        flight("axis", "Bf 109E Wingman", "Bf 109E Ace"),
    )
    state = new_battle(bomber_escort(*fighters), Dice(1))
    shapes = [(p["name"], p["shape"]) for p in describe_board(state, None)["pieces"]]
    assert shapes == [
        ("#0 Medium bomber token", "bomber"),
        ("#1 Medium bomber token", "bomber"),
        ("#2 P-40C Flying Tiger", "fighter"),
        ("#3 Hurricane Mk I", "fighter"),
        ("#4 Bf 109E Wingman", "fighter"),
        ("#5 Bf 109E Ace", "fighter"),
    ]


def test_the_optional_rules_are_drawn_where_they_are():
    markers = describe_board(new_battle(dogfight(MAP_RULES), Dice(5)), None)["markers"]
    cloud, flak, corner, balloon = markers
    assert (cloud["kind"], cloud["hexes"], cloud["label"]) == (
        "cloud",
        [[7, 9], [8, 9]],
        "cloud A2-4",
    )
    assert (flak["kind"], flak["label"], flak["hexes"][0]) == ("flak", "flak A3", [8, 10])
    assert len(flak["hexes"]) == 7  # the centre and its six neighbours (000 "FLAK FIELDS")
    assert len(corner["hexes"]) < 7  # a field in the map's corner loses the hexes off it
    assert (balloon["kind"], balloon["hexes"], balloon["label"]) == (
        "balloon",
        [[5, 12]],
        "balloon A1",
    )
    assert "altitude 1" in balloon["title"]
