"""An *Air Pirates* battle's result in the one shape of :class:`rules.tactical.TacticalResult`.

Each aircraft: its fate, its damage by part (13b2's six parts), its crew hits (13b2; 002
has no cockpit hits of its own: those are 001's "C" hits), the fires burning when it went
down (13b4), its pilot's bail-out with the d10 rolled (13c1), and what it gave the enemy
in victory points ([8]; with the option ``points`` 14a, 14b and 13c2). The fields of
000's "PILOT SURVIVAL" roll (``survival_roll``, ``survival_modifier``) stay empty. ``pilot_ref`` is
the scenario's own for the unit (a campaign's "plane:<id>"), so careers know whose it was.

Each kill carries the rule it was credited by: 002 has none of its own, so ruling "Kill
credit by the game that flew it" takes 001's "How Kills are Scored" (the last to fire;
a die roll for ties), fed by 002 6a5.3: every unit that fired at the target in the Fire
Phase that eliminated it is considered to have fired together, so two or more roll off
with a d6 (``rules.careers.credit.credit_kill``). The roll-off's dice come from the
battle's seed and the target (never the battle's own dice, which the play has used), so
a replay credits the same unit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.careers.credit import Attack, credit_kill
from rules.dice import Dice, derive_seed

from .units import SIDES

if TYPE_CHECKING:
    from .state import AirPiratesBattle

KILL_CREDIT = "001 'How Kills are Scored'"  # ruling "Kill credit by the game that flew it"
DECLARED_TOGETHER = "002 '6a5.3'"


def pilot_ref(battle: AirPiratesBattle, uid: int) -> str:
    """The scenario's reference for the pilot of unit ``uid`` ("" when it gives none)."""
    entry = battle.scenario.units[uid - 1]
    return str(entry.get("pilot_ref") or "")


def contenders(battle: AirPiratesBattle, target: int, attacker: int) -> list[int]:
    """The units credited together with the kill of ``target``: those that fired at it in
    the Fire Phase it was eliminated in (6a5.3), in the order they fired; else (a fire put
    out too late, 13b4) the one whose fire caused it."""
    gone = next(
        (e for e in battle.log if e["event"] == "eliminated" and e.get("unit") == target), None
    )
    if gone is None or gone["phase"] != "fire":
        return [attacker]
    fired: list[int] = []
    for entry in battle.log:
        if entry is gone:
            break
        same = (entry["turn"], entry["impulse"], entry["phase"]) == (
            gone["turn"], gone["impulse"], "fire",
        )  # fmt: skip
        fired_at = same and entry["event"] == "fired" and entry.get("target") == target
        if fired_at and entry["unit"] not in fired:
            fired.append(entry["unit"])
    return fired if attacker in fired else [attacker]


def kill_entry(battle: AirPiratesBattle, kill: dict[str, Any]) -> dict[str, Any]:
    """One kill with its credit: the rule, the contenders and any roll-off's dice."""
    target, attacker = int(kill["target"]), int(kill["attacker"])
    shared = contenders(battle, target, attacker)
    rolls: list[list[Any]] = []
    if len(shared) > 1:
        dice = Dice(derive_seed(battle.seed, f"002 kill credit: unit {target}"))
        credit = credit_kill([Attack(uid, kill["turn"]) for uid in shared], dice=dice)
        attacker = int(credit.shooter)  # type: ignore[call-overload]
        rolls = credit.rolls_json
    return {
        "attacker": attacker, "attacker_pilot_ref": pilot_ref(battle, attacker),
        "target": target, "target_pilot_ref": pilot_ref(battle, target), "turn": kill["turn"],
        "credit_rule": KILL_CREDIT, "contenders": shared, "credit_rolls": rolls,
    }  # fmt: skip


def battle_result(battle: AirPiratesBattle) -> dict[str, Any]:
    """The result as every tactical system returns it (the battle over or in play)."""
    points = battle.victory_points()
    a, b = (points[s] for s in SIDES)
    winner = None if a == b else SIDES[0] if a > b else SIDES[1]
    kills = [kill_entry(battle, k) for k in battle.kills if k.get("attacker") is not None]
    credited = {k["target"]: k["attacker"] for k in kills}
    aircraft = []
    for u in battle.units:
        gone = u.eliminated and not u.disengaged
        hits = sum(u.damage.values())
        fate = "damaged" if hits else "intact"
        if u.eliminated:
            fate = "destroyed" if gone else "retreated"
        by = credited.get(u.id)
        out = u.bailout or {}
        survived = None if not out else out["outcome"] == "survived"
        aircraft.append(
            {"id": u.id, "name": u.name, "side": u.side, "pilot": u.quality,
             "pilot_ref": pilot_ref(battle, u.id), "fate": fate, "exit_edge": None,
             "scored_exit": False, "damage": hits, "destroyed_by": by,
             "destroyed_by_pilot_ref": None if by is None else pilot_ref(battle, by),
             # 000's "PILOT SURVIVAL" fields: none here (careers would read the sign of
             # its modifier as the territory); 13c1's roll is in ``bailout``
             "survival_roll": None, "survival_modifier": None, "pilot_survived": survived, "damage_by_part": dict(u.damage),
             "crew_hits": u.damage["crew"], "fires": len(u.fires),
             "bailout": None if u.bailout is None else dict(u.bailout),
             "victory_points": battle.unit_points(u)}
        )  # fmt: skip
    return {
        "scenario": battle.scenario.name, "kind": "airpirates", "winner": winner,
        "reason": battle.reason or "in play", "victory_points": points,
        "turns_played": battle.turn, "aircraft": aircraft, "kills": kills,
    }  # fmt: skip
