"""Helpers shared by the tests of 000's optional rules and special conditions."""

from __future__ import annotations

from engine_helpers import at_attack, axial, events, pre

from rules.angels20 import Activate, EndMove, Rules
from rules.angels20.actions import STRAIGHT, EnterClouds

BF, HURRI = "Bf 109E Wingman", "Hurricane Mk I"
INIT = [6, 6, 1, 1]  # the Axis wins the initiative: the Allies move and attack first
INIT_ALLIED = [1, 1, 6, 6]  # the Allies win: the Axis moves first


def fly(s, speed: int = 2, clouds=()) -> None:
    """Fly every aircraft straight at ``speed`` until the Movement phase ends.

    The aircraft whose ids are in ``clouds`` try to enter the clouds when asked;
    the others stay out. All dice must already be in the script.
    """
    turn = s.turn
    while s.phase == "movement" and s.turn == turn:
        if s.mover < 0:
            act = next(a for a in s.legal_actions() if isinstance(a, Activate) and a.speed == speed)
            s.apply(act)
        elif s.awaiting_cloud:
            s.apply(EnterClouds(s.mover in clouds))
        elif s.awaiting_status:
            s.apply(EndMove("none"))
        else:
            s.apply(STRAIGHT)


def purposes(s) -> list[str]:
    """What every die rolled so far was for."""
    return [r.purpose for r in s.dice.rolls]


def hexes(s, kind: str) -> list[tuple[int, int]]:
    """Axial hexes of the ``kind`` events (flak, balloon)."""
    return [axial(*e["hex"]) for e in events(s, kind)]


def rear_shot(attack_dice, rules: Rules, stats=None, init=INIT):
    """Bf 109 #0 two hexes behind Hurricane #1 (6 o'clock, target number 4, 5 dice)."""
    kw = {"stats": stats} if stats is not None else {}
    return at_attack(
        [pre(BF, "axis", 0, 2, 0, **kw), pre(HURRI, "allied", 0, 0, 0)],
        attack_dice,
        rules,
        init=tuple(init),
    )
