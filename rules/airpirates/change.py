"""The Change Phase of 002 [7]: each air unit's new altitude and speed, chosen by its player
from the Engine Chart, within the limits of 3e2-3e4 and of its damage (13b3.2-13b3.3).

The Engine Chart printed on the control card is not in the scan; it is rebuilt in
docs/rulings.md, "Air Pirates: the Change Phase and the Engine Chart". Its columns are the
engine power ratings (7a) with the "Damaged" column before them (13b3.2), its rows the
altitude change (7b); a cell is the range of speed changes allowed with that change.

A unit's choice is a :class:`rules.airpirates.actions.Change` (its new altitude and speed);
:func:`options` lists the allowed ones and :func:`refusal` says which rule refuses another.
"""

from __future__ import annotations

from typing import Any

from .units import Unit

CHANGE = "002 [7]"
RATING = "002 '7a'"
PROCEDURE = "002 '7b' (docs/rulings.md, 'Air Pirates: the Change Phase and the Engine Chart')"
MINIMUM = "002 '3e2'"
ALTITUDE = "002 '3e3'"
SPEED = "002 '3e4'"
DAMAGED = "002 '13b3.2'"
TWIN = "002 '13b3.2.1'"
CREW = "002 '13b3.3'"
ZOOM = "002 '17d' ZOOM CLIMB"

# 13b3.2's "Damaged" column, then the ratings of 7a from the worst (the card's choices)
COLUMNS = ("damaged", "poor", "fair", "average", "good", "excellent")
DIVE_ROWS = 2  # 20h1: diving 3 levels uses "the Dive 2 Levels chart for speed changes"
TWIN_LOSS = 2  # 13b3.2.1: "the maximum level speed and diving speed is reduced by two"


def chart_cell(altitude_change: int, column: str) -> tuple[int, int]:
    """The Engine Chart's cell: the lowest and highest speed change allowed with
    ``altitude_change`` (levels climbed, negative when dived) in ``column`` (ruling).

    In half speeds, the column is worth 0 (damaged) to 5 (excellent); a level climbed
    costs 3, a level dived gives 3 (two at most); the highest change is half the total,
    rounded down. Slowing is the throttle's: 2 in level flight, 2 more and one per level
    climbed, 1 in a dive."""
    power = COLUMNS.index(column)
    if altitude_change > 0:
        return -2 - altitude_change, (power - 3 * altitude_change) // 2
    if altitude_change == 0:
        return -2, power // 2
    dived = min(-altitude_change, DIVE_ROWS)
    return -1, (power + 3 * dived) // 2


def row_name(altitude_change: int) -> str:
    if altitude_change == 0:
        return "Level"
    levels = abs(altitude_change)
    word = "Climb" if altitude_change > 0 else "Dive"
    return f"{word} {levels} Level{'s' if levels > 1 else ''}"


def engine_chart(climb: int = 3, dive: int = 3) -> dict[str, dict[str, str]]:
    """The chart as a card would print it: row name -> column -> ``"-3..+1"``."""

    def cell(low: int, high: int) -> str:
        return f"{low:+d}..{high:+d}" if low != high else f"{low:+d}"

    return {
        row_name(a): {c: cell(*chart_cell(a, c)) for c in COLUMNS}
        for a in range(climb, -dive - 1, -1)
    }


def ratings(unit: Unit, zoom: bool = False) -> dict[str, str]:
    """7a: the engine power rating for level flight, climbing and diving: the card's
    rating (17d: one the card states for all three), the "Damaged" column from the first
    engine hit (13b3.2), and the climb rating one higher in a zoom climb (17d)."""
    base = "damaged" if unit.damage["engine"] >= 1 else str(unit.card["engine_rating"])
    climb = COLUMNS[min(COLUMNS.index(base) + 1, len(COLUMNS) - 1)] if zoom else base
    return {"level": base, "climb": climb, "dive": base}


def speed_limits(unit: Unit) -> dict[str, int]:
    """3e2-3e4: the minimum, level and dive speed, the last two reduced by two once a
    multi-engined unit has two engine hits (13b3.2.1), never below the minimum."""
    low = int(unit.card["min_speed"])
    loss = TWIN_LOSS if unit.card["engines"] >= 2 and unit.damage["engine"] >= 2 else 0
    level = max(low, int(unit.card["level_speed"]) - loss)
    dive = max(low, int(unit.card["dive_speed"]) - loss)
    return {"minimum": low, "level": level, "dive": dive}


def altitude_limits(unit: Unit) -> tuple[int, int]:
    """3e3 and 13b3.3: the lowest and highest altitude the unit may change to now."""
    up, down = int(unit.card["climb"]), int(unit.card["dive"])
    if unit.damage["crew"] >= 1:
        up, down = min(up, 1), min(down, 1)
    top = int(unit.card["max_altitude"])
    return max(0, unit.altitude - down), min(top, unit.altitude + up)


