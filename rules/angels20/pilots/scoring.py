"""The tactical pilot's score of an end of move.

:func:`position_score` values ending a move at (q, r) facing f at an
altitude with a status: the exact shots both ways against enemies that have
moved, the expected shots against those still to move (over their reach),
next turn's prospects, tailing, map edges, stacking and the scenario's
objective. The geometry comes from the engine's hex tables
(000 "FIRING ARC", "TARGET ASPECT", "TAILING").
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ..actions import (
    STATUS_CLIMBING,
    STATUS_DIVING,
    STATUS_EVADING_LEFT,
    STATUS_EVADING_RIGHT,
)
from ..hexmap import ARC_TABLE, ASPECT_TABLE, DIRECTIONS, FRONT_TABLE, REAR_TABLE, axial_to_offset
from .context import EDGES, Context, Enemy, Memo, shared_memo
from .odds import attack_odds
from .reach import ROT, Bins, dodge_table, okey, shoot_table
from .values import TargetValue, objective, retreat_value

_EVADING = (STATUS_EVADING_LEFT, STATUS_EVADING_RIGHT)


# ---------------------------------------------------------------- the map


def hex_at(state: Any, q: int, r: int) -> int:
    """The map's hex index at axial (q, r), or -1 off the map."""
    m = state.st.map
    row = r + (q - (q & 1)) // 2  # hexmap.axial_to_offset, inlined: called in hot loops
    if 0 <= q < m.width and 0 <= row < m.height:
        return int(row * m.width + q)
    return -1


def edge_of(state: Any, q: int, r: int) -> str | None:
    """The map edge an aircraft at axial (q, r) has left by (None: on the map)."""
    m = state.st.map
    col, row = axial_to_offset(q, r)
    if row < 0:
        return "north"
    if row >= m.height:
        return "south"
    if col < 0:
        return "west"
    if col >= m.width:
        return "east"
    return None


def edge_penalty(state: Any, w: Mapping[str, float], ctx: Context, q: int, r: int, f: int) -> float:
    """Ending with a map edge close ahead may force a retreat next turn."""
    m = state.st.map
    width, height = m.width, m.height
    dq, dr = DIRECTIONS[f]
    k = 0
    while k < 3:
        # hex_at(state, q + dq * (k + 1), r + dr * (k + 1)) >= 0, inlined
        nq = q + dq * (k + 1)
        row = r + dr * (k + 1) + (nq - (nq & 1)) // 2
        if not (0 <= nq < width and 0 <= row < height):
            break
        k += 1
    if k >= 3:
        return 0.0
    rv = ctx.rv_edge
    if rv is None:
        rv = ctx.rv_edge = min(0.0, retreat_value(state, w, ctx.i, None))
    # a wanted exit edge is not a danger
    wanted = ctx.edge_wanted
    if wanted is None or True in wanted:
        edge = edge_of(state, q + dq * (k + 1), r + dr * (k + 1))
        if edge is not None and (
            retreat_value(state, w, ctx.i, edge) >= 0
            if wanted is None
            else wanted[EDGES.index(edge)]
        ):
            return 0.0
    return rv * (0.6, 0.25, 0.06)[k]


# ---------------------------------------------------------------- shots


_NO_DICE = -math.inf  # bins_value: no attack dice at the range, the bin counts nothing


def bins_value(
    memo: Memo,
    bins_n: Bins,
    a_dice: tuple[int, ...],
    need_shift: int,
    tvt: TargetValue,
    mx_w: float,
    later: bool = False,
) -> tuple[float, float, Bins]:
    """(mean, mixed mean/best, the bins) value of a reach distribution of shots.

    ``memo`` is the process-wide memo (:func:`bins_memo`) of everything else
    the value depends on: the attacker's dice, the modifier, the target, the
    mix and ``later``; it is keyed by the bins' ``id``, the bins kept in the
    entry (so the id can't name another tuple while it lives), and holds
    under ``"shots"`` the value of one shot by (range, target number).
    """
    got = memo.get(id(bins_n))
    if got is not None:
        return got
    bins, n = bins_n
    if not bins or not n:
        got = memo[id(bins_n)] = (0.0, 0.0, bins_n)
        return got
    shots = memo.get("shots")
    if shots is None:
        shots = memo["shots"] = {}
    total = 0.0
    best = 0.0
    for d, tn, c in bins:
        k = d * 16 + tn  # target numbers 4-6 (hexmap.ASPECT_TABLE)
        v = shots.get(k)
        if v is None:
            nd = a_dice[d - 1]
            if nd <= 0:
                v = shots[k] = _NO_DICE
            else:
                kv, dv, armor, vital, rem, _ = tvt
                pk, pd = attack_odds(nd, tn - need_shift, armor, vital, rem, later)
                v = shots[k] = pk * kv + pd * dv
        if v == _NO_DICE:
            continue
        total += v * c
        if v > best:
            best = v
    mean = total / n
    got = memo[id(bins_n)] = (mean, (1.0 - mx_w) * mean + mx_w * best, bins_n)
    return got


