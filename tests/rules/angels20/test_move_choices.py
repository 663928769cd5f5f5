"""Whole moves by end hex (issue 14, movement by clicking): each end is where the engine
puts the aircraft, each maneuver check's chance is the rule's figure (000 "MANEUVER
CHECKS": 2d6 + bonus against 10, or 13 at high speed), and the book's movement examples
are among the paths offered."""

from __future__ import annotations

from engine_helpers import at, battle, plane, play, where
from test_movement import INIT_AXIS_WINS, duel

from rules.angels20 import Activate, Dice, EndMove, Rules, ScriptedDice, dogfight, new_battle
from rules.angels20.actions import STATUSES, STRAIGHT, Maneuver, Turn
from rules.angels20.move_choices import choices_json, fly, movable, move_choices
from rules.angels20.plans import legal_move_plans

L = Turn(-1)


def _p(need: int) -> float:
    """P(2d6 >= need)."""
    return sum(1 for x in range(1, 7) for y in range(1, 7) if x + y >= need) / 36


def _hex(s, q: int, r: int) -> int:
    return s.st.map.index(*at(q, r))


def _paths_to(s, plane_id: int, q: int, r: int):
    to = _hex(s, q, r)
    moves = move_choices(s, plane_id, to, per_end=50)
    assert moves is not None
    return moves, [(e, p) for e in moves.ends for p in e.paths]


def test_movement_example_1_tight_turn_path_and_its_chance():
    # 000 "Movement Example 1": the Zero (Turn +6), speed 3: forward, turn left, Tight Turn
    # left, forward, ends right behind the P-40. Needs 10 - 6 = 4 on two dice: 33/36.
    s = battle(
        [plane('A6M2 "Zeke"', "axis", 0, 0, 0), plane("P-40C Flying Tiger", "allied", -1, -1, 3)],
        INIT_AXIS_WINS,
    )
    play(s, Activate(1, 2), STRAIGHT, STRAIGHT)
    assert movable(s) == [0]
    _, found = _paths_to(s, 0, -1, 0)
    steps = (L, Maneuver("tight_turn", -1), STRAIGHT)
    [(end, path)] = [(e, p) for e, p in found if p.speed == 3 and p.steps == steps]
    assert (end.place.facing, end.place.altitude) == (3, 3)
    assert [(c.step, c.maneuver.kind, c.chance) for c in path.checks] == [(2, "tight_turn", _p(4))]
    assert path.chance == 33 / 36
    # failed, the Tight Turn is one hex side: facing 4 (000 "DIFFICULT MANEUVERS")
    assert path.failed is not None and path.failed.facing == 4
    assert path.hexes == tuple(_hex(s, *qr) for qr in [(0, -1), (-1, -1), (-1, 0)])


def test_movement_example_2_high_speed_break_needs_13():
    # 000 "Movement Example 2": speed 5 is the P-40's high speed; Break right with Roll +5
    # needs 13 - 5 = 8 on two dice: 15/36
    s = duel("P-40C Flying Tiger")
    _, found = _paths_to(s, 0, 3, -5)
    steps = (Maneuver("break", 1), STRAIGHT, L, STRAIGHT, L)
    [(_, path)] = [(e, p) for e, p in found if p.speed == 5 and p.steps == steps]
    assert [c.chance for c in path.checks] == [_p(8)] and path.chance == 15 / 36


def test_movement_example_3_split_s_chance_and_failure():
    # 000 "Movement Example 3": the Bf 109 at altitude 4, Roll +4: a Split S needs 6 (26/36);
    # failed, it flies straight ahead and still loses the altitude
    s = duel("Bf 109E Wingman", alt=4)
    steps = (Maneuver("split_s", 3), Turn(1), Turn(1))
    to = fly(s, 0, steps, True)[1].hex  # success: about, down one, two turns right
    got = move_choices(s, 0, to, per_end=50)
    assert got is not None
    path = next(p for e in got.ends for p in e.paths if p.speed == 3 and p.steps == steps)
    assert path.checks[0].chance == _p(6) == 26 / 36
    assert path.failed is not None and path.failed.altitude == 3
    fail_end = s.st.map.colrow(path.failed.hex)
    s.dice = ScriptedDice([1, 3] + INIT_AXIS_WINS * 2)  # the book's roll: 4, fails
    s.apply(path.plan())
    assert where(s, 0)[1:] == (2, 3) and s.st.map.colrow(s.planes[0].hex) == fail_end


