"""What a computer pilot of 002 foresees: every air unit as a light :class:`Ghost` flown
on by the impulse chart and its maneuver marker (002 [4], [5]), the shots each would have
on completing a maneuver (6a: forward guns fire only then), and what a shot is worth.

The ghosts copy what the pilot reads of the battle (hex, facing, speed, altitude,
marker, ammunition, damage) into axial coordinates, so a look ahead costs no copy of the
battle and never touches its dice. A ghost with no marker (it completed one, or has not
marked yet) is assumed to fly straight on: the one maneuver of every pilot that needs no
choice. Speeds above 6 move one hex an impulse (the impulse chart, ``charts.moves``).
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from ..actions import MANEUVERS
from ..charts import IMPULSES, hexes, moves
from ..fire import ATTACK_QUALITY, DEFENCE_QUALITY, position_modifier
from ..hexes import from_axial, to_axial
from ..maneuvers import SLOWING, line
from ..units import Unit

# axial steps of the six facings, clockwise from east (as rules.airpirates.hexes)
STEPS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
# unit vectors of the facings on the page (x east, y south), for the aspect of a position
VECTORS = tuple((math.cos(math.radians(60 * f)), math.sin(math.radians(60 * f))) for f in range(6))
# 13b2: the chance of each part per hit
LOCATION = {"engine": 0.2, "crew": 0.1, "fuel": 0.1, "wing": 0.2, "fuselage": 0.3, "rudder": 0.1}
FIRE_FATAL = 0.8  # 13b4: a fire is put out on a modified 9 or more
ELIMINATED = 10.0  # [8]: an eliminated unit is worth 10, else 1 a hit

Axial = tuple[int, int]
MARGIN = 3  # hexes of the gameboard kept free for the next maneuver
AHEAD = 5  # hexes flown on when judging the room left (3b)
# the impulse chart (charts.moves) by speed (0-6; faster moves as 6) and impulse (1-6)
MOVES = tuple(tuple(moves(s, k) for k in range(IMPULSES + 1)) for s in range(IMPULSES + 1))


def axial_distance(a: Axial, b: Axial) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def cartesian(a: Axial) -> tuple[float, float]:
    return math.sqrt(3) * (a[0] + a[1] / 2), 1.5 * a[1]


class Ghost:
    """One air unit as the pilot flies it on in its head: where it is (copied for every
    look ahead) and what it is (``spec``, shared)."""

    __slots__ = ("pos", "facing", "speed", "alt", "marker", "spec")
    pos: Axial
    facing: int
    speed: int
    alt: int
    marker: tuple[Axial, str, int] | None  # (its hex, the maneuver's kind, its pivot)
    spec: Spec

    def copy(self) -> Ghost:
        g = Ghost.__new__(Ghost)
        g.pos, g.facing, g.speed, g.alt = self.pos, self.facing, self.speed, self.alt
        g.marker, g.spec = self.marker, self.spec
        return g

    @property
    def uid(self) -> int:
        return self.spec.uid

    @property
    def side(self) -> int:
        return self.spec.side


class Spec:
    """What an air unit is for the look ahead: its card's numbers with its damage."""

    __slots__ = ("uid", "side", "min_speed", "lines", "allowed", "gun", "defence", "ammo",
                 "kill", "damage")  # fmt: skip
    uid: int
    side: int
    min_speed: int
    lines: dict[str, int]
    allowed: tuple[str, ...]
    gun: int
    defence: int
    ammo: int
    kill: float
    damage: int


def kill_chance(unit: Unit, area: str | None = None) -> float:
    """The chance that one more hit eliminates ``unit``: a part's last box (13b3.1), an
    unarmoured pilot killed on 1-2 (13b3.3.1), or a fire started (13b3.2, 13b3.4) that is
    not put out (13b4). With ``area`` every hit strikes that part (20e's aimed attack),
    else each part by its chance (13b2)."""
    where = LOCATION if area is None else {area: 1.0}
    p = 0.0
    for part, share in where.items():
        if unit.damage[part] + 1 >= int(unit.card[f"{part}_boxes"]):
            p += share
            continue
        if part == "engine" and unit.damage[part] == 0:
            p += share * (0.2 if unit.card["engine_type"] == "inline" else 0.1) * FIRE_FATAL
        if part == "fuel" and unit.damage[part] == 0:
            limit = {"yes": 3, "rudimentary": 4, "no": 5}.get(unit.card["self_sealing_tanks"], 5)
            p += share * limit / 10 * FIRE_FATAL
        if part == "crew" and unit.damage[part] == 0 and not unit.card["pilot_armor"]:
            p += share * 0.2
    return min(1.0, p)


