"""What the tactical pilot knows about the battle when one aircraft moves.

:func:`build_context` gathers, once per decision, everything the position
score needs about the moving aircraft and each enemy: where it is, what it
may do this turn and next, the attack modifiers both ways, and memo tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .. import abilities
from ..attacks import crippled
from .reach import ROT, ReachSet, reach
from .values import TargetValue, objective_matters, retreat_value, target_values

Memo = dict[Any, Any]
EDGES = ("north", "south", "west", "east")  # the order of Context.edge_wanted
ReachOf = tuple[tuple[Any, ...], ReachSet]


class Enemy(NamedTuple):
    """One enemy in play, as the position score reads it (unpacked in this order)."""

    j: int
    q: int
    r: int
    facing: int
    alt: int
    moved: bool
    status: int
    reach: ReachOf
    mod_me: int  # my attack modifier on it
    mod_j: int  # its attack modifier on me
    attack: tuple[int, ...]
    bomber: bool
    tv: TargetValue
    climb: int
    rot: tuple[int, int, int, int]
    threat_memo: tuple[Memo, Memo]  # by my evading flag
    chance_memo: tuple[Memo, Memo]  # my chances on it, by my evading flag
    next_memo: Memo
    # (P(I may attack it), P(it may attack me), the same next turn, tailing counts,
    #  expected value of a midair collision)
    chances: tuple[float, float, float, float, bool, float]
    # filled on first use, by the memos' misses only (scoring): [its shoot table,
    # the dodge table of its reach for me, the bins value memos of its threat by
    # my evading flag (2), of my chance on it by my evading flag (2), of my next]
    lazy: list[Any]


class Context:
    """The moving aircraft ``i``'s view of the battle for one decision."""

    __slots__ = (
        "i",
        "tv",
        "enemies",
        "allies_final",
        "my_reach",
        "my_shoot",
        "edge_memo",
        "later",
        "grounded",
        "rv_edge",
        "edge_wanted",
        "flat_objective",
        "me",
    )

    def __init__(
        self,
        i: int,
        tv: list[TargetValue],
        enemies: list[Enemy],
        allies_final: set[tuple[int, int]],
        my_reach: ReachOf,
        later: bool,
        grounded: bool,
    ) -> None:
        self.i = i
        self.tv = tv
        self.enemies = enemies
        self.allies_final = allies_final
        self.my_reach = my_reach
        self.my_shoot: dict[tuple[int, int, int], Any] | None = None  # my reach's shoot table
        self.edge_memo: dict[tuple[int, int, int], float] = {}
        self.later = later
        self.grounded = grounded
        self.rv_edge: float | None = None
        # per map edge (north, south, west, east): leaving by it is wanted (its
        # retreat value is not negative); None: ask values.retreat_value
        self.edge_wanted: tuple[bool, ...] | None = None
        self.flat_objective = False  # values.objective is 0.0 wherever the aircraft ends
        # (target value, attack dice by range, bomber, climb, advanced status rules)
        self.me: tuple[TargetValue, tuple[int, ...], bool, int, bool] = (
            tv[i],
            (),
            False,
            0,
            False,
        )


def night_chances(state: Any) -> list[tuple[bool, float]] | None:
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


def reach_of(state: Any, j: int) -> ReachOf:
    """(key, reach set) of aircraft j's normal moves next."""
    s = state.scenario.aircraft[j].stats
    p = state.planes[j]
    speeds = tuple(range(s.speed_min, s.speed_max + 1))
    highs: tuple[int, ...] = ()
    if s.high_speed_min is not None and not crippled(state, j):
        # the fastest high speed is enough for the reach set
        highs = (s.high_speed_max,)
    can_turn = not (state.st.bomber[j] and state.scenario.kind == "limited_fuel" and not p.attacked)
    key = (speeds, highs, can_turn)
    return key, reach(speeds, highs, can_turn)


