"""The computer pilots' shipped move tables (issue 17: the first battle of a fresh
process): ``rules/angels20/pilots/move_tables.marshal`` holds, for every speed a
catalog aircraft flies, exactly the tables built from nothing, so it can never go
stale silently (regenerate with ``python -m rules.angels20.pilots.build_tables``);
the planner asks for the sequences the file was built from; without the file, or
for a key it lacks, the tables are built as before."""

from __future__ import annotations

from typing import Any

import pytest

from rules.angels20 import Dice, dogfight, new_battle
from rules.angels20.pilots import TacticalPolicy, play_out, reach
from rules.angels20.pilots.build_tables import built_table, shipped_keys, table_seqs


def _rows(table: reach.Table) -> tuple[Any, ...]:
    ends, groups = table
    return ends, [(g.dm, g.dm_first, g.ends, g.idx, g.lo, g.hi, g.members) for g in groups]


def test_the_shipped_file_equals_the_tables_built_from_nothing(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(reach, "_SHIPPED", None)  # read the file again
    blobs = reach._shipped_blobs()
    keys = shipped_keys()
    assert sorted(blobs) == sorted(keys), "run: python -m rules.angels20.pilots.build_tables"
    for key in keys:
        seqs = table_seqs(key)
        shipped = reach.decode_table(blobs[key], seqs)
        assert shipped is not None, key
        assert _rows(shipped) == _rows(built_table(key)), key


def test_the_planner_groups_the_sequences_the_file_was_built_from():
    s = new_battle(dogfight(), Dice(3))
    play_out(s, {0: TacticalPolicy(6), 1: TacticalPolicy(7)})
    asked = set(reach.STEP_SEQS) & set(shipped_keys())
    assert len(asked) >= 4  # the Dogfight's fighters at several speeds
    for key in asked:
        assert reach.STEP_SEQS[key] == table_seqs(key), key


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
    assert tables() == shipped


def test_a_shipped_table_made_for_other_sequences_is_not_used():
    key = (3, False, 2, 0, False, False)
    blob = reach.encode_table(table_seqs(key), built_table(key))
    assert reach.decode_table(blob, table_seqs((2, False, 2, 0, False, False))) is None
