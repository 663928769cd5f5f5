"""A second test-only tactical system: a duel whose gunners aim in secret, at once.

Each turn both gunners choose where to aim (1 cautious, 2 steady, 3 bold) without
seeing the other's choice: one simultaneous, hidden decision per turn, the shape of
*Air Force*'s sealed plots (001 V). The first choice is sealed (the log says that a
side has aimed, and only that side reads where); the second reveals both, and both
shots are fired together: a shot hits on a d6 of at least 7 - aim, and a bold aim
(3) is also easier to hit (the other's shot needs one less). A gunner hit loses; both
hit is a draw; so is the end of the turns.

It implements the optional methods of ``rules.tactical`` (``deciding_sides``,
``legal_actions_for``, ``decision_side``, ``sealed_count``, ``view``, ``log_for``; its
pilot ``choose_for``), and nothing outside its own file knows it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from rules.dice import Dice
from tests.rules.duel_system import DuelSystem, Recorded

SIDES = ("axis", "allied")
AIMS = (1, 2, 3)
RULE = "sealed duel 'AIMING'"


class Refused(ValueError):
    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} [{rule}]")
        self.rule, self.message = rule, message


@dataclass(frozen=True)
class Aim:
    side: int
    aim: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "aim", "side": SIDES[self.side], "aim": self.aim}

    def __str__(self) -> str:
        return f"{SIDES[self.side]} aims {self.aim}"


class SealedDuel(Recorded):
    def __init__(self, scenario: dict[str, Any], seed: int) -> None:
        self.scenario = dict(scenario)
        self.dice = Dice(seed)
        self.turn = 1
        self.over = False
        self.winner: int | None = None
        self.sealed: dict[int, int] = {}  # side -> aim, this turn, until both have aimed
        self.log: list[dict[str, Any]] = [
            {"e": "duel_start", "turns": self.scenario["turns"], "turn": 0}
        ]
        self._start_record()

    # -- whose decision ------------------------------------------------------------
    def deciding_sides(self) -> list[int]:
        return [] if self.over else [s for s in range(2) if s not in self.sealed]

    def current_side(self) -> int | None:
        deciding = self.deciding_sides()
        return deciding[0] if deciding else None

    def legal_actions_for(self, side: int) -> list[Aim]:
        return [Aim(side, a) for a in AIMS] if side in self.deciding_sides() else []

    def legal_actions(self) -> list[Aim]:
        side = self.current_side()
        return [] if side is None else self.legal_actions_for(side)

    def decision_side(self, action: Aim) -> int:
        return action.side

    def sealed_count(self) -> int:
        return len(self.sealed)

    # -- the rules -----------------------------------------------------------------
    def apply(self, action: Aim) -> None:
        if action.side not in self.deciding_sides() or action.aim not in AIMS:
            raise Refused(RULE, "each gunner aims 1, 2 or 3, once a turn, while the duel lasts")
        self.sealed[action.side] = action.aim
        self.log.append(
            {"e": "aim_sealed", "turn": self.turn, "side": SIDES[action.side], "aim": action.aim}
        )
        if len(self.sealed) < 2:
            return
        aims, self.sealed = self.sealed, {}
        self.log.append(
            {
                "e": "aims_revealed",
                "turn": self.turn,
                "aims": {SIDES[s]: a for s, a in aims.items()},
            }
        )
        hits = []
        for side in (0, 1):
            bold = 1 if aims[1 - side] == 3 else 0
            roll = self.dice.d6("shot")
            hit = roll >= 7 - aims[side] - bold
            self.log.append(
                {"e": "shot", "turn": self.turn, "side": SIDES[side], "roll": roll, "hit": hit}
            )
            if hit:
                hits.append(side)
        if len(hits) == 1:
            self.winner, self.over = hits[0], True
        elif hits or self.turn >= self.scenario["turns"]:
            self.over = True
        else:
            self.turn += 1

    def is_over(self) -> bool:
        return self.over

    def result(self) -> dict[str, Any]:
        winner = None if self.winner is None else SIDES[self.winner]
        return {
            "scenario": self.scenario["name"], "kind": "sealed_duel", "winner": winner,
            "reason": "a hit" if winner else "no single hit", "victory_points": {"axis": 0.0, "allied": 0.0},
            "turns_played": self.turn, "aircraft": [], "kills": [],
        }  # fmt: skip

    # -- what a side may see ---------------------------------------------------------
    def _pending_from(self) -> int:
        """The index of the first sealed aim not yet revealed (len(log): none)."""
        if not self.sealed:
            return len(self.log)
        return len(self.log) - len(self.sealed)

    def log_for(self, side: int | None) -> list[dict[str, Any]]:
        start = self._pending_from()
        return [
            {k: v for k, v in e.items() if k != "aim"}
            if i >= start and e.get("side") != (SIDES[side] if side is not None else None)
            else e
            for i, e in enumerate(self.log)
        ]

    def view(self, side: int | None) -> dict[str, Any]:
        mine = self.sealed.get(side) if side is not None else None
        return {
            "turn": self.turn,
            "aimed": sorted(SIDES[s] for s in self.sealed),
            "your_aim": mine,
        }


class Gunner:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose_for(self, battle: SealedDuel, side: int) -> Aim:
        return self.rng.choice(battle.legal_actions_for(side))

    def choose(self, battle: SealedDuel) -> Aim:
        return self.choose_for(battle, battle.current_side() or 0)


class SealedDuelSystem(DuelSystem):
    """The duel's system (scenario, replay, pilot seeds) with sealed aims."""

    name = "sealed_duel"
    title = "Duel at Dusk"
    refusal: type[Exception] = Refused
    # the new-battle page and API offer these (battles/other_games.py)
    scenarios = {"dusk": "Dusk at the crossroads", "short": "A short duel (3 turns)"}

    def scenario(self, key: str, seed: int) -> dict[str, Any]:
        if key not in self.scenarios:
            raise KeyError(key)
        return {**SEALED_SCENARIO, "turns": 3 if key == "short" else SEALED_SCENARIO["turns"]}

    def new_battle(self, scenario: dict[str, Any], seed: int) -> SealedDuel:  # type: ignore[override]
        return SealedDuel(self.scenario_json(scenario), seed)

    def action_from_json(self, data: dict[str, Any]) -> Aim:  # type: ignore[override]
        return Aim(SIDES.index(data["side"]), int(data["aim"]))

    def computer_pilot(self, name: str, seed: int) -> Gunner:  # type: ignore[override]
        return Gunner(seed)


SEALED_DUEL = SealedDuelSystem()
SEALED_SCENARIO = {"name": "Dusk at the crossroads", "turns": 8}
