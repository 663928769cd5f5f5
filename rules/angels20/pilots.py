"""Computer pilots for the Angels 20 engine (issue #5).

A pilot *policy* chooses the next action for the side to act in a
:class:`~rules.angels20.state.BattleState`: a whole-move
:class:`~rules.angels20.actions.MovePlan` in the Movement phase (or a step /
status action if a move was started step by step), an
:class:`~rules.angels20.actions.Attack` or ``Decline`` in the Attack phase,
and a :class:`~rules.angels20.actions.ChoosePosition` when its side won the
initiative under the turn-position rule. With the optional rules on it also
answers the new phases: :class:`~rules.angels20.actions.Direct` (fighter
direction in darkness), :class:`~rules.angels20.actions.Reposition` /
``Pass`` (abilities used after the Movement phase), and the cloud question
(the ``clouds`` flag of a plan, or :class:`~rules.angels20.actions.EnterClouds`
mid-move).

* :class:`RandomPolicy` - uniform over the legal actions (whole-move plans
  when moving).
* :class:`TacticalPolicy` - a one-ply evaluation of where each of the
  aircraft's legal move plans leaves it (expected value over the maneuver
  check's success and failure, and over the cloud roll), scored for the
  shots it will have and give this turn, the next turn's prospects, tailing,
  map edges, status, flak and balloons on the way, and the scenario's
  objective; in the Attack phase it takes the best expected shot,
  concentrating fire on damaged and crippled targets. See
  ``docs/computer-pilots.md``.

Policies are deterministic given their seed: tie-breaks use the policy's own
``random.Random(seed)``, never the global ``random`` module nor the battle's
dice. The module keeps process-wide caches of position-independent tables
(relative move outcomes, reach sets); they never change a decision.

Fly a battle with :func:`play_out`::

    result = play_out(new_battle(dogfight(), seed=7),
                      {"axis": TacticalPolicy(1), "allied": RandomPolicy(2)})
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from rules.dice import derive_seed

from . import abilities
from .actions import (
    MANEUVER_BONUS,
    STATUSES,
    Action,
    Attack,
    ChoosePosition,
    Direct,
    EndMove,
    EnterClouds,
    Maneuver,
    MovePlan,
    Pass,
    Reposition,
    Straight,
    Turn,
)
from .hexmap import ARC_TABLE, ASPECT_TABLE, DIRECTIONS, FRONT_TABLE, REAR_TABLE
from .maneuvers import maneuver_outcome
from .state import CLOUD_NEED
from .stats import SIDES

__all__ = [
    "POLICIES",
    "Policy",
    "RandomPolicy",
    "TacticalPolicy",
    "make_policy",
    "play_out",
]

_MAXR = 4
_SPAN = 2 * _MAXR + 1
_S_NONE, _S_DIVING, _S_CLIMBING, _S_EVL, _S_EVR = range(5)
_EVADING = (_S_EVL, _S_EVR)

# P(2d6 >= n)
_P2D6_GE = {
    n: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= n) / 36.0 for n in range(-20, 30)
}


def _p2d6_ge(n: int) -> float:
    if n <= 2:
        return 1.0
    if n > 12:
        return 0.0
    return _P2D6_GE[n]


def _rot_matrix(times: int) -> tuple[int, int, int, int]:
    a, b, c, d = 1, 0, 0, 1
    for _ in range(times % 6):
        # (q, r) -> (q + r, -q)
        a, b, c, d = a + c, b + d, -a, -b
    return a, b, c, d


_ROT = tuple(_rot_matrix(k) for k in range(6))


def _okey(dq: int, dr: int) -> int:
    return (dq + _MAXR) * _SPAN + (dr + _MAXR)


def _dist(dq: int, dr: int) -> int:
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def _rot_ccw(q: int, r: int, times: int) -> tuple[int, int]:
    """Rotate an axial offset counter-clockwise by ``times`` hex sides."""
    for _ in range(times % 6):
        q, r = q + r, -q
    return q, r


# ---------------------------------------------------------------- attack odds

_HIT_CACHE: dict[tuple[int, int, bool], tuple[float, ...]] = {}


def _hit_tail(ndice: int, need: int, single_six: bool = False) -> tuple[float, ...]:
    """``t[k]`` = P(at least k hits) for ``ndice`` dice needing ``need`` (modified).

    An unmodified 6 scores two hits, or one with ``single_six`` (the later
    edition's rule where the modifiers raise the number to 7 or more).
    """
    need = max(1, min(7, need))
    key = (ndice, need, single_six)
    t = _HIT_CACHE.get(key)
    if t is not None:
        return t
    p6 = 1.0 / 6.0  # an unmodified 6
    p1 = max(0, 6 - need) / 6.0  # raw 1..5 with raw + mod >= tn
    if single_six:
        p1, p2 = p1 + p6, 0.0
    else:
        p2 = p6
    p0 = 1.0 - p1 - p2
    dist = [1.0]
    for _ in range(ndice):
        nd = [0.0] * (len(dist) + 2)
        for h, p in enumerate(dist):
            if p:
                nd[h] += p * p0
                nd[h + 1] += p * p1
                nd[h + 2] += p * p2
        dist = nd
    tail = [0.0] * (len(dist) + 1)
    acc = 0.0
    for h in range(len(dist) - 1, -1, -1):
        acc += dist[h]
        tail[h] = acc
    t = tuple(tail)
    _HIT_CACHE[key] = t
    return t


def _odds(
    ndice: int, need: int, armor: int, vital: int, remaining: int, later: bool = False
) -> tuple[float, float]:
    """(P(destroyed), P(damaged but not destroyed)) of one attack.

    ``later``: the later-edition sixes are in force (``Rules.later_sixes``,
    published with *Bandits High*): an unmodified 6 is one hit where the
    modifiers raise the number to 7 or more.
    """
    if ndice <= 0:
        return 0.0, 0.0
    t = _hit_tail(ndice, need, later and need >= 7)
    n = len(t) - 1
    p_vital = t[vital] if vital <= n else 0.0
    p_armor = t[armor] if armor <= n else 0.0
    p_dmg = p_armor - p_vital
    if remaining <= 1:
        return p_vital + p_dmg, 0.0
    return p_vital, p_dmg


# ---------------------------------------------------------------- move tables


def _simulate(steps: tuple[Action, ...], facing: int, alt: int, ok: bool):
    """Relative path of a step sequence from (0, 0): (entered hexes, facing, altitude).

    A maneuver's effect comes from the engine's own rule (``maneuvers.maneuver_outcome``).
    """
    q = r = 0
    f = facing
    path: list[tuple[int, int]] = []
    for s in steps:
        t = type(s)
        if t is Straight or t is Turn:
            dq, dr = DIRECTIONS[f]
            q += dq
            r += dr
            path.append((q, r))
            if t is Turn:
                f = (f + s.direction) % 6  # type: ignore[attr-defined]
            continue
        out = maneuver_outcome(s.kind, s.option, f, ok)  # type: ignore[attr-defined]
        if out.enter is not None:
            dq, dr = DIRECTIONS[out.enter]
            q += dq
            r += dr
            path.append((q, r))
        f = out.facing
        alt += out.climb
    return _intern(tuple(_intern(h) for h in path)), f, alt


_INTERNED: dict[Any, Any] = {}


def _intern(x: Any) -> Any:
    """Share equal small tuples / frozensets between the move tables."""
    got = _INTERNED.get(x)
    if got is None:
        if len(_INTERNED) > 200_000:
            _INTERNED.clear()
        got = _INTERNED[x] = x
    return got


class _Group:
    """Plans with the same relative outcome(s); members differ only in their path."""

    __slots__ = ("dm", "dm_first", "ends", "idx", "members", "lo", "hi")

    def __init__(self, dm, dm_first, ends, lo, hi):
        self.dm = dm  # maneuver kind (None: no difficult maneuver)
        self.dm_first = dm_first  # the maneuver is the first step
        self.ends = ends  # ((dq, dr, facing, alt) success, (...) failure) or (end,)
        self.idx: tuple[int, ...] = ()  # indices of the ends in the table's end list
        # (steps, paths, hexes visited, altitude after each hex entered, per path)
        self.members: list[tuple[Any, ...]] = []
        self.lo = lo
        self.hi = hi


_MOVE_TABLES: dict[tuple[Any, ...], list[Any]] = {}
_MAX_TABLES = 600  # (key, facing) tables kept, ~85 kB each
_TABLES_BUILT = 0
_MAX_MEMBERS = 6
_STEP_SEQS: dict[tuple[Any, ...], tuple[tuple[Action, ...], ...]] = {}


def _groups(seqs: tuple[tuple[Action, ...], ...], key: tuple[Any, ...], facing: int, alt: int):
    global _TABLES_BUILT
    row = _MOVE_TABLES.get(key)
    if row is None:
        if _TABLES_BUILT >= _MAX_TABLES:
            _MOVE_TABLES.clear()  # bound the memory of a long-running process (~50 MB)
            _TABLES_BUILT = 0
        row = _MOVE_TABLES[key] = [None] * 6
    g = row[facing]
    if g is not None:
        return g
    by: dict[tuple[Any, ...], _Group] = {}
    out: list[_Group] = []
    for steps in seqs:
        dm = None
        dm_first = False
        for n, s in enumerate(steps):
            if type(s) is Maneuver:
                dm = s.kind
                dm_first = n == 0
                break
        if dm is None:
            path, f, a = _simulate(steps, facing, alt, True)
            ends = ((path[-1] if path else (0, 0)) + (f, a),)
            paths = (path,)
        else:
            ps, fs, a_s = _simulate(steps, facing, alt, True)
            pf, ff, a_f = _simulate(steps, facing, alt, False)
            ends = (
                (ps[-1] if ps else (0, 0)) + (fs, a_s),
                (pf[-1] if pf else (0, 0)) + (ff, a_f),
            )
            paths = _intern((ps, pf))
        gk = (dm, dm_first, ends)
        grp = by.get(gk)
        if grp is None:
            alts = [e[3] for e in ends]
            grp = by[gk] = _Group(dm, dm_first, ends, min(alts), max(alts))
            out.append(grp)
        hexes = _intern(frozenset(h for pth in paths for h in pth))
        # keep a few members with different paths: enough to dodge a map edge
        if len(grp.members) < _MAX_MEMBERS and all(m[2] != hexes for m in grp.members):
            alts = _intern(
                tuple(_intern(_path_alts(steps, alt, k == 0)) for k in range(len(paths)))
            )
            grp.members.append((steps, paths, hexes, alts))
    end_list: list[tuple[int, int, int, int]] = []
    where: dict[tuple[int, int, int, int], int] = {}
    for grp in out:
        ix = []
        for e in grp.ends:
            k = where.get(e)
            if k is None:
                k = where[e] = len(end_list)
                end_list.append(e)
            ix.append(k)
        grp.idx = tuple(ix)
    _TABLES_BUILT += 1
    row[facing] = (tuple(end_list), out)
    return row[facing]


# ---------------------------------------------------------------- reach sets

_REACH: dict[tuple[Any, ...], tuple[tuple[int, int, int], ...]] = {}


def _reach(speeds: tuple[int, ...], highs: tuple[int, ...], can_turn: bool):
    """Distinct relative end positions (q, r, facing) from (0, 0) facing 0 with normal moves."""
    key = (speeds, highs, can_turn)
    got = _REACH.get(key)
    if got is not None:
        return got
    ends: set[tuple[int, int, int]] = set()

    def rec(n: int, left: int, q: int, r: int, f: int, high: bool, last_turn: int) -> None:
        if left == 0:
            ends.add((q, r, f))
            return
        dq, dr = DIRECTIONS[f]
        nq, nr = q + dq, r + dr
        rec(n + 1, left - 1, nq, nr, f, high, last_turn)
        if can_turn and not (high and last_turn == n):
            rec(n + 1, left - 1, nq, nr, (f - 1) % 6, high, n + 1)
            rec(n + 1, left - 1, nq, nr, (f + 1) % 6, high, n + 1)

    for s in speeds:
        rec(0, s, 0, 0, 0, False, -9)
    for s in highs:
        rec(0, s, 0, 0, 0, True, -9)
    got = _REACH[key] = tuple(sorted(ends))
    return got


_SHOOT: dict[tuple[Any, ...], tuple[tuple[tuple[int, int, int], ...], int]] = {}
_DODGE: dict[tuple[Any, ...], tuple[tuple[tuple[int, int, int], ...], int]] = {}


def _shoot_bins(reach, rkey, bomber: bool, tq: int, tr: int, tf: int):
    """Attacker at origin facing 0 moves (reach); target stays at (tq, tr) facing tf.

    Returns ((range, target number, count), ...), number of reach positions.
    """
    key = (rkey, bomber, tq, tr, tf)
    got = _SHOOT.get(key)
    if got is not None:
        return got
    bins: dict[tuple[int, int], int] = {}
    for aq, ar, af in reach:
        dq, dr = tq - aq, tr - ar
        d = _dist(dq, dr)
        if 1 <= d <= 3 and (bomber or ARC_TABLE[_okey(dq, dr)][af]):
            tn = ASPECT_TABLE[_okey(-dq, -dr)][tf][0]
            bins[(d, tn)] = bins.get((d, tn), 0) + 1
    got = _SHOOT[key] = (tuple((d, tn, c) for (d, tn), c in sorted(bins.items())), len(reach))
    return got


def _dodge_bins(reach, rkey, my_bomber: bool, mq: int, mr: int, mf: int):
    """Target at origin facing 0 moves (reach); the attacker stays at (mq, mr) facing mf."""
    key = (rkey, my_bomber, mq, mr, mf)
    got = _DODGE.get(key)
    if got is not None:
        return got
    bins: dict[tuple[int, int], int] = {}
    for aq, ar, af in reach:
        dq, dr = aq - mq, ar - mr
        d = _dist(dq, dr)
        if 1 <= d <= 3 and (my_bomber or ARC_TABLE[_okey(dq, dr)][mf]):
            tn = ASPECT_TABLE[_okey(-dq, -dr)][af][0]
            bins[(d, tn)] = bins.get((d, tn), 0) + 1
    got = _DODGE[key] = (tuple((d, tn, c) for (d, tn), c in sorted(bins.items())), len(reach))
    return got


# ---------------------------------------------------------------- special conditions

# 000 "CLOUDS": an aircraft ending its move in a heavy band enters the clouds
# on 3+, in a light band on 5+ (if it tries); solid bands and placed clouds
# always hide it.
_CLOUD_TRY = {band: (7 - need) / 6.0 for band, need in CLOUD_NEED.items()}
_CLOUD_AUTO = frozenset({"solid"})


def _fields(state: Any):
    """(flak hex -> altitudes, balloon hexes, placed cloud (hex, altitude) cells).

    The engine builds these once per battle from its rules and map (000
    "FLAK FIELDS", "BARRAGE BALLOONS"; ruling "Placed clouds").
    """
    st = state.st
    return st.flak, st.balloons, st.cloud_cells


def _hazard_costs(tv_i: tuple[Any, ...]) -> tuple[float, float]:
    """Expected loss (in the aircraft's own kill / damage values) per hex entered.

    000 "FLAK FIELDS": a flak roll of 1 in each field hex at the field's
    altitude, then d6 attack dice at target number 4 against armor and vital
    armor. 000 "BARRAGE BALLOONS": a roll of 1-2 on entering the hex at
    altitude 1, then d6: 3-4 one damage, 5-6 destroyed.
    """
    kv, dv, armor, vital, rem, _ = tv_i
    flak = 0.0
    for n in range(1, 7):
        pk, pd = _odds(n, 4, armor, vital, rem)
        flak += pk * kv + pd * dv
    flak /= 36.0
    balloon = (kv + (kv if rem <= 1 else dv)) / 9.0
    return flak, balloon


def _path_alts(steps: tuple[Action, ...], alt: int, ok: bool) -> tuple[int, ...]:
    """Altitude after each hex a step sequence enters (aligned with :func:`_simulate`'s path)."""
    out = []
    for s in steps:
        if type(s) is Maneuver:
            k = s.kind
            if k == "scissors" and ok:
                continue  # remains in its hex: nothing entered
            if k == "climb" and ok:
                alt += 1
            elif k == "power_dive":
                alt -= s.option if ok else 1
            elif k == "split_s":
                alt -= 1
        out.append(alt)
    return tuple(out)


# ---------------------------------------------------------------- policies


@runtime_checkable
class Policy(Protocol):
    """A computer pilot: picks a legal action for the side to act."""

    def choose(self, state: Any) -> Action: ...


class RandomPolicy:
    """Uniform over the legal actions; whole-move plans when an aircraft starts moving."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, state: Any) -> Action:
        legal: list[Action] = []
        if state.phase == "movement" and state.mover < 0:
            legal = list(state.legal_move_plans())
        if not legal:
            legal = state.legal_actions()
        if not legal:
            raise ValueError("no legal action: the battle is over")
        return self.rng.choice(legal)


DEFAULT_WEIGHTS: dict[str, float] = {
    # this turn's shots
    "offense": 1.0,  # my shots on enemies that have already moved (exact)
    "defense": 1.3,  # their shots on me (exact)
    "unmoved_offense": 0.35,  # my shots on enemies still to move (mean over their moves)
    "unmoved_defense": 1.0,  # shots of enemies still to move (mix of mean and best)
    "threat_max": 0.5,  # share of the enemy's best move (vs its average) in the threat
    # next turn
    "next_turn": 0.3,  # reach-based shots next turn, both ways
    "tail": 3.0,  # tailing an enemy (and being tailed, negated)
    "close": 0.6,  # per hex of distance beyond 4 to the nearest enemy
    # map, status, objective
    "edge": 1.0,  # scale of the penalty for ending facing a near map edge
    "objective": 1.0,  # scenario objective terms
    "win": 150.0,  # extra value of the battle-deciding kill (Dogfight, Intercept)
    "alt_diff_1": 0.3,  # chance factor that an enemy 1 altitude off gets a shot (basic rules)
    "hazard": 1.3,  # expected loss to flak fields and barrage balloons on the way
}


class TacticalPolicy:
    """One-ply evaluation of the legal move plans' end positions; greedy best shot."""

    name = "tactical"

    def __init__(self, seed: int = 0, **weights: float) -> None:
        unknown = set(weights) - set(DEFAULT_WEIGHTS)
        if unknown:
            raise TypeError(f"unknown TacticalPolicy weights: {sorted(unknown)}")
        self.seed = seed
        self.rng = random.Random(seed)
        self.w = {**DEFAULT_WEIGHTS, **weights}

    # ------------------------------------------------------------ entry point
    def choose(self, state: Any) -> Action:
        ph = state.phase
        if ph == "movement":
            if state.mover < 0:
                plan = self._choose_plan(state)
                if plan is not None:
                    return plan
                return self._pick(state.legal_actions(), lambda a: 0.0)
            return self._choose_step(state)
        if ph == "attack":
            return self._choose_attack(state)
        if ph == "position":
            # moving second (seeing the enemy's moves) is usually the advantage
            return ChoosePosition(False)
        if ph == "direction":
            return self._choose_direction(state)
        if ph == "reposition":
            return self._choose_reposition(state)
        legal = state.legal_actions()
        if not legal:
            raise ValueError("no legal action: the battle is over")
        return legal[0]

    def _pick(self, options: list[Any], score) -> Any:
        best = -math.inf
        tied: list[Any] = []
        for o in options:
            v = score(o)
            if v > best + 1e-9:
                best = v
                tied = [o]
            elif v >= best - 1e-9:
                tied.append(o)
        return tied[0] if len(tied) == 1 else self.rng.choice(tied)

    # ------------------------------------------------------------ values
    def _kill_value(self, state: Any, t: int) -> float:
        st = state.st
        sc = state.scenario
        kind = sc.kind
        v = float(st.cost[t])
        role = st.role[t]
        if kind in ("dogfight", "intercept"):
            v += self.w["win"]
        elif kind == "schnellbomber" and role == "strafer":
            v += 30.0
        elif kind == "bomber_escort" and role == "bomber":
            v += 60.0
        elif kind == "limited_fuel" and role == "bomber":
            v += 20.0
        return v

    def _damage_value(self, state: Any, t: int, kv: float) -> float:
        st = state.st
        sc = state.scenario
        p = state.planes[t]
        remaining = st.hits[t] - p.damage
        base = kv * 0.5 / max(1, remaining - 1)
        if sc.kind == "intercept" and p.side == 1 and p.damage == 0:
            base += self.w["win"] * 0.8  # any damage spoils the Allied climb
        if (
            sc.kind == "limited_fuel"
            and st.role[t] == "bomber"
            and all(q.damage == 0 for q in state.planes if st.role[q.id] == "bomber" and q.out != 1)
        ):
            base += 60.0  # the first damage on a bomber breaks the Axis auto-win
        return base

    def _target_values(self, state: Any) -> list[tuple[float, float, int, int, int, int]]:
        """Per aircraft: (kill value, damage value, armor, vital, remaining hits, crippled)."""
        st = state.st
        out = []
        for p in state.planes:
            kv = self._kill_value(state, p.id)
            rem = st.hits[p.id] - p.damage
            out.append(
                (
                    kv,
                    self._damage_value(state, p.id, kv),
                    st.armor[p.id],
                    st.vital[p.id],
                    rem,
                    1 if (p.damage and rem == 1) else 0,
                )
            )
        return out

    def _retreat_value(self, state: Any, i: int, edge: str | None) -> float:
        """Value (for i's side) of aircraft i leaving the map by ``edge``."""
        st = state.st
        sc = state.scenario
        role = st.role[i]
        cost = float(st.cost[i])
        kind = sc.kind
        if kind == "limited_fuel" and role == "fuel_limited" and edge == sc.free_exit_edge:
            left = (sc.must_exit_by_turn or 4) - state.turn
            return -6.0 * max(0, left)  # safe, but leaves the bombers early
        if role == "bomber" and sc.bomber_exit_edge is not None and edge == sc.bomber_exit_edge:
            return 80.0
        if kind == "dogfight":
            return -(cost + self.w["win"])
        if kind == "intercept":
            return -(cost + self.w["win"] * 0.7)
        if kind == "limited_fuel" and role == "bomber":
            return -cost / 2
        if kind == "bomber_escort" and role == "bomber":
            return -80.0
        if kind == "bomber_escort":
            return -cost / 4
        return -cost / 2

    # ------------------------------------------------------------ context
    def _night(self, state: Any) -> list[tuple[bool, float]] | None:
        """In darkness, per aircraft: (may attack anyway, P(illuminated) this turn); else None.

        000 "EFFECTS OF DARKNESS" / Requirements to Attack: an aircraft
        attacks only with an ability to fight in darkness, under fighter
        direction, or at an illuminated target; 000 "ILLUMINATION": the
        enemy's searchlights light it on a d6 by aircraft class.
        """
        st = state.st
        rules = st.rules
        if rules.night != "darkness":
            return None
        lights = rules.searchlights
        out = []
        for p in state.planes:
            ok = bool(p.directed) or abilities.fights_in_darkness(
                state.scenario.aircraft[p.id].stats.abilities
            )
            lit = (7 - st.illumination_need[p.id]) / 6.0 if lights[1 - p.side] else 0.0
            out.append((ok, lit))
        return out

    def _context(self, state: Any, i: int) -> dict[str, Any]:
        st = state.st
        m = st.map
        me = state.planes[i]
        tv = self._target_values(state)
        rules = st.rules
        night = self._night(state)
        collide = rules.midair_collision
        enemies = []
        allies_final = set()
        for p in state.planes:
            if p.out or p.id == i:
                continue
            if p.side == me.side:
                if p.moved:
                    allies_final.add((p.hex, p.alt))
                continue
            j = p.id
            # chance that each may attack the other at all this turn (1.0 by day)
            f_me = f_j = 1.0
            if night is not None:
                f_me = 1.0 if night[i][0] else night[j][1]
                f_j = 1.0 if night[j][0] else night[i][1]
            nf_me, nf_j = f_me, f_j  # next turn: both will have moved out of any cloud
            # 000 "EFFECTS OF BEING IN THE CLOUDS": a moved enemy in the clouds
            # can't attack or be attacked, tail or be tailed this turn
            hidden = bool(p.moved and p.cloud)
            if hidden:
                f_me = f_j = 0.0
            if p.grounded:
                f_j = 0.0  # 000 "STACKING": moved back, it may not attack this turn
            # 000 "EFFECTS OF DARKNESS": ignore tailing
            tail_ok = not hidden and night is None
            coll = 0.0
            if collide:
                # 000 "OPTIONAL RULE: MIDAIR COLLISION": both roll a possible collision
                pc = (2.0 if st.rank[i] == 0 else 1.0) * (2.0 if st.rank[j] == 0 else 1.0) / 36.0
                coll = pc * (tv[i][0] - tv[j][0])
            enemies.append(
                (
                    j,
                    m.q[p.hex],
                    m.r[p.hex],
                    p.facing,
                    p.alt,
                    bool(p.moved),
                    p.status if rules.status else 0,
                    self._reach_of(state, j),
                    self._mod(state, i, j, tv),
                    self._mod(state, j, i, tv),
                    st.attack[j],
                    st.bomber[j],
                    tv[j],
                    st.climb[j],
                    _ROT[p.facing],
                    ({}, {}),  # threat memo by my evading flag
                    ({}, {}),  # my-chance memo by my evading flag
                    {},  # next-turn memo
                    (f_me, f_j, nf_me, nf_j, tail_ok, coll),
                )
            )
        return {
            "i": i,
            "tv": tv,
            "enemies": enemies,
            "allies_final": allies_final,
            "my_reach": self._reach_of(state, i),
            "bins_memo": {},
            "edge_memo": {},
            "later": rules.later_sixes,
            "grounded": bool(me.grounded),
        }

    def _reach_of(self, state: Any, j: int):
        a = state.scenario.aircraft[j]
        s = a.stats
        p = state.planes[j]
        crippled = p.damage and state.st.hits[j] - p.damage == 1
        speeds = tuple(range(s.speed_min, s.speed_max + 1))
        highs: tuple[int, ...] = ()
        if s.high_speed_min is not None and not crippled:
            # the fastest high speed is enough for the reach set
            highs = (s.high_speed_max,)
        can_turn = not (
            state.st.bomber[j] and state.scenario.kind == "limited_fuel" and not p.attacked
        )
        key = (speeds, highs, can_turn)
        return key, _reach(speeds, highs, can_turn)

    def _mod(self, state: Any, a: int, t: int, tv) -> int:
        st = state.st
        mod = 1 if st.rank[a] > st.rank[t] else 0
        if tv[a][5]:
            mod -= 1
        if tv[t][5]:
            mod += 1
        if st.rules.night != "day":
            mod -= 1  # 000 "EFFECTS OF MOONLIGHT" / "EFFECTS OF DARKNESS": -1 per die
        return mod

    @staticmethod
    def _bins_value(memo, bins_n, a_dice, need_shift, tvt, mx_w, later=False):
        """(mean, mixed mean/best) value of a reach distribution of shots."""
        key = (id(bins_n), need_shift, id(tvt), mx_w)
        got = memo.get(key)
        if got is not None:
            return got
        bins, n = bins_n
        if not bins or not n:
            got = memo[key] = (0.0, 0.0)
            return got
        kv, dv, armor, vital, rem, _ = tvt
        total = 0.0
        best = 0.0
        for d, tn, c in bins:
            nd = a_dice[d - 1]
            if nd <= 0:
                continue
            pk, pd = _odds(nd, tn - need_shift, armor, vital, rem, later)
            v = pk * kv + pd * dv
            total += v * c
            if v > best:
                best = v
        mean = total / n
        got = memo[key] = (mean, (1.0 - mx_w) * mean + mx_w * best)
        return got

    # ------------------------------------------------------------ position score
    def _position_score(
        self, state: Any, ctx, q: int, r: int, f: int, alt: int, status: int, parts: bool = False
    ):
        """Value of ending the move at (q, r) facing f at altitude alt with this status.

        With ``parts`` it returns (value, value if in the clouds): in the
        clouds (000 "EFFECTS OF BEING IN THE CLOUDS") this turn's shots both
        ways and tailing drop out; next turn's prospects, map edges, the
        objective and stacking remain.
        """
        st = state.st
        w = self.w
        i = ctx["i"]
        tv = ctx["tv"]
        tvi = tv[i]
        memo = ctx["bins_memo"]
        later = ctx["later"]
        adv = st.rules.status
        my_bomber = st.bomber[i]
        my_att = st.attack[i]
        my_climb = st.climb[i]
        mx_w = w["threat_max"]
        offense = defense = un_off = un_def = nxt = tail = coll = 0.0
        nearest = 99
        my_evading = status in (_S_EVL, _S_EVR)
        ev = 1 if my_evading else 0
        af_set = ctx["allies_final"]
        stacked = bool(af_set) and (self._hex_at(state, q, r), alt) in af_set
        no_fire = stacked or ctx["grounded"]
        for (
            _j,
            jq,
            jr,
            jf,
            jalt,
            moved,
            jstatus,
            (rkey, reach),
            mod_me,
            mod_j,
            j_att,
            j_bomber,
            tvj,
            j_climb,
            jrot,
            thr_memo,
            opp_memo,
            next_memo,
            (f_me, f_j, nf_me, nf_j, tail_ok, coll_j),
        ) in ctx["enemies"]:
            dq = jq - q
            dr = jr - r
            d = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
            if d < nearest:
                nearest = d
            if d > 9:
                continue
            dz = jalt - alt
            if moved:
                if 1 <= d <= 3:
                    k_to = (dq + _MAXR) * _SPAN + (dr + _MAXR)
                    k_from = (-dq + _MAXR) * _SPAN + (-dr + _MAXR)
                    # exact shots after movement: mine on j
                    if f_me and not no_fire and my_att[d - 1] > 0:
                        ok_alt = dz == 0 or (
                            adv
                            and (
                                (dz == -1 and status == _S_DIVING)
                                or (dz == 1 and status == _S_CLIMBING)
                            )
                        )
                        if ok_alt and (my_bomber or ARC_TABLE[k_to][f]):
                            tn = ASPECT_TABLE[k_from][jf][0]
                            mm = mod_me
                            if adv:
                                mm -= ev
                                if jstatus in (_S_EVL, _S_EVR):
                                    mm -= 1
                                if jstatus == _S_CLIMBING and my_climb > j_climb:
                                    mm += 1
                                if status == _S_DIVING and dz == -1:
                                    mm += 1
                            kv, dv, armor, vital, rem, _ = tvj
                            pk, pd = _odds(my_att[d - 1], tn - mm, armor, vital, rem, later)
                            offense += (pk * kv + pd * dv) * f_me
                    # ... and j's on me
                    if f_j and j_att[d - 1] > 0:
                        ok_alt = dz == 0 or (
                            adv
                            and (
                                (dz == 1 and jstatus == _S_DIVING)
                                or (dz == -1 and jstatus == _S_CLIMBING)
                            )
                        )
                        if ok_alt and (j_bomber or ARC_TABLE[k_from][jf]):
                            tn = ASPECT_TABLE[k_to][f][0]
                            mj = mod_j
                            if adv:
                                mj -= ev
                                if jstatus in (_S_EVL, _S_EVR):
                                    mj -= 1
                                if status == _S_CLIMBING and j_climb > my_climb:
                                    mj += 1
                                if jstatus == _S_DIVING and dz == 1:
                                    mj += 1
                            kv, dv, armor, vital, rem, _ = tvi
                            pk, pd = _odds(j_att[d - 1], tn - mj, armor, vital, rem, later)
                            defense += (pk * kv + pd * dv) * f_j
                elif d == 0 and dz == 0 and coll_j:
                    coll -= coll_j  # a midair collision takes both aircraft
                # tailing (next turn's initiative and position)
                if tail_ok and -1 <= dz <= 1 and 1 <= d <= 4:
                    k_to = (dq + _MAXR) * _SPAN + (dr + _MAXR)
                    k_from = (-dq + _MAXR) * _SPAN + (-dr + _MAXR)
                    if REAR_TABLE[k_from][jf] and FRONT_TABLE[k_to][f]:
                        tail += 1.0
                    if REAR_TABLE[k_to][f] and FRONT_TABLE[k_from][jf]:
                        tail -= 1.0
            # reach-based terms: enemy still to move now, or both next turn
            if dz == 0:
                af = 1.0
            elif dz == 1 or dz == -1:
                af = 0.7 if adv else w["alt_diff_1"]
            elif dz == 2 or dz == -2:
                af = 0.08
            else:
                continue
            # j moves, I stay: its threat to me (and my chances on it)
            a, b_, c, d_ = jrot
            rq = -a * dq - b_ * dr
            rr = -c * dq - d_ * dr
            rf = (f - jf) % 6
            tk = (rq, rr, rf)
            tm = thr_memo[ev]
            mixed = tm.get(tk)
            if mixed is None:
                bb = _shoot_bins(reach, rkey, j_bomber, rq, rr, rf)
                mixed = tm[tk] = self._bins_value(memo, bb, j_att, mod_j - ev, tvi, mx_w, later)[1]
            if moved:
                nxt -= mixed * af * nf_j
                # my reach next turn against j where it ended
                nk = (dq, dr, f)
                nv = next_memo.get(nk)
                if nv is None:
                    mkey, mreach = ctx["my_reach"]
                    a, b_, c, d_ = _ROT[f]
                    sq = a * dq + b_ * dr
                    sr = c * dq + d_ * dr
                    bb = _shoot_bins(mreach, mkey, my_bomber, sq, sr, (jf - f) % 6)
                    nv = next_memo[nk] = self._bins_value(
                        memo, bb, my_att, mod_me, tvj, mx_w, later
                    )[1]
                nxt += nv * af * nf_me
            else:
                un_def += mixed * af * f_j
                if not no_fire and f_me:
                    om = opp_memo[ev]
                    ov = om.get(tk)
                    if ov is None:
                        bb = _dodge_bins(reach, rkey, my_bomber, rq, rr, rf)
                        ov = om[tk] = self._bins_value(
                            memo, bb, my_att, mod_me - ev, tvj, 0.0, later
                        )[0]
                    un_off += ov * af * f_me
        shots = (
            w["offense"] * offense
            - w["defense"] * defense
            + w["unmoved_offense"] * un_off
            - w["unmoved_defense"] * un_def
            + w["tail"] * tail
        )
        score = w["next_turn"] * nxt + coll
        if 4 < nearest < 99 and not my_bomber:
            score -= w["close"] * (nearest - 4)
        if stacked:
            score -= 3.0
        if adv:
            if status == _S_DIVING:
                score -= 1.0  # must power dive next turn
            elif my_evading:
                score -= 0.3
        em = ctx["edge_memo"]
        ek = (q, r, f)
        ep = em.get(ek)
        if ep is None:
            ep = em[ek] = self._edge_penalty(state, ctx, q, r, f)
        score += w["edge"] * ep
        score += w["objective"] * self._objective(state, ctx, q, r, f, alt)
        if parts:
            return score + shots, score
        return score + shots

    def _hex_at(self, state: Any, q: int, r: int) -> int:
        m = state.st.map
        col = q
        row = r + (q - (q & 1)) // 2
        if 0 <= col < m.width and 0 <= row < m.height:
            return row * m.width + col
        return -1

    def _edge_of(self, state: Any, q: int, r: int) -> str | None:
        m = state.st.map
        col = q
        row = r + (q - (q & 1)) // 2
        if row < 0:
            return "north"
        if row >= m.height:
            return "south"
        if col < 0:
            return "west"
        if col >= m.width:
            return "east"
        return None

    def _edge_penalty(self, state: Any, ctx, q: int, r: int, f: int) -> float:
        """Ending with a map edge close ahead may force a retreat next turn."""
        dq, dr = DIRECTIONS[f]
        k = 0
        while k < 3 and self._hex_at(state, q + dq * (k + 1), r + dr * (k + 1)) >= 0:
            k += 1
        if k >= 3:
            return 0.0
        rv = ctx.get("rv_edge")
        if rv is None:
            rv = min(0.0, self._retreat_value(state, ctx["i"], None))
            ctx["rv_edge"] = rv
        # a wanted exit edge is not a danger
        edge = self._edge_of(state, q + dq * (k + 1), r + dr * (k + 1))
        if edge is not None and self._retreat_value(state, ctx["i"], edge) >= 0:
            return 0.0
        return rv * (0.6, 0.25, 0.06)[k]

    # ------------------------------------------------------------ objectives
    def _objective(self, state: Any, ctx, q: int, r: int, f: int, alt: int) -> float:
        st = state.st
        sc = state.scenario
        i = ctx["i"]
        me = state.planes[i]
        kind = sc.kind
        role = st.role[i]
        m = st.map
        v = 0.0
        row = r + (q - (q & 1)) // 2
        if kind == "intercept" and me.side == 1:
            allied = [p for p in state.planes if p.side == 1]
            if all(p.damage == 0 and p.out == 0 for p in allied):
                v += 25.0 * min(alt, 5)
        elif kind == "limited_fuel" and role == "fuel_limited" and sc.free_exit_edge == "south":
            deadline = sc.must_exit_by_turn or 4
            left = deadline - state.turn  # whole turns after this one
            s = sc.aircraft[i].stats
            fast = s.high_speed_max or s.speed_max
            to_go = m.height - row  # hexes south to step off the edge
            # hexes lost to turning south first (a diagonal hex gains half a row)
            turning = (4, 3, 1, 0, 1, 3)[f]
            turns_needed = math.ceil((to_go + turning) / fast)
            if turns_needed > left:
                v -= float(st.cost[i]) * min(1.0, 0.6 * (turns_needed - left))
            if left <= 2:
                v -= 0.3 * (to_go + turning)  # a gentle pull south
        elif role == "bomber" and sc.bomber_exit_edge == "north":
            v += 4.0 * (m.height - row)
        elif kind == "schnellbomber" and role == "strafer":
            v += 12.0 if alt == 1 else -5.0 * (alt - 1)
        if kind == "bomber_escort" and role != "bomber":
            bombers = [
                p
                for p in state.planes
                if st.role[p.id] == "bomber" and p.out == 0 and p.side == me.side
            ]
            if bombers:
                dmin = min(_dist(m.q[b.hex] - q, m.r[b.hex] - r) for b in bombers)
                v -= 1.0 * max(0, dmin - 3)
        if kind in ("bomber_escort", "limited_fuel") and role != "bomber":
            # interceptors close on the enemy bombers
            targets = [
                p
                for p in state.planes
                if st.role[p.id] == "bomber" and p.out == 0 and p.side != me.side
            ]
            if targets:
                dmin = min(_dist(m.q[b.hex] - q, m.r[b.hex] - r) for b in targets)
                v -= 1.5 * max(0, dmin - 2)
        return v

    # ------------------------------------------------------------ movement
    def _move_order(self, state: Any) -> int:
        """Move first the aircraft least exposed to enemies that have yet to move."""
        side = state.to_act
        m = state.st.map
        mine = [p for p in state.planes if p.side == side and not p.out and not p.moved]
        unmoved = [p for p in state.planes if p.side != side and not p.out and not p.moved]
        if len(mine) == 1:
            return mine[0].id
        best = None
        for p in mine:
            d = min((m.distance(p.hex, e.hex) for e in unmoved), default=0)
            k = (d, -p.id)
            if best is None or k > best[0]:
                best = (k, p.id)
        assert best is not None
        return best[1]

    def _choose_plan(self, state: Any) -> MovePlan | None:
        i = self._move_order(state)
        st = state.st
        p = state.planes[i]
        speeds = sorted({a.speed for a in state.legal_actions() if getattr(a, "plane", -1) == i})
        if not speeds:
            return None
        m = st.map
        ctx = self._context(state, i)
        q0, r0 = m.q[p.hex], m.r[p.hex]
        rules = st.rules
        use_status = rules.status and not st.bomber[i]
        required = p.status if rules.status else 0
        no_turn = st.bomber[i] and state.scenario.kind == "limited_fuel" and not p.attacked
        crippled = bool(p.damage and st.hits[i] - p.damage == 1)
        bonus = st.bonus[i]
        exit_memo: dict[str | None, float] = {}

        def exit_value(edge):
            v = exit_memo.get(edge)
            if v is None:
                v = exit_memo[edge] = self._retreat_value(state, i, edge)
            return v

        onmap = self._hex_at
        reach = max(speeds)
        off = {
            (dq, dr)
            for dq in range(-reach, reach + 1)
            for dr in range(-reach, reach + 1)
            if _dist(dq, dr) <= reach and onmap(state, q0 + dq, r0 + dr) < 0
        }
        statuses = (0, 1, 2, 3, 4) if use_status else (0,)
        score = self._position_score
        # 000 "CLOUDS": where a move may end in the clouds, value both outcomes
        bands = state.cloud_bands
        clouds_on = bool(
            rules.random_clouds or rules.cloud_shapes or any(c != "clear" for c in rules.clouds)
        )
        hazards = bool(rules.flak_fields or rules.barrage_balloons)
        flak, balloons, cloud_cells = _fields(state) if (clouds_on or hazards) else ({}, (), ())
        # flak fields and balloons this move could fly through, relative to the start
        haz: dict[tuple[int, int], tuple[frozenset[int], bool]] = {}
        if flak or balloons:
            lo_alt = p.alt - 2
            for dq in range(-reach, reach + 1):
                for dr in range(-reach, reach + 1):
                    if _dist(dq, dr) > reach or (dq, dr) in off:
                        continue
                    h = onmap(state, q0 + dq, r0 + dr)
                    fa = flak.get(h, frozenset())
                    bl = h in balloons and lo_alt <= 1
                    if bl or any(lo_alt <= a <= p.alt + 1 for a in fa):
                        haz[(dq, dr)] = (fa, bl)
        haz_keys = frozenset(haz)
        if haz:
            flak_c, balloon_c = _hazard_costs(ctx["tv"][i])
            w_haz = self.w["hazard"]

        def hazard_of(paths, path_alts, probs) -> float:
            """Expected loss to flak and balloons along a member's path(s)."""
            v = 0.0
            for prob, pth, alts in zip(probs, paths, path_alts, strict=True):
                if not prob:
                    continue
                c = last = 0.0
                for n, cell in enumerate(pth):
                    if cell in off:
                        break
                    last = 0.0
                    hz = haz.get(cell)
                    if hz is not None:
                        a = alts[n]
                        if a in hz[0]:
                            last += flak_c
                        if hz[1] and a == 1:
                            last += balloon_c
                        c += last
                # ending inside a field: more of it to cross next turn
                v += prob * (c + 0.5 * last)
            return v

        try_memo: dict[tuple[int, int], bool] = {}
        best_v = -math.inf
        tied: list[tuple[int, tuple[Action, ...], str, bool]] = []
        by_speed: dict[int, list[tuple[Action, ...]]] | None = None
        for speed in speeds:
            high = speed in st.high_speeds[i]
            key = (speed, high, p.alt, required, st.bomber[i], no_turn)
            seqs = _STEP_SEQS.get(key)
            if seqs is None:
                if by_speed is None:
                    by_speed = {}
                    for pl in state.legal_move_plans(i, statuses=False):
                        # one difficult maneuver per sequence: the odds model below
                        # rolls one check (a second one an ability allows is not used)
                        if sum(isinstance(x, Maneuver) for x in pl.steps) > 1 or pl.clouds:
                            continue
                        by_speed.setdefault(pl.speed, []).append(pl.steps)
                seqs = _STEP_SEQS[key] = tuple(by_speed.get(speed, ()))
            ends, groups = _groups(seqs, key, p.facing, p.alt)
            target = 13 if high else 10
            prob_of: dict[tuple[str, bool], float] = {}
            # value of every distinct end on the map, per status (and, with
            # clouds, per answer to "try to enter the clouds?")
            vals: list[list[float]] = []
            vals_try: list[list[float]] = []
            for s in statuses:
                row = []
                row_try = []
                for dq, dr, f, a in ends:
                    if off and (dq, dr) in off:
                        row.append(0.0)  # never used on the map
                        row_try.append(0.0)
                    elif (s == _S_DIVING and a <= 1) or (s == _S_CLIMBING and a >= 6):
                        row.append(-math.inf)
                        row_try.append(-math.inf)
                    elif not clouds_on:
                        row.append(score(state, ctx, q0 + dq, r0 + dr, f, a, s))
                    else:
                        vn, vc = score(state, ctx, q0 + dq, r0 + dr, f, a, s, True)
                        band = bands[a - 1]
                        if (
                            band in _CLOUD_AUTO
                            or (onmap(state, q0 + dq, r0 + dr), a) in cloud_cells
                        ):
                            row.append(vc)
                            row_try.append(vc)
                        else:
                            row.append(vn)
                            pt = _CLOUD_TRY.get(band, 0.0)
                            row_try.append(vn + pt * (vc - vn))
                vals.append(row)
                vals_try.append(row_try)
            for g in groups:
                if g.dm is None:
                    probs: tuple[float, ...] = (1.0,)
                else:
                    pk = (g.dm, g.dm_first)
                    ps = prob_of.get(pk)
                    if ps is None:
                        b = bonus[MANEUVER_BONUS[g.dm]] - (2 if crippled else 0)
                        if g.dm_first and required == _S_CLIMBING and g.dm == "climb":
                            b += 4
                        ps = prob_of[pk] = _p2d6_ge(target - b)
                    probs = (ps, 1.0 - ps)
                steps = None
                edges: tuple[str | None, ...] = (None,) * len(probs)
                hz_cost = 0.0
                if haz:
                    # the member path least exposed to flak and balloons
                    best_m = None
                    for st_, paths_, hexes, alts_ in g.members:
                        if off and not off.isdisjoint(hexes):
                            continue
                        c = 0.0 if haz_keys.isdisjoint(hexes) else hazard_of(paths_, alts_, probs)
                        if best_m is None or c < best_m[0] - 1e-12:
                            best_m = (c, st_)
                            if not c:
                                break
                    if best_m is not None:
                        hz_cost, steps = best_m
                        hz_cost *= w_haz
                elif not off:
                    steps = g.members[0][0]
                else:
                    for st_, _paths, hexes, _alts in g.members:
                        if off.isdisjoint(hexes):
                            steps = st_
                            break
                if steps is None:
                    steps, paths, _h, alts_ = g.members[0]
                    el = []
                    for pth in paths:
                        edge = None
                        for dq, dr in pth:
                            if (dq, dr) in off:
                                edge = self._edge_of(state, q0 + dq, r0 + dr)
                                break
                        el.append(edge)
                    edges = tuple(el)
                    if haz:
                        hz_cost = w_haz * hazard_of(paths, alts_, probs)
                # 000 "CLOUDS": a plan may answer "try" only if it can end in a heavy or light band
                can_try = False
                if clouds_on:
                    can_try = try_memo.get((g.lo, g.hi))
                    if can_try is None:
                        can_try = try_memo[(g.lo, g.hi)] = any(
                            bands[a - 1] in _CLOUD_TRY
                            for a in range(max(g.lo, 1), min(g.hi, 6) + 1)
                        )
                for si, s in enumerate(statuses):
                    if s == _S_DIVING and g.lo <= 1:
                        continue
                    if s == _S_CLIMBING and g.hi >= 6:
                        continue
                    row = vals[si]
                    v = -hz_cost
                    for prob, edge, ei in zip(probs, edges, g.idx, strict=True):
                        if not prob:
                            continue
                        if edge is not None:
                            v += prob * exit_value(edge)
                        else:
                            v += prob * row[ei]
                    cl = False
                    if can_try:
                        row = vals_try[si]
                        vt = -hz_cost
                        for prob, edge, ei in zip(probs, edges, g.idx, strict=True):
                            if not prob:
                                continue
                            if edge is not None:
                                vt += prob * exit_value(edge)
                            else:
                                vt += prob * row[ei]
                        if vt > v + 1e-9:  # try only where hiding is worth more
                            v, cl = vt, True
                    if v > best_v + 1e-9:
                        best_v = v
                        tied = [(speed, steps, STATUSES[s], cl)]
                    elif v >= best_v - 1e-9:
                        tied.append((speed, steps, STATUSES[s], cl))
        if not tied:
            return None
        speed, steps, status, cl = tied[0] if len(tied) == 1 else self.rng.choice(tied)
        return MovePlan(i, speed, steps, status, cl)

    def _choose_step(self, state: Any) -> Action:
        """Mid-move (someone started this move step by step): greedy over the rest of it."""
        legal = state.legal_actions()
        i = state.mover
        st = state.st
        p = state.planes[i]
        m = st.map
        ctx = self._context(state, i)
        q0, r0 = m.q[p.hex], m.r[p.hex]
        if state.awaiting_cloud:
            # 000 "CLOUDS": try to enter them where hiding is worth more than staying out
            vn, vc = self._position_score(state, ctx, q0, r0, p.facing, p.alt, p.status, True)
            want = vc > vn + 1e-9
            return next(a for a in legal if isinstance(a, EnterClouds) and a.attempt == want)
        if state.awaiting_status:
            return self._pick(
                legal,
                lambda a: self._position_score(
                    state, ctx, q0, r0, p.facing, p.alt, STATUSES.index(a.status)
                ),
            )
        left = state.steps_left
        crippled = bool(p.damage and st.hits[i] - p.damage == 1)
        target = 13 if p.high else 10
        flak, balloons, _cells = _fields(state)
        flak_c = balloon_c = 0.0
        if flak or balloons:
            flak_c, balloon_c = _hazard_costs(ctx["tv"][i])
            flak_c *= self.w["hazard"]
            balloon_c *= self.w["hazard"]

        def hazard(q, r, a):
            # 000 "FLAK FIELDS" / "BARRAGE BALLOONS": a roll in the hex just entered
            h = self._hex_at(state, q, r)
            return (flak_c if a in flak.get(h, ()) else 0.0) + (
                balloon_c if a == 1 and h in balloons else 0.0
            )

        def rest_value(q, r, f, a, n):
            # best end over straight / turn continuations (map edges respected)
            if n == 0:
                return self._position_score(state, ctx, q, r, f, a, 0)
            best = -math.inf
            dq, dr = DIRECTIONS[f]
            nq, nr = q + dq, r + dr
            if self._hex_at(state, nq, nr) < 0:
                return self._retreat_value(state, i, self._edge_of(state, nq, nr))
            for t in (0, -1, 1):
                best = max(best, rest_value(nq, nr, (f + t) % 6, a, n - 1))
            return best

        def score(a: Action) -> float:
            if isinstance(a, EndMove):
                return self._position_score(
                    state, ctx, q0, r0, p.facing, p.alt, STATUSES.index(a.status)
                )
            outs = [(1.0, True)]
            if isinstance(a, Maneuver):
                b = st.bonus[i][MANEUVER_BONUS[a.kind]] - (2 if crippled else 0)
                ps = _p2d6_ge(target - b)
                outs = [(ps, True), (1.0 - ps, False)]
            v = 0.0
            for prob, ok in outs:
                path, f, alt = _simulate((a,), p.facing, p.alt, ok)
                q, r = (q0 + path[-1][0], r0 + path[-1][1]) if path else (q0, r0)
                if self._hex_at(state, q, r) < 0:
                    v += prob * self._retreat_value(state, i, self._edge_of(state, q, r))
                else:
                    v += prob * rest_value(q, r, f, alt, min(left - 1, 4))
                    if path and (flak_c or balloon_c):
                        v -= prob * hazard(q, r, alt)
            return v

        return self._pick(legal, score)

    # ------------------------------------------------------------ optional phases
    def _choose_direction(self, state: Any) -> Action:
        """000 "FIGHTER DIRECTION": direct the fighters that could not otherwise attack.

        In darkness only an aircraft with an ability to fight in darkness,
        under direction, or shooting at an illuminated target may attack
        (000 "EFFECTS OF DARKNESS"), so the capacity goes to fighters without
        such an ability, those with the most attack dice first (then the one
        nearest an enemy).
        """
        legal = [a for a in state.legal_actions() if isinstance(a, Direct)]
        cap = max(len(a.planes) for a in legal)
        fighters = sorted({x for a in legal for x in a.planes})
        m = state.st.map
        side = state.to_act
        enemies = [p.hex for p in state.planes if p.side != side and not p.out]
        cards = [a.stats for a in state.scenario.aircraft]

        def order(x: int) -> tuple[int, int, int, int]:
            h = state.planes[x].hex
            near = min((m.distance(h, e) for e in enemies), default=99)
            return (-sum(cards[x].attack), -cards[x].attack[0], near, x)

        need = sorted(
            (x for x in fighters if not abilities.fights_in_darkness(cards[x].abilities)),
            key=order,
        )
        want = Direct(tuple(sorted(need[:cap])))
        return want if want in legal else max(legal, key=lambda a: len(a.planes))

    def _choose_reposition(self, state: Any) -> Action:
        """000 "MOVEMENT AND SPECIAL ABILITIES": the adjustment that most improves this turn.

        Each offered adjustment is tried on a clone of the battle; the
        aircraft's new position (from the clone's ``reposition`` event) is
        scored like an end of move - the shots it gives and denies this turn,
        tailing, next turn's prospects - against staying put. Pass when no
        adjustment gains.
        """
        legal = state.legal_actions()
        options = [a for a in legal if isinstance(a, Reposition)]
        best: list[Action] = [next(a for a in legal if isinstance(a, Pass))]
        best_gain = 1e-9
        st = state.st
        m = st.map
        n0 = len(state.log)
        base: dict[int, tuple[Any, float, int]] = {}
        for a in options:
            i = a.plane
            p = state.planes[i]
            if p.cloud:
                continue  # 000 "EFFECTS OF BEING IN THE CLOUDS": no shots either way
            status = p.status if st.rules.status else 0
            if i not in base:
                ctx = self._context(state, i)
                v0 = self._position_score(
                    state, ctx, m.q[p.hex], m.r[p.hex], p.facing, p.alt, status
                )
                base[i] = (ctx, v0, status)
            ctx, v0, status = base[i]
            c = state.clone()
            c.apply_unchecked(a)
            ev = next(
                (e for e in reversed(c.log[n0:]) if e["e"] == "reposition" and e["plane"] == i),
                None,
            )
            if ev is None or ev["hex"] is None:
                continue
            h = m.index(*ev["hex"])
            gain = (
                self._position_score(state, ctx, m.q[h], m.r[h], ev["facing"], ev["alt"], status)
                - v0
            )
            if gain > best_gain + 1e-9:
                best, best_gain = [a], gain
            elif gain >= best_gain - 1e-9 and gain > 1e-9:
                best.append(a)
        return best[0] if len(best) == 1 else self.rng.choice(best)

    # ------------------------------------------------------------ attacks
    def _attack_value(self, state: Any, a: int, t: int, tv) -> float:
        st = state.st
        pa, pt = state.planes[a], state.planes[t]
        m = st.map
        dq, dr = m.q[pt.hex] - m.q[pa.hex], m.r[pt.hex] - m.r[pa.hex]
        d = _dist(dq, dr)
        nd = st.attack[a][d - 1]
        tn = ASPECT_TABLE[_okey(-dq, -dr)][pt.facing][0]
        mod = self._mod(state, a, t, tv)
        if st.rules.status:
            if pa.status in _EVADING:
                mod -= 1
            if pt.status in _EVADING:
                mod -= 1
            if pt.status == _S_CLIMBING and st.climb[a] > st.climb[t]:
                mod += 1
            if pa.status == _S_DIVING and pt.alt == pa.alt - 1:
                mod += 1
        kv, dv, armor, vital, rem, _ = tv[t]
        pk, pd = _odds(nd, tn - mod, armor, vital, rem, st.rules.later_sixes)
        return pk * kv + pd * dv, pk

    def _choose_attack(self, state: Any) -> Action:
        legal = state.legal_actions()
        attacks = [a for a in legal if isinstance(a, Attack)]
        if not attacks:
            return legal[0]
        tv = self._target_values(state)
        side = state.to_act
        mine = [p.id for p in state.planes if p.side == side and not p.out]
        # how much each enemy that has not fired yet can still hurt us
        danger: dict[int, float] = {}
        for x in {a.target for a in attacks}:
            px = state.planes[x]
            best = 0.0
            if not px.fired and not px.grounded:
                for y in mine:
                    if state.can_attack(x, y):
                        best = max(best, self._attack_value(state, x, y, tv)[0])
            danger[x] = best

        def score(a: Attack) -> float:
            v, pk = self._attack_value(state, a.attacker, a.target, tv)
            return v + pk * danger[a.target]

        return self._pick(attacks, score)


POLICIES: dict[str, type] = {"random": RandomPolicy, "tactical": TacticalPolicy}


def pilot_seed(battle_seed: int, side: str) -> int:
    """The seed of the computer pilot flying ``side`` in the battle seeded ``battle_seed``."""
    return derive_seed(battle_seed, f"computer pilot {side}")


def make_policy(name: str, seed: int = 0, **kw: Any) -> Policy:
    """Build a policy by its name in :data:`POLICIES`."""
    try:
        cls = POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown pilot policy {name!r}; choose from {sorted(POLICIES)}") from None
    return cls(seed, **kw)


def play_out(
    state: Any,
    policies: Mapping[Any, Policy],
    *,
    max_actions: int = 20_000,
    check: bool = False,
) -> dict[str, Any]:
    """Fly ``state`` to the end with one policy per side; return ``state.result()``.

    ``policies`` is keyed by side, as ``"axis"``/``"allied"`` or ``0``/``1``.
    ``check=True`` applies every action through the checked ``apply``
    (slower; raises :class:`~rules.angels20.state.IllegalAction` on a bad one).
    """
    by_side: list[Policy] = []
    for idx, name in enumerate(SIDES):
        pol = policies.get(name, policies.get(idx))  # type: ignore[call-overload]
        if pol is None:
            raise KeyError(f"no policy for the {name} side")
        by_side.append(pol)
    n = 0
    while not state.is_over():
        if n >= max_actions:
            raise RuntimeError(f"battle not over after {max_actions} actions")
        side = state.current_side()
        action = by_side[side].choose(state)
        if check:
            state.apply(action)
        else:
            state.apply_unchecked(action)
        n += 1
    return state.result()
