"""The Fire Phase of 002 [6]: who may fire at whom, the firing modifiers, the opposed d10
rolls, hits by multiples, and where each hit lands (13b2, 13b3.1).

The Deflection Diagram printed on the back of the control card is not in the scan; its
positions and modifiers are rebuilt in docs/rulings.md, "Air Pirates: the Deflection
Diagram". Rear and oblique-forward guns, the effects of particular hits beyond the
eliminating one, fires and bail-outs come later.
"""

from __future__ import annotations

import math

from .hexes import Hex, ahead, distance, neighbour, to_axial
from .units import PARTS, Unit

POSSIBLE = "002 '6a'"
POSITIONS = "002 '6a1'"
SAME_HEX = "002 '6a3.2'"
ALTITUDE = "002 '6c1.2'"
DEFLECTION = "002 '6c1.3' (docs/rulings.md, 'Air Pirates: the Deflection Diagram')"
AMMUNITION = "002 '13a3'"
RESOLUTION = "002 '6e'"
LOCATION = "002 '13b2'"
__all__ = ["PARTS"]

# 6c1.5-6c1.7 the firer's quality; 6c3.3-6c3.4 the target's (docs/rulings.md)
ATTACK_QUALITY = {"green": -1, "inexperienced": 0, "average": 0, "experienced": 2, "ace": 4}
DEFENCE_QUALITY = {"green": 0, "inexperienced": 0, "average": 0, "experienced": 1, "ace": 2}
# the target's hexside the line of fire crosses, from its front (0) clockwise: 6c1.3
HEXSIDE_MODIFIER = {0: 0, 1: -1, 2: 0, 3: 1, 4: 0, 5: -1}
HEXSIDE_NAMES = ("front", "front right", "rear right", "rear", "rear left", "front left")


def _angle(a: Hex, b: Hex) -> float:
    """Bearing from ``a`` to ``b`` in degrees clockwise from east (rows grow southward)."""
    aq, ar = to_axial(a)
    bq, br = to_axial(b)
    dq, dr = bq - aq, br - ar
    x, y = math.sqrt(3) * (dq + dr / 2), 1.5 * dr
    return math.degrees(math.atan2(y, x)) % 360


def hexsides_crossed(target: Unit, firer: Unit) -> tuple[int, ...]:
    """The target's hexside(s) the line from its centre to the firer crosses (0 front ...
    3 rear); two on a hex spine (6c2.2.1's "doesn't clearly cross")."""
    assert target.hex is not None and firer.hex is not None
    relative = (_angle(target.hex, firer.hex) - 60 * target.facing) % 360
    sector = relative / 60
    nearest = round(sector)
    if abs(sector - nearest) < 1e-9:
        return (nearest % 6,)
    low = math.floor(sector)
    if abs(sector - low - 0.5) < 1e-9:
        return (low % 6, (low + 1) % 6)
    return (nearest % 6,)


def forward_fan(firer: Unit) -> list[Hex]:
    """The hexes the firer's forward guns reach (ruling): one and two hexes ahead, and the
    two hexes beside the first one ahead."""
    assert firer.hex is not None
    first, second = ahead(firer.hex, firer.facing, 2)
    return [first, second, neighbour(first, firer.facing + 1), neighbour(first, firer.facing - 1)]


def position_modifier(firer: Unit, target: Unit) -> int:
    """6c1.3: the Deflection Diagram's modifier (ruling): by the target's hexside crossed,
    the worse of two on a spine, and -2 at two hexes (as 6c2.2.2)."""
    assert firer.hex is not None and target.hex is not None
    if firer.hex == target.hex:
        return 0
    side = min(HEXSIDE_MODIFIER[s] for s in hexsides_crossed(target, firer))
    return side - (2 if distance(firer.hex, target.hex) == 2 else 0)


HEAD_ON = "002 '15a'"
CLOSING_LIMIT = 12  # 15a: combined speeds of "12" or more


