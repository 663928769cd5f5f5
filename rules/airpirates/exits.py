"""Gameboard exits (002 3b) as the battle checks them when a unit or a marker is placed.

3b: "Air units are not allowed to exit the gameboard. If necessary ... shift all air units
and their maneuver markers the same number of hexes in the same direction ... If this
proves impossible, then players are forbidden to mark an air unit for a maneuver that would
force an exit from the gameboard." Every marker lies straight ahead (5c), so a maneuver
that ends a unit near an edge, flying at it, with the battle spanning the board, leaves it
nothing at a later marking but an exit: such a maneuver "would force an exit", and is
forbidden while the unit has another (ruling 'Air Pirates: the gameboard' in
docs/rulings.md). A unit is likewise placed where it has a way on (2f with 3b). One that
is left without any all the same (the others' flying can close the room it had) leaves
the battle, as the ruling says.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from . import maneuvers as mv
from .actions import MANEUVERS
from .hexes import EDGES, Hex, on_board, shift_to_fit
from .units import Unit

# why ``unit`` may not mark ``maneuver``, leaving the board aside (quality, damage, 9f, [20])
Refusal = Callable[[Unit, str], "tuple[str, str] | None"]

LOOK_AHEAD = 2  # maneuvers after the one marked that must stay on the board

FORCED = (
    EDGES,
    "this maneuver would force an exit: after it the air unit would soon have no maneuver "
    "that stays on the gameboard, and another maneuver leaves it room",
)
STRANDED = (EDGES, "placed so, the air unit would have no maneuver that stays on the gameboard")


@dataclass(frozen=True)
class Room:
    """The room a unit has to fly in: the board, the whole battle shifted if need be
    around the hexes the others still cross (3b); with ``others`` None, the board as it
    is, no shift (a unit placed alone, 2f)."""

    width: int
    height: int
    others: tuple[Hex, ...] | None = None

    def fits(self, unit: Unit, maneuver: str) -> bool:
        assert unit.hex is not None
        planned = mv.plan(unit, maneuver)
        own = [*planned["path"], planned["end"]]
        if all(on_board(h, self.width, self.height) for h in own):
            return True  # the others are on the board already
        if self.others is None:
            return False
        return shift_to_fit([*self.others, unit.hex, *own], self.width, self.height) is not None

    def clear(self, hex_: Hex, reach: int) -> bool:
        """``reach`` hexes of flying from ``hex_`` in any direction stay on the board."""
        col, row = hex_
        return min(col, self.width - 1 - col, row, self.height - 1 - row) >= reach


def shift_for(
    unit: Unit, maneuver: str, others: Iterable[Hex], width: int, height: int
) -> tuple[int, int] | None:
    """The shift of the whole battle that keeps ``unit``'s new maneuver, and every hex the
    others still cross (``others``), on the board; None when no shift can (3b)."""
    assert unit.hex is not None
    planned = mv.plan(unit, maneuver)
    points = [*others, unit.hex, *planned["path"], planned["end"]]
    return shift_to_fit(points, width, height)


def after(unit: Unit, maneuver: str) -> Unit:
    """``unit`` as it will be once ``maneuver`` completes: in its end hex, pivoted, slowed
    (5d1.3, 5d4-5d7), with no marker: the position of its next marking."""
    kind, pivot = MANEUVERS[maneuver]
    planned = mv.plan(unit, maneuver)
    moved = copy.copy(unit)
    moved.hex, moved.marker = planned["end"], None
    if kind != "roll":
        moved.facing = (unit.facing + pivot) % 6
    if kind in mv.SLOWING:
        moved.speed = max(unit.speed - 1, int(unit.card["min_speed"]))
    return moved


def way_on(unit: Unit, room: Room, refusal: Refusal, depth: int = LOOK_AHEAD) -> bool:
    """Whether ``unit`` has a maneuver, and after it ``depth - 1`` more, that stay in
    ``room``."""
    assert unit.hex is not None
    straight = mv.plan(unit, "straight")["path"]
    if refusal(unit, "straight") is None and room.clear(unit.hex, depth * len(straight) + 1):
        return True  # far from every edge: straight on, as often as asked
    return any(
        refusal(unit, m) is None
        and room.fits(unit, m)
        and (depth <= 1 or way_on(after(unit, m), room, refusal, depth - 1))
        for m in MANEUVERS
    )


def forces_exit(unit: Unit, maneuver: str, room: Room, refusal: Refusal) -> bool:
    """Whether ``maneuver`` leaves ``unit`` no way on (3b's "force an exit")."""
    return not way_on(after(unit, maneuver), room, refusal)


def placings(unit: Unit, spots: Iterable[Hex], width: int, height: int,
             straight_only: bool) -> list[tuple[Hex, int]]:  # fmt: skip
    """The hexes of ``spots`` and facings where ``unit`` may be placed: each leaves it a way
    on over the board as it is (every marker lies straight ahead, 5c); ``straight_only``
    under 9f's bounce. Remembered by all it depends on: the set-up lists every edge hex
    and facing at each placing."""
    lines = tuple(mv.line(unit, kind) for kind in KINDS)
    flight = (width, height, straight_only, unit.speed, unit.quality,
              int(unit.card["min_speed"]), lines, tuple(sorted(unit.damage.items())))  # fmt: skip
    out = []
    for hex_ in spots:
        for facing in range(6):
            key = (hex_, facing, flight)
            if key not in _STRANDED:
                if len(_STRANDED) > 100_000:
                    _STRANDED.clear()
                _STRANDED[key] = _stranded(unit, hex_, facing, width, height, straight_only)
            if not _STRANDED[key]:
                out.append((hex_, facing))
    return out


def _stranded(unit: Unit, hex_: Hex, facing: int, width: int, height: int,
              straight_only: bool) -> bool:  # fmt: skip
    placed = copy.copy(unit)
    placed.hex, placed.facing, placed.marker = hex_, facing, None

    def refusal(u: Unit, maneuver: str) -> tuple[str, str] | None:
        if straight_only and MANEUVERS[maneuver][0] != "straight":
            return EDGES, "straight only (9f)"
        return mv.refusal(u, maneuver)

    return not way_on(placed, Room(width, height), refusal, LOOK_AHEAD + 1)


KINDS = sorted({kind for kind, _ in MANEUVERS.values()})
_STRANDED: dict[tuple[object, ...], bool] = {}
