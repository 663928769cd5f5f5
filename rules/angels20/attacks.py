"""Attacks and damage (000 "ATTACK AND DEFENSE", "RESOLVING ATTACKS", "EFFECTS OF DAMAGE").

Who may attack whom (:func:`attack_problem`, :func:`attacker_problem`, the
checks :mod:`.legality` also uses), the Attack phase, dice against the
target aspect with bonuses and penalties, armor, damage, destruction, pilot
survival and victory points. Plain functions of the battle state, bound as
its methods.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import conditions, turns
from .actions import (
    STATUS_CLIMBING,
    STATUS_DIVING,
    STATUS_EVADING_LEFT,
    STATUS_EVADING_RIGHT,
    Attack,
)
from .hexmap import ARC_TABLE, ASPECT_TABLE, CLOCK_NAMES, MAX_TABLE_RANGE
from .phases import ATTACK
from .plane import DESTROYED, IN_PLAY, Plane
from .stats import SIDES

if TYPE_CHECKING:
    from .state import BattleState

Problem = tuple[str, str]  # (rule citation, message): why something is not allowed

_SPAN = 2 * MAX_TABLE_RANGE + 1


# ---------------------------------------------------------------- geometry
def key(s: BattleState, frm: int, to: int) -> int:
    """Index of the offset ``frm`` -> ``to`` into the hexmap's arc and aspect tables."""
    m = s.st.map
    return (m.q[to] - m.q[frm] + MAX_TABLE_RANGE) * _SPAN + (m.r[to] - m.r[frm] + MAX_TABLE_RANGE)


def distance(s: BattleState, a: int, b: int) -> int:
    return s.st.map.distance(s.planes[a].hex, s.planes[b].hex)


# ---------------------------------------------------------------- 000 "EFFECTS OF DAMAGE"
def crippled(s: BattleState, i: int) -> bool:
    """000 "CRIPPLED": damaged and down to the last hit point."""
    p = s.planes[i]
    return p.damage > 0 and s.st.hits[i] - p.damage == 1


def condition(s: BattleState, i: int) -> str:
    """000 "EFFECTS OF DAMAGE": intact, damaged, crippled or destroyed."""
    p = s.planes[i]
    if p.out == DESTROYED:
        return "destroyed"
    if p.damage == 0:
        return "intact"
    return "crippled" if crippled(s, i) else "damaged"


# ---------------------------------------------------------------- who may attack
# The checks return the rule that forbids (a constant citation) or None: cheap
# enough for listing legal attacks. The message is built only to explain a
# refusal (attacker_problem / attack_problem), from the rule the check named.
R_ALTERNATE = "000 'Alternate Attacks'"
R_IMMEDIATE = "000 'Immediate Effect'"
R_ONE_ATTACK = "000 'One Attack per Game Turn'"
R_STACKING = "000 'STACKING'"
R_DESTROYED = "000 'DESTROYED'"
R_ENEMY = "000 'ATTACK PHASE'"
R_RANGE_0 = "000 'No Range 0 Attacks'"
R_RANGE = "000 'RESOLVING ATTACKS'"
R_ALTITUDE = "000 'Firing Arc and Altitude'"
R_DIVING = "000 'DIVING STATUS'"
R_CLIMBING = "000 'CLIMBING STATUS'"
R_ARC = "000 'FIRING ARC'"
R_CLOUDS = "000 'EFFECTS OF BEING IN THE CLOUDS'"
R_DARKNESS = "000 'Requirements to Attack'"
R_ABILITY = "000 'Special Abilities'"


def can_attack(s: BattleState, a: int, t: int) -> bool:
    """Could ``a`` attack ``t`` now, ignoring whose turn it is? (000 "ATTACK AND DEFENSE")"""
    return attack_rule(s, a, t) is None


def attacker_rule(s: BattleState, pa: Plane, side: int) -> str | None:
    """The rule why ``pa`` can't attack at all now, ``side`` attacking (000 "ATTACK PHASE")."""
    if pa.side != side:
        return R_ALTERNATE
    if pa.out:
        return R_IMMEDIATE
    if pa.fired:
        return R_ONE_ATTACK
    if pa.grounded:
        return R_STACKING
    return None


