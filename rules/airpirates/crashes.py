"""The optional crash rule (002 13e, option ``crashes``): a damaged unit diving to the
ground (13e1) and the LaGG-3 spinning out of a tight turn (13e1.2).

13e1: "An air unit diving to zero altitude with one crew hit or one engine hit or two wing
hits is eliminated with a die roll of "10" or more ... The die roll is increased by the
speed of this dive." Altitude changes only in the Change Phase ([7]), so the roll is made
there, when a change dives the unit to altitude 0, with the hits it has then and its new
speed. 13e1.1: "The pilot survives the crash with a modified die roll of 10" (exactly 10;
more kills him); a crash is no bail-out, so no 13c1 roll and no 13c2 points saved.

13e1.2: a LaGG-3 "attempting to make a tight turn rolls die. On a 10 or more, the air unit
spins out of control, crashes and is eliminated. The die roll is increased by the speed at
which the turn was attempted before completing the maneuver": rolled as the Move Phase
completes the tight turn, at the unit's speed, before it may fire (6a). Readings:
docs/rulings.md, 'Air Pirates: collisions, crashes and the LaGG-3'.
"""

from __future__ import annotations

from typing import Any

from .units import Unit

CRASH = "002 '13e1'"
SURVIVES = "002 '13e1.1'"
LAGG = "002 '13e1.2'"
CRASHED = 10  # 13e1, 13e1.2: "a die roll of "10" or more"


def crash_prone(unit: Unit) -> bool:
    """13e1: one crew hit or one engine hit or two wing hits (or more)."""
    d = unit.damage
    return d["crew"] >= 1 or d["engine"] >= 1 or d["wing"] >= 2


def must_roll_crash(unit: Unit, dived: int) -> bool:
    """13e1: the change just made dived ``unit`` to altitude 0 with the hits that count."""
    return dived >= 1 and unit.altitude == 0 and crash_prone(unit)


def crash(unit: Unit, roll: int) -> dict[str, Any]:
    """13e1 and 13e1.1: the outcome of the d10 ``roll`` increased by the dive's speed."""
    total = roll + unit.speed
    crashed = total >= CRASHED
    return {"unit": unit.id, "roll": roll, "modifier": unit.speed, "crashed": crashed,
            "pilot_survived": crashed and total == CRASHED}  # fmt: skip


def is_lagg3(unit: Unit) -> bool:
    """13e1.2's aircraft: a unit whose name names the LaGG-3 (the ruling)."""
    name = unit.name.lower().replace(" ", "").replace("-", "")
    return "lagg3" in name


def spins(unit: Unit, roll: int, speed: int) -> dict[str, Any]:
    """13e1.2: the d10 ``roll`` increased by ``speed``, the tight turn's before it slowed
    the unit on completion (5d6)."""
    return {"unit": unit.id, "roll": roll, "modifier": speed, "crashed": roll + speed >= CRASHED}
