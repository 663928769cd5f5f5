"""Actions: small frozen dataclasses with a readable ``str`` and a total order.

Movement is offered step by step (000 "MOVING AIRCRAFT"):

1. :class:`Activate` - pick an unmoved aircraft and announce its speed;
2. one action per hex of movement: :class:`Straight` (enter the hex ahead),
   :class:`Turn` (enter the hex ahead, then a normal turn of one hex side in
   it) or :class:`Maneuver` (announce a difficult maneuver when leaving the
   hex; its check is rolled at once and its result places the aircraft);
3. with the status rule on, :class:`EndMove` picks the aircraft's status.

Whole moves for programs are :class:`MovePlan` (see
:func:`.plans.legal_move_plans`). Attacks are :class:`Attack` or
:class:`Decline`; :class:`ChoosePosition` is the initiative winner's
choice under the turn-position rule. Optional rules add :class:`Direct`
(fighter direction after initiative), :class:`EnterClouds` (end of a move
in a heavy or light cloud band) and :class:`Reposition` / :class:`Pass`
(abilities used after the Movement phase).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar

# Difficult maneuvers (000 "DIFFICULT MANEUVERS") and the bonus each checks.
MANEUVERS = ("break", "barrel_roll", "climb", "power_dive", "split_s", "scissors", "tight_turn")
MANEUVER_BONUS = {
    "break": "roll",
    "barrel_roll": "roll",
    "climb": "climb",
    "power_dive": "dive",
    "split_s": "roll",
    "scissors": "turn",
    "tight_turn": "turn",
}
# Options announced with the maneuver: direction (-1 left, +1 right) for the
# sideslips and the tight turn, altitude lost on success for the power dive,
# hex sides turned on success for the Split S (-2 left, +2 right, 3 about).
MANEUVER_OPTIONS = {
    "break": (-1, 1),
    "barrel_roll": (-1, 1),
    "climb": (0,),
    "power_dive": (1, 2),
    "split_s": (-2, 2, 3),
    "scissors": (0,),
    "tight_turn": (-1, 1),
}

STATUSES = ("none", "diving", "climbing", "evading_left", "evading_right")
STATUS_NONE, STATUS_DIVING, STATUS_CLIMBING, STATUS_EVADING_LEFT, STATUS_EVADING_RIGHT = range(5)


class IllegalAction(ValueError):
    """An action the rules do not allow now. ``rule`` cites the rule broken (``000 'SECTION'``)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} [{rule}]")
        self.rule = rule
        self.message = message


class Action(ABC):
    """Base of all actions: ordered by (kind order, fields)."""

    __slots__ = ()
    ORDER: ClassVar[int] = 0

    @abstractmethod
    def sort_key(self) -> tuple[Any, ...]: ...

    def __lt__(self, other: Action) -> bool:
        return self.sort_key() < other.sort_key()

    @abstractmethod
    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True, eq=True)
class ChoosePosition(Action):
    ORDER: ClassVar[int] = 0
    first: bool

    def sort_key(self) -> tuple[Any, ...]:
        return (self.ORDER, not self.first)

    def __str__(self) -> str:
        return "be first player" if self.first else "be second player"

    def to_json(self) -> dict[str, Any]:
        return {"type": "choose_position", "first": self.first}


@dataclass(frozen=True, slots=True, eq=True)
class Activate(Action):
    ORDER: ClassVar[int] = 1
    plane: int
    speed: int

    def sort_key(self) -> tuple[Any, ...]:
        return (self.ORDER, self.plane, self.speed)

    def __str__(self) -> str:
        return f"activate #{self.plane} at speed {self.speed}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "activate", "plane": self.plane, "speed": self.speed}


@dataclass(frozen=True, slots=True, eq=True)
class Straight(Action):
    ORDER: ClassVar[int] = 2

    def sort_key(self) -> tuple[Any, ...]:
        return (self.ORDER,)

    def __str__(self) -> str:
        return "straight"

    def to_json(self) -> dict[str, Any]:
        return {"type": "straight"}


