"""What the battle pages draw of an *Air Pirates* battle (``rules.tactical.describe_board``,
``phase_text``): the gameboard with each air unit and its maneuver marker, the phase and the
sequence marker; each unit's control card boxes (``units``: 13b hits by part out of its
boxes, 13b4 fires, 13b2.1 crew hits, 13a3 ammunition for its own side), and, for the unit
being marked, each legal maneuver marker with the hexes it would reach (``picks``: 5c, 5d).

The gameboard's hexes are pointy-topped in "odd-r" rows (``hexes.py``, 002 '1a'); the
pages draw flat-topped "odd-q" columns. The one is the other's mirror across the diagonal,
so the board is drawn turned: a hex (column, row) is drawn at column ``row``, row
``column``, and a facing f (clockwise from east) points at the drawn hexside (3 - f) mod 6
(clockwise from the top): east is drawn south, west north.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import ammunition as am
from . import bounce as bo
from . import maneuvers as mv
from .actions import Mark
from .units import PARTS, SIDES, Unit

if TYPE_CHECKING:
    from .state import AirPiratesBattle


# an enemy not spotted under the bounce (9f: "No player should reveal his altitude or speed
# until spotted"), on its marker's title and its control card's panel; its label "A? S?"
UNSEEN = "not spotted yet: altitude and speed unknown (002 9f)"


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
        told = UNSEEN if u.id in hide else f"altitude {alt}, speed {speed}"
        pieces.append(
            {"id": u.id, "side": u.side, "label": f"#{u.id} A{alt} S{speed}",
             "title": f"#{u.id} {u.name}, {u.side}, {told}" + (f", {hits} hits" if hits else ""),
             "hex": drawn_hex(u.hex), "facing": drawn_facing(u.facing),
             "altitude": alt, "speed": speed,
             "status": "damaged" if hits else "", "damaged": bool(hits)}
        )  # fmt: skip
        if u.marker is not None:  # drawn as the unit's side's marker, not as a cloud
            maneuver = str(u.marker["maneuver"]).replace("_", " ")
            markers.append({"hexes": [drawn_hex(u.marker["hex"])], "label": f"#{u.id} {maneuver}",
                            "title": f"#{u.id}'s maneuver marker: {maneuver} (002 5c)",
                            "kind": "maneuver", "side": u.side})  # fmt: skip
    return {
        "kind": "hex", "columns": battle.scenario.height, "rows": battle.scenario.width,
        "orientation": "flat-odd-q", "pieces": pieces, "markers": markers,
        "units": [_unit_boxes(battle, u, side, hide) for u in battle.units],
        "picks": _picks(battle, side),
    }  # fmt: skip


def _unit_boxes(
    battle: AirPiratesBattle, u: Unit, side: int | None, hide: set[int]
) -> dict[str, Any]:
    """One unit's control card as its panel shows it: hits by part out of its boxes (13b),
    fires (13b4), crew hits beyond the pilot's (13b2.1); the ammunition boxes (13a3) only
    to its own side (and to everyone once nothing is hidden: ``side`` None); an enemy the
    side has not spotted under the bounce (``hide``, 9f) said to be so."""
    parts = [{"name": p, "hits": u.damage[p], "boxes": int(u.card[f"{p}_boxes"])} for p in PARTS]
    notes = [UNSEEN] if u.id in hide and u.hex is not None and not u.eliminated else []
    notes += [f"fire in the {f['part']}" for f in u.fires]
    if u.crew_other_hits:
        notes.append(f"{u.crew_other_hits} crew hit(s) beside the pilot")
    seen = am.ammunition_visible(battle, u, side) is not None  # 13a6 (ammunition.py)
    if seen and (side is None or SIDES[side] == u.side):
        guns = [("forward", u.ammunition_used, "ammunition")]
        guns += [("rear", u.rear_ammunition_used, "rear_ammunition"),
                 ("oblique", u.oblique_ammunition_used, "oblique_ammunition")]  # fmt: skip
        for gun, used, key in guns:
            boxes = int(u.card.get(key, 0) or 0)
            if boxes:
                notes.append(f"{gun} ammunition {used} of {boxes} used")
    state = "eliminated" if u.eliminated and not u.disengaged else ""
    state = "disengaged" if u.disengaged else state
    return {"id": u.id, "side": u.side, "name": f"#{u.id} {u.name}", "parts": parts,
            "notes": notes, "status": state}  # fmt: skip


def _picks(battle: AirPiratesBattle, side: int | None) -> list[dict[str, Any]]:
    """For the unit ``side`` marks now, each legal maneuver marker (5c) with the hexes its
    unit would cross to the marker and end in (5d; a roll's shift, 5d7), drawn as the
    pages draw the board (before any shift of the whole battle from the edge, 3b)."""
    if side is None or battle.phase not in ("setup_mark", "mark"):
        return []
    if battle.current_side() != side:
        return []
    marks = [a for a in battle.legal_actions() if isinstance(a, Mark)]
    if not marks:
        return []
    unit = battle.unit(marks[0].unit)
    out = []
    for action in (a for a in marks if a.unit == unit.id):
        plan = mv.plan(unit, action.maneuver)
        reach = [*plan["path"], plan["end"]]
        hexes = [drawn_hex(h) for i, h in enumerate(reach) if h not in reach[:i]]
        label = action.maneuver.replace("_", " ")
        out.append({"action": action.to_json(), "label": label, "hexes": hexes,
                    "title": str(action)})  # fmt: skip
    return out


def phase_text(battle: AirPiratesBattle) -> str:
    """The phase (with its impulse) and who holds the sequence marker (3a); the pages
    give the turn before it."""
    if battle.over:
        return f"game over: {battle.reason}"
    marker = f"sequence marker: {SIDES[battle.holder]}"
    if battle.passed:
        marker += " (passed this phase)"
    elif battle._may_pass():
        marker += ", who may pass it now (3a2)"
    return f"{battle.phase_name()}; {marker}"
