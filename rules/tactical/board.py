"""What the pages draw of a battle (issue 25): the map as plain data (:class:`Board`),
the phase and log entries in the game's own words, and the check that a described
map can be drawn.

Optional methods; a game without them is shown by its turn, choices and log alone (the
fallbacks below). Every optional key of a Board below changes only how it is drawn.

  describe_board(side) -> Board | None   (a battle's) the map ``side`` (None: a spectator)
                                  may see now, as plain data; None: the game has no map.
  phase_text() -> str             (a battle's) the phase now in the game's words ("" none).
  log_sentence(entry) -> str      (a system's or its battle's) one log entry as a sentence
                                  in the game's words, headed by its turn if it likes.

A decision's odds, shown beside the choice, are :mod:`rules.tactical.odds`.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from rules.tactical.counts import is_count


class BoardPiece(TypedDict, total=False):
    """One piece on a described map: ``id``, ``side``, ``label`` and ``hex`` are required."""

    id: int | str
    side: str  # one of the system's sides
    label: str  # short, on the map ("#1 A3 S4")
    title: str  # longer, on hover ("Heinkel 51, axis, altitude 3, speed 4")
    hex: list[int]  # [column, row]
    facing: int | None  # 0-5 hexsides clockwise from the top; None: no facing drawn
    altitude: str
    speed: str
    status: str  # "" or a word ("damaged", "diving")
    damaged: bool
    name: str  # the aircraft's name alone ("Bf 109E"), where the label carries more
    shape: Literal["fighter", "bomber"]  # the counter drawn (default: fighter if it faces)
    in_cloud: bool  # drawn inside a cloud's ring (000 "CLOUDS")


class BoardMarker(TypedDict):
    """Something else on the map (a cloud, a target): its hexes and a label."""

    hexes: list[list[int]]  # the first is where the label is written
    label: str
    title: NotRequired[str]  # on hover (default: the label)
    kind: NotRequired[Literal["cloud", "flak", "balloon"]]  # how it is drawn (default: cloud)


class BoardPick(TypedDict):
    """One of the viewer's decisions now, picked by clicking it on the map: ``action`` is
    the decision's JSON exactly as the battle's legal actions give it, ``hexes`` those it
    would reach (drawn; the tab the player clicks sits at the last), ``label`` short."""

    action: dict[str, Any]
    label: str  # on the tab ("turn left")
    hexes: list[list[int]]  # [column, row] each
    title: NotRequired[str]  # on hover (default: the label)


class BoardPart(TypedDict):
    """One part of a unit's control card: its hits out of its boxes."""

    name: str  # "engine"
    hits: int
    boxes: int


class BoardUnit(TypedDict):
    """A unit's damage panel: its parts' boxes, and short notes (fires, ammunition the
    viewer may see, crew hits); ``status`` "" or a word ("eliminated")."""

    id: int | str
    side: str
    name: str
    parts: list[BoardPart]
    notes: list[str]
    status: NotRequired[str]


class Board(TypedDict):
    """A hex map as a page draws it: ``columns`` x ``rows`` flat-topped hexes in odd-q
    offset coordinates (odd columns half a hex down: the only ``orientation`` the pages
    draw, "flat-odd-q"), with its pieces and markers."""

    kind: Literal["hex"]
    columns: int
    rows: int
    orientation: Literal["flat-odd-q"]
    pieces: list[BoardPiece]
    markers: list[BoardMarker]
    label_room: NotRequired[bool]  # room right of the map for long labels (default True)
    picks: NotRequired[list[BoardPick]]  # decisions picked on the map (default: none)
    units: NotRequired[list[BoardUnit]]  # each unit's damage panel (default: none)


def describe_board(battle: Any, side: int | None) -> Board | None:
    """The map ``side`` may see now (default: none)."""
    own = getattr(battle, "describe_board", None)
    return None if own is None else own(side)


def phase_text(battle: Any) -> str:
    """The phase now in the game's own words (default: none)."""
    own = getattr(battle, "phase_text", None)
    return "" if own is None else str(own())


def log_sentence(owner: Any, entry: dict[str, Any]) -> str | None:
    """``entry`` in the game's own words, from a system or battle with ``log_sentence``
    (default None: the caller's generic sentence)."""
    own = getattr(owner, "log_sentence", None)
    return None if own is None else str(own(entry))


def board_problems(board: Any) -> list[str]:
    """Problems with a described board (empty: the pages can draw it)."""
    if not isinstance(board, dict) or board.get("kind") != "hex":
        return ['a board is an object with kind "hex"']
    problems = []
    if board.get("orientation") != "flat-odd-q":
        problems.append('orientation is "flat-odd-q"')
    cols, rows = board.get("columns", 0), board.get("rows", 0)
    if not (is_count(cols) and is_count(rows) and 0 < cols <= 200 and 0 < rows <= 200):
        return [*problems, "columns and rows are whole numbers from 1 to 200"]
    for i, piece in enumerate(board.get("pieces", [])):
        place = piece.get("hex") if isinstance(piece, dict) else None
        if not (isinstance(place, list) and len(place) == 2 and all(map(is_count, place))):
            problems.append(f"pieces[{i}].hex is [column, row]")
        elif not (place[0] < cols and place[1] < rows):
            problems.append(f"pieces[{i}].hex {place} is off the map")
    return problems
