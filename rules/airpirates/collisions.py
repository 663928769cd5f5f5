"""Mid-air collisions (002 13d, 13d1) and ramming (13d2), optional rules (options
``collisions``, ``ramming``).

"Both collision and ramming are resolved immediately after the Fire Phase and before the
Maneuver Marking Phase" (13d): two air units "that have not tallied each other" in the
same hex at the same altitude each roll a d10; the sum plus "the combined speeds of both
air units" greater than 21 (the scan's "2]") means both collided and are eliminated
(13d1.1). "As long as there is one tally the possible collision is cancelled" (13d1.2).

This engine has no spotting phase ([15]); a unit is taken to hold a tally on every unit in
its hex unless it fired its forward guns in this Fire Phase (13d: "an air unit firing would
lose the tally ... you can choose to fire or evade"): docs/rulings.md, 'Air Pirates:
collisions, crashes and the LaGG-3'. More than two: pairs in order of the faster speed
(13d1.3). The pilots may bail out "using rule 13c3" (+2 to the roll).
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any

from . import spotting as sp
from .units import Unit

if TYPE_CHECKING:
    from .state import AirPiratesBattle

COLLISION = "002 '13d1'"
ROLL = "002 '13d1.1'"
ORDER = "002 '13d1.3'"
COLLIDED = 21  # 13d1.1: "greater than 2]" (21)


def tallies(battle: AirPiratesBattle, unit: Unit) -> bool:
    """Whether ``unit`` holds its tally on the units in its hex (the ruling): it did not
    fire its forward guns in this Fire Phase."""
    return not any(s[0] == unit.id and s[1] == "forward" for s in battle.shots)


def sees(battle: AirPiratesBattle, unit: Unit, other: Unit) -> bool:
    """Whether ``unit`` has a tally on ``other``: with spotting (15b) the one it recorded
    (13d1.2: friends in one hex may spot each other), else the ruling's (:func:`tallies`)."""
    if battle.spotting is not None:
        return sp.has_tally(battle, unit, other)
    return tallies(battle, unit)


def at_risk(battle: AirPiratesBattle) -> list[tuple[Unit, Unit]]:
    """The pairs that may collide now, in 13d1.3's order: the faster unit of the pair
    first, then the faster pair, then the lower unit numbers (ruling)."""
    flying = [u for u in battle.units if not u.eliminated and u.hex is not None]
    pairs = [
        (a, b) for a, b in combinations(flying, 2)
        if a.hex == b.hex and a.altitude == b.altitude
        and not sees(battle, a, b) and not sees(battle, b, a)
    ]  # fmt: skip
    return sorted(
        pairs, key=lambda p: (-max(p[0].speed, p[1].speed), -p[0].speed - p[1].speed,
                              p[0].id, p[1].id)
    )  # fmt: skip


def resolve(battle: AirPiratesBattle) -> None:
    """13d2's rams, then 13d1: each pair still flying rolls; a collision eliminates both
    (13c3's bail-out)."""
    resolve_rams(battle)
    if "collisions" not in battle.scenario.options:
        return
    for a, b in at_risk(battle):
        if a.eliminated or b.eliminated:
            continue  # gone in an earlier collision of this hex (13d1.3)
        rolls = [battle.dice.d10(f"002 13d1.1 collision: unit {u.id}") for u in (a, b)]
        modifier = a.speed + b.speed
        collided = sum(rolls) + modifier > COLLIDED
        detail: dict[str, Any] = {"units": [a.id, b.id], "rolls": rolls, "modifier": modifier}
        battle._record("collided" if collided else "missed each other", ROLL, **detail)
        if collided:
            for u in (a, b):
                battle._eliminate(u, None, COLLISION, early=True)


# -- 13d2 ramming (option ``ramming``) -------------------------------------------------
RAMMING = "002 '13d2'"
RAM_ROLL = "002 '13d2.2'"
RAMMERS = ("russian", "soviet", "japanese", "polish")  # 13d2: "Russian, Japanese and Polish"
RAM_QUALITY = {"ace": 2, "experienced": 1, "average": 0, "inexperienced": -1, "green": -2}
TALLY = 4  # 13d2.1.4: +4 with a tally on the rammer, -4 without


def nation(battle: AirPiratesBattle, unit: Unit) -> str:
    """The pilot's nation: the scenario entry's ``nation`` (the ruling; the card has none)."""
    return str(battle.scenario.units[unit.id - 1].get("nation", "")).strip().lower()


def ram_refusal(battle: AirPiratesBattle, unit: Unit, target: Unit) -> tuple[str, str] | None:
    """Why ``unit`` may not try to ram ``target`` now (13d2), or None."""
    if nation(battle, unit) not in RAMMERS:
        return RAMMING, "only Russian, Japanese and Polish pilots ram"
    if target.side == unit.side or target.eliminated or target.hex is None:
        return RAMMING, "a unit rams an opposing air unit on the gameboard"
    if unit.id not in battle.moved or unit.hex != target.hex:
        return RAMMING, "the rammer must move into its target's hex in this impulse"
    if unit.altitude != target.altitude:
        return RAMMING, "both air units must be at the same altitude"
    return None


def ram(battle: AirPiratesBattle, unit: Unit, target: Unit) -> None:
    """13d2.1-13d2.2: the rammer's d10 + its speed + its pilot against the target's d10 +
    its speed +4 with a tally on the rammer (-4 without); the target's equal or more
    fails. A ram that succeeds eliminates both (as 13d1), the kill the rammer's."""
    mine = battle.dice.d10(f"002 13d2 ramming: unit {unit.id}")
    theirs = battle.dice.d10(f"002 13d2 ramming: target unit {target.id}")
    attack = unit.speed + RAM_QUALITY[unit.quality]
    defence = target.speed + (TALLY if sees(battle, target, unit) else -TALLY)
    rammed = mine + attack > theirs + defence
    battle._record("rammed" if rammed else "ram failed", RAM_ROLL, unit=unit.id,
                   target=target.id, rolls=[mine, theirs], modifiers=[attack, defence])  # fmt: skip
    if rammed:
        battle._eliminate(target, unit.id, RAMMING, early=True)
        battle._eliminate(unit, None, RAMMING, early=True)


def resolve_rams(battle: AirPiratesBattle) -> None:
    """Each ram announced in this Fire Phase, in the order announced (before 13d1)."""
    for uid, gun, tid in list(battle.shots):
        if gun != "ram":
            continue
        unit, target = battle.unit(uid), battle.unit(tid)
        if not unit.eliminated and not target.eliminated:
            ram(battle, unit, target)
