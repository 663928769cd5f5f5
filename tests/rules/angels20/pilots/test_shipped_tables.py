"""The computer pilots' shipped move tables (issue 17: the first battle of a fresh
process): ``rules/angels20/pilots/move_tables.marshal`` holds, for every speed a
catalog aircraft flies, exactly the tables built from nothing, so it can never go
stale silently (regenerate with ``python -m rules.angels20.pilots.build_tables``);
the tables group the engine's legal plans; without the file, or
for a key it lacks, the tables are built as before."""

from __future__ import annotations

from typing import Any

import pytest

from rules.angels20 import Dice, Rules, dogfight, flight, new_battle, standard_scenario
from rules.angels20.actions import Maneuver
from rules.angels20.phases import MOVEMENT
from rules.angels20.pilots import TacticalPolicy, reach
from rules.angels20.pilots.build_tables import (
    built_bins,
    built_table,
    shipped_keys,
    shipped_reach_keys,
)
from rules.angels20.pilots.planning import move_order
from rules.angels20.pilots.reach import built_seqs, table_seqs
from rules.angels20.plans import legal_move_plans


def _rows(table: reach.Table) -> tuple[Any, ...]:
    ends, groups = table
    return ends, [(g.dm, g.dm_first, g.ends, g.idx, g.lo, g.hi, g.members) for g in groups]


def test_the_shipped_file_equals_the_tables_built_from_nothing(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(reach, "_SHIPPED", None)  # read the file again
    blobs = reach._shipped_blobs()
    keys = shipped_keys()
    assert sorted(blobs) == sorted(keys), "run: python -m rules.angels20.pilots.build_tables"
    assert sorted(reach._shipped("seqs")) == sorted(keys)
    for key in keys:
        seqs = built_seqs(key)
        assert table_seqs(key) == seqs, key  # read from the file
        shipped = reach.decode_table(blobs[key], seqs)
        assert shipped is not None, key
        assert _rows(shipped) == _rows(built_table(key)), key


def _dogfight() -> Any:
    return new_battle(dogfight(), Dice(3))


def _standard_advanced() -> Any:
    dice = Dice(5)
    sc = standard_scenario(
        flight("axis", 'A6M2 "Zeke"', 'Ki-61 "Tony"'),
        flight("allied", "P-40C Flying Tiger", "Hurricane Mk I"),
        dice,
        rules=Rules.advanced(),
    )
    return new_battle(sc, dice)


@pytest.mark.parametrize("battle", [_dogfight, _standard_advanced])
def test_the_tables_group_the_engines_legal_plans(battle: Any):
    """Every move the engine allows an aircraft (one difficult maneuver at most, clouds aside)."""
    s = battle()
    pols = {0: TacticalPolicy(6), 1: TacticalPolicy(7)}
    keys = set()
    while not s.is_over() and len(keys) < 12:
        if s.phase == MOVEMENT and s.mover < 0:
            i = move_order(s)
            st, p = s.st, s.planes[i]
            by_speed: dict[int, list[Any]] = {}
            for pl in legal_move_plans(s, i, statuses=False):
                if not pl.clouds and sum(type(x) is Maneuver for x in pl.steps) <= 1:
                    by_speed.setdefault(pl.speed, []).append(pl.steps)
            for speed, steps in by_speed.items():
                required = p.status if st.rules.status else 0
                key = (speed, speed in st.high_speeds[i], p.alt, required, st.bomber[i], False)
                assert table_seqs(key) == tuple(steps), key
                assert key in shipped_keys()
                keys.add(key)
        s.apply_unchecked(pols[s.current_side()].choose(s))
    assert len(keys) >= 6
    if s.st.rules.status:  # a status begun in requires a maneuver (000 "Required Maneuver")
        assert any(k[3] for k in keys)


def test_the_shipped_bins_equal_the_bins_built_from_nothing(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(reach, "_SHIPPED", None)
    rkeys = shipped_reach_keys()
    assert ((2, 3), (5,), True) in rkeys  # a Spitfire, say
    assert len(reach._shipped("bins")) == 4 * len(rkeys)
    for kind in ("shoot", "dodge"):
        for rkey in rkeys:
            for bomber in (False, True):
                assert reach.shipped_bins(kind, rkey, bomber) == built_bins(kind, rkey, bomber)


def test_without_the_file_the_tables_are_built_and_the_same(monkeypatch: pytest.MonkeyPatch):
    key = (3, False, 2, 0, False, False)
    seqs = table_seqs(key)

    def tables() -> list[tuple[Any, ...]]:
        monkeypatch.setattr(reach, "_MOVE_TABLES", {})
        return [_rows(reach.groups(seqs, key, facing, 2)) for facing in (0, 4)]

    shipped = tables()
    monkeypatch.setattr(reach, "SHIPPED_FILE", "/nonexistent/move_tables.marshal")
    monkeypatch.setattr(reach, "_SHIPPED", None)
    assert reach.shipped_table(key, seqs) is None
    assert table_seqs(key) == seqs
    assert tables() == shipped


def test_a_shipped_table_made_for_other_sequences_is_not_used():
    key = (3, False, 2, 0, False, False)
    blob = reach.encode_table(table_seqs(key), built_table(key))
    assert reach.decode_table(blob, table_seqs((2, False, 2, 0, False, False))) is None


def test_a_table_read_without_its_members_reads_them_when_a_call_wants_them(
    monkeypatch: pytest.MonkeyPatch,
):
    """The planner reads a shipped table's member paths only for a move near a map
    edge or a hazard; each group's first steps are there from the start."""
    key = (3, False, 2, 0, False, False)
    seqs = table_seqs(key)
    built = built_table(key)
    monkeypatch.setattr(reach, "_MOVE_TABLES", {})
    monkeypatch.setattr(reach, "_UNREAD", {})
    ends, grps = reach.groups(seqs, key, 0, 2, members=False)
    assert all(g.members == [] for g in grps)
    assert [g.first for g in grps] == [g.members[0][0] for g in built[1]]
    assert reach.groups(seqs, key, 3, 2, members=False)[1] is grps  # still unread
    assert all(g.members == [] for g in grps)
    assert _rows(reach.groups(seqs, key, 0, 2)) == _rows(built)
    assert not reach._UNREAD
