"""002 [5] movement by maneuver markers, with the limits of 3b, 3e2, 13b3 and 14b."""

import pytest
from airpirates_helpers import BF109, SPITFIRE, battle, last_mark, mark_all, move_all, unit

from rules.airpirates.actions import IllegalAction, Mark, Move
from rules.airpirates.hexes import ahead, distance, neighbour

FAR = ((20, 2), 0)  # the other side's unit, out of the way, flying east


def spitfire(speed=4, **extra):
    """A Spitfire Mk I (allied, unit 2) at (8, 8) facing east, a Bf 109E far away."""
    return battle(
        [unit("axis", BF109, speed=2), unit("allied", SPITFIRE, speed=speed, **extra)],
        [FAR, ((8, 8), 0)],
    )


def marker_of(b, uid):
    return b.unit(uid).marker


def play_impulse(b, choices=None):
    """The Move Phase, then the Maneuver Marking Phase (straight unless chosen)."""
    moved = move_all(b)
    mark_all(b, choices or {})
    return moved


def test_5d2_2_the_spitfire_mk1_right_roll_at_speed_4_in_impulse_iv():
    # "during the Maneuver Marking Phase of an impulse IV, a Spitfire Mk1 air unit moving at
    # speed 4 is marked to perform a right roll ... must be moved 2 hexes"
    b = spitfire()
    mark_all(b, {})
    for _ in range(3):  # impulses I, II, III: straight ahead (speed 4 moves in I, III, IV)
        play_impulse(b)
    assert b.impulse == 4 and b.phase == "move"
    move_all(b)
    assert b.phase == "mark" and b.impulse == 4 and b.unit(2).marker is None
    start = b.unit(2).hex
    b.apply(Mark(2, "roll_right"))
    mark_all(b, {})
    assert tuple(marker_of(b, 2)["hex"]) == ahead(start, 0, 2)[-1]
    assert marker_of(b, 2)["line"] == 2
    logged = [e for e in b.log if e["event"] == "marked" and e["unit"] == 2][-1]
    assert logged["hexes"] == 2 and logged["speed"] == 4
    # impulse V: no arrow in column 4; impulse VI: one hex, the roll not yet complete (5d1.2)
    assert 2 not in play_impulse(b)
    play_impulse(b)
    assert b.unit(2).hex == neighbour(start, 0) and marker_of(b, 2) is not None
    # 5d2.1: completed in turn 2, impulse I, shifted beside the marker's hex (5d7)
    assert b.turn == 2 and b.impulse == 1
    move_all(b)
    spit = b.unit(2)
    assert spit.hex == neighbour(neighbour(start, 0), 1)  # ahead and to the right
    assert spit.facing == 0 and spit.marker is None and spit.speed == 4
    assert distance(spit.hex, start) == 2


@pytest.mark.parametrize(
    ("maneuver", "facing", "speed"),
    [
        ("straight", 0, 4),  # 5d3: keeps its facing
        ("turn_right", 1, 4),  # 5d5: one hexside right
        ("turn_left", 5, 4),
        ("tight_right", 2, 3),  # 5d6: two hexsides, one speed less
        ("tight_left", 4, 3),
        ("half_loop", 3, 3),  # 5d4: three hexsides, one speed less
    ],
)
def test_5d_completing_a_maneuver_pivots_in_the_marker_hex(maneuver, facing, speed):
    b = spitfire()
    start = b.unit(2).hex
    b.apply(Mark(1, "straight"))
    b.apply(Mark(2, maneuver))
    target = tuple(marker_of(b, 2)["hex"])
    assert distance(start, target) == last_mark(b, 2)["hexes"]
    while marker_of(b, 2) is not None:
        move_all(b)
        if marker_of(b, 2) is not None:
            mark_all(b, {})
    spit = b.unit(2)
    assert spit.hex == target and spit.facing == facing and spit.speed == speed


def test_5d3_a_straight_is_line_1_and_takes_one_hex_up_to_speed_4():
    b = spitfire()
    b.apply(Mark(1, "straight"))
    b.apply(Mark(2, "straight"))
    assert marker_of(b, 2)["line"] == 1
    assert tuple(marker_of(b, 2)["hex"]) == neighbour((8, 8), 0)


def test_the_card_numbers_set_the_hexes_tight_turn_line_3_at_speed_4_takes_3():
    b = spitfire()
    b.apply(Mark(1, "straight"))
    b.apply(Mark(2, "tight_right"))
    assert last_mark(b, 2)["line"] == 3 and last_mark(b, 2)["hexes"] == 3


def test_5b_only_units_at_speeds_with_arrows_move():
    b = spitfire(speed=4)  # the Bf 109 at speed 2: impulses II and V; speed 4: I, III, IV, VI
    mark_all(b, {})
    assert [u.id for u in b.pending(0) + b.pending(1)] == [2]
    with pytest.raises(IllegalAction) as refused:
        b.apply(Move(1))
    assert refused.value.rule == "002 '3a1'" or refused.value.rule == "002 '3f'"
    b.apply(Move(2))
    mark_all(b, {})
    assert [u.id for u in b.pending(0) + b.pending(1)] == [1]  # impulse II