@dataclass(frozen=True, slots=True, eq=True)
class Turn(Action):
    ORDER: ClassVar[int] = 3
    direction: int  # -1 left, +1 right

    def sort_key(self) -> tuple[Any, ...]:
        return (self.ORDER, self.direction)

    def __str__(self) -> str:
        return "straight, turn " + ("left" if self.direction < 0 else "right")

    def to_json(self) -> dict[str, Any]:
        return {"type": "turn", "direction": self.direction}


@dataclass(frozen=True, slots=True, eq=True)
class Maneuver(Action):
    ORDER: ClassVar[int] = 4
    kind: str
    option: int = 0

    def sort_key(self) -> tuple[Any, ...]:
        return (self.ORDER, MANEUVERS.index(self.kind), self.option)

    def __str__(self) -> str:
        k = self.kind.replace("_", " ")
        o = self.option
        if self.kind in ("break", "barrel_roll", "tight_turn"):
            return f"{k} {'left' if o < 0 else 'right'}"
        if self.kind == "power_dive":
            return f"{k} (down {o} on success)"
        if self.kind == "split_s":
            return f"{k} ({'about' if o == 3 else ('left' if o < 0 else 'right') + ' 2'})"
        return k

    def to_json(self) -> dict[str, Any]:
        return {"type": "maneuver", "kind": self.kind, "option": self.option}


@dataclass(frozen=True, slots=True, eq=True)
class EndMove(Action):
    ORDER: ClassVar[int] = 5
    status: str = "none"

    def sort_key(self) -> tuple[Any, ...]:
        return (self.ORDER, STATUSES.index(self.status))

    def __str__(self) -> str:
        return (
            "end move"
            if self.status == "none"
            else f"end move, status {self.status.replace('_', ' ')}"
        )

    def to_json(self) -> dict[str, Any]:
        return {"type": "end_move", "status": self.status}


@dataclass(frozen=True, slots=True, eq=True)
class MovePlan(Action):
    """A whole move: activation, every hex step, and the closing status."""

    ORDER: ClassVar[int] = 6
    plane: int
    speed: int
    steps: tuple[Action, ...]
    status: str = "none"
    clouds: bool = False  # attempt to enter the clouds if the move ends in a heavy or light band

    def sort_key(self) -> tuple[Any, ...]:
        return (
            self.ORDER,
            self.plane,
            self.speed,
            tuple(s.sort_key() for s in self.steps),
            self.status,
            self.clouds,
        )

    def __str__(self) -> str:
        tail = "" if self.status == "none" else f"; status {self.status}"
        if self.clouds:
            tail += "; into the clouds"
        return f"#{self.plane} speed {self.speed}: " + ", ".join(map(str, self.steps)) + tail

    def to_json(self) -> dict[str, Any]:
        d = {
            "type": "move_plan",
            "plane": self.plane,
            "speed": self.speed,
            "steps": [s.to_json() for s in self.steps],
            "status": self.status,
        }
        if self.clouds:
            d["clouds"] = True
        return d


@dataclass(frozen=True, slots=True, eq=True)
class Attack(Action):
    ORDER: ClassVar[int] = 7
    attacker: int
    target: int

    def sort_key(self) -> tuple[Any, ...]:
        return (self.ORDER, self.attacker, self.target)

    def __str__(self) -> str:
        return f"#{self.attacker} attacks #{self.target}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "attack", "attacker": self.attacker, "target": self.target}


@dataclass(frozen=True, slots=True, eq=True)
class Decline(Action):
    ORDER: ClassVar[int] = 8

    def sort_key(self) -> tuple[Any, ...]:
        return (self.ORDER,)

    def __str__(self) -> str:
        return "decline further attacks"

    def to_json(self) -> dict[str, Any]:
        return {"type": "decline"}