def red_dot(firer: Unit, target: Unit) -> bool:
    """15a's red-dot positions (ruling): the line of fire crosses the target's front
    hexside alone and the firer flies at it, facing opposite or one hexside off."""
    if firer.hex is None or target.hex is None or firer.hex == target.hex:
        return False
    closing = (firer.facing - target.facing) % 6 in (2, 3, 4)
    return hexsides_crossed(target, firer) == (0,) and closing


def refusal(
    firer: Unit, target: Unit, entered: dict[int, int], head_on: bool = False
) -> tuple[str, str] | None:
    """Why ``firer`` may not fire at ``target`` now (beyond having completed a maneuver),
    as (rule, words); None if it may. ``entered`` orders the units' last entries;
    ``head_on`` switches on the optional rule 15a."""
    if target.side == firer.side:
        return POSSIBLE, "an air unit fires at an opposing air unit"
    if target.eliminated or target.hex is None:
        return POSSIBLE, f"{target.name} is no longer on the gameboard"
    if firer.card["ammunition"] - firer.ammunition_used < 1:
        return AMMUNITION, f"{firer.name} has no ammunition box left to mark off"
    if abs(firer.altitude - target.altitude) > 1:
        return POSITIONS, "the firer can be no more than one altitude higher or lower"
    if firer.hex == target.hex:
        if firer.altitude != target.altitude:
            return None  # 6a4: one altitude apart in one hex, whatever the facings
        if firer.facing != target.facing:
            return SAME_HEX, "in the same hex at the same altitude the firer faces as the target"
        if entered.get(firer.id, -1) < entered.get(target.id, -1):
            return SAME_HEX, "in the same hex at the same altitude the last to enter fires"
        return None
    if target.hex not in forward_fan(firer):
        return POSITIONS, f"{target.name} is not in a firing position of the Deflection Diagram"
    if head_on and red_dot(firer, target) and firer.speed + target.speed >= CLOSING_LIMIT:
        return HEAD_ON, (
            f"closing head-on at combined speeds of {firer.speed + target.speed} "
            f"({CLOSING_LIMIT} or more): no firing is possible"
        )
    return None


def attack_modifier(firer: Unit, target: Unit) -> dict[str, int]:
    """6c1: every modifier of the firing air unit, by rule."""
    parts = {
        "6c1.1 gun factor": int(firer.card["gun_factor"]),
        "6c1.2 altitude": -2 if firer.altitude != target.altitude else 0,
        "6c1.3 deflection": position_modifier(firer, target),
        "6c1.5-7 pilot": ATTACK_QUALITY[firer.quality],
        "6c1.8 wounded": -1 if firer.damage["crew"] >= 1 else 0,
    }
    return {k: v for k, v in parts.items() if v}


def defence_modifier(target: Unit) -> dict[str, int]:
    """6c3: the target's defence factor less its hits, never below 0 (6c3.2, 13b1.3), and
    its pilot (6c3.3, 6c3.4)."""
    hit = sum(target.damage.values()) + target.crew_other_hits  # 13b2.1's hits count too
    factor = max(0, int(target.card["defence_factor"]) - hit)
    parts = {"6c3.2 defence factor": factor, "6c3.3-4 pilot": DEFENCE_QUALITY[target.quality]}
    return {k: v for k, v in parts.items() if v}


def firing_number(roll: int, modifier: int) -> int:
    """6d: the die plus the total modifier; less than 1 counts as 1."""
    return max(1, roll + modifier)


