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

Systems join a registry by themselves: each declares a Python entry point in
the ``angels.tactical_systems`` group (pyproject.toml), loaded once by
:func:`tactical_systems`; this module imports none of them. A test registers
a system of its own with :func:`registered`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from importlib.metadata import entry_points
from typing import Any, Literal, Protocol, TypedDict, runtime_checkable

ENTRY_POINT_GROUP = "angels.tactical_systems"
DEFAULT_SYSTEM = "angels20"  # the system of every battle stored before there were others

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
    turn: int  # the game turn (a battle's progress while a worker flies it)

    def current_side(self) -> int | None: ...

    def legal_actions(self) -> Sequence[Any]: ...

    def apply(self, action: Any) -> None: ...

    def undo(self) -> None: ...

    def clone(self) -> TacticalBattle: ...

    def is_over(self) -> bool: ...

    def result(self) -> Any: ...

    def to_json(self) -> dict[str, Any]: ...


class ComputerPilot(Protocol):
    """A computer pilot flying one side: seeded once, it decides each time it is asked."""

    def choose(self, battle: Any) -> Any: ...


class TacticalSystem(Protocol):
    """A tactical rules system: how to start, read and replay its battles, and fly
    them with computer pilots. What the battles app asks of every game."""

    name: str  # the key stored on a battle (``Battle.system``), e.g. "angels20"
    title: str  # the game's name as pages show it, e.g. "Angels 20"
    rulebook: str  # the rulebook file number, e.g. "000"
    sides: tuple[str, ...]
    pilots: tuple[str, ...]  # the computer pilots' names, sorted
    # The exception ``apply`` raises for an action the rules refuse; it carries
    # ``message`` (in words) and ``rule`` (the rulebook section cited).
    refusal: type[Exception]

    def new_battle(self, scenario: dict[str, Any], seed: int) -> TacticalBattle: ...

    def action_from_json(self, data: dict[str, Any]) -> Any: ...

    def battle_from_json(self, data: dict[str, Any]) -> TacticalBattle: ...

    def scenario_json(self, scenario: dict[str, Any]) -> dict[str, Any]:
        """The scenario as this system writes it (raises ``KeyError``, ``TypeError``,
        ``ValueError``... on one it cannot read)."""
        ...

    def replay(
        self,
        scenario: dict[str, Any],
        seed: int,
        actions: Sequence[dict[str, Any]],
        *,
        checked: bool = True,
    ) -> TacticalBattle:
        """The battle flown from its record; ``checked=False`` applies actions already
        checked when they were taken, without checking them again."""
        ...

    def pilot_seed(self, battle_seed: int, side: str) -> int:
        """The seed of the computer pilot flying ``side`` in the battle seeded ``battle_seed``."""
        ...

    def computer_pilot(self, name: str, seed: int) -> ComputerPilot:
        """The computer pilot ``name`` (one of ``pilots``), seeded ``seed``."""
        ...


class UnknownSystem(LookupError):
    """A tactical system nobody registered; the message names the known ones."""

    def __init__(self, name: object, known: Sequence[str]) -> None:
        self.name, self.known = name, tuple(known)
        super().__init__(
            f"unknown tactical system {name!r} (known: {', '.join(self.known) or 'none'})"
        )

    def __str__(self) -> str:  # a LookupError's str would quote the whole message
        return str(self.args[0])


_SYSTEMS: dict[str, TacticalSystem] = {}
_LOCK = threading.Lock()
_loaded = False


def _load_entry_points() -> None:
    """Register every system declared in the ``angels.tactical_systems`` group, once."""
    global _loaded
    if _loaded:
        return
    with _LOCK:
        if _loaded:
            return
        for point in entry_points(group=ENTRY_POINT_GROUP):
            system = point.load()
            if system.name != point.name:
                raise ValueError(
                    f"entry point {point.name!r} of {ENTRY_POINT_GROUP} names a system "
                    f"called {system.name!r}"
                )
            _SYSTEMS.setdefault(system.name, system)
        _loaded = True


def register(system: TacticalSystem) -> TacticalSystem:
    """Add ``system`` to the registry under its ``name`` (again: no change). Another
    system already under that name is refused."""
    _load_entry_points()
    with _LOCK:
        there = _SYSTEMS.get(system.name)
        if there is not None and there is not system:
            raise ValueError(f"a tactical system named {system.name!r} is registered already")
        _SYSTEMS[system.name] = system
    return system


def unregister(name: str) -> None:
    """Take the system ``name`` out of the registry (tests)."""
    with _LOCK:
        _SYSTEMS.pop(name, None)


@contextmanager
def registered(system: TacticalSystem) -> Iterator[TacticalSystem]:
    """``system`` registered for the ``with`` block only (a test's own system)."""
    register(system)
    try:
        yield system
    finally:
        unregister(system.name)


def tactical_systems() -> dict[str, TacticalSystem]:
    """Every tactical system the product can fly, by name (sorted)."""
    _load_entry_points()
    with _LOCK:
        return dict(sorted(_SYSTEMS.items()))


def system_named(name: object) -> TacticalSystem:
    """The tactical system called ``name``; :class:`UnknownSystem` names the known ones."""
    systems = tactical_systems()
    if not isinstance(name, str) or name not in systems:
        raise UnknownSystem(name, list(systems))
    return systems[name]


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
