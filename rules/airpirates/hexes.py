"""The *Air Pirates* gameboard: hexes, facings and the board's edge (002 '1a', '3b', '3c').

002 1a: a felt about 12 ft by 6 ft marked in hexes about 5 in face to face. Hexes are
pointy-topped rows ("odd-r" offset: odd rows shifted half a hex right), so a row runs
along the 12 ft: 144 / 5 = 28 hexes a row, 72 / (5 x 0.866) = 16 rows
(docs/rulings.md, "Air Pirates: the gameboard").

3c: a unit's front facing always points at a hexside. Facings are numbered 0-5
clockwise from east: 0 E, 1 SE, 2 SW, 3 W, 4 NW, 5 NE (rows grow southward).
"""

from __future__ import annotations

from collections.abc import Iterable

BOARD = "002 '1a' GAMEBOARD"
EDGES = "002 '3b' GAMEBOARD EXITS"
FACING = "002 '3c' AIR UNIT FACING"

DEFAULT_WIDTH = 28  # 144 in / 5 in
DEFAULT_HEIGHT = 16  # 72 in / 4.33 in

Hex = tuple[int, int]  # (column, row)

# axial (q, r) steps of the six facings, clockwise from east
_AXIAL = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
FACING_NAMES = ("E", "SE", "SW", "W", "NW", "NE")


def to_axial(h: Hex) -> tuple[int, int]:
    col, row = h
    return col - (row - (row & 1)) // 2, row


def from_axial(q: int, r: int) -> Hex:
    return q + (r - (r & 1)) // 2, r


def neighbour(h: Hex, facing: int) -> Hex:
    """The hex beyond the hexside ``facing`` points at."""
    q, r = to_axial(h)
    dq, dr = _AXIAL[facing % 6]
    return from_axial(q + dq, r + dr)


def ahead(h: Hex, facing: int, n: int) -> list[Hex]:
    """The ``n`` hexes straight ahead, nearest first."""
    out = []
    for _ in range(n):
        h = neighbour(h, facing)
        out.append(h)
    return out


def distance(a: Hex, b: Hex) -> int:
    aq, ar = to_axial(a)
    bq, br = to_axial(b)
    dq, dr = aq - bq, ar - br
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def translate(h: Hex, shift: tuple[int, int]) -> Hex:
    """``h`` moved by the axial vector ``shift`` (3b: every unit and marker alike)."""
    q, r = to_axial(h)
    return from_axial(q + shift[0], r + shift[1])


def on_board(h: Hex, width: int, height: int) -> bool:
    return 0 <= h[0] < width and 0 <= h[1] < height


def is_edge(h: Hex, width: int, height: int) -> bool:
    """002 2f: a hex on the gameboard's edge."""
    return on_board(h, width, height) and (h[0] in (0, width - 1) or h[1] in (0, height - 1))


def edge_hexes(width: int, height: int) -> list[Hex]:
    return sorted(
        (c, r) for c in range(width) for r in range(height) if is_edge((c, r), width, height)
    )


def shift_to_fit(points: Iterable[Hex], width: int, height: int) -> tuple[int, int] | None:
    """The shortest axial shift that brings every point on the board (3b: "shift all air
    units and their maneuver markers the same number of hexes in the same direction"),
    (0, 0) when all are on it already, None when no shift can (ties: fewest rows, then
    leftmost)."""
    pts = list(points)
    if all(on_board(p, width, height) for p in pts):
        return (0, 0)
    rows = [p[1] for p in pts]
    best: tuple[int, int, int, int] | None = None
    for dr in range(-min(rows), height - max(rows)):
        # the column each point lands in with dq = 0; every dq in low..high fits
        cols = [translate(p, (0, dr))[0] for p in pts]
        low, high = -min(cols), width - 1 - max(cols)
        if low > high:
            continue
        for dq in {low, high, min(max(0, low), high), min(max(-dr, low), high)}:
            key = ((abs(dq) + abs(dr) + abs(dq + dr)) // 2, abs(dr), dr, dq)
            if best is None or key < best:
                best = key
    return None if best is None else (best[3], best[2])
