"""What the battle pages draw of an *Air Pirates* battle (``rules.tactical.describe_board``,
``phase_text``): the gameboard with each air unit and its maneuver marker, and the phase.

The gameboard's hexes are pointy-topped in "odd-r" rows (``hexes.py``, 002 '1a'); the
pages draw flat-topped "odd-q" columns. The one is the other's mirror across the diagonal,
so the board is drawn turned: a hex (column, row) is drawn at column ``row``, row
``column``, and a facing f (clockwise from east) points at the drawn hexside (3 - f) mod 6
(clockwise from the top): east is drawn south, west north.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import bounce as bo
from .charts import ROMAN
from .units import SIDES

if TYPE_CHECKING:
    from .state import AirPiratesBattle


def drawn_hex(h: tuple[int, int] | list[int]) -> list[int]:
    """A gameboard hex where the pages draw it (mirrored across the diagonal)."""
    return [int(h[1]), int(h[0])]


def drawn_facing(facing: int) -> int:
    """A facing (0 E, clockwise) as the pages draw it (0 the top, clockwise)."""
    return (3 - facing) % 6


def describe_board(battle: AirPiratesBattle, side: int | None) -> dict[str, Any]:
    """The gameboard as ``side`` sees it (None: a spectator): nothing of 002's basic game is
    hidden; under the bounce an enemy's altitude and speed until spotted (9f, ``bounce``)."""
    pieces: list[dict[str, Any]] = []
    markers: list[dict[str, Any]] = []
    hide = bo.hidden(battle, side)
    for u in battle.units:
        if u.hex is None or u.eliminated:
            continue
        hits = sum(u.damage.values())
        alt, speed = bo.piece_text(u, hide)
        pieces.append(
            {"id": u.id, "side": u.side, "label": f"#{u.id} A{alt} S{speed}",
             "title": f"#{u.id} {u.name}, {u.side}, altitude {alt}, speed {speed}"
                      + (f", {hits} hits" if hits else ""),
             "hex": drawn_hex(u.hex), "facing": drawn_facing(u.facing),
             "altitude": alt, "speed": speed,
             "status": "damaged" if hits else "", "damaged": bool(hits)}
        )  # fmt: skip
        if u.marker is not None:
            maneuver = str(u.marker["maneuver"]).replace("_", " ")
            markers.append({"hexes": [drawn_hex(u.marker["hex"])], "label": f"#{u.id} {maneuver}"})
    return {
        "kind": "hex", "columns": battle.scenario.height, "rows": battle.scenario.width,
        "orientation": "flat-odd-q", "pieces": pieces, "markers": markers,
    }  # fmt: skip


def phase_text(battle: AirPiratesBattle) -> str:
    """Turn, impulse and phase, and who holds the sequence marker (3a)."""
    if battle.over:
        return f"game over: {battle.reason}"
    impulse = f", impulse {ROMAN[battle.impulse - 1]}" if battle.impulse else ""
    return (
        f"turn {battle.turn}{impulse}: {battle.phase_name()}; sequence marker: "
        f"{SIDES[battle.holder]}" + (" (passed this phase)" if battle.passed else "")
    )
