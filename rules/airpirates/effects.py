"""What befalls an air unit of an *Air Pirates* battle: fire resolved ([6], 13b), elimination
and the pilot's bail-out (6f2, 13c1), the LaGG-3's spin and crashes (13e), and the change of
altitude and speed with its fires (13b4, [7]).

Functions of the battle (``state.AirPiratesBattle``), as ``collisions.py``'s are: each records
its events in the battle's log with the rule it applies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import bombers as bb
from . import change as ch
from . import crashes as cr
from . import crew as cw
from . import damage as dm
from . import fire as fr
from . import honcho as ho
from . import oblique as ob
from . import radio as rd
from . import spotting as sp
from . import victory as vp
from .actions import MANEUVERS

if TYPE_CHECKING:
    from .state import AirPiratesBattle
    from .units import Unit


def fire(battle: AirPiratesBattle, firer: Unit, target: Unit, gun: str) -> None:
    """6c-6f: the opposed rolls, the hits, where each lands, and elimination (6f2)."""
    if gun == "rear":
        firer.rear_ammunition_used += 1  # 13a3
        firer.rear_fired_phase = battle.fire_phase_number()  # 6a5.1
        done = battle.completed.get(firer.id)
        plotted = done or (firer.marker["maneuver"] if firer.marker else None)
        kind = MANEUVERS[plotted][0] if plotted else None
        attack = fr.rear_modifier(firer, target, kind)
    elif gun == "oblique":
        firer.oblique_ammunition_used += 1  # 13a3
        attack = ob.attack_modifier(firer, target)
    else:
        firer.ammunition_used += 1  # 13a3
        attack = fr.attack_modifier(firer, target)
    attack.update(sp.surprise(battle, firer, target))  # 15b9 (option spotting)
    big, defence = bb.modifiers(battle, firer, target, gun, fr.defence_modifier(target))
    attack.update(big)  # 20b, 20c (option bombers)
    start = len(battle.dice.rolls)
    rolls = (
        battle.dice.d10(f"002 6d firing number: unit {firer.id}"),
        battle.dice.d10(f"002 6d firing number: unit {target.id} (target)"),
    )
    numbers = (
        fr.firing_number(rolls[0], sum(attack.values())),
        fr.firing_number(rolls[1], sum(defence.values())),
    )
    scored = 0 if bb.automatic_miss(gun, rolls[1]) else fr.hits(*numbers)  # 20e
    placed = place_hits(battle, firer, target, scored, bb.aimed_area(gun))
    crewmen = placed["crewmen"]
    battle._record(
        "fired", fr.RESOLUTION, unit=firer.id, target=target.id, gun=gun, attack=attack,
        defence=defence, numbers=list(numbers), hits=scored, parts=placed["parts"],
        **({"crewmen": crewmen} if crewmen else {}),
        rolls=[r.to_json() for r in battle.dice.rolls[start:]],
    )  # fmt: skip
    after_hits(battle, firer, target, placed)


def place_hits(
    battle: AirPiratesBattle, firer: Unit, target: Unit, scored: int, aimed: str | None = None
) -> dict[str, Any]:
    """13b2-13b3: where each of ``scored`` hits lands (``aimed``: the area 20e chose) and
    what it does; 20d's second box. Returns the parts, crewmen, fires started and cause."""
    parts, started, cause, crewmen = [], [], None, []
    radio = False  # 13b3.3.2 (option radio)
    for n in range(scored):
        part = aimed or fr.location(battle.dice.d10(f"002 13b2 hit location: hit {n + 1}"))
        parts.append(part)
        if part == "crew" and len(cw.crewmen(target)) > 1:  # 13b2.1: "roll the die again"
            men = cw.who_is_hit(target, battle.dice.d10(f"002 13b2.1 crewman: hit {n + 1}"))
            crewmen.append(men)
            cw.mark(target, men)
            if "pilot" not in men:
                continue  # the gunner or centre crewman alone: no pilot's crew hit
        target.damage[part] += 1
        effect = dm.hit_effect(target, part, battle.dice.d10)  # 13b3: "roll the die again"
        radio = rd.crew_hit(battle, target, part, bool(effect["eliminated"])) or radio
        target.damage[part] += bb.extra_boxes(battle, firer, target)  # 20d
        if effect["fire"]:
            started.append({"part": part, "turn": battle.turn, "by": firer.id})
        cause = cause or effect["eliminated"] or ho.fatal_hit(target, part)  # 17c
    return {"parts": parts, "crewmen": crewmen, "started": started, "cause": cause,
            "radio": radio}  # fmt: skip


