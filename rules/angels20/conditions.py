"""Optional rules and special conditions (000 "OPTIONAL RULES", "SPECIAL CONDITIONS").

Clouds, flak fields, barrage balloons, midair collision, fighter direction
and illumination. Plain functions of the battle state, bound as its methods.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from . import attacks, movement
from .actions import Action, Direct
from .phases import DIRECTION
from .plane import IN_PLAY, Plane
from .stats import FIGHTER_KINDS, SIDES

if TYPE_CHECKING:
    from .state import BattleState

# 000 "RANDOM CLOUD ARRANGEMENT": chart column by d6 (1, 2, 3-4, 5-6), bands 1-6.
CLOUD_CHART = (
    ("light", "solid", "heavy", "heavy", "light", "clear"),
    ("clear", "solid", "heavy", "light", "clear", "clear"),
    ("clear", "heavy", "light", "clear", "clear", "clear"),
    ("clear", "light", "light", "clear", "clear", "clear"),
)
CLOUD_COLUMN = {1: 0, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}
# 000 "CLOUDS": the roll to enter the clouds at the end of a move.
CLOUD_NEED = {"heavy": 3, "light": 5}
# 000 "ILLUMINATION": illuminated on this roll or higher, by aircraft class.
ILLUMINATION_NEED = {
    "heavy bomber": 2,
    "medium bomber": 3,
    "bomber": 3,
    "light bomber": 4,
    "heavy fighter": 4,
    "fighter": 5,
    "naval fighter": 5,
}
FLAK_TARGET = 4  # 000 "FLAK FIELDS" / Resolve Attacks Normally


def illumination_need(kind: str, is_bomber: bool) -> int:
    """000 "ILLUMINATION" by class; a fighter card flying as a bomber counts as a medium bomber."""
    if is_bomber and kind in FIGHTER_KINDS:
        kind = "medium bomber"
    return ILLUMINATION_NEED[kind]


# ---------------------------------------------------------------- 000 "CLOUDS"
def roll_clouds(s: BattleState) -> None:
    """000 "RANDOM CLOUD ARRANGEMENT": one d6 when the scenario is set up."""
    r = s.dice.d6("cloud chart")
    s.cloud_bands = CLOUD_CHART[CLOUD_COLUMN[r]]
    s._log("clouds", bands=list(s.cloud_bands), roll=r)


def cloud_band(s: BattleState, p: Plane) -> str:
    """The cloud band at ``p``: "placed" inside a placed cloud (000 "SPECIFIC CLOUD LOCATIONS")."""
    if (p.hex, p.alt) in s.st.cloud_cells:
        return "placed"
    return s.cloud_bands[p.alt - 1]


def complete_move(s: BattleState, p: Plane) -> None:
    """The end of a move: 000 "CLOUDS" (solid: in the clouds; heavy/light: may try)."""
    if s.st.clouds_on and p.out == IN_PLAY:
        band = cloud_band(s, p)
        if band in ("solid", "placed"):
            p.cloud = True
            s._log("clouds_check", plane=p.id, band=band, roll=None, need=None, in_clouds=True)
        elif band in CLOUD_NEED:
            s.awaiting_cloud = True
            return
    movement.finish_move(s, p)


def enter_clouds(s: BattleState, attempt: bool) -> None:
    """000 "CLOUDS": roll to enter a heavy or light band, or stay out."""
    p = s.planes[s.mover]
    s.awaiting_cloud = False
    band = cloud_band(s, p)
    if attempt:
        need = CLOUD_NEED[band]
        r = s.dice.d6("clouds")
        p.cloud = r >= need
        s._log("clouds_check", plane=p.id, band=band, roll=r, need=need, in_clouds=p.cloud)
    else:
        s._log("clouds_check", plane=p.id, band=band, roll=None, need=None, in_clouds=False)
    movement.finish_move(s, p)


# ---------------------------------------------------------------- flak and balloons
def hazards(s: BattleState, p: Plane) -> None:
    """Flak fields and barrage balloons in the hex just entered."""
    st = s.st
    alts = st.flak.get(p.hex)
    if alts is not None and p.alt in alts:
        flak(s, p)
    if not p.out and p.alt == 1 and p.hex in st.balloons:
        balloon(s, p)


def flak(s: BattleState, p: Plane) -> None:
    """000 "FLAK FIELDS": on a 1 the aircraft is attacked by d6 dice at target number 4."""
    d6 = s.dice.d6
    r = d6("flak")
    where = {"plane": p.id, "hex": s._colrow(p.hex), "alt": p.alt, "roll": r}
    if r != 1:
        s._log("flak", **where, attacked=False)
        return
    n = d6("flak dice")
    rolls = []
    hits = 0
    for _ in range(n):
        raw = d6("flak attack")
        h = 2 if raw == 6 else (1 if raw >= FLAK_TARGET else 0)
        hits += h
        rolls.append([raw, raw, h])
    outcome = attacks.outcome_of(s, -1, p.id, hits)
    s._log(
        "flak", **where, attacked=True, dice=n, target_number=FLAK_TARGET, rolls=rolls,
        hits=hits, armor=s.st.armor[p.id], vital_armor=s.st.vital[p.id], outcome=outcome,
    )  # fmt: skip
    attacks.apply_outcome(s, p.id, -1, outcome, "flak")


def balloon(s: BattleState, p: Plane) -> None:
    """000 "BARRAGE BALLOONS": on 1-2 the balloon attacks: 1-2 nothing, 3-4 damage, 5-6 destroyed."""
    d6 = s.dice.d6
    r = d6("balloon")
    where = {"plane": p.id, "hex": s._colrow(p.hex), "roll": r}
    if r > 2:
        s._log("balloon", **where, attacked=False)
        return
    e = d6("balloon attack")
    outcome = "miss" if e <= 2 else ("damage" if e <= 4 else "destroyed")
    s._log("balloon", **where, attacked=True, effect_roll=e, outcome=outcome)
    attacks.apply_outcome(s, p.id, -1, outcome, "barrage balloon")


def card_flak(s: BattleState) -> None:
    """The card game's flak roll before the first game turn (ruling "Engine engagements: flak").

    003 "INTERCEPTION SEGMENT": one d10 per flak roll, a hit at AF 7 or more
    shoots down one attacking plane: the next of the scenario's targets still
    in play. A hit with no target left is logged and does nothing.
    """
    flak_ = s.scenario.card_flak
    if flak_ is None:
        return
    queue = list(flak_.targets)
    for i in range(flak_.rolls):
        r = s.dice.d10("card flak")
        hit = r >= flak_.af
        while queue and s.planes[queue[0]].out:
            queue.pop(0)
        victim = queue.pop(0) if hit and queue else None
        s._log("card_flak", roll_no=i + 1, roll=r, af=flak_.af, hit=hit, plane=victim)
        if victim is not None:
            attacks.destroy(s, victim, -1, "flak")


# ---------------------------------------------------------------- 000 "OPTIONAL RULE: MIDAIR COLLISION"
def collisions(s: BattleState) -> None:
    """000 "OPTIONAL RULE: MIDAIR COLLISION" (several aircraft: ruling "Midair collision")."""
    groups: dict[tuple[int, int], list[Plane]] = {}
    for p in s.planes:
        if not p.out:
            groups.setdefault((p.hex, p.alt), []).append(p)
    for (h, alt), group in groups.items():
        if len(group) < 2:
            continue
        rolls = []
        possible = []
        for p in group:
            r = s.dice.d6("collision")
            hit = r == 1 or (r == 2 and s.st.poor[p.id])
            rolls.append({"plane": p.id, "roll": r, "possible": hit})
            if hit:
                possible.append(p.id)
        collided = possible if len(possible) >= 2 else []
        s._log("collision", hex=s._colrow(h), alt=alt, rolls=rolls, collided=collided)
        for i in collided:
            attacks.destroy(s, i, -1, "midair collision")


# ---------------------------------------------------------------- night
def illuminate(s: BattleState) -> None:
    """000 "ILLUMINATION": before the Attack phase, searchlights roll for each enemy aircraft."""
    lights = s.st.rules.searchlights
    for p in s.planes:
        if p.out or not lights[1 - p.side]:
            continue
        need = s.st.illumination_need[p.id]
        r = s.dice.d6("illumination")
        p.lit = r >= need
        s._log("illumination", plane=p.id, roll=r, need=need, lit=p.lit)


def after_initiative(s: BattleState) -> None:
    """000 "FIGHTER DIRECTION": after the Initiative phase, sides with capacity assign it."""
    if any(s.st.direction):
        s.phase = DIRECTION
        s.declined = [False, False]
        advance_direction(s, s.first)
    else:
        movement.begin_movement(s)


def direction_options(s: BattleState, side: int) -> list[Action]:
    """000 "FIGHTER DIRECTION": any set of friendly fighters up to the capacity."""
    fighters = [p.id for p in s.planes if p.side == side and not p.out and s.st.fighter[p.id]]
    cap = min(s.st.direction[side], len(fighters))
    out: list[Action] = []
    for k in range(cap + 1):
        out.extend(Direct(c) for c in combinations(fighters, k))
    return out


def advance_direction(s: BattleState, nxt: int) -> None:
    """The next side to assign direction; the first player assigns first (ruling "Fighter direction")."""
    for side in (nxt, 1 - nxt):
        if s.declined[side]:
            continue
        if s.st.direction[side] and any(
            s.st.fighter[p.id] for p in s.planes if p.side == side and not p.out
        ):
            s.to_act = side
            return
        s.declined[side] = True
    movement.begin_movement(s)


def direct(s: BattleState, planes: tuple[int, ...]) -> None:
    """000 "Assigning Direction": these fighters of the side to act are under direction."""
    side = s.to_act
    chosen = set(planes)
    for p in s.planes:
        if p.side == side:
            p.directed = p.id in chosen
    s._log("direction", side=SIDES[side], planes=sorted(chosen))
    s.declined[side] = True
    advance_direction(s, 1 - side)
