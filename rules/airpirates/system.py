"""*Air Pirates* (002) behind :class:`rules.tactical.TacticalSystem`, registered by its
entry point ``airpirates`` (pyproject.toml, group ``angels.tactical_systems``).

Its computer pilots: ``competent`` (listed first, so the product's default for a side no
person flies: ``battles.services.fly``, ``battles.other_games``, campaign engagements) and
``novice`` are the tactical pilot of ``pilots/`` at two strengths; ``random`` plays a
uniformly random legal action (the baseline the issue measures the others against).

Its scenarios for the new-battle page and the API (``scenarios``, ``scenario``) and a
campaign's engagements (``campaign_engagement``) are built in ``scenarios.py``; the
result's shape, kill credit included, in ``outcome.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.dice import Dice, derive_seed
from rules.tactical import ComputerPilot, TacticalSystem

from .actions import Action, IllegalAction, action_from_json
from .pilots import CompetentPilot, NovicePilot
from .scenarios import SCENARIOS, scenario_form
from .scenarios import campaign_engagement as engagement_scenario
from .scenarios import scenario as scenario_named
from .state import AirPiratesBattle, new_battle, replay
from .units import SIDES, Scenario, unit_name
from .words import log_sentence


class RandomPilot:
    """Any legal action, drawn from its own seeded dice."""

    def __init__(self, seed: int) -> None:
        self.dice = Dice(seed, record=False)

    def choose(self, battle: AirPiratesBattle) -> Action:
        legal = battle.legal_actions()
        return legal[self.dice.roll(len(legal), "computer pilot: random") - 1]


PILOTS: dict[str, type] = {
    "competent": CompetentPilot,
    "novice": NovicePilot,
    "random": RandomPilot,
}


class AirPirates:
    """The Air Pirates engine behind the common tactical interface."""

    name = "airpirates"
    title = "Air Pirates"
    rulebook = "002"
    sides: tuple[str, ...] = SIDES
    pilots: tuple[str, ...] = tuple(sorted(PILOTS))  # "competent" first: the default
    refusal: type[Exception] = IllegalAction
    scenarios: dict[str, str] = dict(SCENARIOS)  # the new-battle page's (battles.other_games)
    # the roster's cards this game flies: AircraftType.game_cards["airpirates"], handed to
    # ``scenario`` and ``campaign_engagement`` as ``cards`` (battles.other_games)
    roster_cards = "airpirates"

    def pilot_refs(self, scenario: dict[str, Any]) -> dict[int, str]:
        """Each unit's pilot reference ("" none) by its number, as the log and result
        number the scenario's ``units`` from 1 (``outcome.pilot_ref``; rules.tactical.crews)."""
        return {
            i + 1: str(unit.get("pilot_ref") or "")
            for i, unit in enumerate(scenario.get("units") or [])
            if isinstance(unit, dict)
        }

    def aircraft_names(self, scenario: dict[str, Any]) -> dict[int, tuple[str, str]]:
        """Each unit's name and pilot quality by its number, as the result gives them
        (``Unit.name``, ``Unit.quality``: ``units.unit_from_scenario``; rules.tactical.crews)."""
        return {
            i + 1: (unit_name(unit, i), str(unit.get("quality", "average")))
            for i, unit in enumerate(scenario.get("units") or [])
            if isinstance(unit, dict)
        }

    def log_sentence(self, entry: dict[str, Any]) -> str | None:
        """A log entry in words for the report and play page (``words.py``)."""
        return log_sentence(entry)

    def scenario(
        self,
        key: str,
        seed: int,
        *,
        cards: dict[str, dict[str, Any]] | None = None,
        flights: Any = None,
        settings: Any = None,
    ) -> dict[str, Any]:
        """The scenario ``key`` of ``scenarios`` as ``new_battle`` reads it: ``cards`` the
        roster's, ``flights`` and ``settings`` what ``scenario_form`` asks for."""
        return scenario_named(key, seed, cards=cards, flights=flights, settings=settings)

    def scenario_form(
        self, key: str, cards: dict[str, dict[str, Any]] | None = None
    ) -> dict[str, Any] | None:
        """What the new-battle page asks for the scenario ``key`` (flights, settings)."""
        return scenario_form(key, cards)

    def campaign_engagement(
        self,
        attackers: Sequence[dict[str, Any]],
        defenders: Sequence[dict[str, Any]],
        *,
        name: str,
        turns: int,
        territory: dict[str, str],
        effects: dict[str, Any] | None = None,
        cards: dict[str, dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """A campaign engagement's scenario from its entrants (``campaign.game``), each
        plane flying its card in ``cards`` (the roster's) or the catalog's."""
        return engagement_scenario(
            attackers, defenders, name=name, turns=turns, territory=territory,
            effects=effects, cards=cards,
        )  # fmt: skip

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
