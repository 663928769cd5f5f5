"""The detail step: an Angels 20 result with the detail keys of the one result shape.

``BattleState.result()`` stays as it always was (the golden replays store it
byte for byte, and battles stored before the detail keys existed read the
same); careers ask for the detail with :func:`result_detail`, which builds it
from the result alone (and, given the battle's log, each aircraft's victory
points). It works on any stored Angels 20 result, old or new.

What the engine knows (000 "EFFECTS OF DAMAGE"): damage is hits on one track,
so ``damage_by_part={"airframe": n}``; Angels 20 has no crew or cockpit hits
and no fires; its only bail-out die is 000 "PILOT SURVIVAL" (a d6 + territory,
4+ survives), rolled when the aircraft is destroyed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

# The kill goes to the aircraft whose attack destroyed the target: the attack
# that beat its vital armor, or the one that took its last hit point.
CREDIT_RULE = "000 'RESOLVING ATTACKS'"
_VP_REASON = re.compile(r"#(\d+) ")


def _victory_points(log: Iterable[Mapping[str, Any]], sides: Mapping[int, str]) -> dict[int, float]:
    """What each aircraft's loss or retreat gave the enemy (000 "WINNING THE
    SCENARIO": its cost when destroyed, half when it retreats), from the log's
    ``vp`` lines; an aircraft's own side's points (strafing) are not counted."""
    points: dict[int, float] = dict.fromkeys(sides, 0.0)
    for entry in log:
        if entry.get("e") != "vp":
            continue
        match = _VP_REASON.match(str(entry.get("reason", "")))
        if match is None:
            continue
        plane = int(match.group(1))
        if plane in sides and entry.get("side") != sides[plane]:
            points[plane] += float(entry.get("amount", 0))
    return points


def _bailout(craft: Mapping[str, Any]) -> dict[str, Any] | None:
    roll = craft.get("survival_roll")
    if craft.get("fate") != "destroyed" or not isinstance(roll, int):
        return None
    modifier = craft.get("survival_modifier") or 0
    survived = craft.get("pilot_survived")
    if survived is None:
        survived = roll + modifier >= 4
    return {
        "roll": roll,
        "die": "d6",
        "modifier": modifier,
        "outcome": "survived" if survived else "failed",
        "early": False,
    }


def result_detail(
    result: Mapping[str, Any], log: Iterable[Mapping[str, Any]] | None = None
) -> dict[str, Any]:
    """A copy of the Angels 20 ``result`` with every detail key filled in.

    Keys already there are kept. ``victory_points`` is read from ``log`` (the
    battle's log) when given, else ``None`` (unknown).
    """
    aircraft = [dict(craft) for craft in result.get("aircraft", ())]
    sides = {int(c["id"]): str(c.get("side", "")) for c in aircraft if isinstance(c.get("id"), int)}
    points = _victory_points(log, sides) if log is not None else {}
    for craft in aircraft:
        damage = craft.get("damage", 0)
        craft.setdefault("damage_by_part", {"airframe": damage if isinstance(damage, int) else 0})
        craft.setdefault("crew_hits", 0)
        craft.setdefault("cockpit_hits", 0)
        craft.setdefault("fires", 0)
        craft.setdefault("bailout", _bailout(craft))
        plane = craft.get("id")
        craft.setdefault("victory_points", points.get(plane) if isinstance(plane, int) else None)
    kills = []
    for kill in result.get("kills", ()):
        kill = dict(kill)
        kill.setdefault("credit_rule", CREDIT_RULE)
        kill.setdefault("contenders", [kill.get("attacker")])
        kill.setdefault("credit_rolls", [])
        kills.append(kill)
    return {**result, "aircraft": aircraft, "kills": kills}
