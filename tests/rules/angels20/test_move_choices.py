"""Whole moves by end hex (issue 14, movement by clicking): each end is where the engine
puts the aircraft, each maneuver check's chance is the rule's figure (000 "MANEUVER
CHECKS": 2d6 + bonus against 10, or 13 at high speed), and the book's movement examples
are among the paths offered."""

from __future__ import annotations

import dataclasses

import pytest
from engine_helpers import at, battle, plane, play, where
from test_movement import INIT_AXIS_WINS, duel

from rules.angels20 import (
    CATALOGUE,
    Activate,
    AircraftSetup,
    Dice,
    EndMove,
    Rules,
    ScriptedDice,
    abilities,
    dogfight,
    new_battle,
)
from rules.angels20.actions import ALL_MANEUVERS, STATUSES, STRAIGHT, Maneuver, Turn
from rules.angels20.hexmap import EDGE_NAMES
from rules.angels20.maneuvers import walk
from rules.angels20.move_choices import Way, choices_json, fly, movable, move_choices
from rules.angels20.pilots import reach
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


# -- one walker of a move (maneuvers.walk): the map's and the computer pilots' -------------

BF = "Bf 109E Wingman"
# hexes on the 30 x 30 test map's edges and corners, (col, row)
EDGE_HEXES = [(0, 0), (29, 0), (0, 29), (29, 29), (15, 0), (0, 14), (29, 15), (14, 29), (1, 1)]


def _at_edge(col: int, row: int, facing: int, alt: int = 3, stats=None):
    """A Bf 109E (Axis) on hex (col, row), free to move; the Allied aircraft far away has moved."""
    setup = [
        AircraftSetup(
            stats=stats or CATALOGUE[BF], side="axis", col=col, row=row, facing=facing, altitude=alt
        ),
        plane("Hurricane Mk I", "allied", 0, 0, 3),
    ]
    s = battle(setup, INIT_AXIS_WINS)
    play(s, Activate(1, 2), STRAIGHT, STRAIGHT)
    return s


def _engine_step(s, action, dice):
    """(the state after the engine flies ``action`` with ``dice``, its check's result)."""
    c = s.clone()
    c.dice = ScriptedDice(list(dice) + [6, 6, 1, 1] * 40)  # then the Axis wins the initiative
    n = len(c.log)
    c.apply(action)
    checks = [e["success"] for e in c.log[n:] if e["e"] == "maneuver"]
    return c, (checks[0] if checks else True)


def _agrees(s, c, steps, ok) -> None:
    """Both walkers put aircraft 0 where the engine did (``c``), or off the map by its edge."""
    p0, p = s.planes[0], c.planes[0]
    m = s.st.map
    hexes, end, facing, alt = walk(m.neighbour, p0.hex, p0.facing, p0.alt, steps, ok, range(m.size))
    flown = fly(s, 0, steps, ok)
    assert flown[0] == tuple(hexes) and flown[1].facing == facing and flown[1].altitude == alt
    assert (p.facing, p.alt) == (facing, alt)
    if end < 0:  # 000 "THE BATTLE MAP": it left the map by that edge, as fly reports
        assert p.hex == -1 and p.exit_edge == EDGE_NAMES[end] == flown[1].edge
        assert flown[1].hex == -1
        return
    assert p.hex == end == flown[1].hex
    # the computer pilots' walk, relative to where the aircraft starts
    path, rel_facing, rel_alt = reach.simulate(steps, p0.facing, p0.alt, ok)
    (q0, r0), (q, r) = m.axial(p0.hex), m.axial(end)
    assert (path[-1] if path else (0, 0)) == (q - q0, r - r0)
    assert [m.axial(h) for h in hexes] == [(hq + q0, hr + r0) for hq, hr in path]
    assert (rel_facing, rel_alt) == (facing, alt)


@pytest.mark.parametrize("facing", range(6))
def test_every_step_is_walked_where_the_engine_flies_it_at_the_map_edge_too(facing):
    # every step the engine offers (straight, turns, each maneuver and option), first and
    # second of a move, at normal and high speed, from the map's edges and corners: its
    # check succeeding (6, 6) and failing (1, 1); many of them leave the map
    kinds, left = set(), 0
    for col, row in EDGE_HEXES:
        for speed in (3, 5):  # the Bf 109E's high speeds are 4-5
            s = _at_edge(col, row, facing)
            s.apply(Activate(0, speed))
            for depth in range(2):
                steps = [
                    a for a in s.legal_actions() if type(a) in (type(STRAIGHT), Turn, Maneuver)
                ]
                for a in steps:
                    for dice in ([6, 6], [1, 1]):
                        c, ok = _engine_step(s, a, dice)
                        _agrees(s, c, (a,), ok)
                        kinds.add(a.kind if type(a) is Maneuver else str(a))
                        left += c.planes[0].hex < 0
                stay = [a for a in steps if _engine_step(s, a, [6, 6])[0].planes[0].hex >= 0]
                if depth or not stay:
                    break
                s.apply(stay[0])
    assert {m.kind for m in ALL_MANEUVERS} <= kinds and left > 50


