"""The small interface every tactical system implements.

A campaign hands an engagement to a tactical system and gets back one shape
of result, whichever game resolved it. *Angels 20* (000) implements it in
``rules.angels20.system``; *Air Force* (001) and *Air Pirates* (002) can join
later (``docs/architecture.md`` says how each one's sequence of play fits).

The shape follows python-chess and OpenSpiel: a frozen scenario and a seed
in; then ``current_side()``, sorted ``legal_actions()``, a checked
``apply(action)`` that raises an error citing the rule, ``undo()``,
``clone()``, ``is_over()``, ``result()``, and a JSON round trip. A battle's
canonical record is ``(system, scenario JSON, seed, actions as JSON)``:
``replay`` of that record gives the same state, log and result.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, Protocol, TypedDict, runtime_checkable

Side = Literal["axis", "allied"]
Fate = Literal["destroyed", "retreated", "damaged", "intact"]


class AircraftOutcome(TypedDict):
    """What became of one aircraft (and its pilot) in a tactical battle."""

    id: int
    name: str
    side: str
    pilot: str
    pilot_ref: str
    fate: str
    exit_edge: str | None
    scored_exit: bool
    damage: int
    destroyed_by: int | None
    destroyed_by_pilot_ref: str | None
    survival_roll: int | None
    survival_modifier: int | None
    pilot_survived: bool | None


class KillOutcome(TypedDict):
    """One aircraft shot down: by whom, in which game turn."""

    attacker: int
    attacker_pilot_ref: str
    target: int
    target_pilot_ref: str
    turn: int


class TacticalResult(TypedDict):
    """The one engagement-result shape every tactical system returns."""

    scenario: str
    kind: str
    winner: str | None  # "axis" / "allied"; None for a draw
    reason: str
    victory_points: dict[str, float]
    turns_played: int
    aircraft: list[AircraftOutcome]
    kills: list[KillOutcome]


RESULT_KEYS = frozenset(TacticalResult.__annotations__)
AIRCRAFT_KEYS = frozenset(AircraftOutcome.__annotations__)
KILL_KEYS = frozenset(KillOutcome.__annotations__)


class TacticalAction(Protocol):
    """A small frozen action with a readable ``str`` and a JSON form."""

    def to_json(self) -> dict[str, Any]: ...


@runtime_checkable
class TacticalBattle(Protocol):
    """A battle in progress. Sides are numbered by their index in ``sides``."""

    log: list[dict[str, Any]]

    def current_side(self) -> int | None: ...

    def legal_actions(self) -> Sequence[Any]: ...

    def apply(self, action: Any) -> None: ...

    def undo(self) -> None: ...

    def clone(self) -> TacticalBattle: ...

    def is_over(self) -> bool: ...

    def result(self) -> Any: ...

    def to_json(self) -> dict[str, Any]: ...


class TacticalSystem(Protocol):
    """A tactical rules system: how to start, read and replay its battles."""

    name: str
    rulebook: str  # the rulebook file number, e.g. "000"
    sides: tuple[str, ...]

    def new_battle(self, scenario: dict[str, Any], seed: int) -> TacticalBattle: ...

    def action_from_json(self, data: dict[str, Any]) -> Any: ...

    def battle_from_json(self, data: dict[str, Any]) -> TacticalBattle: ...

    def replay(
        self, scenario: dict[str, Any], seed: int, actions: Sequence[dict[str, Any]]
    ) -> TacticalBattle: ...


def tactical_systems() -> dict[str, TacticalSystem]:
    """Every tactical system the product can fly, by name."""
    from rules.angels20.system import ANGELS20

    return {ANGELS20.name: ANGELS20}


def check_result(result: Any) -> list[str]:
    """Problems with a result's shape (empty when it is a valid :class:`TacticalResult`)."""
    problems = []
    if not isinstance(result, dict):
        return ["a result is a JSON object"]
    if set(result) != RESULT_KEYS:
        problems.append(f"result keys {sorted(set(result) ^ RESULT_KEYS)} differ")
    for plane in result.get("aircraft", []):
        if set(plane) != AIRCRAFT_KEYS:
            problems.append(f"aircraft keys {sorted(set(plane) ^ AIRCRAFT_KEYS)} differ")
    for kill in result.get("kills", []):
        if set(kill) != KILL_KEYS:
            problems.append(f"kill keys {sorted(set(kill) ^ KILL_KEYS)} differ")
    if result.get("winner") not in (None, "axis", "allied"):
        problems.append(f"winner {result.get('winner')!r} is neither a side nor None")
    return problems
