"""*Angels 20* (000) as a :class:`rules.tactical.TacticalSystem`.

It joins the registry through its entry point (pyproject.toml,
``[project.entry-points."angels.tactical_systems"]``); everything here delegates
to the engine's own modules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.dice import Dice
from rules.tactical import ComputerPilot, TacticalSystem

from .actions import Action, IllegalAction, action_from_json
from .pilots import POLICIES, pilot_seed
from .scenario import Scenario
from .state import BattleState, new_battle, replay
from .stats import SIDES


class Angels20:
    """The Angels 20 engine behind the common tactical interface."""

    name = "angels20"
    title = "Angels 20"
    rulebook = "000"
    sides: tuple[str, ...] = tuple(SIDES)
    pilots: tuple[str, ...] = tuple(sorted(POLICIES))
    refusal: type[Exception] = IllegalAction

    def new_battle(self, scenario: dict[str, Any], seed: int) -> BattleState:
        return new_battle(Scenario.from_json(scenario), Dice(seed))

    def action_from_json(self, data: dict[str, Any]) -> Action:
        return action_from_json(data)

    def battle_from_json(self, data: dict[str, Any]) -> BattleState:
        return BattleState.from_json(data)

    def scenario_json(self, scenario: dict[str, Any]) -> dict[str, Any]:
        return Scenario.from_json(scenario).to_json()

    def replay(
        self,
        scenario: dict[str, Any],
        seed: int,
        actions: Sequence[dict[str, Any]],
        *,
        checked: bool = True,
    ) -> BattleState:
        if checked:
            return replay(
                Scenario.from_json(scenario), seed, [action_from_json(a) for a in actions]
            )
        state = new_battle(Scenario.from_json(scenario), Dice(seed))
        for data in actions:  # checked when they were taken: the same dice, the same state
            state.apply_unchecked(action_from_json(data))
        return state

    def pilot_seed(self, battle_seed: int, side: str) -> int:
        return pilot_seed(battle_seed, side)

    def computer_pilot(self, name: str, seed: int) -> ComputerPilot:
        policy: ComputerPilot = POLICIES[name](seed)
        return policy


ANGELS20: TacticalSystem = Angels20()
