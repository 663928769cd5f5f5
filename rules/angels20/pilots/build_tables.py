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

from ..actions import STATUSES, Action, Maneuver
from ..aircraft import CATALOGUE
from ..plans import plan_steps
from . import reach


def table_seqs(key: tuple[Any, ...]) -> tuple[tuple[Action, ...], ...]:
    """The step sequences the planner groups for ``key`` (``Planner.step_seqs``).

    The engine's plans of the key without clouds, less those with two
    difficult maneuvers (an ability's second one, which the odds model does
    not use), in the engine's order.
    """
    speed, high, alt, required, bomber, no_turn = key
    return tuple(
        steps
        for steps, _lo, _hi in plan_steps(speed, high, alt, required, bomber, no_turn)
        if sum(type(x) is Maneuver for x in steps) <= 1
    )


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


def built_table(key: tuple[Any, ...]) -> reach.Table:
    """The facing-0 table of ``key`` built from nothing."""
    groups = reach._build_groups(table_seqs(key), 0, key[2])
    return reach._index_ends(groups), groups


def build() -> dict[str, Any]:
    """The shipped file's content: every key's table, encoded."""
    tables = {key: reach.encode_table(table_seqs(key), built_table(key)) for key in shipped_keys()}
    return {"format": reach.SHIPPED_FORMAT, "tables": tables}


def main() -> None:
    data = build()
    with open(reach.SHIPPED_FILE, "wb") as fh:
        marshal.dump(data, fh)
    size = sum(len(b) for b in data["tables"].values())
    print(f"{len(data['tables'])} tables, {size:,} bytes -> {reach.SHIPPED_FILE}", file=sys.stderr)


if __name__ == "__main__":
    main()
