"""A third test-only tactical system: the sealed duel, each gunner's plot built step by step.

Each turn both gunners plot in secret, as in ``tests/rules/sealed_duel.py``, but a plot
is three small choices written in a notation of its own, the shape of an *Air Force*
plot ("2TR2P", 001 V) offered by ``rules.tactical.decision_steps``:

1. the aim: ``1`` cautious, ``2`` steady, ``3`` bold (a shot hits on a d6 of at least
   7 - aim; a bold aim is also easier to hit: the other's shot needs one less);
2. the height flown: ``H`` high or ``L`` low (a shot at a gunner flying at the height
   the shooter flies at needs one less);
3. after a bold aim only, and once a duel: ``B``, a long burst (one less again).

So "2H" and "3L" are whole plots, and so is "3LB" while the burst is unspent. The steps
offer only what is legal; ``action_from_steps`` checks the whole once more, with the
rules ``apply`` uses. Nothing outside its own file knows it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.tactical import DecisionSteps
from tests.rules.sealed_duel import SIDES, Gunner, Refused, SealedDuel, SealedDuelSystem

RULE = "stepped duel 'PLOTTING'"
AIMS = {"1": "aim 1 (cautious)", "2": "aim 2 (steady)", "3": "aim 3 (bold)"}
HEIGHTS = {"H": "fly high", "L": "fly low"}
BURST = {"B": "a long burst (once a duel)"}


@dataclass(frozen=True)
class Plot:
    side: int
    aim: int
    height: str  # "H" or "L"
    burst: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "plot",
            "side": SIDES[self.side],
            "aim": self.aim,
            "height": self.height,
            "burst": self.burst,
        }

    @property
    def notation(self) -> str:
        return f"{self.aim}{self.height}{'B' if self.burst else ''}"

    def __str__(self) -> str:
        return f"{SIDES[self.side]} plots {self.notation}"


class SteppedDuel(SealedDuel):
    def __init__(self, scenario: dict[str, Any], seed: int) -> None:
        super().__init__(scenario, seed)
        self.plots: dict[int, Plot] = {}  # this turn's sealed plots, until both have plotted
        self.burst_spent: set[int] = set()

    # -- the whole decision ------------------------------------------------------------
    def _plots(self, side: int) -> list[Plot]:
        burst = (False,) if side in self.burst_spent else (False, True)
        return [
            Plot(side, aim, height, b)
            for aim in (1, 2, 3)
            for height in HEIGHTS
            for b in burst
            if aim == 3 or not b
        ]

    def legal_actions_for(self, side: int) -> list[Plot]:  # type: ignore[override]
        return self._plots(side) if side in self.deciding_sides() else []

    def legal_actions(self) -> list[Plot]:  # type: ignore[override]
        side = self.current_side()
        return [] if side is None else self.legal_actions_for(side)

    def _problem(self, plot: Any) -> str | None:
        if not isinstance(plot, Plot) or plot.side not in self.deciding_sides():
            return "each gunner plots once a turn, while the duel lasts"
        if plot not in self._plots(plot.side):
            return "a plot is an aim 1-3 and a height H or L; a long burst only after a bold aim, once a duel"
        return None

    # -- the same decision, step by step ---------------------------------------------------
    def decision_steps(self, side: int, partial: tuple[str, ...]) -> DecisionSteps | None:
        if side not in self.deciding_sides():
            return None
        if not partial:
            return DecisionSteps(tuple(AIMS), False, "the aim", AIMS, None)
        if len(partial) == 1:
            return DecisionSteps(tuple(HEIGHTS), False, "the height flown", HEIGHTS, None)
        burst = partial[0] == "3" and len(partial) == 2 and side not in self.burst_spent
        if burst:
            return DecisionSteps(tuple(BURST), True, "a long burst, or nothing more", BURST)
        return DecisionSteps((), True)

    def action_from_steps(self, side: int, steps: tuple[str, ...]) -> Plot:
        if len(steps) not in (2, 3) or steps[0] not in AIMS or steps[1] not in HEIGHTS:
            raise Refused(RULE, "a plot is an aim (1, 2 or 3) then a height (H or L)")
        if steps[2:] not in ((), ("B",)):
            raise Refused(RULE, "only B, a long burst, may follow a bold aim and a height")
        plot = Plot(side, int(steps[0]), steps[1], steps[2:] == ("B",))
        problem = self._problem(plot)
        if problem is not None:
            raise Refused(RULE, problem)
        return plot

    # -- the rules -----------------------------------------------------------------------
    def apply(self, action: Plot) -> None:  # type: ignore[override]
        problem = self._problem(action)
        if problem is not None:
            raise Refused(RULE, problem)
        self.plots[action.side] = action
        self.sealed[action.side] = action.aim  # the sealed duel's count and views
        self.log.append(
            {
                "e": "aim_sealed",
                "turn": self.turn,
                "side": SIDES[action.side],
                "aim": action.notation,
            }
        )
        if len(self.plots) < 2:
            return
        plots, self.plots, self.sealed = self.plots, {}, {}
        self.log.append(
            {
                "e": "plots_revealed",
                "turn": self.turn,
                "plots": {SIDES[s]: p.notation for s, p in sorted(plots.items())},
            }
        )
        hits = [side for side in (0, 1) if self._shot(plots[side], plots[1 - side])]
        if len(hits) == 1:
            self.winner, self.over = hits[0], True
        elif hits or self.turn >= self.scenario["turns"]:
            self.over = True
        else:
            self.turn += 1

    def _shot(self, mine: Plot, theirs: Plot) -> bool:
        bonus = (theirs.aim == 3) + (theirs.height == mine.height) + mine.burst
        if mine.burst:
            self.burst_spent.add(mine.side)
        roll = self.dice.d6("shot")
        hit = roll >= 7 - mine.aim - bonus
        self.log.append(
            {"e": "shot", "turn": self.turn, "side": SIDES[mine.side], "roll": roll, "hit": hit}
        )
        return hit

    def view(self, side: int | None) -> dict[str, Any]:
        mine = self.plots.get(side) if side is not None else None
        return {
            "turn": self.turn,
            "aimed": sorted(SIDES[s] for s in self.plots),
            "your_plot": mine.notation if mine else None,
            "burst_spent": sorted(SIDES[s] for s in self.burst_spent),
        }


class SteppedDuelSystem(SealedDuelSystem):
    """The sealed duel's system with plots built step by step."""

    name = "stepped_duel"
    title = "Duel at Noon"

    def new_battle(self, scenario: dict[str, Any], seed: int) -> SteppedDuel:  # type: ignore[override]
        return SteppedDuel(self.scenario_json(scenario), seed)

    def action_from_json(self, data: dict[str, Any]) -> Plot:  # type: ignore[override]
        burst = data.get("burst", False)
        if not isinstance(burst, bool) or data.get("height") not in HEIGHTS:
            raise ValueError("a plot has a height H or L and burst true or false")
        return Plot(SIDES.index(data["side"]), int(data["aim"]), data["height"], burst)

    def computer_pilot(self, name: str, seed: int) -> Gunner:  # type: ignore[override]
        return Gunner(seed)


STEPPED_DUEL = SteppedDuelSystem()
STEPPED_SCENARIO = {"name": "Noon over the river", "turns": 8}