def after_hits(battle: AirPiratesBattle, firer: Unit, target: Unit, placed: dict[str, Any]) -> None:
    """Fires started (13b4), elimination by boxes (13b3.1) or by a hit's effect (6f2), and
    a bomber crippled (20g)."""
    rd.record(battle, target, placed.get("radio", False))  # 13b3.3.2
    for fire in placed["started"]:
        target.fires.append(fire)
        battle._record("fire started", dm.FIRES, unit=target.id, part=fire["part"])
    broken = [p for p in fr.PARTS if target.damage[p] >= fr.boxes(target, p)]
    if broken and not target.eliminated:
        eliminate(battle, target, firer.id, "002 '13b3.1'", part=broken[0])
    elif placed["cause"] and not target.eliminated:
        eliminate(battle, target, firer.id, placed["cause"])
    bb.check_crippled(battle, target, firer.id)


def eliminate(
    battle: AirPiratesBattle,
    unit: Unit,
    by: int | None,
    rule: str,
    *,
    early: bool = False,
    bail: bool = True,
    **detail: Any,
) -> None:
    """6f2: off the gameboard with its marker; the kill to ``by`` (None: nobody's, 13d1,
    13e); 13c's bail-out (``early``: 13c3's +2, as 13d1 allows; none after a crash)."""
    unit.eliminated, unit.hex, unit.marker = True, None, None
    battle.kills.append({"attacker": by, "target": unit.id, "turn": battle.turn})
    battle._record("eliminated", rule, unit=unit.id, **detail)
    if bail and "bailout" in battle.scenario.options:
        bail_out(battle, unit, early)


def spin(battle: AirPiratesBattle, unit: Unit, speed: int) -> None:
    """002 13e1.2 (option ``crashes``): a LaGG-3 completing a tight turn may spin in."""
    if "crashes" not in battle.scenario.options or not cr.is_lagg3(unit):
        return
    out = cr.spins(unit, battle.dice.d10(f"002 13e1.2 LaGG-3 tight turn: unit {unit.id}"), speed)
    battle._record("spun out of control" if out["crashed"] else "held the tight turn",
                 cr.LAGG, **out)  # fmt: skip
    if out["crashed"]:
        eliminate(battle, unit, None, cr.LAGG, bail=False)


def crash(battle: AirPiratesBattle, u: Unit, dived: int) -> None:
    """002 13e1 (option ``crashes``): a damaged unit just dived to altitude 0."""
    if "crashes" not in battle.scenario.options or not cr.must_roll_crash(u, dived):
        return
    out = cr.crash(u, battle.dice.d10(f"002 13e1 dive to the ground: unit {u.id}"))
    battle._record("crashed" if out["crashed"] else "pulled out of the dive", cr.CRASH, **out)
    if out["crashed"]:
        eliminate(battle, u, None, cr.CRASH, bail=False, pilot_survived=out["pilot_survived"])


def change(battle: AirPiratesBattle, u: Unit, altitude: int, speed: int) -> None:
    """[7]: the unit's new altitude and speed; 13b4: "immediately after", each fire
    burning gets its attempt, +2 per level just dived; one not put out eliminates."""
    altitude = bb.hollywood(battle, u, altitude)  # 20g1 (option bombers)
    if u.eliminated:
        if battle._side_gone():
            battle._end(battle._side_gone())
        return
    zoom = battle.zooms(u) and altitude > u.altitude
    detail = ch.record(u, battle.turn, altitude, speed)
    battle._record("changed altitude and speed", ch.ZOOM if zoom else ch.CHANGE, **detail)
    crash(battle, u, detail["dived"])
    for fire in list(u.fires) if not u.eliminated else []:
        roll = battle.dice.d10(f"002 13b4 put out the fire: unit {u.id}")
        modifier = dm.extinguish_modifier(bb.fire_dive(battle, u, detail["dived"]))  # 20h1
        out = roll + modifier >= dm.EXTINGUISHED
        battle._record("fire put out" if out else "fire not put out", dm.FIRES,
                     unit=u.id, part=fire["part"], roll=roll, modifier=modifier)  # fmt: skip
        if out:
            u.fires.remove(fire)
        elif not u.eliminated and not bb.burns_on(battle, u, fire):  # 20h: a bomber burns on
            eliminate(battle, u, int(fire["by"]), dm.FIRES)
    if not u.eliminated and cw.man_the_gun(u):
        battle._record("the centre crewman took the rear gun", cw.MULTICREW, unit=u.id)
    if battle._side_gone():
        battle._end(battle._side_gone())


def bail_out(battle: AirPiratesBattle, unit: Unit, early: bool = False) -> None:
    """13c1: the pilot of an eliminated unit tries to get out (13b2.2: after the hits
    of this attack are all placed)."""
    roll = None
    if vp.may_bail_out(unit):
        roll = battle.dice.d10(f"002 13c1 bail out: unit {unit.id}")
    unit.bailout = vp.bail_out(unit, roll, fires=len(unit.fires), early=early)
    battle._record("bail-out", vp.BAIL_OUT, unit=unit.id, **unit.bailout)
