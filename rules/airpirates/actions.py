"""*Air Pirates* actions: small frozen dataclasses with a readable ``str`` and JSON.

:class:`Place` sets a unit on the board (002 2f), :class:`Mark` places a maneuver
marker (2g, 5c), :class:`Move` moves one unit its hex of the impulse (5b), :class:`Fire` and
:class:`Hold` are a unit's choice in the Fire Phase (6a, 6b), and
:class:`PassMarker` passes the sequence marker at the start of a phase (3a2), and
:class:`Change` is a unit's new altitude and speed in the Change Phase ([7]); with
spotting (15b) :class:`Sun` is the sun's direction (9a1.7), :class:`Spot` an attempt to spot
and :class:`EndSpotting` a side's last announcement of a Spotting Phase.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .hexes import FACING_NAMES, Hex

# the eight maneuver markers of each unit (002 1d, 2e): kind, and hexsides pivoted on
# completion (+ right, - left); a roll shifts sideways instead (ruling on 5d7)
MANEUVERS: dict[str, tuple[str, int]] = {
    "straight": ("straight", 0),
    "roll_left": ("roll", -1),
    "roll_right": ("roll", 1),
    "half_loop": ("half_loop", 3),
    "turn_left": ("turn", -1),
    "turn_right": ("turn", 1),
    "tight_left": ("tight_turn", -2),
    "tight_right": ("tight_turn", 2),
}


# 6a, 6a5, 6a6; 13d2 ramming; 20e: the forward guns at the area a skilled pilot chose
GUNS = ("forward", "rear", "oblique", "ram", "aimed_engine", "aimed_fuel", "aimed_crew")


class IllegalAction(ValueError):
    """An action 002 does not allow now: ``rule`` cites it ("002 '5d2.2'"), ``message``
    says why in words."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} [{rule}]")
        self.rule = rule
        self.message = message


@dataclass(frozen=True, order=True)
class PassMarker:
    """The holder passes the sequence marker at the start of a phase (002 3a2)."""

    KIND: ClassVar[str] = "pass"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.KIND}

    def __str__(self) -> str:
        return "pass the sequence marker"


@dataclass(frozen=True, order=True)
class Place:
    """002 2f: a unit placed on an edge hex, facing a hexside (3c)."""

    unit: int
    hex: Hex
    facing: int
    KIND: ClassVar[str] = "place"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.KIND, "unit": self.unit, "hex": list(self.hex), "facing": self.facing}

    def __str__(self) -> str:
        return f"place unit {self.unit} at {self.hex} facing {FACING_NAMES[self.facing % 6]}"


@dataclass(frozen=True, order=True)
class Mark:
    """002 5c: a maneuver marker placed for a unit."""

    unit: int
    maneuver: str
    honcho: bool = False  # 17c: one line higher on the Maneuver Chart (option honcho)
    KIND: ClassVar[str] = "mark"

    def to_json(self) -> dict[str, Any]:
        out = {"kind": self.KIND, "unit": self.unit, "maneuver": self.maneuver}
        return {**out, "honcho": True} if self.honcho else out

    def __str__(self) -> str:
        pushed = ", pushing the envelope (17c)" if self.honcho else ""
        return f"unit {self.unit}: {self.maneuver.replace('_', ' ')}{pushed}"


@dataclass(frozen=True, order=True)
class Move:
    """002 5b: a unit moved its one hex of the impulse."""

    unit: int
    KIND: ClassVar[str] = "move"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.KIND, "unit": self.unit}

    def __str__(self) -> str:
        return f"move unit {self.unit}"


@dataclass(frozen=True, order=True)
class Fire:
    """002 6b: a unit that just completed a maneuver fires at one opposing unit."""

    unit: int
    target: int
    gun: str = "forward"  # or "rear" (6a5), "oblique" (6a6), "ram" (13d2: no gun)
    KIND: ClassVar[str] = "fire"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.KIND, "unit": self.unit, "target": self.target, "gun": self.gun}

    def __str__(self) -> str:
        if self.gun == "ram":
            return f"unit {self.unit} tries to ram unit {self.target}"
        if self.gun.startswith("aimed_"):  # 20e: the skilled pilot's choice of area
            return f"unit {self.unit} fires at unit {self.target}'s {self.gun[6:]}"
        guns = "" if self.gun == "forward" else f" with its {self.gun} gun"
        return f"unit {self.unit} fires at unit {self.target}{guns}"


