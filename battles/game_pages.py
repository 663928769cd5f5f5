"""What the battle pages draw for a battle's game (issue 25): the hex map, its legend and
the rules card are Angels 20's drawing (000's map and counters, battles.report); a game
that describes no such map (the tests' duels) is shown by its turn, choices, event log
and result alone, and its computer pilot is its own."""

from __future__ import annotations

from typing import Any

from rules.tactical import DEFAULT_SYSTEM

from .models import Battle
from .play_seats import default_pilot


def draws_map(battle: Battle) -> bool:
    """Are the battle's aircraft drawn on Angels 20's hex map?"""
    return battle.system == DEFAULT_SYSTEM


def page_parts(battle: Battle) -> dict[str, Any]:
    """What the play page and the report take from the battle's game."""
    return {"map_shown": draws_map(battle), "stand_in": default_pilot(battle.system)}
