"""What the battle pages draw of an *Angels 20* battle (``rules.tactical.describe_board``,
``phase_text``; issue 25): the hex map with each aircraft in play, and what the optional
rules put on it (placed clouds, flak fields, barrage balloons), as plain data.

The map is already drawn as the pages draw every board: flat-topped hexes in odd-q
columns (``hexmap.py``, 000 "THE MAP"), facings 0-5 clockwise from the top, so hexes and
facings are passed on as they are. Nothing is hidden (000 has no hidden information): the
board is the same for either side and a spectator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import STATUSES
from .phases import OVER
from .plane import IN_PLAY
from .stats import SIDES

if TYPE_CHECKING:
    from .state import BattleState


def _piece(state: BattleState, i: int) -> dict[str, Any]:
    p = state.planes[i]
    name, side, status = state.st.names[i], SIDES[p.side], STATUSES[p.status]
    hits = state.st.hits[i]
    return {
        "id": i, "side": side, "name": name,
        "label": f"#{i} A{p.alt}" + (f" {status}" if status != "none" else ""),
        "title": f"{name}, {side}, altitude {p.alt}, speed {p.speed}, damage {p.damage}/{hits}",
        "hex": state._colrow(p.hex), "facing": p.facing,
        "altitude": str(p.alt), "speed": str(p.speed),
        "status": "" if status == "none" else status, "damaged": p.damage > 0,
        # 000 "THE COUNTERS": a bomber's counter is drawn apart from a fighter's
        "shape": "bomber" if state.scenario.aircraft[i].stats.is_bomber else "fighter",
        "in_cloud": p.cloud,  # 000 "CLOUDS": ended its move in the clouds
    }  # fmt: skip


def _around(state: BattleState, col: int, row: int) -> list[list[int]]:
    """A flak field's hexes: its centre and the neighbours on the map (000 "FLAK FIELDS")."""
    m = state.st.map
    centre = m.index(col, row)
    ring = (m.neighbour[centre * 6 + d] for d in range(6))
    return [state._colrow(h) for h in (centre, *ring) if h >= 0]


def _markers(state: BattleState) -> list[dict[str, Any]]:
    """What the optional rules place on the map, each labelled with its altitudes."""
    rules = state.scenario.rules
    clouds = [
        {
            "kind": "cloud",
            "hexes": [list(h) for h in shape.hexes],
            "label": f"cloud A{shape.base}-{shape.top}",
            "title": f"Placed cloud, altitudes {shape.base} to {shape.top} (rulebook 000, Clouds)",
        }  # fmt: skip
        for shape in rules.cloud_shapes
    ]
    flak = [
        {
            "kind": "flak",
            "hexes": _around(state, col, row),
            "label": f"flak A{alt}",
            "title": f"Flak field at altitude {alt}, centre ({col}, {row}) (rulebook 000, Flak fields)",
        }  # fmt: skip
        for col, row, alt in rules.flak_fields
    ]
    balloons = [
        {
            "kind": "balloon",
            "hexes": [[col, row]],
            "label": "balloon A1",
            "title": f"Barrage balloon at ({col}, {row}), altitude 1 (rulebook 000, Barrage balloons)",
        }  # fmt: skip
        for col, row in rules.barrage_balloons
    ]
    return clouds + flak + balloons


def describe_board(state: BattleState, side: int | None) -> dict[str, Any]:
    """The map as ``side`` sees it (the same for everyone: 000 hides nothing). Aircraft out
    of play (destroyed, retreated, exited) leave the map."""
    return {
        "kind": "hex",
        "columns": state.st.map.width,
        "rows": state.st.map.height,
        "orientation": "flat-odd-q",
        "label_room": False,  # "#3 A4 diving" fits beside the last column's hex
        "pieces": [_piece(state, p.id) for p in state.planes if p.out == IN_PLAY and p.hex >= 0],
        "markers": _markers(state),
    }


def phase_text(state: BattleState) -> str:
    """The turn and phase (000 "SEQUENCE OF PLAY"), or how the battle ended."""
    if state.phase == OVER:
        return f"game over: {state.reason}"
    return f"turn {state.turn}: {state.phase} phase; {SIDES[state.to_act]} to act"