def hits(attacker: int, defender: int) -> int:
    """6e: none if the target's number equals or exceeds the firer's; else the whole
    multiple of the target's number (one hit when more but not twice as much)."""
    if defender >= attacker:
        return 0
    return max(1, attacker // defender)


def location(roll: int) -> str:
    """13b2: 1-2 engine, 3 crew, 4 fuel, 5-6 wing, 7-9 fuselage, 10 rudder."""
    return {1: "engine", 2: "engine", 3: "crew", 4: "fuel", 5: "wing", 6: "wing",
            10: "rudder"}.get(roll, "fuselage")  # fmt: skip


def boxes(unit: Unit, part: str) -> int:
    return int(unit.card[f"{part}_boxes"])


# -- rear guns (002 6a5, 6c2) ------------------------------------------------------------
REAR = "002 '6a5.2'"
REAR_AGAIN = "002 '6a5.1'"
REAR_SAME_TARGET = "002 '6a5.4'"
REAR_AMMUNITION = "002 '13a3'"
# 6c2.2.6: the rear gunner's quality
GUNNER_QUALITY = {"green": -2, "inexperienced": -1, "average": 0, "experienced": 2, "ace": 4}
# 6c2.2.4, 6c2.2.5: the firing unit marked for, or having completed, a maneuver
REAR_MANEUVER = {"straight": 0, "turn": -1, "tight_turn": -3, "roll": -3, "half_loop": -3}


def in_rear_sector(firer: Unit, target: Unit) -> bool:
    """15b3.6: behind the hex spines at right angles to the direction of travel (a hex
    centre on that line is not clearly behind it)."""
    assert firer.hex is not None and target.hex is not None
    relative = (_angle(firer.hex, target.hex) - 60 * firer.facing) % 360
    return 90 + 1e-9 < relative < 270 - 1e-9


def rear_refusal(firer: Unit, target: Unit, fire_phase: int) -> tuple[str, str] | None:
    """Why ``firer``'s rear gun may not fire at ``target`` in the game's ``fire_phase``-th
    Fire Phase (6a5.1-6a5.2), as (rule, words); None if it may."""
    if firer.card["rear_guns"] < 1:
        return REAR, f"{firer.name} has no rear gun"
    if target.side == firer.side or target.eliminated or target.hex is None:
        return POSSIBLE, "a rear gun fires at an opposing air unit on the gameboard"
    if firer.card["rear_ammunition"] - firer.rear_ammunition_used < 1:
        return REAR_AMMUNITION, f"{firer.name}'s rear gun has no ammunition box left"
    if fire_phase - firer.rear_fired_phase < 2:
        return REAR_AGAIN, "a rear gun fires only in non-consecutive Fire Phases"
    assert firer.hex is not None and target.hex is not None
    above = target.altitude - firer.altitude
    if firer.hex == target.hex:
        if above != 1:
            return REAR, "a target in the rear gun's own hex must be one altitude higher"
        return None
    if above not in (0, 1):
        return REAR, "a rear gun's target is at the same altitude or one level higher"
    if distance(firer.hex, target.hex) > 2 or not in_rear_sector(firer, target):
        return REAR, f"{target.name} is not in a rear sector hex within two hexes"
    return None


def rear_modifier(firer: Unit, target: Unit, maneuver: str | None) -> dict[str, int]:
    """6c2.2: the rear gun's factor and every modifier, by rule; ``maneuver`` is the kind
    marked for, or just completed by, the firing unit."""
    assert firer.hex is not None and target.hex is not None
    side = 0
    if firer.hex != target.hex:
        crossed = hexsides_crossed(target, firer)
        if crossed == (0,):
            side = 2
        elif crossed == (3,):
            side = -1
    parts = {
        "6c2.2 rear gun factor": int(firer.card["rear_gun_factor"]),
        "6c2.2.1 hexside": side,
        "6c2.2.2 range": -2 if distance(firer.hex, target.hex) == 2 else 0,
        "6c2.2.3 altitude": -2 if firer.altitude != target.altitude else 0,
        "6c2.2.4-5 maneuver": REAR_MANEUVER.get(maneuver or "straight", 0),
        "6c2.2.6 gunner": GUNNER_QUALITY[firer.gunner_quality],
    }
    return {k: v for k, v in parts.items() if v}
