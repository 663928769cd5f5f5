"""What particular hits do (002 13b3) and fires (13b4).

:func:`hit_effect` is called for each hit as it is placed, with a die to roll "again"
where 13b3 says so; it says whether a fire started and whether the hit eliminates the
unit beyond its boxes (13b3.1 is the battle's check).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .actions import MANEUVERS
from .units import Unit

ENGINE = "002 '13b3.2'"
CREW = "002 '13b3.3.1'"
FUEL = "002 '13b3.4'"
TANKS = "002 '13b3.4.1'"
WINGS = "002 '13b3.5'"
FUSELAGE = "002 '13b3.6'"
FIRES = "002 '13b4'"
EXTINGUISHED = 9  # 13b4: "A modified roll of "9" or more"

# 13b3.4, 13b3.4.1: a fuel hit starts a fire on this roll or less
FUEL_FIRE = {"yes": 3, "rudimentary": 4, "no": 5}


def hit_effect(unit: Unit, part: str, roll: Callable[[str], int]) -> dict[str, Any]:
    """The effect of one ``part`` hit just marked on ``unit``: ``{"fire": bool,
    "eliminated": rule or None, "rolls": [...]}``."""
    out: dict[str, Any] = {"fire": False, "eliminated": None}
    count = unit.damage[part]
    if part == "engine" and count == 1:
        # a "1" for jet or radial engines, "1" or "2" for inline engines
        limit = 2 if unit.card["engine_type"] == "inline" else 1
        out["fire"] = roll(f"002 13b3.2 engine fire: unit {unit.id}") <= limit
    elif part == "fuel" and count == 1:
        limit = FUEL_FIRE[unit.card["self_sealing_tanks"]]
        out["fire"] = roll(f"002 13b3.4 fuel fire: unit {unit.id}") <= limit
    elif part == "crew" and count == 1 and not unit.card["pilot_armor"]:
        killed = roll(f"002 13b3.3.1 pilot without armour: unit {unit.id}") <= 2
        out["eliminated"] = CREW if killed else None  # "the pilot is killed ... eliminated"
    kind = MANEUVERS[unit.marker["maneuver"]][0] if unit.marker else None
    if part == "wing" and count == 2 and kind in ("tight_turn", "half_loop", "roll"):
        out["eliminated"] = WINGS
    if part == "fuselage" and count == 3 and kind in ("half_loop", "roll"):
        out["eliminated"] = FUSELAGE
    return out


def extinguish_modifier(levels_dived: int) -> int:
    """13b4: "+2" per altitude level dived in the same Change Phase."""
    return 2 * levels_dived