def ghost(unit: Unit, side: int) -> Ghost:
    """``unit`` as a ghost (at the origin until it is placed, 2f)."""
    g = Ghost.__new__(Ghost)
    k = g.spec = Spec()
    k.uid, k.side = unit.id, side
    g.pos = (0, 0) if unit.hex is None else to_axial(unit.hex)
    g.facing, g.speed, g.alt = unit.facing, unit.speed, unit.altitude
    g.marker = None
    if unit.marker is not None:
        kind, pivot = MANEUVERS[unit.marker["maneuver"]]
        g.marker = (to_axial(tuple(unit.marker["hex"])), kind, pivot)
    k.min_speed = int(unit.card["min_speed"])
    k.lines = {kind: line(unit, kind) for kind, _ in MANEUVERS.values()}
    k.allowed = ()  # filled by the pilot for its own units: the maneuvers it may mark
    k.gun = int(unit.card["gun_factor"]) + ATTACK_QUALITY[unit.quality]
    k.gun -= 1 if unit.damage["crew"] >= 1 else 0  # 6c1.8
    k.defence = max(0, int(unit.card["defence_factor"]) - sum(unit.damage.values()))
    k.defence += DEFENCE_QUALITY[unit.quality]
    k.ammo = int(unit.card["ammunition"]) - unit.ammunition_used
    k.kill = kill_chance(unit)
    k.damage = sum(unit.damage.values())
    return g


def plan(g: Ghost, maneuver: str, higher: int = 0) -> None:
    """Mark ``g`` for ``maneuver``: the marker ``hexes(line, speed)`` straight ahead (5c,
    5d2.2); ``higher`` lines up the chart (17c, the honcho)."""
    kind, pivot = MANEUVERS[maneuver]
    n = hexes(g.spec.lines[kind] - higher, g.speed)
    dq, dr = STEPS[g.facing]
    g.marker = ((g.pos[0] + n * dq, g.pos[1] + n * dr), kind, pivot)


def step(g: Ghost) -> bool:
    """5b1: one hex ahead; True when the marker's maneuver completes (5d1.3). A ghost
    without a marker flies straight: it completes on every hex its straight takes."""
    if g.marker is None:
        plan(g, "straight")
    assert g.marker is not None
    dq, dr = STEPS[g.facing]
    start = g.pos
    g.pos = (start[0] + dq, start[1] + dr)
    target, kind, pivot = g.marker
    if g.pos != target:
        return False
    if kind == "roll":  # 5d7: shifted beside, facing kept
        sq, sr = STEPS[(g.facing + pivot) % 6]
        g.pos = (start[0] + sq, start[1] + sr)
    else:
        g.facing = (g.facing + pivot) % 6
    if kind in SLOWING:
        g.speed -= 1
    g.marker = None
    return True


def advance(ghosts: list[Ghost], impulse: int) -> list[Ghost]:
    """The Move Phase of ``impulse`` (1-6) for every ghost; the ghosts that completed."""
    return [g for g in ghosts if MOVES[min(g.speed, 6)][impulse] and step(g)]


def next_impulse(impulse: int) -> int:
    return impulse % IMPULSES + 1


def _fan(facing: int) -> frozenset[Axial]:
    dq, dr = STEPS[facing]
    out = {(dq, dr), (2 * dq, 2 * dr)}
    for turn in (1, 5):
        sq, sr = STEPS[(facing + turn) % 6]
        out.add((dq + sq, dr + sr))
    return frozenset(out)


# the forward guns' hexes (ruling, ``fire.forward_fan``) as axial offsets, by facing
FANS = tuple(_fan(f) for f in range(6))


def in_fan(firer: Ghost, target: Ghost) -> bool:
    """``target`` in the forward guns' hexes, or in the firer's own hex one altitude
    apart (6a4)."""
    fq, fr_ = firer.pos
    tq, tr = target.pos
    if fq == tq and fr_ == tr:
        return firer.alt != target.alt
    return (tq - fq, tr - fr_) in FANS[firer.facing]


@cache
def _position(dq: int, dr: int, target_facing: int) -> int:
    """6c1.3's Deflection Diagram modifier (the engine's, ``fire.position_modifier``) of a
    firer ``(dq, dr)`` axial from its target."""
    target = Unit(0, "axis", "", {}, hex=from_axial(0, 0), facing=target_facing)
    firer = Unit(1, "allied", "", {}, hex=from_axial(dq, dr))
    return position_modifier(firer, target)