def bins_memo(
    a_dice: tuple[int, ...], need_shift: int, tvt: TargetValue, mx_w: float, later: bool
) -> Memo:
    """The process-wide memo of :func:`bins_value` for these arguments (all but the bins)."""
    return shared_memo(("bins", a_dice, need_shift, tvt, mx_w, later))


def _my_shot(
    ctx: Context, e: Enemy, dq: int, dr: int, d: int, dz: int, f: int, status: int
) -> float:
    """My exact shot on an enemy that has moved (000 "RESOLVING ATTACKS")."""
    _tvi, my_att, my_bomber, my_climb, adv = ctx.me
    k_to, k_from = okey(dq, dr), okey(-dq, -dr)
    ok_alt = dz == 0 or (
        adv and ((dz == -1 and status == STATUS_DIVING) or (dz == 1 and status == STATUS_CLIMBING))
    )
    if not ok_alt or not (my_bomber or ARC_TABLE[k_to][f]):
        return 0.0
    jstatus = e[6]
    tn = ASPECT_TABLE[k_from][e[3]][0]
    mm = e[8]
    if adv:
        mm -= 1 if status in _EVADING else 0
        if jstatus in _EVADING:
            mm -= 1
        if jstatus == STATUS_CLIMBING and my_climb > e[13]:
            mm += 1
        if status == STATUS_DIVING and dz == -1:
            mm += 1
    kv, dv, armor, vital, rem, _ = e[12]
    pk, pd = attack_odds(my_att[d - 1], tn - mm, armor, vital, rem, ctx.later)
    return (pk * kv + pd * dv) * e[18][0]


def _their_shot(
    ctx: Context, e: Enemy, dq: int, dr: int, d: int, dz: int, f: int, status: int
) -> float:
    """The exact shot of an enemy that has moved on me."""
    tvi, _att, _bomber, my_climb, adv = ctx.me
    k_to, k_from = okey(dq, dr), okey(-dq, -dr)
    jstatus = e[6]
    ok_alt = dz == 0 or (
        adv
        and ((dz == 1 and jstatus == STATUS_DIVING) or (dz == -1 and jstatus == STATUS_CLIMBING))
    )
    if not ok_alt or not (e[11] or ARC_TABLE[k_from][e[3]]):
        return 0.0
    tn = ASPECT_TABLE[k_to][f][0]
    mj = e[9]
    if adv:
        mj -= 1 if status in _EVADING else 0
        if jstatus in _EVADING:
            mj -= 1
        if status == STATUS_CLIMBING and e[13] > my_climb:
            mj += 1
        if jstatus == STATUS_DIVING and dz == 1:
            mj += 1
    kv, dv, armor, vital, rem, _ = tvi
    pk, pd = attack_odds(e[10][d - 1], tn - mj, armor, vital, rem, ctx.later)
    return (pk * kv + pd * dv) * e[18][1]


def _tailing(dq: int, dr: int, f: int, jf: int) -> float:
    """000 "TAILING": +1 if I tail the enemy, -1 if it tails me."""
    k_to, k_from = okey(dq, dr), okey(-dq, -dr)
    t = 0.0
    if REAR_TABLE[k_from][jf] and FRONT_TABLE[k_to][f]:
        t += 1.0
    if REAR_TABLE[k_to][f] and FRONT_TABLE[k_from][jf]:
        t -= 1.0
    return t


def _alt_factor(dz: int, adv: bool, w: Mapping[str, float]) -> float:
    """How likely an enemy dz altitude bands off gets into a shooting position (0: never)."""
    if dz == 0:
        return 1.0
    if dz == 1 or dz == -1:
        return 0.7 if adv else w["alt_diff_1"]
    if dz == 2 or dz == -2:
        return 0.08
    return 0.0


# The three memos' misses below (a battle's new positions: a replay finds them
# all filled) look the bins up in the reach's whole table, resolved once per
# decision and enemy (``Enemy.lazy``, ``Context.my_shoot``), and share bins
# values with every decision since (:func:`bins_memo`).