def attacker_problem(s: BattleState, pa: Plane, side: int) -> Problem | None:
    """Why ``pa`` can't attack at all now, ``side`` attacking, or None (explains a refusal)."""
    rule = attacker_rule(s, pa, side)
    if rule is None:
        return None
    name = s.st.names[pa.id]
    return rule, {
        R_ALTERNATE: f"it is the {SIDES[side]} side's attack",
        R_IMMEDIATE: f"{name} is out of the battle",
        R_ONE_ATTACK: f"{name} has already attacked",
        R_STACKING: "an aircraft moved back by stacking may not attack this turn",
    }[rule]


def attack_rule(s: BattleState, a: int, t: int) -> str | None:
    """The rule why ``a`` can't attack ``t`` (whoever's turn), or None (000 "ATTACK AND DEFENSE")."""
    st = s.st
    pa, pt = s.planes[a], s.planes[t]
    if pt.out != IN_PLAY:
        return R_DESTROYED
    if pa.side == pt.side:
        return R_ENEMY
    m = st.map
    dq, dr = m.q[pt.hex] - m.q[pa.hex], m.r[pt.hex] - m.r[pa.hex]
    d = (abs(dq) + abs(dr) + abs(dq + dr)) // 2  # m.distance(pa.hex, pt.hex) written out
    if d == 0:
        return R_RANGE_0
    if d > 3 or st.attack[a][d - 1] <= 0:
        return R_RANGE
    dz = pt.alt - pa.alt
    if dz:
        if not st.rules.status or abs(dz) > 1:
            return R_ALTITUDE
        if dz == -1 and pa.status != STATUS_DIVING:
            return R_DIVING
        if dz == 1 and pa.status != STATUS_CLIMBING:
            return R_CLIMBING
    if not st.bomber[a] and not ARC_TABLE[key(s, pa.hex, pt.hex)][pa.facing]:
        return R_ARC
    if pa.cloud or pt.cloud:
        return R_CLOUDS
    if st.dark and not (st.darkness_ok[a] or pa.directed or pt.lit):
        return R_DARKNESS
    if st.any_hooks["can_attack"]:
        for i in (a, t):
            for fn in st.hooks[i].get("can_attack", ()):
                if not fn(s, a, t):
                    return R_ABILITY
    return None


def attack_problem(s: BattleState, a: int, t: int) -> Problem | None:
    """Why ``a`` can't attack ``t`` (whoever's turn it is), or None (explains a refusal)."""
    rule = attack_rule(s, a, t)
    if rule is None:
        return None
    return rule, _attack_message(s, rule, a, t)


def _attack_message(s: BattleState, rule: str, a: int, t: int) -> str:
    names = s.st.names
    if rule == R_RANGE:
        d = distance(s, a, t)
        return f"{names[a]} has no attack dice at range {d}"
    return {
        R_DESTROYED: f"{names[t]} is no longer in the battle",
        R_ENEMY: "you may only attack enemy aircraft",
        R_RANGE_0: "an aircraft can't attack an enemy in its own hex",
        R_ALTITUDE: "the target must be at the same altitude",
        R_DIVING: "only a Diving aircraft can attack 1 altitude lower",
        R_CLIMBING: "only a Climbing aircraft can attack 1 altitude higher",
        R_ARC: f"{names[t]} is not in {names[a]}'s front firing arc",
        R_CLOUDS: "an aircraft in the clouds can't attack or be attacked",
        R_DARKNESS: f"in darkness {names[a]} needs an ability to fight in darkness, "
        "fighter direction, or an illuminated target",
        R_ABILITY: "a special ability forbids this attack",
    }[rule]


# ---------------------------------------------------------------- 000 "ATTACK PHASE"
def begin_attack(s: BattleState) -> None:
    """After all movement: midair collisions, illumination, then the Attack phase."""
    if s.st.rules.midair_collision:
        conditions.collisions(s)
    if s.st.illuminate:
        conditions.illuminate(s)
    s.phase = ATTACK
    s.declined = [False, False]
    s._log("attack_phase", first=SIDES[s.first])
    advance_attack(s, s.first)


def attacks(s: BattleState, side: int) -> list[Attack]:
    """The attacks open to ``side``: the one definition ``legal_actions`` and the phase use."""
    planes = s.planes
    out: list[Attack] = []
    for pa in planes:
        if attacker_rule(s, pa, side) is None:
            row = s.st.attack_actions[pa.id]
            for pt in planes:
                if pt.side != side and not pt.out and attack_rule(s, pa.id, pt.id) is None:
                    out.append(row[pt.id])
    return out


