"""Hex geometry for the Angels 20 battle map, as tables built at import.

Hexes are flat-topped. Rules work in axial coordinates ``(q, r)`` (cube
``s = -q - r``); the map is a rectangle of ``width`` columns by ``height``
rows in "odd-q" offset coordinates ``(col, row)``, and the engine refers to
a hex on a given map by one small int, ``row * width + col``.

Facings are 0..5, clockwise, 0 = map north (towards row 0)::

    0 N (0,-1)   1 NE (1,-1)   2 SE (1,0)   3 S (0,1)   4 SW (-1,1)   5 NW (-1,0)

A right turn adds 1, a left turn subtracts 1 (mod 6). An aircraft's clock
directions (000 "FACING"): 12 o'clock is hex side ``facing``, 2 o'clock
``facing + 1``, 4 o'clock ``+2``, 6 o'clock ``+3``, 8 o'clock ``+4``,
10 o'clock ``+5``.

Geometry between two aircraft (arc, aspect, tailing halves) depends only on
the axial offset between them and a facing; those answers are tabulated at
import for every offset up to :data:`MAX_TABLE_RANGE` hexes (Red Blob Games,
*Hexagonal Grids*; python-chess builds its attack tables the same way).
Drawing (hex to pixel) lives in :func:`hex_to_pixel`, apart from the rules.
"""

from __future__ import annotations

import math
from functools import lru_cache

DIRECTIONS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
FACING_NAMES = ("N", "NE", "SE", "S", "SW", "NW")
CLOCK_NAMES = ("12 o'clock", "2 o'clock", "4 o'clock", "6 o'clock", "8 o'clock", "10 o'clock")

# Map edges an aircraft can leave by (000 "THE BATTLE MAP": leaving = retreat).
EDGE_N, EDGE_E, EDGE_S, EDGE_W = -1, -2, -3, -4
EDGE_NAMES = {EDGE_N: "north", EDGE_E: "east", EDGE_S: "south", EDGE_W: "west"}
EDGE_CODES = {v: k for k, v in EDGE_NAMES.items()}

MAX_TABLE_RANGE = 4  # tailing looks 4 hexes (000 "TAILING"); attacks 3
_SPAN = 2 * MAX_TABLE_RANGE + 1

# Target aspect numbers (000 "TARGET ASPECT"; diagram fixed by the worked
# examples, /work/shared/rules/README.md): by clock sector of the target.
ASPECT_TARGET_NUMBER = (5, 6, 5, 4, 5, 6)


def distance(q1: int, r1: int, q2: int, r2: int) -> int:
    dq = q2 - q1
    dr = r2 - r1
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def offset_to_axial(col: int, row: int) -> tuple[int, int]:
    return col, row - (col - (col & 1)) // 2


def axial_to_offset(q: int, r: int) -> tuple[int, int]:
    return q, r + (q - (q & 1)) // 2


def hex_to_pixel(q: int, r: int, size: float = 1.0) -> tuple[float, float]:
    """Centre of a flat-topped hex in screen units (y grows southwards)."""
    return size * 1.5 * q, size * math.sqrt(3) * (r + q / 2)


def _bearing(dq: int, dr: int) -> float:
    """Compass bearing in degrees (clockwise from north) of an axial offset."""
    x, y = hex_to_pixel(dq, dr)
    return math.degrees(math.atan2(x, -y)) % 360.0


def _offset_key(dq: int, dr: int) -> int:
    return (dq + MAX_TABLE_RANGE) * _SPAN + (dr + MAX_TABLE_RANGE)


_Flags = tuple[tuple[bool, ...], ...]
_Aspects = tuple[tuple[tuple[int, int], ...], ...]


def _build_tables() -> tuple[_Flags, _Aspects, _Flags, _Flags]:
    """Per offset key, per facing; offsets at range 0 or beyond the table are empty rows."""
    n = _SPAN * _SPAN
    arc: list[tuple[bool, ...]] = [
        ()
    ] * n  # arc[key][f]: offset (attacker -> target) in the front arc
    # aspect[key][f]: (target number, clock sector) of the offset target -> attacker
    aspect: list[tuple[tuple[int, int], ...]] = [()] * n
    front: list[tuple[bool, ...]] = [()] * n  # front[key][f]: offset in the front half of facing f
    rear: list[tuple[bool, ...]] = [()] * n  # rear[key][f]: offset in the rear half of facing f
    eps = 1e-6
    for dq in range(-MAX_TABLE_RANGE, MAX_TABLE_RANGE + 1):
        for dr in range(-MAX_TABLE_RANGE, MAX_TABLE_RANGE + 1):
            d = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
            if d == 0 or d > MAX_TABLE_RANGE:
                continue
            key = _offset_key(dq, dr)
            theta = _bearing(dq, dr)
            arc_row, aspect_row, front_row, rear_row = [], [], [], []
            for f in range(6):
                rel = (theta - 60.0 * f) % 360.0
                if rel > 180.0:
                    rel -= 360.0  # now in (-180, 180]
                # Firing arc (000 "FIRING ARC"; ruling in docs/rulings.md):
                # the 60-degree cone between the lines from the hex centre
                # through the two front corners, hexes on those lines included.
                arc_row.append(abs(rel) <= 30.0 + eps)
                # Target aspect: six 60-degree sectors centred on the hex
                # sides; on a spine between two sectors the higher number.
                half = rel / 30.0
                if abs(half - round(half)) < eps and round(half) % 2 != 0:
                    k1 = int(math.floor((rel - 30.0) / 60.0 + 0.5)) % 6
                    k2 = (k1 + 1) % 6
                    tn1, tn2 = ASPECT_TARGET_NUMBER[k1], ASPECT_TARGET_NUMBER[k2]
                    sector = k1 if tn1 >= tn2 else k2
                else:
                    sector = int(math.floor(rel / 60.0 + 0.5)) % 6
                aspect_row.append((ASPECT_TARGET_NUMBER[sector], sector))
                # Tailing halves (000 "TAILING"): strictly ahead of / behind
                # the wing line; a hex exactly abeam is in neither half.
                front_row.append(abs(rel) < 90.0 - eps)
                rear_row.append(abs(rel) > 90.0 + eps)
            arc[key] = tuple(arc_row)
            aspect[key] = tuple(aspect_row)
            front[key] = tuple(front_row)
            rear[key] = tuple(rear_row)
    return tuple(arc), tuple(aspect), tuple(front), tuple(rear)


