"""The random computer pilot: uniform over the legal actions."""

from __future__ import annotations

from typing import Any

from ..actions import Action
from ..plans import legal_move_plans
from .base import TieBreaker


class RandomPolicy(TieBreaker):
    """Uniform over the legal actions; whole-move plans when an aircraft starts moving."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)

    def choose(self, state: Any) -> Action:
        legal: list[Action] = []
        if state.phase == "movement" and state.mover < 0:
            legal = list(legal_move_plans(state))
        if not legal:
            legal = state.legal_actions()
        if not legal:
            raise ValueError("no legal action: the battle is over")
        return self.one_of(legal)