@cache
def hits_table(
    attack: int, defence: int, miss_on_ten: bool = False
) -> tuple[tuple[int, float], ...]:
    """6d, 6e: the chance of each number of hits, from the two modified d10s;
    ``miss_on_ten``: the defender's unmodified 10 misses outright (20e's aimed attack)."""
    counts: dict[int, int] = {}
    for a in range(1, 11):
        mine = max(1, a + attack)
        for d in range(1, 11 - miss_on_ten):
            theirs = max(1, d + defence)
            h = 0 if theirs >= mine else max(1, mine // theirs)
            counts[h] = counts.get(h, 0) + 1
    return tuple((h, n / 100) for h, n in sorted(counts.items()) if h)


@cache
def shot_value(
    attack: int, defence: int, kill: float, damage: int, miss_on_ten: bool = False
) -> float:
    """The victory points a shot is expected to score ([8]): 10 for the unit eliminated
    (less the hits it already counts), else a point a hit."""
    ev = 0.0
    for h, p in hits_table(attack, defence, miss_on_ten):
        survive = (1.0 - kill) ** h
        ev += p * ((1.0 - survive) * (ELIMINATED - damage) + survive * h)
    return ev


def _attack(firer: Ghost, target: Ghost) -> int | None:
    """``firer``'s forward guns' attack total at ``target`` now (None: no shot)."""
    if firer.spec.ammo < 1 or abs(firer.alt - target.alt) > 1 or not in_fan(firer, target):
        return None
    attack = firer.spec.gun - (2 if firer.alt != target.alt else 0)
    if firer.pos != target.pos:
        dq, dr = firer.pos[0] - target.pos[0], firer.pos[1] - target.pos[1]
        attack += _position(dq, dr, target.facing)
    return attack


def shot(firer: Ghost, target: Ghost) -> float:
    """What ``firer``'s forward guns are worth at ``target`` now (0: no shot)."""
    attack = _attack(firer, target)
    if attack is None:
        return 0.0
    t = target.spec
    return shot_value(attack, t.defence, t.kill, t.damage)


def hit_chance(firer: Ghost, target: Ghost) -> float:
    """The chance ``firer``'s forward guns score at least one hit on ``target`` now."""
    attack = _attack(firer, target)
    if attack is None:
        return 0.0
    return sum(p for _, p in hits_table(attack, target.spec.defence))


def aspect(me: Ghost, other: Ghost) -> tuple[float, float, int]:
    """(cosine of the angle off ``me``'s nose to ``other``, cosine of the angle off
    ``other``'s nose to ``me``, distance)."""
    d = axial_distance(me.pos, other.pos)
    if d == 0:
        return 0.0, 0.0, 0
    mx, my = cartesian(me.pos)
    ox, oy = cartesian(other.pos)
    vx, vy = (ox - mx) / d, (oy - my) / d
    norm = math.hypot(vx, vy) or 1.0
    vx, vy = vx / norm, vy / norm
    fx, fy = VECTORS[me.facing]
    gx, gy = VECTORS[other.facing]
    return fx * vx + fy * vy, -(gx * vx + gy * vy), d


def position(me: Ghost, enemies: list[Ghost], allies: list[Ghost]) -> tuple[float, float]:
    """(offence, danger) of ``me``'s position: enemies ahead of its nose and close, better
    still from their tails; enemies with ``me`` ahead of theirs, worse from its tail.
    Two or more altitudes apart, neither may fire (6a1) until a Change Phase."""
    offence = danger = 0.0
    for e in enemies:
        mine, theirs, d = aspect(me, e)
        close = 1.0 if d <= 2 else 2.5 / (d + 0.5)
        apart = 1.0 if abs(me.alt - e.alt) <= 1 else 0.35
        if mine > 0:
            offence += close * apart * mine * mine * (1.0 + max(0.0, -theirs)) * _weight(e)
        if theirs > 0 and e.spec.ammo > 0:
            danger += close * apart * theirs * theirs * (1.0 + max(0.0, -mine))
    return offence, danger


def _weight(e: Ghost) -> float:
    """A damaged enemy is a better target (fewer defence points, nearer its last box)."""
    return 1.0 + e.spec.kill


def overflow(me: Ghost, ghosts: list[Ghost], width: int, height: int, everyone: bool = True) -> int:
    """How many hexes the battle would overflow the gameboard if ``me`` (and, when
    ``everyone``, every unit) flew three hexes on: 3b shifts the whole battle to keep it
    on the board, and a unit no maneuver keeps on it leaves the battle (docs/rulings.md,
    'Air Pirates: the gameboard'), the game ending when a side has none left ([8])."""
    points = []
    for g in ghosts:
        points.append(g.pos)
        if g.marker is not None:
            points.append(g.marker[0])  # 3b: its path to its marker is on the board too
        if everyone or g is me:
            dq, dr = STEPS[g.facing]
            points.append((g.pos[0] + AHEAD * dq, g.pos[1] + AHEAD * dr))
    if me not in ghosts:
        dq, dr = STEPS[me.facing]
        points += [me.pos, (me.pos[0] + AHEAD * dq, me.pos[1] + AHEAD * dr)]
    rows = [r for _, r in points]
    cols = [q + (r - (r & 1)) // 2 for q, r in points]
    return max(0, max(cols) - min(cols) - width + MARGIN) + max(
        0, max(rows) - min(rows) - height + MARGIN
    )


def nearest(me: Ghost, others: list[Ghost]) -> int:
    return min((axial_distance(me.pos, o.pos) for o in others), default=0)


def farthest(me: Ghost, others: list[Ghost]) -> int:
    return max((axial_distance(me.pos, o.pos) for o in others), default=0)


__all__ = ["Ghost", "advance", "ghost", "plan", "position", "shot", "shot_value"]


def describe(g: Ghost) -> dict[str, Any]:
    """A ghost as words, for debugging a decision."""
    return {"unit": g.uid, "hex": from_axial(*g.pos), "facing": g.facing, "speed": g.speed,
            "altitude": g.alt, "marker": g.marker}  # fmt: skip