def _threat(ctx: Context, e: Enemy, tk: tuple[int, int, int], ev: int, mx_w: float) -> float:
    """An enemy's shots on me over its reach, I staying here (``tk``: me relative to it)."""
    lazy = e[19]
    table = lazy[0]
    if table is None:
        rkey, reach_set = e[7]
        table = lazy[0] = shoot_table(reach_set, rkey, e[11])
    bb = table.get(tk)
    mixed = 0.0  # no shot from anywhere in its reach
    if bb is not None:
        memo = lazy[2 + ev]
        if memo is None:
            memo = lazy[2 + ev] = bins_memo(e[10], e[9] - ev, ctx.me[0], mx_w, ctx.later)
        got = memo.get(id(bb))
        if got is None:
            got = bins_value(memo, bb, e[10], e[9] - ev, ctx.me[0], mx_w, ctx.later)
        mixed = got[1]
    e[15][ev][tk] = mixed
    return mixed


def _my_next(ctx: Context, e: Enemy, dq: int, dr: int, f: int, mx_w: float) -> float:
    """My shots next turn over my reach on an enemy that stays where it ended."""
    nk = (dq, dr, f)
    nv = e[17].get(nk)
    if nv is None:
        _tvi, my_att, my_bomber, _climb, _adv = ctx.me
        table = ctx.my_shoot
        if table is None:
            mkey, mreach = ctx.my_reach
            table = ctx.my_shoot = shoot_table(mreach, mkey, my_bomber)
        a, b_, c, d_ = ROT[f]
        bb = table.get((a * dq + b_ * dr, c * dq + d_ * dr, (e[3] - f) % 6))
        nv = 0.0
        if bb is not None:
            lazy = e[19]
            memo = lazy[6]
            if memo is None:
                memo = lazy[6] = bins_memo(my_att, e[8], e[12], mx_w, ctx.later)
            got = memo.get(id(bb))
            if got is None:
                got = bins_value(memo, bb, my_att, e[8], e[12], mx_w, ctx.later)
            nv = got[1]
        e[17][nk] = nv
    return nv


def _my_chance(ctx: Context, e: Enemy, tk: tuple[int, int, int], ev: int) -> float:
    """My mean shot on an enemy still to move, over where it may go."""
    om = e[16][ev]
    ov = om.get(tk)
    if ov is None:
        lazy = e[19]
        _tvi, my_att, my_bomber, _climb, _adv = ctx.me
        table = lazy[1]
        if table is None:
            rkey, reach_set = e[7]
            table = lazy[1] = dodge_table(reach_set, rkey, my_bomber)
        bb = table.get(tk)
        ov = 0.0
        if bb is not None:
            memo = lazy[4 + ev]
            if memo is None:
                memo = lazy[4 + ev] = bins_memo(my_att, e[8] - ev, e[12], 0.0, ctx.later)
            got = memo.get(id(bb))
            if got is None:
                got = bins_value(memo, bb, my_att, e[8] - ev, e[12], 0.0, ctx.later)
            ov = got[0]
        om[tk] = ov
    return ov


# ---------------------------------------------------------------- the score


def position_score(
    state: Any,
    w: Mapping[str, float],
    ctx: Context,
    q: int,
    r: int,
    f: int,
    alt: int,
    status: int,
    parts: bool = False,
) -> Any:
    """Value of ending the move at (q, r) facing f at altitude alt with this status.

    With ``parts`` it returns (value, value if in the clouds): in the
    clouds (000 "EFFECTS OF BEING IN THE CLOUDS") this turn's shots both
    ways and tailing drop out; next turn's prospects, map edges, the
    objective and stacking remain.
    """
    return position_scores(state, w, ctx, q, r, f, alt, (status,), parts)[0]


