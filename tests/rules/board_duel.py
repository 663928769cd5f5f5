"""The tests' duel (tests/rules/duel_system.py) on a tiny hex board, described for the pages
(issue 25: ``describe_board``, ``phase_text``, ``log_sentence`` of rules/tactical.py): two
gunners face each other across a 5 x 3 map; a gunner who misses closes one hex on the other.
"""

from __future__ import annotations

from typing import Any

from rules.tactical import Board
from tests.rules.duel_system import SIDES, Duel, DuelSystem, Shot

COLUMNS, ROWS = 5, 3
START = {0: [0, 1], 1: [4, 1]}  # axis on the west edge facing east-ish, allied on the east
FACING = {0: 2, 1: 5}  # hexsides clockwise from the top: 2 down-right, 5 up-left


class BoardDuel(Duel):
    def __init__(self, scenario: dict[str, Any], seed: int) -> None:
        super().__init__(scenario, seed)
        self.places = {0: list(START[0]), 1: list(START[1])}
        self.hit_side: int | None = None

    def apply(self, action: Shot) -> None:
        shooter = self.to_act
        Duel.apply.__wrapped__(self, action)  # type: ignore[attr-defined]  # the duel's own rules
        if shooter is None:
            return
        if self.log[-1]["hit"]:
            self.hit_side = 1 - shooter
        elif abs(self.places[0][0] - self.places[1][0]) > 1:  # a miss: close one hex
            self.places[shooter][0] += 1 if shooter == 0 else -1

    def describe_board(self, side: int | None) -> Board:
        return {
            "kind": "hex", "columns": COLUMNS, "rows": ROWS, "orientation": "flat-odd-q",
            "pieces": [
                {
                    "id": s, "side": SIDES[s], "label": f"{SIDES[s].capitalize()} gunner",
                    "title": f"The {SIDES[s]} gunner at column {self.places[s][0]}",
                    "hex": list(self.places[s]), "facing": FACING[s], "altitude": "low",
                    "status": "hit" if self.hit_side == s else "", "damaged": self.hit_side == s,
                }
                for s in (0, 1)
            ],
            "markers": [{"hexes": [[2, 0]], "label": "church tower"}],
        }  # fmt: skip

    def phase_text(self) -> str:
        return "over" if self.to_act is None else f"{SIDES[self.to_act]} gunnery"


class BoardDuelSystem(DuelSystem):
    name = "board_duel"
    title = "Duel on the Ridge"
    scenarios = {"ridge": "Dawn over the ridge"}  # the new-battle page offers it

    def scenario(self, key: str, seed: int) -> dict[str, Any]:
        if key not in self.scenarios:
            raise KeyError(key)
        return {"name": "Dawn over the ridge", "turns": 4}

    def new_battle(self, scenario: dict[str, Any], seed: int) -> BoardDuel:
        return BoardDuel(self.scenario_json(scenario), seed)

    def log_sentence(self, entry: dict[str, Any]) -> str:
        if entry.get("e") == "duel_start":
            return f"The gunners take their places: {entry['turns']} rounds at most."
        if entry.get("e") == "shot":
            outcome = "and hits" if entry["hit"] else "and misses"
            return f"The {entry['side']} gunner fires (d6 {entry['roll']}) {outcome}."
        return str(entry)


BOARD_DUEL = BoardDuelSystem()