@dataclass(frozen=True, slots=True, eq=True)
class Direct(Action):
    """Assign fighter direction to these aircraft (000 "FIGHTER DIRECTION")."""

    ORDER: ClassVar[int] = 9
    planes: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "planes", tuple(sorted(self.planes)))

    def sort_key(self) -> tuple[Any, ...]:
        return (self.ORDER, len(self.planes), self.planes)

    def __str__(self) -> str:
        if not self.planes:
            return "direct no aircraft"
        return "direct " + ", ".join(f"#{p}" for p in self.planes)

    def to_json(self) -> dict[str, Any]:
        return {"type": "direct", "planes": list(self.planes)}


@dataclass(frozen=True, slots=True, eq=True)
class EnterClouds(Action):
    """At the end of a move in a heavy or light cloud band: try to enter the clouds or not (000 "CLOUDS")."""

    ORDER: ClassVar[int] = 10
    attempt: bool

    def sort_key(self) -> tuple[Any, ...]:
        return (self.ORDER, self.attempt)

    def __str__(self) -> str:
        return "try to enter the clouds" if self.attempt else "stay out of the clouds"

    def to_json(self) -> dict[str, Any]:
        return {"type": "enter_clouds", "attempt": self.attempt}


@dataclass(frozen=True, slots=True, eq=True)
class Reposition(Action):
    """Use a special ability that adjusts a position after the Movement phase."""

    ORDER: ClassVar[int] = 11
    plane: int
    option: int

    def sort_key(self) -> tuple[Any, ...]:
        return (self.ORDER, self.plane, self.option)

    def __str__(self) -> str:
        return f"#{self.plane} adjusts ({self.option:+d})"

    def to_json(self) -> dict[str, Any]:
        return {"type": "reposition", "plane": self.plane, "option": self.option}


@dataclass(frozen=True, slots=True, eq=True)
class Pass(Action):
    """Declare no more special abilities after the Movement phase."""

    ORDER: ClassVar[int] = 12

    def sort_key(self) -> tuple[Any, ...]:
        return (self.ORDER,)

    def __str__(self) -> str:
        return "use no more abilities"

    def to_json(self) -> dict[str, Any]:
        return {"type": "pass"}


# Interned instances for the hot path.
STRAIGHT = Straight()
TURN_LEFT = Turn(-1)
TURN_RIGHT = Turn(1)
DECLINE = Decline()
PASS = Pass()
ENTER_CLOUDS = (EnterClouds(False), EnterClouds(True))
ALL_MANEUVERS: tuple[Maneuver, ...] = tuple(
    Maneuver(k, o) for k in MANEUVERS for o in MANEUVER_OPTIONS[k]
)
END_MOVES = tuple(EndMove(s) for s in STATUSES)


def action_from_json(d: dict[str, Any]) -> Action:
    t = d["type"]
    if t == "choose_position":
        return ChoosePosition(bool(d["first"]))
    if t == "activate":
        return Activate(d["plane"], d["speed"])
    if t == "straight":
        return STRAIGHT
    if t == "turn":
        return Turn(d["direction"])
    if t == "maneuver":
        return Maneuver(d["kind"], d.get("option", 0))
    if t == "end_move":
        return EndMove(d.get("status", "none"))
    if t == "move_plan":
        return MovePlan(
            d["plane"],
            d["speed"],
            tuple(action_from_json(s) for s in d["steps"]),
            d.get("status", "none"),
            bool(d.get("clouds", False)),
        )
    if t == "attack":
        return Attack(d["attacker"], d["target"])
    if t == "decline":
        return DECLINE
    if t == "direct":
        return Direct(tuple(sorted(int(p) for p in d["planes"])))
    if t == "enter_clouds":
        return ENTER_CLOUDS[bool(d["attempt"])]
    if t == "reposition":
        return Reposition(d["plane"], d["option"])
    if t == "pass":
        return PASS
    raise ValueError(f"unknown action type {t!r}")