def test_3e2_no_speed_losing_maneuver_at_the_minimum_speed():
    b = spitfire(speed=1)  # the Spitfire's minimum speed is 1
    b.apply(Mark(1, "straight"))
    listed = {a.maneuver for a in b.legal_actions() if isinstance(a, Mark)}
    assert listed == {"straight", "roll_left", "roll_right", "turn_left", "turn_right"}
    for maneuver in ("tight_left", "half_loop"):
        with pytest.raises(IllegalAction) as refused:
            b.apply(Mark(2, maneuver))
        assert refused.value.rule == "002 '3e2'" and "minimum speed" in refused.value.message


@pytest.mark.parametrize(
    ("quality", "refused", "rule"),
    [
        ("green", {"tight_left", "tight_right", "half_loop"}, "002 '14b1.3'"),
        ("inexperienced", {"half_loop"}, "002 '14b2.3'"),
        ("average", set(), None),
        ("experienced", set(), None),
        ("ace", set(), None),
    ],
)
def test_14b_pilot_quality_limits_the_maneuvers(quality, refused, rule):
    b = spitfire(quality=quality)
    b.apply(Mark(1, "straight"))
    listed = {a.maneuver for a in b.legal_actions() if isinstance(a, Mark)}
    assert len(listed) == 8 - len(refused) and not listed & refused
    for maneuver in refused:
        with pytest.raises(IllegalAction) as error:
            b.apply(Mark(2, maneuver))
        assert error.value.rule == rule


@pytest.mark.parametrize(
    ("part", "hits", "refused", "rule"),
    [
        ("wing", 1, set(), None),
        ("wing", 2, {"tight_left", "tight_right", "half_loop", "roll_left", "roll_right"}, "002 '13b3.5'"),
        ("fuselage", 2, set(), None),
        ("fuselage", 3, {"half_loop", "roll_left", "roll_right"}, "002 '13b3.6'"),
    ],
)  # fmt: skip
def test_13b3_wing_and_fuselage_hits_limit_the_maneuvers(part, hits, refused, rule):
    b = spitfire()
    b.unit(2).damage[part] = hits
    b.apply(Mark(1, "straight"))
    listed = {a.maneuver for a in b.legal_actions() if isinstance(a, Mark)}
    assert len(listed) == 8 - len(refused)
    for maneuver in refused:
        with pytest.raises(IllegalAction) as error:
            b.apply(Mark(2, maneuver))
        assert error.value.rule == rule


def test_13b3_7_a_rudder_hit_marks_by_the_number_after_the_slash():
    b = spitfire()
    b.unit(2).damage["rudder"] = 1
    b.apply(Mark(1, "straight"))
    b.apply(Mark(2, "turn_right"))
    assert last_mark(b, 2)["line"] == 3 and last_mark(b, 2)["hexes"] == 3  # the card's "2/3"


def test_3b_the_whole_battle_shifts_to_keep_a_unit_on_the_board():
    b = battle(
        [unit("axis", BF109, speed=2), unit("allied", SPITFIRE, speed=4)],
        [((10, 8), 0), ((27, 8), 0)],  # the Spitfire on the east edge, facing off the board
    )
    b.apply(Mark(1, "straight"))
    before = [u.hex for u in b.units]
    marker = tuple(b.unit(1).marker["hex"])
    b.apply(Mark(2, "straight"))
    shift = [e for e in b.log if e["event"].startswith("the whole battle shifted")]
    assert shift and shift[0]["rule"] == "002 '3b' GAMEBOARD EXITS"
    after = [u.hex for u in b.units]
    assert after[1][0] == 26 and distance(after[0], after[1]) == distance(*before)
    assert distance(tuple(b.unit(1).marker["hex"]), after[0]) == distance(marker, before[0])
    assert all(0 <= h[0] < 28 and 0 <= tuple(b.unit(2).marker["hex"])[0] < 28 for h in after)


def test_3b_a_unit_no_maneuver_keeps_on_the_board_leaves_it():
    b = battle(
        [unit("axis", BF109, speed=2), unit("allied", SPITFIRE, speed=4)],
        [((0, 8), 3), ((27, 8), 0)],  # both face off the board from opposite edges
    )
    # every marker lies straight ahead (5c), off the board, and the Spitfire holds the other
    # edge: the Bf 109 leaves (the ruling); then the Spitfire alone can be shifted
    gone = [e for e in b.log if e.get("disengaged")]
    assert [e["unit"] for e in gone] == [1] and gone[0]["rule"] == "002 '3b' GAMEBOARD EXITS"
    assert b.is_over() and b.reason == "no air unit of one side is left in the battle"
    result = b.result()
    assert result["victory_points"] == {"axis": 0.0, "allied": 0.0} and result["winner"] is None
    assert [a["fate"] for a in result["aircraft"]] == ["retreated", "intact"]


def test_3b_a_marker_off_the_board_is_refused_when_the_battle_cannot_shift():
    b = battle(
        [unit("axis", BF109, speed=2), unit("allied", SPITFIRE, speed=4)],
        [((0, 8), 0), ((27, 8), 1)],  # the Spitfire at the east edge facing south-east
    )
    b.apply(Mark(1, "straight"))
    listed = {a.maneuver for a in b.legal_actions() if isinstance(a, Mark)}
    assert listed == {"straight"}  # one hex south-east stays on; two leave the board
    with pytest.raises(IllegalAction) as refused:
        b.apply(Mark(2, "turn_right"))
    assert refused.value.rule == "002 '3b' GAMEBOARD EXITS"
    assert "shift" in refused.value.message
