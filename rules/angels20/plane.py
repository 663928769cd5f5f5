"""One aircraft's per-battle record (000 "AIRCRAFT STATS", "EFFECTS OF DAMAGE").

:class:`Plane` is a slotted dataclass; :meth:`Plane.as_tuple` /
:meth:`Plane.from_tuple` and :data:`FIELDS` give the snapshot and JSON forms
(field order is part of the saved-battle format: never reorder).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, ClassVar

# what became of an aircraft
IN_PLAY, DESTROYED, RETREATED, EXITED = 0, 1, 2, 3
OUT_NAMES = ("in play", "destroyed", "retreated", "exited")


@dataclass(slots=True, eq=False)
class Plane:
    """Mutable per-battle record of one aircraft (ids index ``scenario.aircraft``)."""

    id: int
    side: int  # 0 axis, 1 allied
    hex: int  # -1 once off the map
    facing: int
    alt: int
    speed: int
    high: bool  # moving at high speed (000 "High Speed")
    status: int  # index into actions.STATUSES (000 "AIRCRAFT STATUS")
    damage: int
    moved: bool
    fired: bool
    grounded: bool  # moved back by stacking: no attack this turn (000 "STACKING")
    out: int  # IN_PLAY, DESTROYED, RETREATED or EXITED
    prev_hex: int
    seq: int  # order of the finished moves (000 "STACKING")
    dm_tried: bool  # tried a difficult maneuver this turn (000 "SCHNELLBOMBER")
    attacked: bool  # has been attacked (000 "LIMITED FUEL")
    killer: int  # -1: none, or flak, balloons, collision
    survival: list[Any] | None  # [roll, modifier, survived] (000 "PILOT SURVIVAL")
    exit_edge: str | None
    cloud: bool  # in the clouds (000 "EFFECTS OF BEING IN THE CLOUDS")
    directed: bool  # 000 "FIGHTER DIRECTION"
    lit: bool  # 000 "ILLUMINATION"
    adjusted: bool  # used a position-adjusting ability (000 "MOVEMENT AND SPECIAL ABILITIES")

    FIELDS: ClassVar[tuple[str, ...]]

    @classmethod
    def start(cls, i: int, side: int, hex: int, facing: int, alt: int) -> Plane:
        """An aircraft as set up, before its first move."""
        return cls(
            i, side, hex, facing, alt, 0, False, 0, 0, False, False, False, IN_PLAY, hex, 0,
            False, False, -1, None, None, False, False, False, False,
        )  # fmt: skip

    def copy(self) -> Plane:
        return Plane(*_GET(self))

    def as_tuple(self) -> tuple[Any, ...]:
        return _GET(self)

    @classmethod
    def from_tuple(cls, t: tuple[Any, ...] | list[Any]) -> Plane:
        if len(t) != len(FIELDS):
            raise ValueError(f"a plane has {len(FIELDS)} fields, got {len(t)}")
        return cls(*t)


FIELDS = tuple(f.name for f in fields(Plane))
Plane.FIELDS = FIELDS
_GET = attrgetter(*FIELDS)