@dataclass(frozen=True, order=True)
class Hold:
    """002 6a: a unit that may fire does not ("if desired")."""

    unit: int
    KIND: ClassVar[str] = "hold"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.KIND, "unit": self.unit}

    def __str__(self) -> str:
        return f"unit {self.unit} holds its fire"


@dataclass(frozen=True, order=True)
class BreakContact:
    """002 16a: a unit announced to attempt to break contact."""

    unit: int
    KIND: ClassVar[str] = "break_contact"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.KIND, "unit": self.unit}

    def __str__(self) -> str:
        return f"unit {self.unit} tries to break contact"


@dataclass(frozen=True, order=True)
class EndAnnouncements:
    """002 16a2: the side announces no more attempts to break contact."""

    KIND: ClassVar[str] = "end_announcements"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.KIND}

    def __str__(self) -> str:
        return "no more attempts to break contact"


@dataclass(frozen=True, order=True)
class Change:
    """002 [7], 7b: in the Change Phase a unit's new altitude and speed, as its player
    writes them in the boxes of its control card (3d3.1, 3d3.2)."""

    unit: int
    altitude: int
    speed: int
    KIND: ClassVar[str] = "change"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.KIND, "unit": self.unit, "altitude": self.altitude,
                "speed": self.speed}  # fmt: skip

    def __str__(self) -> str:
        return f"unit {self.unit}: altitude {self.altitude}, speed {self.speed}"


@dataclass(frozen=True, order=True)
class Sun:
    """002 9a1.7 (option ``spotting``): at the set-up the side starting with the sequence
    marker indicates the sun's direction, a facing (0-5) the same for every hex."""

    direction: int
    KIND: ClassVar[str] = "sun"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.KIND, "direction": self.direction}

    def __str__(self) -> str:
        return f"the sun lies to the {FACING_NAMES[self.direction % 6]}"


@dataclass(frozen=True, order=True)
class Spot:
    """002 15b2: in the Spotting Phase a unit tries to spot one enemy air unit."""

    unit: int
    target: int
    KIND: ClassVar[str] = "spot"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.KIND, "unit": self.unit, "target": self.target}

    def __str__(self) -> str:
        return f"unit {self.unit} tries to spot unit {self.target}"


@dataclass(frozen=True, order=True)
class EndSpotting:
    """002 15b2.1: the side announces no more spotting attempts in this Spotting Phase."""

    KIND: ClassVar[str] = "end_spotting"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.KIND}

    def __str__(self) -> str:
        return "no more spotting attempts"


Action = (
    PassMarker | Place | Mark | Move | Fire | Hold | BreakContact | EndAnnouncements | Change
    | Sun | Spot | EndSpotting
)  # fmt: skip


def _int(data: dict[str, Any], key: str) -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{key} must be a whole number")
    return value


def action_from_json(data: dict[str, Any]) -> Action:
    """An action from its JSON (``ValueError`` / ``KeyError`` on one it cannot read)."""
    kind = data.get("kind")
    if kind == "pass":
        return PassMarker()
    if kind == "place":
        col, row = data["hex"]
        if any(isinstance(v, bool) or not isinstance(v, int) for v in (col, row)):
            raise ValueError("hex must be two whole numbers")
        return Place(_int(data, "unit"), (col, row), _int(data, "facing"))
    if kind == "mark":
        maneuver = data["maneuver"]
        if maneuver not in MANEUVERS:
            raise ValueError(f"maneuver must be one of {', '.join(MANEUVERS)}")
        return Mark(_int(data, "unit"), maneuver, data.get("honcho") is True)
    if kind == "move":
        return Move(_int(data, "unit"))
    if kind == "fire":
        gun = data.get("gun", "forward")
        if gun not in GUNS:
            raise ValueError(f"gun must be one of {', '.join(GUNS)}")
        return Fire(_int(data, "unit"), _int(data, "target"), gun)
    if kind == "hold":
        return Hold(_int(data, "unit"))
    if kind == "break_contact":
        return BreakContact(_int(data, "unit"))
    if kind == "end_announcements":
        return EndAnnouncements()
    if kind == "change":
        return Change(_int(data, "unit"), _int(data, "altitude"), _int(data, "speed"))
    if kind == "sun":
        return Sun(_int(data, "direction"))
    if kind == "spot":
        return Spot(_int(data, "unit"), _int(data, "target"))
    if kind == "end_spotting":
        return EndSpotting()
    raise ValueError(f"unknown action kind {kind!r}")
