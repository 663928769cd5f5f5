"""Spotting (002 15b), an optional rule (option ``spotting``), with the sun (9a1.7) and the
break-contact alternative (17b, option ``break_tallies``).

A Spotting Phase comes between each numbered impulse's Move and Fire Phases (15b1; 3f1.1
prints it before the Move Phase: docs/rulings.md, 'Air Pirates: spotting'). In it each air
unit may try once to spot one enemy it has no tally on (15b2): its d10 plus the total
spotting modifier (15b3) against the target's plain d10 (15b4), each at least 1; more
than the target's makes a tally (15b5). Wingmen share their tallies (15b8). A unit fires
only at a unit it has tallied, +4 when the target has no tally on it (15b9). Tallies are
lost at the end of a Fire Phase by firing and being fired at (15b7).

What the battle keeps (``battle.spotting``, JSON): ``tallies`` ([spotter, target] pairs),
``sun`` (a facing, 9a1.7), ``wingmen`` ([a, b] pairs, 15b8.1), ``tried`` (units that made
their attempt in this Spotting Phase), ``done`` (sides that announced no more), ``engaged``
(units that fired or were fired at in the last Fire Phase, 17a), ``free`` (units the bounce
no longer holds, 9f; ``bounce.py``) and ``seen`` ([side, unit]: altitude and speed shown).
Functions of the battle, as ``collisions.py``'s are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import radio as rd
from .actions import EndSpotting, IllegalAction, Spot, Sun
from .fire import in_rear_sector
from .hexes import FACING_NAMES, distance
from .units import SIDES

if TYPE_CHECKING:
    from .state import AirPiratesBattle
    from .units import Unit

SPOTTING = "002 '15b'"
PHASE = "002 '15b1'"
POSSIBILITIES = "002 '15b2'"
MODIFIERS = "002 '15b3'"
RESOLUTION = "002 '15b5'"
LOSING = "002 '15b7'"
WINGMEN = "002 '15b8'"
EFFECTS = "002 '15b9'"
SUN = "002 '9a1.7'"
NO_RADIO = "002 '17a'"
BREAK_TALLIES = "002 '17b'"
# 15b3.1: "All pilot quality modifiers (see 14b)": 14b1.2, 14b2.2, 14b4.2, 14b5.2
QUALITY = {"green": -2, "inexperienced": -1, "average": 0, "experienced": 2, "ace": 4}
INTO_THE_SUN = -5  # 15b3.4
SURPRISE = 4  # 15b9: the target has no tally on the firer
SHARING_RANGE = 2  # 17a: "two hexes from each other and at the same altitude"


def on(battle: AirPiratesBattle) -> bool:
    return "spotting" in battle.scenario.options


def initial(battle: AirPiratesBattle) -> dict[str, Any] | None:
    """The spotting record at the start (15b: "all opposing air units are considered to be
    'unspotted'"), None with the option off."""
    if not on(battle):
        return None
    entries = battle.scenario.units
    named = any("wingman" in u for u in entries)
    pairs = named_wingmen(entries) if named else wingmen(battle.units)
    free = [i + 1 for i, u in enumerate(entries) if u.get("bounced") is False]  # 9f
    return {"tallies": [], "sun": None, "wingmen": pairs, "tried": [],
            "done": [], "engaged": [], "free": free, "seen": []}  # fmt: skip


def named_wingmen(entries: Any) -> list[list[int]]:
    """15b8.1 as a scenario defines it: its units' ``wingman`` (an index in its units,
    checked by ``units.pairing_problem``); a scenario naming wingmen names every pair."""
    pairs = {tuple(sorted((i + 1, int(u["wingman"]) + 1))) for i, u in enumerate(entries)
             if "wingman" in u}  # fmt: skip
    return [list(p) for p in sorted(pairs)]


def wingmen(units: list[Unit]) -> list[list[int]]:
    """15b8.1: "any pairs of identical air units may be defined to be wingmen": the ruling
    pairs a side's units with identical control cards in the scenario's order."""
    pairs: list[list[int]] = []
    waiting: list[Unit] = []
    for u in units:
        mate = next((w for w in waiting if w.side == u.side and w.card == u.card), None)
        if mate is None:
            waiting.append(u)
        else:
            waiting.remove(mate)
            pairs.append([mate.id, u.id])
    return pairs


def wingman(battle: AirPiratesBattle, unit: Unit) -> Unit | None:
    assert battle.spotting is not None
    for a, b in battle.spotting["wingmen"]:
        if unit.id in (a, b):
            return battle.unit(b if unit.id == a else a)
    return None


def has_tally(battle: AirPiratesBattle, unit: Unit, target: Unit) -> bool:
    return battle.spotting is not None and [unit.id, target.id] in battle.spotting["tallies"]


def tallied_by(battle: AirPiratesBattle, unit: Unit) -> list[int]:
    """The units ``unit`` has a tally on."""
    assert battle.spotting is not None
    return sorted(t for s, t in battle.spotting["tallies"] if s == unit.id)


def start(battle: AirPiratesBattle) -> None:
    """9a1.7: with spotting on, the battle opens with the holder's sun decision."""
    if on(battle):
        battle.phase = "sun"


# -- the Spotting Phase: who acts, what is legal, what is refused ------------------------
def candidates(battle: AirPiratesBattle, unit: Unit) -> list[Unit]:
    """The enemies ``unit`` may try to spot (15b2: any one, at any distance, not one it
    has a tally on already); with collisions (13d1.2) a friend in its hex at its altitude
    too, whose tally cancels their collision."""
    return [
        t for t in battle.units
        if t is not unit and not t.eliminated and t.hex is not None
        and (t.side != unit.side or collides(battle, unit, t))
        and not has_tally(battle, unit, t)
    ]  # fmt: skip


def collides(battle: AirPiratesBattle, unit: Unit, other: Unit) -> bool:
    """13d1: with the option, two units in one hex at one altitude may collide."""
    return (
        "collisions" in battle.scenario.options
        and unit.hex == other.hex and unit.altitude == other.altitude
    )  # fmt: skip


def pending(battle: AirPiratesBattle, side: int) -> list[Unit]:
    """The side's units still to act in the sun decision or the Spotting Phase."""
    record = battle.spotting
    assert record is not None
    mine = [u for u in battle.units if u.side == SIDES[side] and not u.eliminated]
    if battle.phase == "sun":
        return mine[:1] if record["sun"] is None and side == battle.holder else []
    if SIDES[side] in record["done"]:
        return []
    return [
        u for u in mine
        if u.hex is not None and u.id not in record["tried"] and candidates(battle, u)
    ]  # fmt: skip


def legal(battle: AirPiratesBattle, units: list[Unit]) -> list[Sun | Spot | EndSpotting]:
    if battle.phase == "sun":
        return [Sun(d) for d in range(6)] if units else []
    out: list[Sun | Spot | EndSpotting] = [
        Spot(u.id, t.id) for u in units for t in candidates(battle, u)
    ]
    return [*out, EndSpotting()] if units else out


def refusal(battle: AirPiratesBattle, action: Sun | EndSpotting) -> IllegalAction | None:
    """Why the sun's direction or the end of a side's announcements is refused now."""
    if isinstance(action, Sun):
        if battle.phase != "sun":
            return IllegalAction(SUN, "the sun's direction is indicated at the set-up")
        if action.direction not in range(6):
            return IllegalAction(SUN, "the sun lies toward one of the six hexsides (0-5)")
        return None
    if battle.phase != "spot":
        return IllegalAction(PHASE, "spotting attempts belong to the Spotting Phase")
    return None


def spot_refusal(battle: AirPiratesBattle, unit: Unit, target_id: int) -> IllegalAction | None:
    """Why ``unit`` may not try to spot ``target_id`` now (15b2, 13d1.2)."""
    try:
        target = battle.unit(target_id)
    except IllegalAction as error:
        return error
    assert battle.spotting is not None
    if unit.id in battle.spotting["tried"]:
        return IllegalAction(POSSIBILITIES, f"{unit.name} has made its attempt in this phase")
    if target not in candidates(battle, unit):
        why = f"{unit.name} may try to spot an enemy air unit it has not tallied"
        return IllegalAction(POSSIBILITIES, why + " (or, 13d1.2, a friend it may collide with)")
    return None


# -- 15b3-15b5: the attempt ------------------------------------------------------------
def modifiers(spotter: Unit, target: Unit, sun: int | None) -> dict[str, int]:
    """15b3: every spotting modifier of the spotting unit, by rule (none for the target)."""
    assert spotter.hex is not None and target.hex is not None
    higher = target.altitude > spotter.altitude
    rear = spotter.hex != target.hex and in_rear_sector(spotter, target)
    parts = {
        "15b3.1 pilot": QUALITY[spotter.quality],
        "15b3.2 altitude": -2 * abs(target.altitude - spotter.altitude),
        "15b3.3 range": -distance(spotter.hex, target.hex),
        "15b3.4 into the sun": INTO_THE_SUN if higher and target.facing == sun else 0,
        "15b3.5 all-round vision canopy": 2 if spotter.card.get("all_round_canopy") else 0,
        "15b3.6 rear sector": -3 if rear else 0,
    }
    return {k: v for k, v in parts.items() if v}


def spotting_number(roll: int, modifier: int) -> int:
    """15b4: the die plus the total modifier, less than 1 counted as 1."""
    return max(1, roll + modifier)


def spot(battle: AirPiratesBattle, unit: Unit, target: Unit) -> None:
    """15b4-15b5: both roll; the spotter's number more than the target's is a tally."""
    record = battle.spotting
    assert record is not None
    record["tried"].append(unit.id)
    mods = modifiers(unit, target, record["sun"])
    rolls = (
        battle.dice.d10(f"002 15b4 spotting number: unit {unit.id}"),
        battle.dice.d10(f"002 15b4 spotting number: unit {target.id} (target)"),
    )
    numbers = [spotting_number(rolls[0], sum(mods.values())), spotting_number(rolls[1], 0)]
    made = numbers[0] > numbers[1]
    battle._record("tallied" if made else "not spotted", RESOLUTION, unit=unit.id,
                   target=target.id, modifiers=mods, rolls=list(rolls), numbers=numbers)  # fmt: skip
    if made:
        add_tally(battle, unit, target)
        share(battle)


def add_tally(battle: AirPiratesBattle, unit: Unit, target: Unit) -> None:
    """A tally recorded (15b6); the bounce lets the unit and its wingman go (9f); the
    target's altitude and speed are shown to the spotter's side."""
    record = battle.spotting
    assert record is not None
    if [unit.id, target.id] not in record["tallies"]:
        record["tallies"] = sorted([*record["tallies"], [unit.id, target.id]])
    if target.side == unit.side:
        return  # 13d1.2's tally on a friend: no bounce let go, nothing to show
    mate = wingman(battle, unit)
    for u in (unit, mate):
        if u is not None and u.id not in record["free"]:
            record["free"] = sorted([*record["free"], u.id])
    if [unit.side, target.id] not in record["seen"]:
        record["seen"] = sorted([*record["seen"], [unit.side, target.id]])


def shares(battle: AirPiratesBattle, a: Unit, b: Unit) -> bool:
    """15b8.2 with 17a: wingmen with radio share every tally; one without (or with its R/T
    damaged, 13b3.3.2) only at two hexes or less, at the same altitude, neither having
    fired or been fired at in the last Fire Phase."""
    if a.eliminated or b.eliminated or a.hex is None or b.hex is None:
        return False
    if has_radio(battle, a) and has_radio(battle, b):
        return True
    engaged = battle.spotting["engaged"] if battle.spotting else []
    return (
        distance(a.hex, b.hex) <= SHARING_RANGE and a.altitude == b.altitude
        and a.id not in engaged and b.id not in engaged
    )  # fmt: skip


def has_radio(battle: AirPiratesBattle, unit: Unit) -> bool:
    """Whether ``unit``'s R/T works (17a; 13b3.3.2): ``radio.has_radio``."""
    return rd.has_radio(unit)


def share(battle: AirPiratesBattle) -> None:
    """15b8.2: each wingman records its wingman's tallies (those of an enemy still flying)."""
    record = battle.spotting
    assert record is not None
    for a, b in record["wingmen"]:
        ua, ub = battle.unit(a), battle.unit(b)
        if not shares(battle, ua, ub):
            continue
        for giver, taker in ((ua, ub), (ub, ua)):
            for t in tallied_by(battle, giver):
                target = battle.unit(t)
                if target.side == taker.side or target.eliminated:
                    continue  # 15b8.2 shares what was seen of the enemy
                if not has_tally(battle, taker, target):
                    add_tally(battle, taker, target)
                    battle._record("tally shared", WINGMEN, unit=taker.id, target=t,
                                   wingman=giver.id)  # fmt: skip


def begin(battle: AirPiratesBattle) -> str:
    """The phase after the Move Phase: the Spotting Phase with the option (15b1)."""
    if not on(battle):
        return "fire"
    assert battle.spotting is not None
    battle.spotting["tried"], battle.spotting["done"] = [], []
    return "spot"


def end_spotting(battle: AirPiratesBattle) -> None:
    """The Spotting Phase over: wingmen share what they saw (15b8.2)."""
    share(battle)


def announce(battle: AirPiratesBattle, action: Sun | EndSpotting) -> None:
    """9a1.7: the holder's sun direction; 15b2.1: the side to act makes no more attempts."""
    record = battle.spotting
    assert record is not None
    if isinstance(action, Sun):
        record["sun"] = action.direction
        battle._record("sun direction", SUN, side=SIDES[battle.holder],
                       direction=action.direction, toward=FACING_NAMES[action.direction])  # fmt: skip
        return
    side = battle.current_side()
    assert side is not None  # refusal() answered "the game is over" otherwise
    record["done"].append(SIDES[side])


# -- 15b9: fire needs a tally; 15b7: tallies lost -----------------------------------------
def fire_refusal(battle: AirPiratesBattle, unit: Unit, target: Unit) -> tuple[str, str] | None:
    """15b9 (and 13d2's tally for a ram): no fire at an enemy without a tally on it."""
    if not on(battle) or target.side == unit.side or has_tally(battle, unit, target):
        return None
    return EFFECTS, f"{unit.name} has no tally on {target.name}: firing is not possible"


def surprise(battle: AirPiratesBattle, firer: Unit, target: Unit) -> dict[str, int]:
    """15b9: +4 to the attacker when the target has no tally on it."""
    if not on(battle) or has_tally(battle, target, firer):
        return {}
    return {"15b9 target has no tally": SURPRISE}


def end_fire(battle: AirPiratesBattle) -> None:
    """15b7: at the end of the Fire Phase a unit that fired keeps only its tallies on its
    targets (15b7.1); one fired at keeps only those on the units that fired at it
    (15b7.2); the rest are erased (15b7.3). The bounce lets go of a unit fired at and of
    its wingman (9f)."""
    record = battle.spotting
    if record is None:
        return
    shots = [(f, t) for f, gun, t in battle.shots if gun != "ram"]
    keep: dict[int, set[int]] = {}
    for f, t in shots:
        keep.setdefault(f, set()).add(t)
    for f, t in shots:
        keep.setdefault(t, set())
        if [t, f] in record["tallies"]:
            keep[t].add(f)
    lost = [[s, t] for s, t in record["tallies"] if s in keep and t not in keep[s]]
    record["tallies"] = [p for p in record["tallies"] if p not in lost]
    for uid in sorted({s for s, _ in lost}):
        battle._record("tallies lost", LOSING, unit=uid,
                       targets=[t for s, t in lost if s == uid])  # fmt: skip
    record["engaged"] = sorted(keep)
    for t in sorted({t for _, t in shots}):
        unit = battle.unit(t)
        mate = wingman(battle, unit)
        record["free"] = sorted(set(record["free"]) | {unit.id} | ({mate.id} if mate else set()))


def break_tallies(battle: AirPiratesBattle, unit: Unit) -> bool:
    """17b (option ``break_tallies``): a successful attempt to break contact erases the
    opponent's tallies on the unit and all of its own; it stays in the game. False when
    the option is off (16b2: it leaves the gameboard)."""
    if "break_tallies" not in battle.scenario.options or battle.spotting is None:
        return False
    record = battle.spotting
    record["tallies"] = [p for p in record["tallies"] if unit.id not in p]
    battle._record("tallies broken", BREAK_TALLIES, unit=unit.id)
    return True
