"""Build the computer pilots' shipped move tables (``move_tables.marshal``).

    .venv/bin/python -m rules.angels20.pilots.build_tables

The move tables of :mod:`.reach` depend only on their key (speed, high
speed, altitude, required maneuver, bomber, no turn), never on a battle's
position, so those of every speed a catalog aircraft flies are built here
once and shipped beside the code (issue 17: the first battle of a fresh
process). Run this after a change to the movement rules (``plans.py``,
``maneuvers.py``) or to the catalog's speeds; the test
``tests/rules/angels20/pilots/test_shipped_tables.py`` fails until then.
"""

from __future__ import annotations

import marshal
import sys
from typing import Any

from ..actions import STATUSES
from ..aircraft import CATALOGUE
from . import reach
from .reach import built_seqs


def shipped_keys() -> list[tuple[Any, ...]]:
    """Every table key an aircraft of the catalog can ask for, at altitudes 1-6."""
    speeds: set[tuple[int, bool, bool]] = set()
    for card in CATALOGUE.values():
        for v in range(card.speed_min, card.speed_max + 1):
            speeds.add((v, False, card.is_bomber))
        if card.high_speed_min is not None and card.high_speed_max is not None:
            for v in range(card.high_speed_min, card.high_speed_max + 1):
                speeds.add((v, True, card.is_bomber))
    keys = []
    for speed, high, bomber in sorted(speeds):
        for alt in range(1, 7):
            for required in range(len(STATUSES)):
                # 000 "LIMITED FUEL": only bombers may be barred from turning
                for no_turn in (False, True) if bomber else (False,):
                    keys.append((speed, high, alt, required, bomber, no_turn))
    return keys


def shipped_reach_keys() -> list[tuple[Any, ...]]:
    """Every reach key (``context.reach_of``) of a catalog aircraft."""
    keys: set[tuple[Any, ...]] = set()
    for card in CATALOGUE.values():
        speeds = tuple(range(card.speed_min, card.speed_max + 1))
        # crippled, an aircraft has no high speed
        highs: list[tuple[int, ...]] = [()]
        if card.high_speed_max is not None:
            highs.append((card.high_speed_max,))
        # 000 "LIMITED FUEL": bombers may be barred from turning
        for can_turn in (True, False) if card.is_bomber else (True,):
            keys.update((speeds, h, can_turn) for h in highs)
    return sorted(keys)


def built_bins(kind: str, rkey: tuple[Any, ...], bomber: bool) -> dict[tuple[int, int, int], Any]:
    """The ``kind`` ("shoot" or "dodge") bins table of a reach key built from nothing."""
    fn = reach._shoot_table if kind == "shoot" else reach._dodge_table
    return fn(reach.reach(*rkey), bomber)


def built_table(key: tuple[Any, ...]) -> reach.Table:
    """The facing-0 table of ``key`` built from nothing."""
    groups = reach._build_groups(built_seqs(key), 0, key[2])
    return reach._index_ends(groups), groups


def build() -> dict[str, Any]:
    """The shipped file's content: every key's table, encoded."""
    keys = shipped_keys()
    tables = {key: reach.encode_table(built_seqs(key), built_table(key)) for key in keys}
    seqs = {key: reach.encode_seqs(built_seqs(key)) for key in keys}
    bins = {
        (kind, rkey, bomber): reach.encode_bins(built_bins(kind, rkey, bomber))
        for kind in ("shoot", "dodge")
        for rkey in shipped_reach_keys()
        for bomber in (False, True)
    }
    return {
        "format": reach.SHIPPED_FORMAT,
        "steps": tuple(str(a) for a in reach.STEP_CODES),
        "tables": tables,
        "seqs": seqs,
        "bins": bins,
    }


def main() -> None:
    data = build()
    with open(reach.SHIPPED_FILE, "wb") as fh:
        marshal.dump(data, fh)
    for part in ("tables", "seqs", "bins"):
        size = sum(len(b) for b in data[part].values())
        print(f"{part}: {len(data[part])}, {size:,} bytes", file=sys.stderr)
    print(f"-> {reach.SHIPPED_FILE}", file=sys.stderr)


if __name__ == "__main__":
    main()
