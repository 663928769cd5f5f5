"""A battle report from the engine's event log: one frame per logged event.

Each frame holds every aircraft's position (offset hex, facing, altitude),
status, remaining hit points and fate after that event, so the report page
can step through a battle move by move and turn by turn. Pure functions; the
page draws the frames (hex to pixel is drawing, kept out of the engine).
"""

from __future__ import annotations

import math
from typing import Any

HEX_SIZE = 18.0


def frames_from_log(log: list[dict[str, Any]], setup: dict[str, Any]) -> list[dict[str, Any]]:
    planes: dict[int, dict[str, Any]] = {}
    for i, a in enumerate(setup.get("aircraft", [])):
        stats = a["stats"]
        planes[i] = {
            "plane": i, "name": stats["name"], "side": a["side"], "col": a["col"], "row": a["row"],
            "facing": a["facing"], "alt": a["altitude"], "status": "none", "hp": stats["hits"], "hits": stats["hits"],
            "fate": "", "bomber": stats["kind"] == "bomber", "pilot": a.get("pilot") or stats["pilot"],
        }  # fmt: skip
    frames = []
    for index, event in enumerate(log):
        kind = event.get("e", "")
        plane = event.get("plane")
        if kind == "battle_start":
            for a in event.get("aircraft", []):
                p = planes.get(a["plane"])
                if p is not None:
                    p["col"], p["row"], p["facing"], p["alt"] = (
                        a["hex"][0],
                        a["hex"][1],
                        a["facing"],
                        a["alt"],
                    )
        if plane in planes and "hex" in event and event["hex"] is not None:
            p = planes[plane]
            p["col"], p["row"] = event["hex"][0], event["hex"][1]
            p["facing"] = event.get("facing", p["facing"])
            p["alt"] = event.get("alt", p["alt"])
        if plane in planes and "status" in event and isinstance(event["status"], str):
            planes[plane]["status"] = event["status"]
        if kind == "attack" and event.get("target") in planes and "hit_points" in event:
            planes[event["target"]]["hp"] = event["hit_points"]
        if kind == "destroyed" and plane in planes:
            planes[plane]["fate"] = "destroyed"
            planes[plane]["hp"] = 0
        if kind in ("retreat", "exit") and plane in planes:
            planes[plane]["fate"] = "retreated" if kind == "retreat" else "exited"
        frames.append(
            {
                "i": index,
                "turn": event.get("turn", 0),
                "text": describe(event),
                "aircraft": [dict(p) for p in planes.values()],
            }
        )
    return frames


def describe(event: dict[str, Any]) -> str:
    """One readable line per event, with its dice."""
    e = dict(event)
    kind = e.pop("e", "")
    e.pop("turn", None)
    if kind == "initiative":
        return f"Initiative: axis {e['rolls']['axis']}+{e['bonus']['axis']}={e['total']['axis']}, allied {e['rolls']['allied']}+{e['bonus']['allied']}={e['total']['allied']} → {e['winner']} wins"
    if kind == "maneuver":
        outcome = "success" if e.get("success") else "failure"
        return f"#{e['plane']} {e['maneuver'].replace('_', ' ')}: dice {e['dice']} + {e['bonus']} = {e['total']} vs {e['target']} → {outcome}"
    if kind == "attack":
        rolls = ", ".join(f"{r[0]}→{r[1]}" for r in e.get("rolls", []))
        return (
            f"#{e['attacker']} attacks #{e['target']} at range {e['range']}, {e['aspect']} (needs {e['target_number']}, modifier {e['modifier']:+d}): "
            f"[{rolls}] = {e['hits']} hits vs armor {e['armor']}/vital {e['vital_armor']} → {e['outcome']}"
        )
    if kind == "step":
        return f"#{e['plane']} step {e['n']}: {e['kind']} to {tuple(e['hex'])} facing {e['facing']} altitude {e['alt']}"
    parts = ", ".join(f"{k}={v}" for k, v in e.items() if k not in ("aircraft",))
    return f"{kind.replace('_', ' ')}: {parts}" if parts else kind.replace("_", " ")


def hex_center(col: int, row: int, size: float = HEX_SIZE) -> tuple[float, float]:
    """Flat-topped hexes in odd-q offset layout (Red Blob Games)."""
    x = size * 1.5 * col + size
    y = size * math.sqrt(3) * (row + 0.5 * (col & 1)) + size
    return round(x, 2), round(y, 2)


def hex_grid_points(width: int, height: int, size: float = HEX_SIZE) -> list[str]:
    cells = []
    for col in range(width):
        for row in range(height):
            cx, cy = hex_center(col, row, size)
            pts = " ".join(
                f"{cx + size * math.cos(math.radians(60 * k)):.1f},{cy + size * math.sin(math.radians(60 * k)):.1f}"
                for k in range(6)
            )
            cells.append(pts)
    return cells


def map_size(width: int, height: int, size: float = HEX_SIZE) -> tuple[float, float]:
    return round(size * 1.5 * width + size * 1.6, 1), round(
        size * math.sqrt(3) * (height + 0.5) + size * 1.2, 1
    )
