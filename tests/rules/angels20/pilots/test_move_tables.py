"""The computer pilots' move tables (rules.angels20.pilots.reach) reuse a step
sequence's outcome across altitudes: built after other altitudes' tables, a table
equals the one built from nothing; a move longer than the shared grid walks as well."""

from __future__ import annotations

from rules.angels20.actions import STRAIGHT, Maneuver, Turn
from rules.angels20.hexmap import DIRECTIONS
from rules.angels20.pilots import reach
from rules.angels20.plans import plan_steps


def _table(speed: int, high: bool, alt: int) -> list:
    seqs = tuple(steps for steps, _lo, _hi in plan_steps(speed, high, alt, 0, False, False))
    return [
        (g.dm, g.dm_first, g.ends, g.idx, g.lo, g.hi, g.members)
        for g in reach._build_groups(seqs, 0, alt)
    ]


def test_tables_at_each_altitude_equal_tables_built_from_nothing():
    fresh = {}
    for alt in (1, 3, 6):
        reach._SEQ_OUTCOMES.clear()
        fresh[alt] = _table(4, False, alt)
    reach._SEQ_OUTCOMES.clear()
    for alt in (3, 1, 6):  # the outcomes of altitude 3 serve 1 and 6
        assert _table(4, False, alt) == fresh[alt]
    # a climb or dive shows: the ends differ by altitude
    assert fresh[1] != fresh[3]


def test_a_move_longer_than_the_shared_grid_is_walked_on_a_grid_of_its_own():
    # the walker (maneuvers.walk, tested against the engine in test_move_choices) runs on
    # a grid of relative hexes 16 steps across; a longer move walks the same way, joined
    steps = (STRAIGHT, Turn(1), Maneuver("tight_turn", -1), Maneuver("scissors", 0), STRAIGHT,
             Maneuver("break", 1), Turn(-1), Maneuver("power_dive", 2)) * 3  # fmt: skip
    for facing in range(6):
        for ok in (True, False):
            path, f, a = reach.simulate(steps, facing, 5, ok)
            head, f1, a1 = reach.simulate(steps[:12], facing, 5, ok)
            tail, f2, a2 = reach.simulate(steps[12:], f1, a1, ok)
            q, r = head[-1]
            assert path == head + tuple((q + dq, r + dr) for dq, dr in tail)
            assert (f, a) == (f2, a2)
            far, _, _ = reach.simulate((STRAIGHT,) * 30, facing, 3, ok)
            assert far[-1] == (30 * DIRECTIONS[facing][0], 30 * DIRECTIONS[facing][1])
