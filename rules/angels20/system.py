"""*Angels 20* (000) as a :class:`rules.tactical.TacticalSystem`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.tactical import TacticalSystem

from .actions import Action, action_from_json
from .scenario import Scenario
from .state import BattleState, new_battle, replay
from .stats import SIDES


class Angels20:
    """The Angels 20 engine behind the common tactical interface."""

    name = "angels20"
    rulebook = "000"
    sides: tuple[str, ...] = tuple(SIDES)

    def new_battle(self, scenario: dict[str, Any], seed: int) -> BattleState:
        return new_battle(Scenario.from_json(scenario), seed=seed)

    def action_from_json(self, data: dict[str, Any]) -> Action:
        return action_from_json(data)

    def battle_from_json(self, data: dict[str, Any]) -> BattleState:
        return BattleState.from_json(data)

    def replay(
        self, scenario: dict[str, Any], seed: int, actions: Sequence[dict[str, Any]]
    ) -> BattleState:
        return replay(Scenario.from_json(scenario), seed, [action_from_json(a) for a in actions])


ANGELS20: TacticalSystem = Angels20()
