"""The bounce (002 9f), an optional rule (option ``bounce``, with ``spotting``).

"All air units ... can only fly straight and at its initial level speed with no altitude
changes allowed until this air unit or its wingman make a tally or this air unit or its
wingman are fired upon": a held unit may mark only the straight (5c) and in the Change
Phase ([7]) keeps its altitude and its speed of the set-up (2d). ``spotting.py`` lets
units go (``battle.spotting["free"]``).

"No player should reveal his altitude or speed until spotted": an enemy's altitude and
speed are hidden from a side until one of its units has tallied it (``seen``; shown for
good once seen, as a marked rod is: docs/rulings.md, 'Air Pirates: spotting').
:func:`hidden`, :func:`redact_piece` and :func:`redact_entry` give a side's view and log
those blanks (``views.py`` of the battle layer calls them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.tactical import revealed

from .actions import MANEUVERS
from .units import SIDES

if TYPE_CHECKING:
    from .state import AirPiratesBattle
    from .units import Unit

BOUNCE = "002 '9f'"
HIDDEN = "hidden"  # what a side reads in place of an unseen enemy's altitude or speed
# log entries that tell a unit's altitude or speed, and the keys that tell them
TELLING = {
    "marked": ("speed",),
    "changed altitude and speed": ("altitude", "speed", "dived", "zoom"),
    "tallied": ("modifiers",),
    "not spotted": ("modifiers",),
}


def on(battle: AirPiratesBattle) -> bool:
    return "bounce" in battle.scenario.options and battle.spotting is not None


def held(battle: AirPiratesBattle, unit: Unit) -> bool:
    """9f: the bounce still holds ``unit`` (no tally by it or its wingman, neither fired
    upon)."""
    return on(battle) and unit.id not in battle.spotting["free"]  # type: ignore[index]


def initial_speed(battle: AirPiratesBattle, unit: Unit) -> int:
    """The speed marked at the set-up (2d; the level speed unless the scenario says)."""
    entry = battle.scenario.units[unit.id - 1]
    return int(entry.get("speed", unit.card["level_speed"]))


def mark_refusal(battle: AirPiratesBattle, unit: Unit, maneuver: str) -> tuple[str, str] | None:
    if held(battle, unit) and MANEUVERS[maneuver][0] != "straight":
        return BOUNCE, f"{unit.name} flies straight until it or its wingman makes a tally"
    return None


def change_refusal(
    battle: AirPiratesBattle, unit: Unit, altitude: int, speed: int
) -> tuple[str, str] | None:
    if not held(battle, unit):
        return None
    if altitude != unit.altitude or speed != initial_speed(battle, unit):
        return BOUNCE, (
            f"{unit.name} keeps altitude {unit.altitude} and its initial speed "
            f"{initial_speed(battle, unit)} until it or its wingman makes a tally"
        )
    return None


def hidden(battle: AirPiratesBattle, side: int | None) -> set[int]:
    """The units whose altitude and speed ``side`` may not see now: the enemies no unit of
    ``side`` has tallied yet. A spectator (None) sees no more than both sides know: every
    unit its enemies have not yet seen (a player reads nothing more logged out). After the
    battle, and in a finished battle's record (``rules.tactical.revealed``), nothing."""
    if not on(battle) or battle.over or revealed(battle):
        return set()
    seen = {(s, uid) for s, uid in battle.spotting["seen"]}  # type: ignore[index]
    if side is None:
        return {u.id for u in battle.units if (enemy_of(u.side), u.id) not in seen}
    return {u.id for u in battle.units if u.side != SIDES[side] and (SIDES[side], u.id) not in seen}


def enemy_of(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


def redact_piece(piece: dict[str, Any], hide: set[int]) -> dict[str, Any]:
    """A unit as a side sees it: an unseen enemy's altitude and speed blanked."""
    if piece.get("id") not in hide:
        return piece
    return {**piece, "altitude": HIDDEN, "speed": HIDDEN}


def redact_entry(entry: dict[str, Any], hide: set[int]) -> dict[str, Any]:
    """A log entry as a side may read it: what it tells of an unseen enemy's altitude or
    speed blanked (a spotting attempt's modifiers tell the altitude difference), the entry
    kept, so the log's indices stay."""
    keys = TELLING.get(str(entry.get("event")))
    if not keys or not {entry.get("unit"), entry.get("target")} & hide:
        return entry
    return {**entry, **{k: HIDDEN for k in keys if k in entry}}


def redact_log(battle: AirPiratesBattle, side: int | None) -> list[dict[str, Any]]:
    """The battle's log as ``side`` may read it under the bounce: every entry kept, what
    tells an unseen enemy's altitude or speed blanked (:func:`redact_entry`)."""
    hide = hidden(battle, side)
    if not hide:
        return list(battle.log)
    return [redact_entry(e, hide) for e in battle.log]


def piece_text(unit: Unit, hide: set[int]) -> tuple[str, str]:
    """Altitude and speed as a board label shows them to a side."""
    if unit.id in hide:
        return "?", "?"
    return str(unit.altitude), str(unit.speed)