def test_whole_moves_are_walked_where_the_engine_flies_them_at_the_map_edge():
    # every whole-move plan of an aircraft in a corner, facing along the edge: flown by the
    # engine, it ends where the walkers say, or leaves the map where they say
    s = _at_edge(1, 0, 2, alt=4)
    plans = {(p.speed, p.steps): p for p in legal_move_plans(s, 0)}
    off = 0
    for plan in plans.values():
        for dice in ([6] * 4, [1] * 4):
            c, ok = _engine_step(s, plan, dice)
            _agrees(s, c, plan.steps, ok)
            off += c.planes[0].hex < 0
    assert off and len(plans) > 100


TEST_ABILITY = "Test: Steadier Further On"


@pytest.fixture
def steadier():
    """An ability whose bonus depends on where the check is rolled: +1 per hex flown before
    it this move, +1 more facing north (a test's own; removed afterwards)."""
    abilities.define(TEST_ABILITY, "test only", "tests")

    def hook(state, i: int, kind: str) -> int:
        return state.step_no + (1 if state.planes[i].facing == 0 else 0)

    abilities.register(TEST_ABILITY, "maneuver", hook)
    yield dataclasses.replace(CATALOGUE[BF], abilities=(TEST_ABILITY,))
    del abilities.ABILITIES[TEST_ABILITY]


def test_a_maneuver_ability_gives_each_check_the_chance_the_engine_rolls_against(steadier):
    # 000 "MANEUVER CHECKS" with an ability's bonus that the step and facing change: each
    # listed check's chance is the one the engine's roll has (its logged bonus and target)
    s = battle(
        [plane(BF, "axis", 0, 0, 0, stats=steadier), plane("Hurricane Mk I", "allied", 10, -8, 3)],
        INIT_AXIS_WINS,
    )
    play(s, Activate(1, 2), STRAIGHT, STRAIGHT)
    moves = move_choices(s, 0)
    assert moves is not None
    seen = set()
    for r in moves.reach[::2]:
        got = move_choices(s, 0, r.hex, per_end=4)
        assert got is not None
        for path in (p for e in got.ends for p in e.paths if p.checks):
            c, _ = _engine_step(s, path.plan(path.statuses[0]), [3, 3])
            rolled = [e for e in c.log if e["e"] == "maneuver"]
            assert [_p(e["target"] - e["bonus"]) for e in rolled] == [x.chance for x in path.checks]
            seen.add((path.checks[0].step, path.checks[0].chance))
    # the same maneuver at other steps has other chances (a memo by kind alone would not)
    assert len({chance for _, chance in seen}) >= 3 and len({step for step, _ in seen}) >= 3


# -- ways off the map (000 "THE BATTLE MAP": the aircraft retreats, or exits by its edge) --


def _left_from(c, plane_id: int) -> tuple[int, int]:
    """The hex (col, row) the engine last had ``plane_id`` in this move, before it left."""
    for e in reversed(c.log):
        if e.get("plane") == plane_id and e["e"] in ("step", "activate"):
            return tuple(e["hex"])
    raise AssertionError("the aircraft never moved")


def _flies_as_listed(s, way: Way) -> None:
    """The engine flies ``way``: its checks succeeding it leaves from the listed hex by the
    listed edge, each check rolled at the listed chance; failing, it ends where listed."""
    c, _ = _engine_step(s, way.plan(), [6] * 2 * len(way.checks))
    p = c.planes[way.plane]
    assert p.hex == -1 and p.exit_edge == way.edge
    assert _left_from(c, way.plane) == s.st.map.colrow(way.left_from)
    [left] = [e for e in c.log if e["e"] in ("retreat", "exit")]
    assert left["edge"] == way.edge
    rolled = [e for e in c.log if e["e"] == "maneuver"]
    assert [_p(e["target"] - e["bonus"]) for e in rolled] == [x.chance for x in way.checks]
    if way.failed is not None:
        c, _ = _engine_step(s, way.plan(), [1] * 2 * len(way.checks))
        p = c.planes[way.plane]
        assert (p.hex, p.facing, p.alt) == (way.failed.hex, way.failed.facing, way.failed.altitude)
        assert p.hex >= 0 or p.exit_edge == way.failed.edge


CORNERS = [(0, 0), (29, 0), (0, 29), (29, 29)]


