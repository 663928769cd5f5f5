"""Movement by maneuver markers (002 [5]) with the limits of 3e, 13b3 and 14b.

One pure function says why a marker may not be placed (:func:`refusal`), shared by the
legal actions and the refusal of :meth:`AirPiratesBattle.apply`; :func:`plan` says where
the marker goes and the hexes the unit will cross; :func:`step` moves a unit its hex of
the impulse and completes the maneuver on entering the marker's hex (5d1.2, 5d1.3).
"""

from __future__ import annotations

from typing import Any

from .actions import MANEUVERS
from .charts import hexes
from .hexes import Hex, ahead, distance, neighbour
from .units import Unit

MARKING = "002 '5c'"
CHART = "002 '5d2.2'"
STRAIGHT = "002 '5d3'"
HALF_LOOP = "002 '5d4'"
TIGHT_TURN = "002 '5d6'"
ROLL = "002 '5d7' (docs/rulings.md, 'Air Pirates: the roll')"
MIN_SPEED = "002 '3e2'"
GREEN = "002 '14b1.3'"
INEXPERIENCED = "002 '14b2.3'"
WINGS = "002 '13b3.5'"
FUSELAGE = "002 '13b3.6'"
RUDDER = "002 '13b3.7'"

SLOWING = ("half_loop", "tight_turn")  # completing one costs a speed (5d4, 5d6)


def line(unit: Unit, kind: str) -> int:
    """The Maneuver Chart line the card prints for ``kind``; the number after the "/"
    once the rudder is hit (13b3.7). A straight's line is 1 unless printed (5d3)."""
    damaged = unit.damage.get("rudder", 0) >= 1
    if kind == "straight":
        printed = unit.card.get("straight_number", 1)
        return int(unit.card.get("straight_number_damaged", printed + 1) if damaged else printed)
    return int(unit.card[f"{kind}_number_damaged" if damaged else f"{kind}_number"])


def refusal(unit: Unit, maneuver: str) -> tuple[str, str] | None:
    """Why ``unit`` may not be marked for ``maneuver`` now, as (rule, words); None if it may.
    The board's edge (3b) is the battle's to check: it moves every unit."""
    kind, _ = MANEUVERS[maneuver]
    if unit.quality == "green" and kind in ("half_loop", "tight_turn"):
        return GREEN, "a green pilot may not perform half loop or tight turn maneuvers"
    if unit.quality == "inexperienced" and kind == "half_loop":
        return INEXPERIENCED, "an inexperienced pilot may not perform half loop maneuvers"
    if unit.damage.get("wing", 0) >= 2 and kind in ("tight_turn", "half_loop", "roll"):
        return WINGS, "after a second wing hit no tight turn, half-loop or roll may be performed"
    if unit.damage.get("fuselage", 0) >= 3 and kind in ("half_loop", "roll"):
        return FUSELAGE, "after the third fuselage hit no half-loop or roll may be performed"
    if kind in SLOWING and unit.speed - 1 < unit.card["min_speed"]:
        return MIN_SPEED, (
            f"completing a {kind.replace('_', ' ')} would take speed {unit.speed} below the "
            f"minimum speed {unit.card['min_speed']}"
        )
    return None


def plan(unit: Unit, maneuver: str) -> dict[str, Any]:
    """Where the marker goes and what the unit crosses: the marker ``hexes(line, speed)``
    straight ahead (5c, 5d2.2), the path to it, and the hex the unit ends in (a roll's
    sideways shift, 5d7)."""
    assert unit.hex is not None
    kind, pivot = MANEUVERS[maneuver]
    number = line(unit, kind)
    path = ahead(unit.hex, unit.facing, hexes(number, unit.speed))
    end = path[-1]
    if kind == "roll":
        before = path[-2] if len(path) > 1 else unit.hex
        end = neighbour(before, unit.facing + pivot)
    return {"maneuver": maneuver, "hex": path[-1], "line": number, "path": path, "end": end}


def step(unit: Unit) -> dict[str, Any]:
    """002 5b1: the unit moves one hex straight ahead; in its marker's hex the maneuver is
    completed (5d1.3): pivoted (5d4-5d6) or shifted (5d7), the marker removed and the speed
    reduced where due (5b2). Returns what happened, for the log."""
    assert unit.hex is not None and unit.marker is not None
    start = unit.hex
    unit.hex = neighbour(start, unit.facing)
    event: dict[str, Any] = {"unit": unit.id, "from": list(start), "to": list(unit.hex)}
    if unit.hex != tuple(unit.marker["hex"]):
        event["completed"] = None  # 5d1.2: the marker stays
        return event
    maneuver = unit.marker["maneuver"]
    kind, pivot = MANEUVERS[maneuver]
    if kind == "roll":
        unit.hex = neighbour(start, unit.facing + pivot)  # 5d7: shifted beside, facing kept
        event["to"] = list(unit.hex)
    else:
        unit.facing = (unit.facing + pivot) % 6
    if kind in SLOWING:  # never below the minimum (3e2; ruling "A slowing maneuver at the
        # minimum speed": the Change Phase may have slowed it since it was marked)
        unit.speed = max(unit.speed - 1, int(unit.card["min_speed"]))
        event["speed"] = unit.speed
    unit.marker = None
    event["completed"] = maneuver
    event["facing"] = unit.facing
    return event


def roll_end(marker_hex: Hex, facing: int, pivot: int) -> Hex:
    """5d7 (ruling): the hex a roll completing in ``marker_hex`` ends in: beside it, the
    hex ahead-and-to-the-side of the hex before it."""
    return neighbour(neighbour(marker_hex, facing + 3), facing + pivot)


def crossing(unit: Unit) -> list[Hex]:
    """Every hex ``unit`` is in until its marked maneuver completes (3b)."""
    if unit.eliminated or unit.hex is None:
        return []
    out = [unit.hex]
    if unit.marker is not None:
        target = tuple(unit.marker["hex"])
        out += ahead(unit.hex, unit.facing, distance(unit.hex, target))
        kind, pivot = MANEUVERS[unit.marker["maneuver"]]
        if kind == "roll":
            out.append(roll_end(target, unit.facing, pivot))
    return out