def may_zoom(unit: Unit, turn: int, option: bool) -> bool:
    """17d: with the option, a unit that in the previous Change Phase dived at least one
    level to its maximum (dive) speed, and has not been slowed since (a completed tight
    turn or half loop costs a speed, 5d4, 5d6), climbs one rating higher."""
    last = unit.last_change
    return bool(
        option and last is not None and last["turn"] == turn - 1 and last["dived"] >= 1
        and last["at_max"] and unit.speed == last["speed"]
    )  # fmt: skip


def speeds(unit: Unit, altitude: int, zoom: bool = False) -> list[int]:
    """The speeds allowed with a change to ``altitude`` (empty when 3e2 leaves none)."""
    change = altitude - unit.altitude
    kind = "climb" if change > 0 else "dive" if change < 0 else "level"
    low, high = chart_cell(change, ratings(unit, zoom)[kind])
    cap = top_speed(unit, change < 0)
    if unit.speed + low > cap:  # 3e4: the dive speed "can never be exceeded"
        return [cap]
    least = int(unit.card["min_speed"])
    return list(range(max(least, unit.speed + low), min(cap, unit.speed + high) + 1))


def top_speed(unit: Unit, diving: bool) -> int:
    """3e4: the highest speed allowed: the dive speed when diving; else the level speed,
    or the present speed where it is higher (3e4 forbids increasing a speed beyond the
    level speed, not keeping one), never beyond the dive speed."""
    limits = speed_limits(unit)
    if diving:
        return limits["dive"]
    return max(limits["level"], min(unit.speed, limits["dive"]))


def options(unit: Unit, zoom: bool = False) -> list[tuple[int, int]]:
    """Every (altitude, speed) the unit may change to in this Change Phase."""
    low, high = altitude_limits(unit)
    return [(a, s) for a in range(low, high + 1) for s in speeds(unit, a, zoom)]


def refusal(unit: Unit, altitude: int, speed: int, zoom: bool = False) -> tuple[str, str] | None:
    """Why 002 refuses this change, naming the rule, or None."""
    top = int(unit.card["max_altitude"])
    if not 0 <= altitude <= top:
        return ALTITUDE, f"altitude {altitude} is outside 0 to the card's {top}"
    change = altitude - unit.altitude
    if unit.damage["crew"] >= 1 and abs(change) > 1:
        return CREW, "with a crew hit no altitude change may exceed one level a turn"
    if change > unit.card["climb"]:
        return ALTITUDE, f"the card allows a climb of {unit.card['climb']} levels at most"
    if -change > unit.card["dive"]:
        return ALTITUDE, f"the card allows a dive of {unit.card['dive']} levels at most"
    limits = speed_limits(unit)
    twin = limits["level"] < unit.card["level_speed"]
    if speed < limits["minimum"]:
        return MINIMUM, f"speed {speed} is below the minimum speed {limits['minimum']}"
    if speed > limits["dive"]:
        why = "the dive speed, reduced by two engine hits," if twin else "the dive speed"
        return (TWIN if twin else SPEED), f"speed {speed} exceeds {why} {limits['dive']}"
    if change >= 0 and speed > top_speed(unit, False):
        if twin and speed <= unit.card["level_speed"]:
            return TWIN, f"two engine hits reduce the level speed to {limits['level']}"
        return SPEED, (
            f"speed {speed} is above the level speed {limits['level']} (and the present speed "
            f"{unit.speed}): only a dive increases it so"
        )
    allowed = speeds(unit, altitude, zoom)
    if not allowed:
        return MINIMUM, f"{row_name(change).lower()} would take the speed below the minimum"
    if speed not in allowed:
        kind = "climb" if change > 0 else "dive" if change < 0 else "level"
        column = ratings(unit, zoom)[kind]
        zoomed = " (a zoom climb, 17d)" if zoom and kind == "climb" else ""
        return (DAMAGED if column == "damaged" else PROCEDURE), (
            f"the Engine Chart's {column} column{zoomed} allows speed {allowed[0]} to "
            f"{allowed[-1]} with {row_name(change).lower()} from speed {unit.speed}"
        )
    return None


def record(unit: Unit, turn: int, altitude: int, speed: int) -> dict[str, Any]:
    """Make the change; returns the log's detail and remembers it for 17d."""
    dived = max(0, unit.altitude - altitude)
    detail = {"unit": unit.id, "altitude": [unit.altitude, altitude], "speed": [unit.speed, speed]}
    at_max = dived >= 1 and speed == speed_limits(unit)["dive"]
    unit.altitude, unit.speed = altitude, speed
    unit.last_change = {"turn": turn, "dived": dived, "speed": speed, "at_max": at_max}
    return {**detail, "dived": dived}


def steady(unit: Unit, zoom: bool = False) -> tuple[int, int]:
    """The change nearest to flying on as before: the same altitude, the speed nearest
    the present one (for scripted play and tests)."""
    return min(options(unit, zoom), key=lambda o: (o[0] != unit.altitude, abs(o[1] - unit.speed)))
