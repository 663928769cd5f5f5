"""A small tactical system of the tests' own: two gunners trade shots until one is hit.

Real enough to be flown by the battles app through the registry (new battle,
computer pilots, result of the one shape, replay), so tests can show that a path
asks the battle's system instead of importing *Angels 20*.
"""

from __future__ import annotations

import copy
import functools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rules.dice import Dice

SIDES = ("axis", "allied")


class Refused(ValueError):
    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} [{rule}]")
        self.rule, self.message = rule, message


@dataclass(frozen=True)
class Shot:
    aim: int  # 1 or 2: the shot hits on a roll of at least 7 - aim

    def to_json(self) -> dict[str, Any]:
        return {"type": "shot", "aim": self.aim}

    def __str__(self) -> str:
        return f"shoot aiming {self.aim}"


def _recorded(apply: Callable[[Any, Any], None]) -> Callable[[Any, Any], None]:
    """``apply`` keeping a snapshot of the state before it and the action in the record;
    an action refused leaves the battle as it was."""

    @functools.wraps(apply)
    def recorded(self: Recorded, action: Any) -> None:
        before = self._snapshot()
        try:
            apply(self, action)
        except Exception:
            self._restore(before)
            raise
        self._undo.append(before)
        self.applied.append(action.to_json())

    recorded._recorded = True  # type: ignore[attr-defined]
    return recorded


class Recorded:
    """What every test battle does alike: its record, ``undo``, ``clone`` and JSON round trip.

    Each ``apply`` (a subclass's own too: ``__init_subclass__`` wraps it) keeps a snapshot
    of the whole state before the action (the dice's position with it), so ``undo`` gives
    back exactly the battle before the last action, and the action's JSON, so ``to_json``
    is the battle's record (scenario, seed, actions, log) and ``battle_from_json`` its
    replay. A subclass sets ``scenario``, ``dice`` and ``log`` and calls ``_start_record``.
    """

    scenario: dict[str, Any]
    dice: Dice
    log: list[dict[str, Any]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("apply")
        if own is not None and not getattr(own, "_recorded", False):
            cls.apply = _recorded(own)  # type: ignore[attr-defined]

    def _start_record(self) -> None:
        self.applied: list[dict[str, Any]] = []
        self._undo: list[dict[str, Any]] = []

    def _snapshot(self) -> dict[str, Any]:
        return {k: copy.deepcopy(v) for k, v in vars(self).items() if k != "_undo"}

    def _restore(self, snapshot: dict[str, Any]) -> None:
        undo = self._undo
        self.__dict__.clear()
        self.__dict__.update(snapshot)
        self._undo = undo

    def undo(self) -> None:
        """Take back the last action (its dice too); nothing to take back is a ValueError."""
        if not self._undo:
            raise ValueError("no action to take back")
        self._restore(self._undo.pop())

    def clone(self) -> Any:
        """A copy of its own (its undo history too): nothing done to it reaches this one."""
        return copy.deepcopy(self)

    def to_json(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "seed": self.dice.seed,
            "actions": list(self.applied),
            "log": self.log,
        }


class Duel(Recorded):
    def __init__(self, scenario: dict[str, Any], seed: int) -> None:
        self.scenario = dict(scenario)
        self.dice = Dice(seed)
        self.turn = 1
        self.to_act: int | None = 0
        self.winner: int | None = None
        self.log: list[dict[str, Any]] = [{"e": "duel_start", "turns": self.scenario["turns"]}]
        self._start_record()

    def current_side(self) -> int | None:
        return self.to_act

    def legal_actions(self) -> list[Shot]:
        return [] if self.to_act is None else [Shot(1), Shot(2)]

    def apply(self, action: Shot) -> None:
        if self.to_act is None or action.aim not in (1, 2):
            raise Refused("duel 'SHOOTING'", "a gunner aims 1 or 2, and only while the duel lasts")
        roll = self.dice.d6("shot")
        hit = roll >= 7 - action.aim
        self.log.append({"e": "shot", "side": SIDES[self.to_act], "roll": roll, "hit": hit})
        if hit:
            self.winner, self.to_act = self.to_act, None
        elif self.to_act == 1:
            self.turn += 1
            self.to_act = None if self.turn > self.scenario["turns"] else 0
        else:
            self.to_act = 1

    def is_over(self) -> bool:
        return self.to_act is None

    def decision_odds(self, side: int, action: Shot) -> dict[str, Any] | None:
        """The odds of a shot aimed 2 (rules.tactical.DecisionOdds): it hits on 5 or 6. A shot
        aimed 1 gives none, so the tests see a decision with odds and one without."""
        if action.aim != 2:
            return None
        chance = action.aim / 6
        return {
            "chance": chance,
            "text": f"{SIDES[side]} hits {round(chance * 100)}%",
            "modifiers": [{"name": "aim", "value": action.aim, "rule": "duel 'SHOOTING'"}],
        }

    def result(self) -> dict[str, Any]:
        winner = None if self.winner is None else SIDES[self.winner]
        return {
            "scenario": self.scenario["name"], "kind": "duel", "winner": winner,
            "reason": "a hit" if winner else "out of turns", "victory_points": {"axis": 0.0, "allied": 0.0},
            "turns_played": min(self.turn, self.scenario["turns"]), "aircraft": [], "kills": [],
        }  # fmt: skip


class Gunner:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, battle: Duel) -> Shot:
        return self.rng.choice(battle.legal_actions())


class DuelSystem:
    name = "duel"
    title = "Duel at Dawn"
    rulebook = "test"
    sides: tuple[str, ...] = SIDES
    pilots: tuple[str, ...] = ("gunner",)
    refusal: type[Exception] = Refused

    def new_battle(self, scenario: dict[str, Any], seed: int) -> Duel:
        return Duel(self.scenario_json(scenario), seed)

    def action_from_json(self, data: dict[str, Any]) -> Shot:
        return Shot(int(data["aim"]))

    def battle_from_json(self, data: dict[str, Any]) -> Duel:
        """The battle ``to_json`` wrote: its record replayed (the log must come out the same,
        or the record is refused)."""
        battle = self.replay(data["scenario"], int(data["seed"]), data["actions"])
        if battle.log != data["log"]:
            raise ValueError("the log is not the one its scenario, seed and actions give")
        return battle

    def scenario_json(self, scenario: dict[str, Any]) -> dict[str, Any]:
        return {"name": str(scenario["name"]), "turns": int(scenario["turns"])}

    def replay(
        self, scenario: dict[str, Any], seed: int, actions: Sequence[dict[str, Any]], *, checked: bool = True
    ) -> Duel:  # fmt: skip
        battle = self.new_battle(scenario, seed)
        for data in actions:
            battle.apply(self.action_from_json(data))
        return battle

    def pilot_seed(self, battle_seed: int, side: str) -> int:
        return battle_seed * 2 + SIDES.index(side)

    def computer_pilot(self, name: str, seed: int) -> Gunner:
        return Gunner(seed)


DUEL = DuelSystem()
DUEL_SCENARIO = {"name": "Dawn at the airfield", "turns": 6}
