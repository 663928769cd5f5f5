"""*Air Pirates* 17c, the "HONCHO" rule (option ``honcho``).

17c: "The aggressive spirit and superior aerobatics ability of a top fighter pilot could
allow for an increase by one line higher (on the Maneuver Chart) than normal when plotting
a new maneuver for an ace ... This option can only be used once per game by an air unit
piloted by an ace, and the air unit must be undamaged. The air unit is immediately
eliminated if one engine hit, one crew hit, one wing hit or one rudder hit is recorded
while the air unit is attempting to "push the envelope.""

Readings (docs/rulings.md, 'Air Pirates: the honcho rule'): "one line higher" is the chart
line one less than the card's (the maneuver completed in fewer hexes: 5d2.2), offered for
a maneuver whose line is above 1; the unit "pushes the envelope" from the marking until the
maneuver is completed (its marker removed, 5d1.3), the marker carrying ``honcho``; a hit
recorded by fire (gunfire, defensive fire) on the engine, the pilot's crew, a wing or the
rudder in that time eliminates it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import MANEUVERS, Mark
from .charts import hexes
from .hexes import ahead
from .maneuvers import line

if TYPE_CHECKING:
    from .state import AirPiratesBattle
    from .units import Unit

HONCHO = "002 '17c'"
FATAL = ("engine", "crew", "wing", "rudder")  # 17c: one hit on these while pushing


def on(battle: AirPiratesBattle) -> bool:
    return "honcho" in battle.scenario.options


def refusal(battle: AirPiratesBattle, unit: Unit, maneuver: str) -> tuple[str, str] | None:
    """Why ``unit`` may not mark ``maneuver`` one line higher now, as (rule, words)."""
    if not on(battle):
        return HONCHO, "the honcho rule is not in play (option honcho)"
    if unit.quality != "ace":
        return HONCHO, "only an air unit piloted by an ace may push the envelope"
    if unit.honcho is not None:
        return HONCHO, "an air unit may push the envelope only once per game"
    if any(unit.damage.values()) or unit.crew_other_hits or unit.fires:
        return HONCHO, "the air unit must be undamaged to push the envelope"
    if line(unit, MANEUVERS[maneuver][0]) <= 1:
        return HONCHO, "this maneuver is on the Maneuver Chart's top line: none is higher"
    return None


def legal(battle: AirPiratesBattle, units: list[Unit], may_mark: Any) -> list[Mark]:
    """The honcho marks of ``units`` (``may_mark(unit, maneuver)``: the maneuver's own
    refusal, the board's edge included)."""
    if not on(battle):
        return []
    return [
        Mark(u.id, m, True)
        for u in units
        for m in MANEUVERS
        if refusal(battle, u, m) is None and may_mark(u, m) is None
    ]


def push(battle: AirPiratesBattle, unit: Unit, action: Mark) -> None:
    """The marker just placed for ``action`` moved one chart line higher (17c)."""
    if not action.honcho or unit.marker is None or unit.hex is None:
        return
    kind, _ = MANEUVERS[action.maneuver]
    number = line(unit, kind) - 1
    path = ahead(unit.hex, unit.facing, hexes(number, unit.speed))
    unit.marker = {"maneuver": action.maneuver, "hex": path[-1], "line": number, "honcho": True}
    unit.honcho = {"turn": battle.turn, "impulse": battle.impulse, "maneuver": action.maneuver}
    battle._record(
        "pushed the envelope", HONCHO, unit=unit.id, maneuver=action.maneuver,
        hex=list(path[-1]), hexes=len(path), line=number,
    )  # fmt: skip


def pushing(unit: Unit) -> bool:
    return unit.marker is not None and bool(unit.marker.get("honcho"))


def fatal_hit(unit: Unit, part: str) -> str | None:
    """17c: the rule eliminating ``unit`` for a ``part`` hit just recorded, or None."""
    return HONCHO if part in FATAL and pushing(unit) else None
