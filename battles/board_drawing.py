"""A game's own map and words on the battle pages (issue 25): what a system describes
(``rules.tactical.describe_board``, ``phase_text``, ``log_sentence``) turned into what the
play page's server-drawn map (templates/battles/_play_board.html) and the report's frames
(battles/static/battles/report.js) draw for Angels 20, with the same hex sums
(battles.report: hex_center, hex_grid_points, map_size) and the same look.
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.html import format_html_join

from rules.tactical import (
    Board,
    TacticalSystem,
    board_problems,
    decision_odds,
    decision_side,
    describe_board,
    phase_text,
    reveal,
    system_named,
)

from .models import Battle
from .report import hex_center, hex_grid_points, hex_points, map_size

FIGHTER_SHAPE = "12,0 -7,7 -3,0 -7,-7"  # Angels 20's marker, pointing the way it faces
BOMBER_SHAPE = "11,0 -8,8 -8,-8"  # Angels 20's bomber counter (a piece's "shape": "bomber")
ROUND_SHAPE = "7,0 3.5,6 -3.5,6 -7,0 -3.5,-6 3.5,-6"  # a piece with no facing
STACK_SPREAD, STACK_LINE = 7, 1.2  # as hexmap.js: AngelsHex.stack and the report's frames
# as the play page draws them; a game's own piece markers (Air Pirates' maneuver markers,
# "maneuver", in the side's colour) apart from the clouds a marker of no kind is drawn as
FEATURES = {"clouds": "cloud", "flak": "flak", "balloons": "balloon", "maneuvers": "maneuver"}
LABEL_ROOM = 90  # px right of the grid, so a label of a piece in the last column is read whole
# a pick's tab on the map (pick_layout): its font, each row's height, the text's baseline and
# margin in a row, a letter's width (about, of the sans-serif at that size); the places beside
# its hex tried (rings, each further by a step), the room kept between tabs, and around a
# piece and another tab's hex
PICK_FONT, PICK_LINE, PICK_BASE, PICK_PAD, PICK_CHAR = 9, 12, 9, 3, 5.2
PICK_RINGS, PICK_STEP, PICK_GAP, PIECE_R, END_R = 10, 6, 1, 9, 5


def _size(board: Board) -> tuple[float, float]:
    width, height = map_size(board["columns"], board["rows"])
    return (round(width + LABEL_ROOM, 1) if board.get("label_room", True) else width), height


@functools.lru_cache(maxsize=16)
def grid_markup(columns: int, rows: int) -> str:
    """The map's hexes as SVG polygons (numbers only, so safe as markup)."""
    return format_html_join(
        "", '<polygon points="{}"/>', ((p,) for p in hex_grid_points(columns, rows))
    )


def checked_board(battle: Any, side: int | None) -> Board | None:
    """The battle's described map for ``side``, or None (no map, or one the pages cannot
    draw: its problems are the system's to fix, so the page goes on without the map)."""
    board = describe_board(battle, side)
    return board if board is not None and not board_problems(board) else None


def _label(piece: Mapping[str, object]) -> str:
    return str(piece.get("label") or f"#{piece['id']}")


def _title(piece: Mapping[str, object]) -> str:
    if piece.get("title"):
        return str(piece["title"])
    parts = [_label(piece), str(piece.get("side", ""))]
    parts += [f"{k} {piece[k]}" for k in ("altitude", "speed", "status") if piece.get(k)]
    return ", ".join(p for p in parts if p)


def _shape(piece: Mapping[str, Any]) -> str:
    if piece.get("facing") is None:
        return ROUND_SHAPE
    return BOMBER_SHAPE if piece.get("shape") == "bomber" else FIGHTER_SHAPE


def play_markers(board: Board, acting: Any = None) -> list[dict[str, Any]]:
    """The pieces as the play page's markers (the keys _play_board.html reads)."""
    out = []
    count = Counter(tuple(p["hex"]) for p in board["pieces"])
    seen: Counter[tuple[int, ...]] = Counter()
    for piece in board["pieces"]:
        here = tuple(piece["hex"])
        k, n = seen[here], count[here]
        seen[here] += 1
        x, y = hex_center(piece["hex"][0], piece["hex"][1])
        shift = STACK_SPREAD * (k - (n - 1) / 2)
        facing = piece.get("facing")
        out.append(
            {
                "id": piece["id"],
                "side": piece["side"],
                "hex": list(piece["hex"]),
                "x": round(x + shift, 1),
                "y": y,
                "lift": round((k - (n - 1)) * STACK_LINE, 2),
                "label_x": round(x + shift + 9, 1),
                "label_y": round(y - 9, 1),
                "angle": -90 + 60 * facing if facing is not None else 0,
                "shape": _shape(piece),
                "acting": acting is not None and piece["id"] == acting,
                "damage": 1 if piece.get("damaged") else 0,
                "in_cloud": bool(piece.get("in_cloud")),
                "label": _label(piece),
                "title": _title(piece),
            }
        )
    return out