def test_every_end_is_where_the_engine_puts_the_aircraft():
    # a Dogfight's first move: every listed path, flown by the engine with checks that
    # succeed (6, 6), ends at its end; with checks that fail (1, 1), at its if_failed
    s = new_battle(dogfight(), Dice(3))
    while s.phase != "movement":
        s.apply(s.legal_actions()[0])
    side_planes = movable(s)
    assert side_planes and all(s.planes[i].side == s.current_side() for i in side_planes)
    plane_id = side_planes[0]
    moves = move_choices(s, plane_id)
    assert moves is not None and moves.plans == len(legal_move_plans(s, plane_id))
    checked = 0
    for r in moves.reach[::4]:  # a quarter of the hexes keeps the test fast
        got = move_choices(s, plane_id, r.hex, per_end=2)
        assert got is not None and {e.place.hex for e in got.ends} == {r.hex}
        assert r.chance == max(p.chance for e in got.ends for p in e.paths)
        for end in got.ends:
            for path in end.paths:
                for dice, place in (([6] * 4, end.place), ([1] * 4, path.failed)):
                    if place is None:
                        continue
                    c = s.clone()
                    c.dice = ScriptedDice(dice)
                    c.apply(path.plan(path.statuses[0]))
                    p = c.planes[plane_id]
                    assert (p.hex, p.facing, p.alt) == (place.hex, place.facing, place.altitude)
                    checked += 1
    assert checked > 40


def test_only_the_aircraft_that_may_start_a_move():
    s = duel("Bf 109E Wingman")
    assert move_choices(s, 1) is None  # the Allied aircraft has moved
    s.apply(Activate(0, 2))
    assert movable(s) == [] and move_choices(s, 0) is None  # flown step by step now


def test_json_names_hexes_by_column_and_row_and_actions_in_engine_form():
    s = duel("Bf 109E Wingman")
    moves = move_choices(s, 0)
    assert moves is not None
    to = moves.reach[0].hex
    data = choices_json(s, move_choices(s, 0, to), to)
    assert data["to"] == list(s.st.map.colrow(to)) and data["start"]["hex"] == list(at(0, 0))
    path = data["ends"][0]["paths"][0]
    assert path["action"]["type"] == "move_plan" and path["action"]["plane"] == 0
    assert path["hexes"][-1] == data["to"] or path["if_failed"] is not None


def test_a_path_offers_the_statuses_its_plans_allow():
    # 000 "AIRCRAFT STATUS": with the status rule, the closing status is chosen with the path;
    # a plan that may end at altitude 1 cannot close diving (the engine's plans say so)
    s = battle(
        [
            plane("Bf 109E Wingman", "axis", 0, 0, 0, alt=2),
            plane("Hurricane Mk I", "allied", 10, -8, 3),
        ],
        INIT_AXIS_WINS,
        rules=Rules(status=True),
    )
    play(s, Activate(1, 2), STRAIGHT, STRAIGHT, EndMove("none"))
    to = fly(s, 0, (STRAIGHT, STRAIGHT), True)[1].hex
    got = move_choices(s, 0, to, per_end=50)
    assert got is not None
    straight = next(p for e in got.ends for p in e.paths if p.steps == (STRAIGHT, STRAIGHT))
    assert set(straight.statuses) == set(STATUSES)
    dive = next(p for e in got.ends for p in e.paths if p.steps[0] == Maneuver("power_dive", 1))
    assert "diving" not in dive.statuses and "none" in dive.statuses
    for status in straight.statuses:
        c = s.clone()
        c.apply(straight.plan(status))  # each one a legal whole move
        assert STATUSES[c.planes[0].status] == status
