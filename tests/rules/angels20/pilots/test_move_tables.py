"""The computer pilots' move tables (rules.angels20.pilots.reach) reuse a step
sequence's outcome across altitudes: built after other altitudes' tables, a table
equals the one built from nothing, and paths equal the step-by-step simulation."""

from __future__ import annotations

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


def test_paths_on_the_shared_grid_equal_the_step_by_step_paths():
    for speed, high, alt in ((3, False, 2), (6, True, 5)):
        for steps, _lo, _hi in plan_steps(speed, high, alt, 0, False, False):
            for facing in range(6):
                for ok in (True, False):
                    got = reach.simulate(steps, facing, alt, ok)
                    assert got == reach._simulate_far(steps, facing, alt, ok)