def _marker_cells(board: Board, kind: str = "cloud") -> list[dict[str, Any]]:
    """The board's markers of one kind as the play page draws them (hexes, a label written
    on the first, a title); a marker of no kind is drawn as a placed cloud."""
    out = []
    for m in board["markers"]:
        if m.get("kind", "cloud") != kind:
            continue
        cells = [h for h in m["hexes"] if len(h) == 2]
        if cells:
            x, y = hex_center(cells[0][0], cells[0][1])
            out.append(
                {
                    "cells": [hex_points(c, r) for c, r in cells],
                    "label": m["label"],
                    "title": m.get("title") or m["label"],
                    "side": str(m.get("side", "")),
                    "x": x,
                    "y": y,
                }
            )
    return out


def _features(board: Board) -> dict[str, list[dict[str, Any]]]:
    return {k: _marker_cells(board, kind) for k, kind in FEATURES.items()}


def _tab_width(labels: list[str]) -> float:
    """A pick tab's width: its longest label at PICK_FONT (the sans-serif's letters are
    about PICK_CHAR wide), with room either side."""
    return round(max(len(label) for label in labels) * PICK_CHAR + 2 * PICK_PAD, 1)


def _overlaps(a: tuple[float, ...], b: tuple[float, ...], gap: float = 0.0) -> bool:
    """Do the boxes (left, top, right, bottom) ``a`` and ``b`` overlap (or come nearer
    than ``gap``)?"""
    return a[0] < b[2] + gap and b[0] < a[2] + gap and a[1] < b[3] + gap and b[1] < a[3] + gap


def _tab_places(cx: float, cy: float, w: float, h: float) -> list[tuple[float, float]]:
    """Where a hex's tab box (``w`` by ``h``) may go, best first: on the hex, then beside
    it (right, left, below, above, the corners), further out each ring."""
    places = [(cx - w / 2, cy - h / 2)]
    for ring in range(1, PICK_RINGS + 1):
        dx, dy = w / 2 + PICK_STEP * ring, h / 2 + PICK_STEP * ring
        for sx, sy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)):
            places.append((cx + sx * dx - w / 2, cy + sy * dy - h / 2))
    return places


def _place_tab(
    cx: float, cy: float, w: float, h: float, size: tuple[float, float],
    placed: Sequence[tuple[float, ...]], avoid: Sequence[tuple[float, ...]],
) -> tuple[float, float]:  # fmt: skip
    """The first of the hex's places for its tab box, moved onto the map where it would
    leave it (a hex at or past the edge: a marker may take its unit off the board, 3b),
    that covers no tab already placed (``placed``) and, where it can, no piece and no
    other tab's hex (``avoid``); on the hex itself if every place is taken."""
    on_map = list(dict.fromkeys(
        (min(max(x, 0), size[0] - w), min(max(y, 0), size[1] - h))
        for x, y in _tab_places(cx, cy, w, h)
    ))  # fmt: skip
    for keep_clear in ([*placed, *avoid], placed):
        for x, y in on_map:
            if not any(_overlaps((x, y, x + w, y + h), b, PICK_GAP) for b in keep_clear):
                return x, y
    return on_map[0]


def _leader(cx: float, cy: float, box: tuple[float, ...]) -> dict[str, float] | None:
    """A line from the hex's centre to the nearest point of its tab box, when the box is
    moved off it (None: the box lies on the hex's centre)."""
    x = min(max(cx, box[0]), box[2])
    y = min(max(cy, box[1]), box[3])
    if (x, y) == (cx, cy):
        return None
    return {"x1": cx, "y1": cy, "x2": round(x, 1), "y2": round(y, 1)}


