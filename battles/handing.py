"""What a person may hand to the computer pilot (issue 14, issue 25): a whole side in every
game; one aircraft where the game flies aircraft one by one (Angels 20: each aircraft's
move is its own decision, 000 'SEQUENCE OF PLAY'). Another game's battle is handed over by
side: its decisions are not each one aircraft's here."""

from __future__ import annotations

from typing import Any

from angels.errors import RuleViolation
from rules.angels20 import BattleState
from rules.angels20.stats import SIDES as ENGINE_SIDES
from rules.tactical import system_named


def aircraft_refusal(battle: Any, state: Any, side: str, aircraft: int) -> RuleViolation | None:
    """Why ``aircraft`` of ``side`` cannot be handed over alone (None: it can)."""
    if not isinstance(state, BattleState):
        title = system_named(battle.system).title
        return RuleViolation(
            f"{title} battles are handed to the computer pilot a whole side at a time, "
            "not by aircraft: hand over the side",
            field="aircraft",
            code="invalid",
        )
    if not 0 <= aircraft < len(state.planes) or ENGINE_SIDES[state.planes[aircraft].side] != side:
        return RuleViolation(
            f"aircraft {aircraft} is not one of the {side} side's", field="aircraft", code="invalid"
        )
    return None
