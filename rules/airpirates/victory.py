"""Victory points and bailing out (002 [8], [14], 13c).

The basic game counts 10 per eliminated enemy unit and 1 per hit on the others ([8]); with
the option ``points`` an eliminated unit is worth its point value (14a) changed by its
pilot's quality (14b), less 5, 3 or 2 when its pilot bails out over friendly, neutral or
enemy ground (13c2). With the option ``bailout`` the pilot of an eliminated unit tries to
bail out (13c1): a d10 modified -3 per crew hit and -2 per fire succeeds on 5 or more;
nobody gets out of a unit with two crew hits.
"""

from __future__ import annotations

from typing import Any

from .units import Unit

POINTS = "002 '14a'"
QUALITY = "002 '14b'"
BAIL_OUT = "002 '13c1'"
BAIL_OUT_POINTS = "002 '13c2'"

QUALITY_POINTS = {"green": -2, "inexperienced": -1, "average": 0, "experienced": 1, "ace": 2}
BAIL_OUT_SAVES = {"friendly": 5, "neutral": 3, "enemy": 2}  # 13c2.1, 13c2.2, 13c2.3
SUCCESS = 5  # "a modified number of 5 through 10"


def unit_value(unit: Unit) -> int:
    """14a, 14b: the selection and victory point value with this pilot."""
    return int(unit.card["point_value"]) + QUALITY_POINTS[unit.quality]


def area(unit: Unit, ground: str) -> str:
    """The ground under ``unit`` as 13c2 names it: ``ground`` is the side whose ground the
    battle is fought over, or "neutral"."""
    if ground == "neutral":
        return "neutral"
    return "friendly" if ground == unit.side else "enemy"


def bail_out_modifier(unit: Unit, fires: int = 0, early: bool = False) -> int:
    """13c1: -3 per crew hit, -2 per fire; 13c3: +2 before the unit is eliminated."""
    return -3 * unit.damage["crew"] - 2 * fires + (2 if early else 0)


def bail_out(unit: Unit, roll: int | None, fires: int = 0, early: bool = False) -> dict[str, Any]:
    """The attempt in the result's shape (``rules.tactical.Bailout``); ``roll`` None when
    two crew hits allow none."""
    modifier = bail_out_modifier(unit, fires, early)
    if roll is None:
        outcome = "impossible"
    else:
        outcome = "survived" if roll + modifier >= SUCCESS else "failed"
    return {"roll": roll, "die": "d10", "modifier": modifier, "outcome": outcome, "early": early}


def may_bail_out(unit: Unit) -> bool:
    """13c1: "No bailing Out is possible from air units with two crew hits"."""
    return unit.damage["crew"] < 2


def loss_value(unit: Unit, ground: str, bailout: dict[str, Any] | None) -> int:
    """13c2: what an eliminated unit gives the enemy under section 14."""
    value = unit_value(unit)
    if bailout is not None and bailout["outcome"] == "survived":
        value -= BAIL_OUT_SAVES[area(unit, ground)]
    return value