def attack_mod(state: Any, a: int, t: int, tv: list[TargetValue]) -> int:
    """000 "ATTACK BONUSES AND PENALTIES" that do not depend on position or status."""
    st = state.st
    mod = 1 if st.rank[a] > st.rank[t] else 0
    if tv[a][5]:
        mod -= 1
    if tv[t][5]:
        mod += 1
    if st.night_penalty:
        mod -= 1  # 000 "EFFECTS OF MOONLIGHT" / "EFFECTS OF DARKNESS": -1 per die
    return mod


def _chances(
    state: Any, i: int, p: Any, night: list[tuple[bool, float]] | None, tv: list[TargetValue]
) -> tuple[float, float, float, float, bool, float]:
    st = state.st
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
    if st.rules.midair_collision:
        # 000 "OPTIONAL RULE: MIDAIR COLLISION": both roll a possible collision
        pc = (2.0 if st.rank[i] == 0 else 1.0) * (2.0 if st.rank[j] == 0 else 1.0) / 36.0
        coll = pc * (tv[i][0] - tv[j][0])
    return f_me, f_j, nf_me, nf_j, tail_ok, coll


# Process-wide memos of shot values over reach sets, one per everything such a
# value depends on (the key), so later decisions and battles find them filled.
_SHARED: dict[tuple[Any, ...], Memo] = {}
_MAX_SHARED = 400  # memos kept (a few thousand small entries each at most)


def shared_memo(key: tuple[Any, ...]) -> Memo:
    """The process-wide memo for values determined by ``key`` (see :func:`build_context`)."""
    got = _SHARED.get(key)
    if got is None:
        if len(_SHARED) >= _MAX_SHARED:
            _SHARED.clear()  # bound a long-running process's memory
        got = _SHARED[key] = {}
    return got


def build_context(state: Any, w: Mapping[str, float], i: int) -> Context:
    """Aircraft i's view of the battle: the enemies and allies that matter to its move."""
    st = state.st
    m = st.map
    me = state.planes[i]
    tv = target_values(state, w)
    rules = st.rules
    night = night_chances(state)
    enemies = []
    allies_final = set()
    my_reach = reach_of(state, i)
    mx_w = w["threat_max"]
    later = rules.later_sixes
    for p in state.planes:
        if p.out or p.id == i:
            continue
        if p.side == me.side:
            if p.moved:
                allies_final.add((p.hex, p.alt))
            continue
        j = p.id
        chances = _chances(state, i, p, night, tv)
        j_reach = reach_of(state, j)
        mod_me, mod_j = attack_mod(state, i, j, tv), attack_mod(state, j, i, tv)
        # every argument of scoring's _threat, _my_chance and _my_next but the position
        threat = ("threat", j_reach[0], st.bomber[j], st.attack[j], mod_j, tv[i], mx_w, later)
        chance = ("chance", j_reach[0], st.bomber[i], st.attack[i], mod_me, tv[j], later)
        nxt = ("next", my_reach[0], st.bomber[i], st.attack[i], mod_me, tv[j], p.facing, mx_w)
        enemies.append(
            Enemy(
                j,
                m.q[p.hex],
                m.r[p.hex],
                p.facing,
                p.alt,
                bool(p.moved),
                p.status if rules.status else 0,
                j_reach,
                mod_me,
                mod_j,
                st.attack[j],
                st.bomber[j],
                tv[j],
                st.climb[j],
                ROT[p.facing],
                (shared_memo((*threat, 0)), shared_memo((*threat, 1))),
                (shared_memo((*chance, 0)), shared_memo((*chance, 1))),
                shared_memo((*nxt, later)),
                chances,
                [None] * 7,
            )
        )
    ctx = Context(i, tv, enemies, allies_final, my_reach, later, bool(me.grounded))
    # scoring.edge_penalty depends on the map's size and these retreat values only
    wanted = tuple(retreat_value(state, w, i, e) >= 0 for e in EDGES)
    rv = min(0.0, retreat_value(state, w, i, None))
    ctx.edge_memo = shared_memo(("edge", st.map.width, st.map.height, rv, wanted))
    ctx.rv_edge, ctx.edge_wanted = rv, wanted
    ctx.flat_objective = not objective_matters(state, i)
    ctx.me = (tv[i], st.attack[i], st.bomber[i], st.climb[i], bool(rules.status))
    return ctx