ARC_TABLE, ASPECT_TABLE, FRONT_TABLE, REAR_TABLE = _build_tables()


def _build_tail_table() -> bytes:
    """000 "TAILING" in one lookup: ``TAIL_TABLE[(key * 6 + fa) * 6 + fb]`` is 1 when an
    aircraft facing ``fa`` tails one facing ``fb`` at offset ``key`` (tailer -> tailed,
    :func:`_offset_key`): 1 to 4 hexes, the tailed aircraft in the tailer's front
    half and the tailer in the tailed aircraft's rear half (altitude is checked apart).
    """
    out = bytearray(_SPAN * _SPAN * 36)
    for dq in range(-MAX_TABLE_RANGE, MAX_TABLE_RANGE + 1):
        for dr in range(-MAX_TABLE_RANGE, MAX_TABLE_RANGE + 1):
            key = _offset_key(dq, dr)
            front, rear = FRONT_TABLE[key], REAR_TABLE[_offset_key(-dq, -dr)]
            if not front:  # range 0 or beyond 4 hexes
                continue
            for fa in range(6):
                for fb in range(6):
                    out[(key * 6 + fa) * 6 + fb] = front[fa] and rear[fb]
    return bytes(out)


TAIL_TABLE = _build_tail_table()


def in_arc(dq: int, dr: int, facing: int) -> bool:
    """Is the offset (from attacker to target) in the front firing arc?"""
    row = ARC_TABLE[_offset_key(dq, dr)]
    return bool(row and row[facing])


def target_aspect(dq: int, dr: int, target_facing: int) -> tuple[int, int]:
    """(target number, clock sector 0..5) for an attack from offset (target -> attacker)."""
    return ASPECT_TABLE[_offset_key(dq, dr)][target_facing]


class HexMap:
    """Tables for one map size: axial coordinates and neighbours of every hex.

    ``neighbour[h * 6 + d]`` is the hex index in direction ``d`` from ``h``,
    or a negative ``EDGE_*`` code for the edge an aircraft would leave by.
    """

    __slots__ = ("width", "height", "size", "q", "r", "neighbour")

    def __init__(self, width: int, height: int) -> None:
        if width < 2 or height < 2:
            raise ValueError("a battle map needs at least 2 x 2 hexes")
        self.width = width
        self.height = height
        self.size = width * height
        q = []
        r = []
        neighbour = []
        for row in range(height):
            for col in range(width):
                aq, ar = offset_to_axial(col, row)
                q.append(aq)
                r.append(ar)
        for h in range(self.size):
            for dq, dr in DIRECTIONS:
                ncol, nrow = axial_to_offset(q[h] + dq, r[h] + dr)
                if nrow < 0:
                    neighbour.append(EDGE_N)
                elif nrow >= height:
                    neighbour.append(EDGE_S)
                elif ncol < 0:
                    neighbour.append(EDGE_W)
                elif ncol >= width:
                    neighbour.append(EDGE_E)
                else:
                    neighbour.append(nrow * width + ncol)
        self.q = tuple(q)
        self.r = tuple(r)
        self.neighbour = tuple(neighbour)

    def index(self, col: int, row: int) -> int:
        if not (0 <= col < self.width and 0 <= row < self.height):
            raise ValueError(f"hex ({col}, {row}) is not on a {self.width} x {self.height} map")
        return row * self.width + col

    def colrow(self, h: int) -> tuple[int, int]:
        return h % self.width, h // self.width

    def axial(self, h: int) -> tuple[int, int]:
        return self.q[h], self.r[h]

    def distance(self, a: int, b: int) -> int:
        q, r = self.q, self.r
        dq = q[b] - q[a]
        dr = r[b] - r[a]
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@lru_cache(maxsize=16)
def hex_map(width: int, height: int) -> HexMap:
    """The shared (immutable) tables for a map size."""
    return HexMap(width, height)