def pick_layout(board: Board) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The board's ``picks`` (rules.tactical.BoardPick) as the play page draws them: one
    tab per hex that picks end in, listing those picks one under another, each its own
    button carrying the decision as the choices list posts it (the same JSON), so a click
    picks that choice. A tab sits on its hex unless it would cover another tab (then
    beside it, with a line to its hex), so no two tabs overlap and each is read whole.
    Returns the picks (in the board's order) and what is drawn under them: every hex a
    pick reaches, faintly, each hex a tab stands for outlined, and the lines."""
    size = _size(board)
    chosen = [p for p in board.get("picks", []) if p.get("hexes")]
    ends: dict[tuple[int, ...], list[int]] = {}
    for i, pick in enumerate(chosen):
        ends.setdefault(tuple(pick["hexes"][-1]), []).append(i)
    centres = {h: hex_center(h[0], h[1]) for h in ends}
    avoid = [(x - PIECE_R, y - PIECE_R, x + PIECE_R, y + PIECE_R)
             for x, y in (hex_center(p["hex"][0], p["hex"][1]) for p in board["pieces"])]  # fmt: skip
    placed: list[tuple[float, ...]] = []
    rows: dict[int, dict[str, Any]] = {}
    tabs = []
    for end, members in ends.items():
        cx, cy = centres[end]
        w = _tab_width([chosen[i]["label"] for i in members])
        h = PICK_LINE * len(members)
        others = [(x - END_R, y - END_R, x + END_R, y + END_R)
                  for e, (x, y) in centres.items() if e != end]  # fmt: skip
        x, y = _place_tab(cx, cy, w, h, size, placed, avoid + others)
        box = (x, y, x + w, y + h)
        placed.append(box)
        tabs.append({"cells": hex_points(end[0], end[1]), "leader": _leader(cx, cy, box),
                     "x": round(x, 1), "y": round(y, 1), "w": w, "h": h})  # fmt: skip
        for k, i in enumerate(members):
            rows[i] = {"x": round(x, 1), "y": round(y + PICK_LINE * k, 1), "w": w,
                       "tx": round(x + PICK_PAD, 1),
                       "ty": round(y + PICK_LINE * k + PICK_BASE, 1)}  # fmt: skip
    picks = [
        {
            "json": json.dumps(pick["action"], sort_keys=True),
            "label": pick["label"],
            "title": pick.get("title", pick["label"]),
            "cells": [hex_points(c, r) for c, r in pick["hexes"]],
            "h": PICK_LINE,
            **rows[i],
        }
        for i, pick in enumerate(chosen)
    ]
    reached = list(dict.fromkeys(tuple(h) for p in chosen for h in p["hexes"]))
    under = {"reach": [hex_points(c, r) for c, r in reached], "tabs": tabs}
    return picks, under


def play_picks(board: Board) -> list[dict[str, Any]]:
    """The picks of :func:`pick_layout` alone (each with its row of its hex's tab)."""
    return pick_layout(board)[0]


def unit_panels(board: Board) -> list[dict[str, Any]]:
    """The board's ``units`` (rules.tactical.BoardUnit): each unit's parts as boxes, marked
    ones first, for the damage panel."""
    out = []
    for unit in board.get("units", []):
        parts = [
            {**p, "marks": [i < p["hits"] for i in range(max(p["boxes"], p["hits"]))]}
            for p in unit.get("parts", [])
        ]
        out.append({**unit, "parts": parts})
    return out


def play_map(board: Board, acting: Any = None) -> dict[str, Any]:
    """The play page's map parts (svg size, grid, markers, features; the decisions picked
    on the map and the units' damage panel, where described) of a described board."""
    svg_w, svg_h = _size(board)
    return {
        "svg_w": svg_w,
        "svg_h": svg_h,
        "grid": grid_markup(board["columns"], board["rows"]),
        "markers": play_markers(board, acting),
        "features": _features(board),
        **dict(zip(("picks", "pick_under"), pick_layout(board), strict=True)),
        "unit_panels": unit_panels(board),
        "map_shown": True,
    }


def sentence_of(system: TacticalSystem, entry: dict[str, Any]) -> str | None:
    """``entry`` in the game's words (None: the game has none for it). The game's own
    ``log_sentence`` is asked, not rules.tactical.log_sentence, which gives its None as
    the string "None" (the pages showed "None" for every entry the game does not word)."""
    own = getattr(system, "log_sentence", None)
    said = own(entry) if callable(own) else None
    return None if said is None else str(said)


def plain_sentence(entry: dict[str, Any]) -> str:
    """An entry of a game that words its log but not this entry: its event, the unit it
    is about and its rule, nothing else of it ("Unit 1: left the gameboard: no maneuver
    stays on it [002 '3b']"), never the pages' Angels 20 sentence (which reads "None")."""
    event = str(entry.get("event") or entry.get("kind") or "an event")
    unit = entry.get("unit")
    text = f"unit {unit}: {event}" if isinstance(unit, int | str) and unit != "" else event
    rule = entry.get("rule")
    return f"{text[:1].upper()}{text[1:]}" + (f" [{rule}]" if rule else "")


def game_texts(system: TacticalSystem, log: list[dict[str, Any]], generic: list[str]) -> list[str]:
    """Each entry's sentence in the game's words where it has them; for an entry it does
    not word, :func:`plain_sentence`; ``generic``'s for a game that words no entry."""
    if getattr(system, "log_sentence", None) is None:
        return generic
    return [sentence_of(system, e) or plain_sentence(e) for e in log]


def _frame_pieces(board: Board) -> list[dict[str, Any]]:
    """The pieces in the shape of the report's frames (report.js), with their own words."""
    return [
        {
            "plane": p["id"],
            "name": _label(p),
            "side": p["side"],
            "col": p["hex"][0],
            "row": p["hex"][1],
            "facing": p.get("facing") or 0,
            "alt": p.get("altitude", ""),
            "status": "none",
            "hp": 0 if p.get("damaged") else 1,
            "hits": 1,
            "fate": "",
            "bomber": False,
            "round": p.get("facing") is None,
            "cloud": False,
            "lit": False,
            "directed": False,
            "label": _label(p),
            "title": _title(p),
        }  # fmt: skip
        for p in board["pieces"]
    ]


def report_frames(battle: Battle, frames: list[dict[str, Any]]) -> dict[str, Any]:
    """A finished battle of another game in the report: each frame (one per log entry) in
    the game's words, and, where the game describes a map, its pieces after that entry
    (its record replayed action by action; each entry shows the board after the action
    that wrote it). Returns the frames and the map's parts (``map_shown`` False: none)."""
    system = system_named(battle.system)
    log = battle.log or []
    texts = game_texts(system, log, [f["text"] for f in frames])
    frames = [{**f, "text": t} for f, t in zip(frames, texts, strict=True)]
    state = reveal(system.new_battle(battle.setup, battle.seed))  # a finished battle's record
    board = checked_board(state, None)
    if board is None or not frames:
        return {"frames": frames, "map_shown": False}
    boards: list[Board] = [board] * min(len(state.log), len(frames))
    # each action was checked when it was taken: a record kept from before a later reading
    # of a rule (a game's apply_unchecked) replays as it was flown
    apply = getattr(state, "apply_unchecked", state.apply)
    for data in battle.actions or []:
        apply(system.action_from_json(data))
        board = checked_board(state, None) or board
        boards += [board] * (len(state.log) - len(boards))
    boards += [board] * (len(frames) - len(boards))
    first = boards[0]
    svg_w, svg_h = _size(first)
    return {
        "frames": [
            {**f, "aircraft": _frame_pieces(b)} for f, b in zip(frames, boards, strict=False)
        ],
        "map_shown": True,
        "grid": hex_grid_points(first["columns"], first["rows"]),
        "svg_w": svg_w,
        "svg_h": svg_h,
        "features": _features(first),
    }


def setup_map(battle: Battle) -> dict[str, Any]:
    """The report's map of a game whose frames draw its pieces themselves (Angels 20's
    report.js): the grid, its size and what is placed on it (clouds, flak fields, balloons),
    as the game describes the battle as set up; empty if it describes no map."""
    if not battle.setup:
        return {}
    system = system_named(battle.system)
    try:
        state = system.new_battle(battle.setup, battle.seed)
    except (KeyError, TypeError, ValueError):  # a set-up stored broken: the report goes on
        return {}
    board = checked_board(state, None)
    if board is None:
        return {}
    svg_w, svg_h = _size(board)
    return {
        "grid": hex_grid_points(board["columns"], board["rows"]),
        "svg_w": svg_w,
        "svg_h": svg_h,
        "features": _features(board),
    }


def _other_choice(state: Any, action: Any) -> dict[str, Any]:
    """One of another game's decisions as the turn lists it, with its odds when the game
    gives them (rules.tactical.decision_odds)."""
    choice: dict[str, Any] = {"kind": "decision", "label": str(action), "action": action.to_json()}
    side = decision_side(state, action)
    odds = decision_odds(state, side, action) if side is not None else None
    if odds is not None:
        choice["odds"] = odds
    return choice


def other_game_turn(battle: Battle, state: Any, legal: list[Any]) -> dict[str, Any]:
    """The parts of the turn view that read Angels 20's state, for another game: its
    set-up's name, its phase and decisions in its own words, the rest empty."""
    return {
        "scenario": str(battle.setup.get("name") or battle.scenario),
        "phase": phase_text(state),
        "aircraft_to_act": None,
        "victory_points": {},
        "aircraft": [],
        "choices": [_other_choice(state, a) for a in legal],
        "movable": [],
        "move_choices": None,
    }
