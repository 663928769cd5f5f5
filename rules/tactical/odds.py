"""The odds of a decision before it is taken (issue 25), as a page shows them beside
the choice.

An optional method of a battle:

  decision_odds(side, action) -> DecisionOdds | None   the odds of one of ``side``'s
                                  decisions now; None: that decision has no odds.
"""

from __future__ import annotations

from typing import Any, TypedDict


class OddsModifier(TypedDict):
    """One modifier of a decision's odds: its name, its value, the rule that gives it."""

    name: str  # "range 3", "deflection"
    value: int  # added to the roll (or its target), as the rule says: +2, -1
    rule: str  # the rule that gives it, cited as everywhere ("002 15b3")


class DecisionOdds(TypedDict):
    """The odds of one decision, as a page shows them beside the choice.

    ``chance``: from 0 to 1, the chance the decision succeeds (a shot scores a hit, a
    maneuver check passes), computed without rolling a die or changing the battle;
    ``text``: the same in plain words ("hits 42%"); ``modifiers``: what made it so."""

    chance: float
    text: str
    modifiers: list[OddsModifier]


def decision_odds(battle: Any, side: int, action: Any) -> DecisionOdds | None:
    """The odds of ``side``'s decision ``action`` now, from the battle's own
    ``decision_odds(side, action)`` (a DecisionOdds); None when the game has no such
    method or the decision has no odds (a move, a pass)."""
    own = getattr(battle, "decision_odds", None)
    return None if own is None else own(side, action)
