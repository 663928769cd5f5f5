"""The frozen part of a game (the cards) and the start of a game (003 "SETUP").

003 "SETUP": "Determine which player gets which Plane Deck (Choose Sides).
Roll high on 1D10 to see who gets the first turn. Each player stars with 10 PP
(Production Points)".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .cards import (
    ALLIED,
    AXIS,
    EVENT_LIST,
    EVENT_RULES,
    MISSIONS,
    SIDES,
    MissionSpec,
    PlaneSpec,
    load_plane_catalog,
    plane_specs,
)
from .phases import EVENT, enter

if TYPE_CHECKING:
    from .state import GameState

RULES_VERSION = "003-cards-1"


def copy_json(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts and lists)."""
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_json(v) for v in value]
    return value


@dataclass(frozen=True)
class GameSetup:
    """The frozen part: the cards of both plane decks and the common decks.

    Card ids are stable: plane cards ``allied-c01``..., ``axis-c01``...; missions
    ``m01``...; events ``e01``... (in the order of the lists, copies expanded).
    """

    planes: tuple[PlaneSpec, ...]
    missions: tuple[MissionSpec, ...] = MISSIONS
    events: tuple[str, ...] = tuple(name for name, _ in EVENT_LIST)
    starting_pp: int = 10  # 003 "SETUP": "Each player stars with 10 PP"
    hand_limit: int = 7  # 003 "DEBRIEFING PHASE": "Max hand size is 7 cards"
    engagement_mode: str = "card"
    plane_cards: dict[str, PlaneSpec] = field(init=False, compare=False, repr=False)
    plane_decks: dict[str, tuple[str, ...]] = field(init=False, compare=False, repr=False)
    mission_cards: dict[str, MissionSpec] = field(init=False, compare=False, repr=False)
    event_cards: dict[str, str] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "planes", plane_specs(self.planes))
        plane_cards: dict[str, PlaneSpec] = {}
        decks: dict[str, list[str]] = {s: [] for s in SIDES}
        for spec in self.planes:
            for _ in range(spec.copies):
                cid = f"{spec.side}-c{len(decks[spec.side]) + 1:02d}"
                plane_cards[cid] = spec
                decks[spec.side].append(cid)
        missions = {f"m{i + 1:02d}": m for i, m in enumerate(self.missions)}
        for name in self.events:
            if name not in EVENT_RULES:
                raise ValueError(
                    f"event card {name!r} has no rule in rules.cardgame.cards.EVENT_RULES"
                )
        events = {f"e{i + 1:02d}": name for i, name in enumerate(self.events)}
        object.__setattr__(self, "plane_cards", plane_cards)
        object.__setattr__(self, "plane_decks", {s: tuple(d) for s, d in decks.items()})
        object.__setattr__(self, "mission_cards", missions)
        object.__setattr__(self, "event_cards", events)

    def card_name(self, card_id: str) -> str:
        if card_id in self.event_cards:
            return self.event_cards[card_id]
        if card_id in self.mission_cards:
            return self.mission_cards[card_id].name
        return self.plane_cards[card_id].name

    def all_card_ids(self) -> list[str]:
        return [*self.plane_cards, *self.mission_cards, *self.event_cards]

    def to_json(self) -> dict[str, Any]:
        # The setup is frozen: build its JSON once (every stored state carries it).
        cached = self.__dict__.get("_json")
        if cached is None:
            cached = self._build_json()
            object.__setattr__(self, "_json", cached)
        return copy_json(cached)

    def _build_json(self) -> dict[str, Any]:
        return {
            "rules_version": RULES_VERSION,
            "planes": [p.to_json() for p in self.planes],
            "missions": [m.to_json() for m in self.missions],
            "events": list(self.events),
            "starting_pp": self.starting_pp,
            "hand_limit": self.hand_limit,
            "engagement_mode": self.engagement_mode,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameSetup:
        return cls(
            planes=plane_specs(data["planes"]),
            missions=tuple(
                MissionSpec(m["name"], m["kind"], int(m["level"])) for m in data["missions"]
            ),
            events=tuple(data["events"]),
            starting_pp=int(data["starting_pp"]),
            hand_limit=int(data["hand_limit"]),
            engagement_mode=data.get("engagement_mode", "card"),
        )


def default_setup(
    planes: Iterable[PlaneSpec | Mapping[str, Any]] | None = None, **options: Any
) -> GameSetup:
    """The game as published: the catalog's plane decks (or ``planes`` given as
    plain data), the mission and event decks as listed, 10 PP, hand limit 7."""
    specs = plane_specs(planes) if planes is not None else load_plane_catalog()
    return GameSetup(planes=specs, **options)


def start_game(state: GameState, *, shuffle: bool = True) -> None:
    """003 "SETUP": shuffle the decks, roll high on 1D10 for the first turn
    (ties re-rolled), and start that side's Event phase."""
    state._log("setup", rules_version=RULES_VERSION, pp=dict(state.pp),
               decks={"plane": {s: len(state.plane_deck[s]) for s in SIDES},
                      "mission": len(state.mission_deck), "event": len(state.event_deck)})  # fmt: skip
    if shuffle:
        for side in SIDES:
            state._shuffle(state.plane_deck[side], f"plane:{side}")
        state._shuffle(state.mission_deck, "mission")
        state._shuffle(state.event_deck, "event")
    rolls = []
    while True:
        a = state._roll("first turn allied")
        b = state._roll("first turn axis")
        rolls.append({ALLIED: a, AXIS: b})
        if a != b:  # "Roll high on 1D10 to see who gets the first turn" (ties re-rolled)
            break
    first = ALLIED if a > b else AXIS
    state.first_roll = {"rolls": rolls, "first": first}
    state._log("first_turn_roll", rolls=rolls, first=first)
    state.active = first
    state.priority = first
    state.history.append({"turn": 0, "side": None, "pp": dict(state.pp), "st": dict(state.st)})
    enter(state, EVENT)