def _end_terms(
    ctx: Context,
    w: Mapping[str, float],
    q: int,
    r: int,
    f: int,
    alt: int,
    evs: tuple[int, ...],
    no_fire: bool,
) -> tuple[int, float, float, list[float], list[float], list[float], list[Any]]:
    """The enemy terms of :func:`position_scores` that do not depend on the status:
    (nearest, tailing, collisions, next turn / unmoved offense / unmoved defense
    by evading flag, the moved enemies at range 1-3 for the exact shots)."""
    adv = ctx.me[4]
    mx_w = w["threat_max"]
    tail = coll = 0.0
    nearest = 99
    nxt = [0.0, 0.0]
    un_off = [0.0, 0.0]
    un_def = [0.0, 0.0]
    close: list[tuple[Enemy, int, int, int, int]] = []
    for e in ctx.enemies:
        dq = e[1] - q
        dr = e[2] - r
        d = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
        if d < nearest:
            nearest = d
        if d > 9:
            continue
        dz = e[4] - alt
        f_me, f_j, nf_me, nf_j, tail_ok, coll_j = e[18]
        moved = e[5]
        if moved:
            if 1 <= d <= 3:
                close.append((e, dq, dr, d, dz))
            elif d == 0 and dz == 0 and coll_j:
                coll -= coll_j
            if tail_ok and -1 <= dz <= 1 and 1 <= d <= 4:
                tail += _tailing(dq, dr, f, e[3])
        af = 1.0 if dz == 0 else _alt_factor(dz, adv, w)
        if not af:
            continue
        a, b_, c, d_ = e[14]
        tk = (-a * dq - b_ * dr, -c * dq - d_ * dr, (f - e[3]) % 6)
        nv = 0.0
        if moved:
            got = e[17].get((dq, dr, f))
            nv = _my_next(ctx, e, dq, dr, f, mx_w) if got is None else got
        for ev in evs:
            mixed = e[15][ev].get(tk)
            if mixed is None:
                mixed = _threat(ctx, e, tk, ev, mx_w)
            if moved:
                nxt[ev] -= mixed * af * nf_j
                nxt[ev] += nv * af * nf_me
            else:
                un_def[ev] += mixed * af * f_j
                if not no_fire and f_me:
                    ov = e[16][ev].get(tk)
                    if ov is None:
                        ov = _my_chance(ctx, e, tk, ev)
                    un_off[ev] += ov * af * f_me
    return nearest, tail, coll, nxt, un_off, un_def, close


def position_scores(
    state: Any,
    w: Mapping[str, float],
    ctx: Context,
    q: int,
    r: int,
    f: int,
    alt: int,
    statuses: tuple[int, ...],
    parts: bool = False,
) -> list[Any]:
    """:func:`position_score` of one end for each of ``statuses``, in one pass.

    The same numbers, operation for operation: what does not depend on the
    status (geometry, tailing, collisions, map edge, objective) is worked
    out once, the reach terms once per evading flag, and only the exact
    shots at enemies that have moved once per status (both evading
    statuses score alike). ``parts`` as in :func:`position_score`.
    """
    adv = ctx.me[4]
    evs = (0, 1) if STATUS_EVADING_LEFT in statuses or STATUS_EVADING_RIGHT in statuses else (0,)
    af_set = ctx.allies_final
    stacked = bool(af_set) and (hex_at(state, q, r), alt) in af_set
    no_fire = stacked or ctx.grounded
    nearest, tail, coll, nxt, un_off, un_def, close = _end_terms(ctx, w, q, r, f, alt, evs, no_fire)
    em = ctx.edge_memo
    ek = (q, r, f)
    ep = em.get(ek)
    if ep is None:
        ep = em[ek] = edge_penalty(state, w, ctx, q, r, f)
    obj = 0.0 if ctx.flat_objective else objective(state, ctx.i, q, r, f, alt)
    my_att = ctx.me[1]
    w_off, w_def, w_uo, w_ud, w_tail = (
        w["offense"],
        w["defense"],
        w["unmoved_offense"],
        w["unmoved_defense"],
        w["tail"],
    )
    out: list[Any] = []
    done: dict[int, Any] = {}
    for status in statuses:
        sk = STATUS_EVADING_LEFT if status == STATUS_EVADING_RIGHT else status
        got = done.get(sk)
        if got is None:
            offense = defense = 0.0
            for e, dq, dr, d, dz in close:
                if e[18][0] and not no_fire and my_att[d - 1] > 0:
                    offense += _my_shot(ctx, e, dq, dr, d, dz, f, status)
                if e[18][1] and e[10][d - 1] > 0:
                    defense += _their_shot(ctx, e, dq, dr, d, dz, f, status)
            ev = 1 if status in _EVADING else 0
            shots = (
                w_off * offense
                - w_def * defense
                + w_uo * un_off[ev]
                - w_ud * un_def[ev]
                + w_tail * tail
            )
            # the terms of the end itself: distance, stacking, status, edge, objective
            score = w["next_turn"] * nxt[ev] + coll
            if 4 < nearest < 99 and not ctx.me[2]:
                score -= w["close"] * (nearest - 4)
            if stacked:
                score -= 3.0
            if adv:
                if status == STATUS_DIVING:
                    score -= 1.0
                elif status in _EVADING:
                    score -= 0.3
            score += w["edge"] * ep
            score += w["objective"] * obj
            got = done[sk] = (score + shots, score) if parts else score + shots
        out.append(got)
    return out