def has_attack(s: BattleState, side: int) -> bool:
    """Has ``side`` an attack open? The same checks as :func:`attacks`, stopping at the first."""
    planes = s.planes
    st = s.st
    q, r = st.map.q, st.map.r
    for pa in planes:
        # attacker_rule(s, pa, side) is None, written out
        if pa.side == side and not pa.out and not pa.fired and not pa.grounded:
            qa, ra, dice = q[pa.hex], r[pa.hex], st.attack[pa.id]
            for pt in planes:
                if pt.side == side or pt.out:
                    continue
                # attack_rule's range test first (R_RANGE_0, R_RANGE): most pairs stop here
                dq, dr = q[pt.hex] - qa, r[pt.hex] - ra
                d = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
                if 1 <= d <= 3 and dice[d - 1] > 0 and attack_rule(s, pa.id, pt.id) is None:
                    return True
    return False


def advance_attack(s: BattleState, nxt: int) -> None:
    """000 "ATTACK PHASE": alternate; a side that declines (or has no shot) is done."""
    for side in (nxt, 1 - nxt):
        if s.declined[side]:
            continue
        if has_attack(s, side):
            s.to_act = side
            return
        s.declined[side] = True
        s._log("no_attacks", side=SIDES[side])
    turns.end_turn(s)


def decline(s: BattleState) -> None:
    """The side to act makes no more attacks this turn."""
    s._log("decline", side=SIDES[s.to_act])
    s.declined[s.to_act] = True
    advance_attack(s, 1 - s.to_act)


# ---------------------------------------------------------------- 000 "RESOLVING ATTACKS"
def attack_modifiers(s: BattleState, a: int, t: int) -> list[list[Any]]:
    """000 "ATTACK BONUSES AND PENALTIES" (they stack): [reason, value] pairs."""
    st = s.st
    pa, pt = s.planes[a], s.planes[t]
    mods: list[list[Any]] = []
    if st.rank[a] > st.rank[t]:
        mods.append(["better pilot", 1])
    if pa.damage and st.hits[a] - pa.damage == 1:
        mods.append(["attacker crippled", -1])
    if pt.damage and st.hits[t] - pt.damage == 1:
        mods.append(["target crippled", 1])
    if st.rules.status:
        # 000 "ATTACK BONUSES AND PENALTIES" (advanced rules)
        if pa.status in (STATUS_EVADING_LEFT, STATUS_EVADING_RIGHT):
            mods.append(["attacker evading", -1])
        if pt.status in (STATUS_EVADING_LEFT, STATUS_EVADING_RIGHT):
            mods.append(["target evading", -1])
        if pt.status == STATUS_CLIMBING and st.climb[a] > st.climb[t]:
            mods.append(["target climbing, better climb", 1])
        if pa.status == STATUS_DIVING and pt.alt == pa.alt - 1:
            mods.append(["diving on target below", 1])
    if st.night_penalty:
        mods.append([st.rules.night, -1])  # 000 "EFFECTS OF MOONLIGHT" / "OF DARKNESS"
    if st.any_hooks["attack_modifier"]:
        for fn in st.hooks[a].get("attack_modifier", ()):
            v = fn(s, a, t, "attacker")
            if v:
                mods.append([f"{st.names[a]} ability", v])
        for fn in st.hooks[t].get("attack_modifier", ()):
            v = fn(s, a, t, "target")
            if v:
                mods.append([f"{st.names[t]} ability", v])
    return mods


def attack_figures(s: BattleState, a: int, t: int) -> tuple[int, int, int, int, list[list[Any]]]:
    """Range, dice, target number, aspect sector and modifiers of ``a`` attacking ``t``:
    000 "RESOLVING ATTACKS" (dice by range), "TARGET ASPECT", "ATTACK BONUSES AND PENALTIES".
    The attack and the preview a player sees before choosing both read them here."""
    st = s.st
    pa, pt = s.planes[a], s.planes[t]
    d = st.map.distance(pa.hex, pt.hex)
    dice_n = st.attack[a][d - 1]
    if st.any_hooks["attack_dice"]:
        for fn in st.hooks[a].get("attack_dice", ()):
            dice_n = fn(s, a, t, dice_n)
    tn, sector = ASPECT_TABLE[key(s, pt.hex, pa.hex)][pt.facing]
    if st.any_hooks["target_number"]:
        for fn in st.hooks[a].get("target_number", ()):
            tn = fn(s, a, t, tn)
    return d, dice_n, tn, sector, attack_modifiers(s, a, t)