@pytest.mark.parametrize("col,row", CORNERS + [(15, 0), (0, 14)])
def test_every_way_off_the_map_leaves_from_its_hex_by_its_edge_at_corners_too(col, row):
    # every hex and edge listed, every way off from it flown by the engine: it leaves from
    # that hex by that edge (a corner hex is left by two edges, each listed apart), each
    # check at the chance the engine rolls against; every plan that leaves is among them
    kinds, corner_edges = set(), set()
    for facing in range(6):
        s = _at_edge(col, row, facing)
        moves = move_choices(s, 0)
        assert moves is not None and moves.off_map and not moves.ways
        listed = {(x.hex, x.edge): x for x in moves.exits}
        for h in {x.hex for x in moves.exits}:
            got = move_choices(s, 0, h, per_exit=10_000)
            assert got is not None and got.exits == moves.exits
            ways = got.ways
            assert ways and all(w.left_from == h for w in ways)
            assert [w.chance for w in ways] == sorted((w.chance for w in ways), reverse=True)
            for (lh, edge), x in listed.items():
                if lh == h:
                    mine = [w for w in ways if w.edge == edge]
                    assert len(mine) == x.ways and max(w.chance for w in mine) == x.chance
            for way in ways:
                _flies_as_listed(s, way)
                kinds.update(st.kind for st in way.steps[: way.flown] if type(st) is Maneuver)
            if s.st.map.colrow(h) in CORNERS:
                corner_edges.update(w.edge for w in ways)
        # every whole-move plan that leaves the map leaves from a listed hex by a listed edge
        for plan in legal_move_plans(s, 0):
            c, _ = _engine_step(s, plan, [6] * 4)
            if c.planes[0].hex < 0:
                at_hex = s.st.map.index(*_left_from(c, 0))
                assert (at_hex, c.planes[0].exit_edge) in listed, plan
    assert {"break", "barrel_roll"} <= kinds  # sideslips off the map, not only straight on
    if (col, row) in CORNERS:
        assert len(corner_edges) == 2  # the corner hex left by both its edges


def test_the_api_json_lists_each_exit_and_its_ways_with_the_edge():
    # the corner hex 0,0 facing north-west: straight on leaves by the north edge for sure,
    # a sideslip left (Break, Barrel Roll) by the west edge if its check succeeds
    s = _at_edge(0, 0, 5)
    moves = move_choices(s, 0)
    assert moves is not None
    data = choices_json(s, moves)
    assert data["exit_paths"] == [] and data["off_map"] == moves.off_map
    by_edge = {x["edge"]: x for x in data["exits"] if x["hex"] == [0, 0]}
    assert set(by_edge) == {"north", "west"}  # the corner: each edge its own exit
    # the Bf 109E's Roll +4: 10 - 4 = 6 or more on two dice (000 "MANEUVER CHECKS")
    assert (by_edge["north"]["chance"], by_edge["west"]["chance"]) == (1.0, round(_p(6), 3))
    got = move_choices(s, 0, 0)
    ways = choices_json(s, got, 0)["exit_paths"]
    # the likeliest six listed, surest first: north
    assert len(ways) == 6 and {w["edge"] for w in ways} == {"north"} and ways[0]["chance"] == 1
    assert ways[0]["action"] == got.ways[0].plan().to_json() and ways[0]["maneuvers"] == []
    assert ways[0]["statuses"] == [got.ways[0].status] and ways[0]["clouds"] is False
    every = move_choices(s, 0, 0, per_exit=100)
    ways = choices_json(s, every, 0)["exit_paths"]
    assert len(ways) == by_edge["north"]["ways"] + by_edge["west"]["ways"]
    west = next(w for w in ways if w["edge"] == "west")
    assert [m["kind"] for m in west["maneuvers"]] in (["break"], ["barrel_roll"])
    assert west["chance"] == by_edge["west"]["chance"] and west["if_failed"]["hex"] is None


def test_a_maneuver_ability_gives_each_check_off_the_map_the_chance_the_engine_rolls(steadier):
    # as for the ends: an ability whose bonus depends on the step and facing gives each
    # check of a way off the map the chance of the engine's roll, at a turn's new facing too
    s = _at_edge(2, 1, 1, stats=steadier)
    moves = move_choices(s, 0)
    assert moves is not None and moves.exits
    chances = set()
    for h in {x.hex for x in moves.exits}:
        got = move_choices(s, 0, h, per_exit=10_000)
        assert got is not None
        for way in got.ways:
            _flies_as_listed(s, way)
            chances.update((c.step, c.chance) for c in way.checks)
    assert len({step for step, _ in chances}) >= 3 and len({c for _, c in chances}) >= 3
