"""The actions of the strategic card game: small frozen dataclasses.

Every action names the side taking it. ``to_json``/``action_from_json`` give
the record kept by the Django layer (``replay(setup, seed, actions)``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Advance:
    """Pass: end the phase step or pass priority in a mission window.

    In the losses step it accepts the default loss policy for the rest of the
    side's losses.
    """

    side: str
    kind = "advance"

    def __str__(self) -> str:
        return f"{self.side}: advance"


@dataclass(frozen=True, slots=True)
class Assign:
    """003 "MISSION PHASE": assign a plane in play to a mission in play."""

    side: str
    plane: str
    mission: str
    kind = "assign"

    def __str__(self) -> str:
        return f"{self.side}: assign {self.plane} to {self.mission}"


@dataclass(frozen=True, slots=True)
class Unassign:
    side: str
    plane: str
    kind = "unassign"

    def __str__(self) -> str:
        return f"{self.side}: unassign {self.plane}"


@dataclass(frozen=True, slots=True)
class ScrambleFighter:
    """003 "SCRAMBLE SEGMENT": the defender assigns a fighter to the mission."""

    side: str
    plane: str
    kind = "scramble"

    def __str__(self) -> str:
        return f"{self.side}: scramble {self.plane}"


@dataclass(frozen=True, slots=True)
class PlayEvent:
    """Play an event card from the hand; ``target`` a plane or mission id,
    ``option`` the chosen force of an "or" card (Rockets: "af" or "gf")."""

    side: str
    card: str
    target: str = ""
    option: str = ""
    kind = "play"

    def __str__(self) -> str:
        extra = f" on {self.target}" if self.target else ""
        extra += f" ({self.option})" if self.option else ""
        return f"{self.side}: play {self.card}{extra}"


@dataclass(frozen=True, slots=True)
class ChooseLoss:
    """003 "A player determines which of his planes on a mission are shot down"."""

    side: str
    plane: str
    kind = "loss"

    def __str__(self) -> str:
        return f"{self.side}: lose {self.plane}"


@dataclass(frozen=True, slots=True)
class GiveExperience:
    """Pilot Training: give one of the chosen planes 1 experience marker."""

    side: str
    plane: str
    kind = "train"

    def __str__(self) -> str:
        return f"{self.side}: train {self.plane}"


@dataclass(frozen=True, slots=True)
class Discard:
    """003 "DEBRIEFING PHASE": discard an event card over the hand limit."""

    side: str
    card: str
    kind = "discard"

    def __str__(self) -> str:
        return f"{self.side}: discard {self.card}"


UMPIRE = "umpire"  # the organiser or the engine: not a side


@dataclass(frozen=True, slots=True)
class SetEngagementMode:
    """Umpire: resolve a mission's engagement in another mode ("card",
    "engine", "table") than the campaign's, before its interception rolls."""

    mission: str
    mode: str
    side: str = UMPIRE
    kind = "mode"

    def __str__(self) -> str:
        return f"umpire: resolve {self.mission} by {self.mode}"


@dataclass(frozen=True, slots=True)
class EnterResult:
    """Umpire: the result of the engagement the game is waiting for (an
    :class:`~rules.cardgame.engagement.EngagementResult` as JSON text)."""

    result: str
    side: str = UMPIRE
    kind = "result"

    def __str__(self) -> str:
        return "umpire: enter the engagement result"


Action = (
    Advance
    | Assign
    | Unassign
    | ScrambleFighter
    | PlayEvent
    | ChooseLoss
    | GiveExperience
    | Discard
    | SetEngagementMode
    | EnterResult
)

ACTION_TYPES: dict[str, type] = {
    cls.kind: cls
    for cls in (
        Advance,
        Assign,
        Unassign,
        ScrambleFighter,
        PlayEvent,
        ChooseLoss,
        GiveExperience,
        Discard,
        SetEngagementMode,
        EnterResult,
    )
}


def action_to_json(action: Action) -> dict[str, Any]:
    data = {"type": action.kind}
    for name in action.__slots__:
        data[name] = getattr(action, name)
    return data


def action_from_json(data: Mapping[str, Any]) -> Action:
    fields = dict(data)
    kind = fields.pop("type")
    try:
        cls = ACTION_TYPES[kind]
    except KeyError:
        raise ValueError(f"unknown action type {kind!r}") from None
    return cls(**fields)


def action_sort_key(action: Action) -> tuple[str, str]:
    return (action.kind, str(action))