def attack(s: BattleState, a: int, t: int) -> None:
    """000 "RESOLVING ATTACKS": dice by range, target number by aspect, hits against armor."""
    st = s.st
    pa, pt = s.planes[a], s.planes[t]
    d, dice_n, tn, sector, mods = attack_figures(s, a, t)
    mod = 0
    for _, v in mods:
        mod += v
    rolls = []
    hits = 0
    d6 = s.dice.d6
    # An unmodified 6 is two hits whatever the modifiers; with the later
    # edition's rule, one hit where the modifiers raise the number to 7+.
    six = 1 if st.rules.later_sixes and tn - mod >= 7 else 2
    for _ in range(dice_n):
        raw = d6("attack")
        h = six if raw == 6 else (1 if raw + mod >= tn else 0)
        hits += h
        rolls.append([raw, raw + mod, h])
    outcome = outcome_of(s, a, t, hits)
    pa.fired = True
    pt.attacked = True
    s._log(
        "attack", attacker=a, target=t,
        attacker_at=[*s._colrow(pa.hex), pa.facing, pa.alt],
        target_at=[*s._colrow(pt.hex), pt.facing, pt.alt],
        range=d, aspect=CLOCK_NAMES[sector], target_number=tn, dice=dice_n,
        modifier=mod, modifiers=mods, rolls=rolls, hits=hits,
        armor=st.armor[t], vital_armor=st.vital[t], outcome=outcome,
        damage=pt.damage + (outcome == "damage"), hit_points=st.hits[t],
    )  # fmt: skip
    apply_outcome(s, t, a, outcome, "attack")
    advance_attack(s, 1 - pa.side)


def outcome_of(s: BattleState, attacker: int, t: int, hits: int) -> str:
    """000 "RESOLVING ATTACKS": hits against armor and vital armor, then damage abilities."""
    st = s.st
    if hits >= st.vital[t]:
        outcome = "destroyed"
    elif hits >= st.armor[t]:
        outcome = "damage"
    else:
        outcome = "miss"
    if st.any_hooks["damage"]:
        for fn in st.hooks[t].get("damage", ()):
            outcome = fn(s, attacker, t, hits, outcome)
    return outcome


def apply_outcome(s: BattleState, t: int, by: int, outcome: str, how: str) -> None:
    """Damage or destroy ``t``; ``by`` < 0 for flak, balloons and collisions."""
    pt = s.planes[t]
    before = condition(s, t)
    if outcome == "damage":
        pt.damage += 1
    if outcome == "destroyed":
        destroy(s, t, by, how if by < 0 else "vital armor")
    elif pt.damage >= s.st.hits[t]:
        destroy(s, t, by, "hit points" if by >= 0 else how)
    else:
        after = condition(s, t)
        if after != before:
            s._log("condition", plane=t, **{"from": before, "to": after})


def destroy(s: BattleState, t: int, by: int, how: str) -> None:
    """000 "DESTROYED": off the map, scored by the enemy, then 000 "PILOT SURVIVAL"."""
    pt = s.planes[t]
    before = condition(s, t)
    pt.out = DESTROYED
    pt.killer = by
    s._log(
        "destroyed", plane=t, by=by, how=how, hex=s._colrow(pt.hex), alt=pt.alt, **{"from": before}
    )
    pt.hex = -1
    # ruling "Losses to flak, balloons and collisions": the aircraft is
    # lost, so the other side scores it, but no enemy shot it down
    score(s, 1 - pt.side, float(s.st.cost[t]), f"{s.st.names[t]} destroyed")
    if by >= 0 and s.first_success < 0 and s.scenario.kind in ("dogfight", "intercept"):
        s.first_success = 1 - pt.side
    if s.st.rules.pilot_survival:
        # 000 "PILOT SURVIVAL": d6, 4+ survives; +1 friendly, -1 enemy territory
        terr = s.scenario.territory[pt.side]
        mod = 1 if terr == "friendly" else (-1 if terr == "enemy" else 0)
        r = s.dice.d6("pilot survival")
        pt.survival = [r, mod, r + mod >= 4]
        s._log("survival", plane=t, roll=r, modifier=mod, survived=r + mod >= 4)


def score(s: BattleState, side: int, amount: float, reason: str) -> None:
    """Victory points to ``side`` (000 "WINNING THE SCENARIO")."""
    if amount:
        s.vp[side] += amount
        s._log("vp", side=SIDES[side], amount=amount, reason=reason, total=s.vp[side])
