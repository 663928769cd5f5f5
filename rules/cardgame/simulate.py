"""Seeded card-game campaigns between commanders (``manage.py simulate_campaigns``).

Each game is a whole game of the strategic card game (003) with the card
engagement mode (003 "INTERCEPTION SEGMENT" rolled by the card game itself),
played by two commanders of :data:`rules.cardgame.commander.COMMANDERS`
(``computer`` or ``random``). Game ``i`` has the seed
``derive_seed(seed, "game i")`` and each commander its own child seed, so a
game replays from the seed. With ``swap`` the commanders change sides in every
second game.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field

from rules.dice import Dice, derive_seed

from .cards import AXIS, SIDES
from .commander import COMMANDERS
from .setup import default_setup
from .state import GameState, new_game

MAX_TURNS = 200  # a game still running after this many turns is "unfinished"
MAX_ACTIONS = 200_000


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a proportion ``wins/n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class GameRecord:
    seed: int
    commanders: dict[str, str]  # side -> commander kind
    winner: str | None  # a side, or None if unfinished
    reason: str
    turns: int


@dataclass
class Summary:
    runs: int
    seed: int
    games: list[GameRecord] = field(default_factory=list)

    def side_wins(self, side: str) -> int:
        return sum(1 for g in self.games if g.winner == side)

    def kind_games(self, kind: str) -> int:
        return sum(1 for g in self.games if kind in g.commanders.values())

    def kind_wins(self, kind: str) -> int:
        return sum(1 for g in self.games if g.winner and g.commanders[g.winner] == kind)

    @property
    def unfinished(self) -> int:
        return sum(1 for g in self.games if g.winner is None)

    @property
    def median_turns(self) -> float:
        return statistics.median(g.turns for g in self.games) if self.games else 0.0

    def lines(self) -> list[str]:
        n = len(self.games)
        out = [f"{n} games (seed {self.seed}), card engagements"]
        for side in SIDES:
            kinds = sorted({g.commanders[side] for g in self.games})
            out.append(_line(f"{side} ({'/'.join(kinds)})", self.side_wins(side), n))
        for kind in sorted({k for g in self.games for k in g.commanders.values()}):
            mirror = all(set(g.commanders.values()) == {kind} for g in self.games)
            if not mirror:
                out.append(_line(f"commander {kind}", self.kind_wins(kind), self.kind_games(kind)))
        out.append(f"draws/unfinished: {self.unfinished}; median turns: {self.median_turns:g}")
        return out


def _line(label: str, wins: int, n: int) -> str:
    lo, hi = wilson(wins, n)
    pct = 100 * wins / n if n else 0.0
    return f"{label}: {wins}/{n} wins ({pct:.1f}%, 95% CI {100 * lo:.1f}-{100 * hi:.1f}%)"


def play_game(seed: int, commanders: dict[str, str]) -> GameRecord:
    """One seeded game between two commanders (``side -> kind``)."""
    state: GameState = new_game(default_setup(), Dice(seed, record=False))
    dice = {s: Dice(derive_seed(seed, f"commander {s}"), record=False) for s in SIDES}
    choose = {s: COMMANDERS[commanders[s]] for s in SIDES}
    for _ in range(MAX_ACTIONS):
        side = state.current_side()
        if side is None or state.turn > MAX_TURNS:
            break
        state.apply_unchecked(choose[side](state, side, dice[side]))
    return GameRecord(seed, dict(commanders), state.winner, state.end_reason, state.turn)


def simulate(runs: int, axis: str, allied: str, seed: int = 0, swap: bool = False) -> Summary:
    """Play ``runs`` games, ``axis`` and ``allied`` commanders (swapped in
    every second game with ``swap``)."""
    for kind in (axis, allied):
        if kind not in COMMANDERS:
            raise ValueError(f"unknown commander {kind!r}: one of {', '.join(COMMANDERS)}")
    summary = Summary(runs, seed)
    for i in range(runs):
        pairing = {AXIS: axis, "allied": allied}
        if swap and i % 2 == 1:
            pairing = {AXIS: allied, "allied": axis}
        summary.games.append(play_game(derive_seed(seed, f"game {i}"), pairing))
    return summary
