"""What a tactical game is made of: its actions, battles, computer pilots and the
system itself, as the Protocols every game implements (python-chess and OpenSpiel's
shape: ``current_side()``, ``legal_actions()``, a checked ``apply``, ``undo``,
``clone``, ``result``, a JSON round trip and ``replay``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable


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
    """A computer pilot flying one side: seeded once, it decides each time it is asked.

    A system with simultaneous decisions gives its pilots ``choose_for(battle, side)``
    too (the side to decide for, one of :func:`deciding_sides`); the pilot reads only
    what :func:`view_for` shows that side (it never peeks at a sealed decision)."""

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
