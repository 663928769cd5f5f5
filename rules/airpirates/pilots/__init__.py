"""Computer pilots of *Air Pirates* (002): how they fly is in :mod:`.tactical`, what they
foresee in :mod:`.foresight`.

Two strengths, named in :data:`STRENGTHS`: ``novice`` (one maneuver ahead, fires at every
chance, keeps the sequence marker, flies its altitude toward the nearest enemy) and
``competent`` (two maneuvers ahead, the enemies' shots foreseen, ammunition kept for good
shots, the marker passed to choose second, altitude and speed chosen by looking ahead,
contact broken when beaten). Both are deterministic given their seed (``pilot_seed``):
no global ``random``, ties broken by their own :class:`rules.dice.Dice`.

Fly a battle with :func:`play_out`::

    result = play_out(new_battle(basic_game("Bf 109E Wingman", "Hurricane Mk I"), 7),
                      [competent(1), novice(2)])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .tactical import COMPETENT, NOVICE, STRENGTHS, Strength, Stuck, TacticalPilot

__all__ = ["COMPETENT", "NOVICE", "STRENGTHS", "Strength", "Stuck", "TacticalPilot", "competent",
           "novice", "play_out"]  # fmt: skip


class CompetentPilot(TacticalPilot):
    """Seeded like every pilot of the system (``AirPirates.computer_pilot``)."""

    strength = COMPETENT


class NovicePilot(TacticalPilot):
    strength = NOVICE


def competent(seed: int) -> TacticalPilot:
    return CompetentPilot(seed)


def novice(seed: int) -> TacticalPilot:
    return NovicePilot(seed)


def play_out(battle: Any, pilots: Sequence[Any], *, max_actions: int = 50_000) -> dict[str, Any]:
    """Fly ``battle`` to its end with one pilot per side (in ``SIDES`` order), every action
    applied unchecked (the pilots choose from the legal ones); ``battle.result()``."""
    n = 0
    while not battle.is_over():
        if n >= max_actions:
            raise RuntimeError(f"battle not over after {max_actions} actions")
        side = battle.current_side()
        try:
            action = pilots[side].choose(battle)
        except Exception as error:
            if not battle.legal_actions():  # the engine's fault, not the pilot's
                raise Stuck(f"{battle.phase_name()}: no legal action for side {side}") from error
            raise
        battle.apply_unchecked(action)
        n += 1
    result: dict[str, Any] = battle.result()
    return result
