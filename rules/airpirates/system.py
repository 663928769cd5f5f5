"""*Air Pirates* (002) behind :class:`rules.tactical.TacticalSystem`: **not registered yet**
(no entry point in pyproject.toml) while the game is incomplete (docs/architecture.md).

Its computer pilots: ``random`` plays a uniformly random legal action (the baseline the
issue measures the others against); ``novice`` and ``competent`` are the tactical pilot
of ``pilots/`` at two strengths.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.dice import Dice, derive_seed
from rules.tactical import ComputerPilot, TacticalSystem

from .actions import Action, IllegalAction, action_from_json
from .pilots import CompetentPilot, NovicePilot
from .state import AirPiratesBattle, new_battle, replay
from .units import SIDES, Scenario


class RandomPilot:
    """Any legal action, drawn from its own seeded dice."""

    def __init__(self, seed: int) -> None:
        self.dice = Dice(seed, record=False)

    def choose(self, battle: AirPiratesBattle) -> Action:
        legal = battle.legal_actions()
        return legal[self.dice.roll(len(legal), "computer pilot: random") - 1]


PILOTS: dict[str, type] = {
    "random": RandomPilot,
    "novice": NovicePilot,
    "competent": CompetentPilot,
}


class AirPirates:
    """The Air Pirates engine behind the common tactical interface."""

    name = "airpirates"
    title = "Air Pirates"
    rulebook = "002"
    sides: tuple[str, ...] = SIDES
    pilots: tuple[str, ...] = tuple(sorted(PILOTS))
    refusal: type[Exception] = IllegalAction

    def new_battle(self, scenario: dict[str, Any], seed: int) -> AirPiratesBattle:
        return new_battle(scenario, seed)

    def action_from_json(self, data: dict[str, Any]) -> Action:
        return action_from_json(data)

    def battle_from_json(self, data: dict[str, Any]) -> AirPiratesBattle:
        return AirPiratesBattle.from_json(data)

    def scenario_json(self, scenario: dict[str, Any]) -> dict[str, Any]:
        return Scenario.from_json(scenario).to_json()

    def replay(
        self,
        scenario: dict[str, Any],
        seed: int,
        actions: Sequence[dict[str, Any]],
        *,
        checked: bool = True,
    ) -> AirPiratesBattle:
        if checked:
            return replay(Scenario.from_json(scenario), seed, actions)
        battle = new_battle(scenario, seed)
        for data in actions:  # checked when they were taken
            battle.apply_unchecked(action_from_json(data))
        return battle

    def pilot_seed(self, battle_seed: int, side: str) -> int:
        return derive_seed(battle_seed, f"air pirates computer pilot {side}")

    def computer_pilot(self, name: str, seed: int) -> ComputerPilot:
        pilot: ComputerPilot = PILOTS[name](seed)
        return pilot


AIRPIRATES: TacticalSystem = AirPirates()
