"""The tactical pilot's choice of a whole move (a :class:`~rules.angels20.actions.MovePlan`).

For the aircraft to move, every legal plan of every legal speed is grouped
by where it ends (on success and failure of its difficult maneuver, see
:mod:`.reach`); each group is worth the expected score of its end(s)
(:func:`.scoring.position_score`), less the expected loss to flak and
balloons on its least exposed path, for each end-of-move status and, with
clouds, each answer to "try to enter the clouds?". :func:`best_plans`
returns the plans tied for the best value.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ..actions import MANEUVER_BONUS as _BONUS_OF
from ..actions import STATUS_CLIMBING, STATUS_DIVING, STATUSES, Action, MovePlan
from ..attacks import crippled
from ..state import CLOUD_NEED
from .context import Context, build_context
from .odds import hazard_costs, maneuver_odds
from .reach import (
    STEP_SEQS,
    End,
    Group,
    dist,
    from_facing_0,
    groups,
    table_seqs,
    to_facing_0,
)
from .scoring import edge_of, hex_at, position_scores
from .values import retreat_value

# 000 "CLOUDS": an aircraft ending its move in a heavy band enters the clouds
# on 3+, in a light band on 5+ (if it tries); solid bands and placed clouds
# always hide it.
CLOUD_TRY = {band: (7 - need) / 6.0 for band, need in CLOUD_NEED.items()}
CLOUD_AUTO = frozenset({"solid"})

Tie = tuple[int, tuple[Action, ...], str, bool]  # (speed, steps, status, clouds)
Cell = tuple[int, int]
_NO_EDGES: tuple[tuple[str | None, ...], ...] = ((), (None,), (None, None))


def move_order(state: Any) -> int:
    """Move first the aircraft least exposed to enemies that have yet to move."""
    side = state.to_act
    m = state.st.map
    mine = [p for p in state.planes if p.side == side and not p.out and not p.moved]
    unmoved = [p for p in state.planes if p.side != side and not p.out and not p.moved]
    if len(mine) == 1:
        return int(mine[0].id)
    best = None
    for p in mine:
        d = min((m.distance(p.hex, e.hex) for e in unmoved), default=0)
        k = (d, -p.id)
        if best is None or k > best[0]:
            best = (k, p.id)
    assert best is not None
    return int(best[1])


class Planner:
    """One aircraft's move decision: what the groups of plans are worth."""

    def __init__(self, state: Any, w: Mapping[str, float], i: int, speeds: list[int]) -> None:
        st = state.st
        p = state.planes[i]
        rules = st.rules
        self.state, self.w, self.i, self.p = state, w, i, p
        self.ctx: Context = build_context(state, w, i)
        self.q0, self.r0 = st.map.q[p.hex], st.map.r[p.hex]
        self.required = p.status if rules.status else 0
        self.no_turn = st.bomber[i] and state.scenario.kind == "limited_fuel" and not p.attacked
        self.crippled = crippled(state, i)
        self.exit_memo: dict[str | None, float] = {}
        self.reach = max(speeds)
        self.off = self._off_map()
        self.statuses = (0, 1, 2, 3, 4) if rules.status and not st.bomber[i] else (0,)
        # 000 "CLOUDS": where a move may end in the clouds, value both outcomes
        self.bands = state.cloud_bands
        self.clouds_on = bool(
            rules.random_clouds or rules.cloud_shapes or any(c != "clear" for c in rules.clouds)
        )
        hazards = bool(rules.flak_fields or rules.barrage_balloons)
        # the engine builds these once per battle (000 "FLAK FIELDS", "BARRAGE
        # BALLOONS"; ruling "Placed clouds")
        if self.clouds_on or hazards:
            self.flak, self.balloons, self.cloud_cells = st.flak, st.balloons, st.cloud_cells
        else:
            self.flak, self.balloons, self.cloud_cells = {}, (), ()
        self.haz = self._hazard_cells()
        # the move tables' member paths are drawn at facing 0: off-map and
        # hazard cells turned into that frame for them
        fc = p.facing
        self.off0 = {to_facing_0(fc, c) for c in self.off}
        self.haz0 = {to_facing_0(fc, c): v for c, v in self.haz.items()}
        self.haz_keys = frozenset(self.haz0)
        self.flak_c = self.balloon_c = self.w_haz = 0.0
        if self.haz:
            self.flak_c, self.balloon_c = hazard_costs(self.ctx.tv[i])
            self.w_haz = w["hazard"]
        self.try_memo: dict[tuple[int, int], bool] = {}
        self.end_memo: dict[End, tuple[list[float], list[float]]] = {}
        self.ok_by_alt: dict[int, tuple[int, ...]] = {}

    # ------------------------------------------------------------ set-up
    def _off_map(self) -> set[Cell]:
        """Relative cells within reach that are off the map."""
        reach, state, q0, r0 = self.reach, self.state, self.q0, self.r0
        return {
            (dq, dr)
            for dq in range(-reach, reach + 1)
            for dr in range(-reach, reach + 1)
            if dist(dq, dr) <= reach and hex_at(state, q0 + dq, r0 + dr) < 0
        }

    def _hazard_cells(self) -> dict[Cell, tuple[frozenset[int], bool]]:
        """Flak fields and balloons this move could fly through, relative to the start."""
        haz: dict[Cell, tuple[frozenset[int], bool]] = {}
        if not (self.flak or self.balloons):
            return haz
        p, reach = self.p, self.reach
        lo_alt = p.alt - 2
        for dq in range(-reach, reach + 1):
            for dr in range(-reach, reach + 1):
                if dist(dq, dr) > reach or (dq, dr) in self.off:
                    continue
                h = hex_at(self.state, self.q0 + dq, self.r0 + dr)
                fa = self.flak.get(h, frozenset())
                bl = h in self.balloons and lo_alt <= 1
                if bl or any(lo_alt <= a <= p.alt + 1 for a in fa):
                    haz[(dq, dr)] = (fa, bl)
        return haz

    def exit_value(self, edge: str | None) -> float:
        v = self.exit_memo.get(edge)
        if v is None:
            v = self.exit_memo[edge] = retreat_value(self.state, self.w, self.i, edge)
        return v

    def step_seqs(self, speed: int, key: tuple[Any, ...]) -> tuple[tuple[Action, ...], ...]:
        """The legal step sequences of one speed (the engine's plans, ``reach.table_seqs``)."""
        seqs = STEP_SEQS.get(key)
        if seqs is None:
            seqs = STEP_SEQS[key] = table_seqs(key)
        return seqs

    # ------------------------------------------------------------ values
    def hazard_of(
        self, paths: tuple[Any, ...], path_alts: tuple[Any, ...], probs: tuple[float, ...]
    ) -> float:
        """Expected loss to flak and balloons along a member's path(s)."""
        haz, off = self.haz0, self.off0  # paths at facing 0
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
                        last += self.flak_c
                    if hz[1] and a == 1:
                        last += self.balloon_c
                    c += last
            # ending inside a field: more of it to cross next turn
            v += prob * (c + 0.5 * last)
        return v

    def end_values(self, ends: tuple[End, ...]) -> tuple[list[list[float]], list[list[float]]]:
        """Value of every distinct end on the map, per status (and, with clouds,
        per answer to "try to enter the clouds?").

        An end reached at several speeds is scored once per decision
        (``end_memo``), all its statuses in one pass (:func:`position_scores`).
        """
        memo = self.end_memo
        cols = []
        for end in ends:
            col = memo.get(end)
            if col is None:
                col = memo[end] = self._end_column(end)
            cols.append(col)
        vals = [[c[0][si] for c in cols] for si in range(len(self.statuses))]
        if not self.clouds_on:
            return vals, [[] for _ in self.statuses]
        return vals, [[c[1][si] for c in cols] for si in range(len(self.statuses))]

    def _end_column(self, end: End) -> tuple[list[float], list[float]]:
        """(value per status, value per status when trying the clouds) of one end."""
        dq, dr, f, a = end
        n = len(self.statuses)
        if self.off and (dq, dr) in self.off:
            return [0.0] * n, [0.0] * n  # never used on the map
        ok = self.ok_by_alt.get(a)
        if ok is None:
            # 000 "ADVANCED RULES": no diving status at altitude 1, no climbing at 6
            ok = self.ok_by_alt[a] = tuple(
                s
                for s in self.statuses
                if not ((s == STATUS_DIVING and a <= 1) or (s == STATUS_CLIMBING and a >= 6))
            )
        q, r = self.q0 + dq, self.r0 + dr
        got = iter(position_scores(self.state, self.w, self.ctx, q, r, f, a, ok, self.clouds_on))
        row: list[float] = []
        row_try: list[float] = []
        for s in self.statuses:
            if s not in ok:
                row.append(-math.inf)
                row_try.append(-math.inf)
            elif not self.clouds_on:
                row.append(next(got))
            else:
                self._cloud_values(q, r, a, next(got), row, row_try)
        return row, row_try

    def _cloud_values(
        self,
        q: int,
        r: int,
        a: int,
        parts: tuple[float, float],
        row: list[float],
        row_try: list[float],
    ) -> None:
        """An end's value out of the clouds and when trying to enter them (000 "CLOUDS")."""
        vn, vc = parts
        band = self.bands[a - 1]
        if band in CLOUD_AUTO or (hex_at(self.state, q, r), a) in self.cloud_cells:
            row.append(vc)
            row_try.append(vc)
        else:
            row.append(vn)
            pt = CLOUD_TRY.get(band, 0.0)
            row_try.append(vn + pt * (vc - vn))

    def group_probs(
        self, g: Group, high: bool, prob_of: dict[tuple[str, bool], float]
    ) -> tuple[float, ...]:
        """P(each end of the group): 1, or the maneuver check's success and failure."""
        if g.dm is None:
            return (1.0,)
        pk = (g.dm, g.dm_first)
        ps = prob_of.get(pk)
        if ps is None:
            bonus = self.state.st.bonus[self.i][_BONUS_OF[g.dm]]
            climbing = g.dm_first and self.required == STATUS_CLIMBING and g.dm == "climb"
            ps = prob_of[pk] = maneuver_odds(bonus, high, self.crippled, climbing)
        return (ps, 1.0 - ps)

    def route(
        self, g: Group, probs: tuple[float, ...]
    ) -> tuple[tuple[Action, ...], tuple[str | None, ...], float]:
        """(steps, edge left by per end or None, hazard cost) of the group's best member."""
        off = self.off0  # member paths are at facing 0
        steps = None
        edges: tuple[str | None, ...] = (None,) * len(probs)
        hz_cost = 0.0
        if self.haz:
            # the member path least exposed to flak and balloons
            best_m: tuple[float, Any] | None = None
            for st_, paths_, hexes, alts_ in g.members:
                if off and not off.isdisjoint(hexes):
                    continue
                c = 0.0 if self.haz_keys.isdisjoint(hexes) else self.hazard_of(paths_, alts_, probs)
                if best_m is None or c < best_m[0] - 1e-12:
                    best_m = (c, st_)
                    if not c:
                        break
            if best_m is not None:
                hz_cost, steps = best_m
                hz_cost *= self.w_haz
        elif not off:
            steps = g.members[0][0]
        else:
            for st_, _paths, hexes, _alts in g.members:
                if off.isdisjoint(hexes):
                    steps = st_
                    break
        if steps is None:
            steps, paths, _h, alts_ = g.members[0]
            edges = tuple(self._edge_left(pth) for pth in paths)
            if self.haz:
                hz_cost = self.w_haz * self.hazard_of(paths, alts_, probs)
        return steps, edges, hz_cost

    def _edge_left(self, pth: tuple[Cell, ...]) -> str | None:
        for cell in pth:  # at facing 0
            if cell in self.off0:
                dq, dr = from_facing_0(self.p.facing, cell)
                return edge_of(self.state, self.q0 + dq, self.r0 + dr)
        return None

    def can_try(self, g: Group) -> bool:
        """000 "CLOUDS": a plan may answer "try" only if it can end in a heavy or light band."""
        if not self.clouds_on:
            return False
        got = self.try_memo.get((g.lo, g.hi))
        if got is None:
            got = self.try_memo[(g.lo, g.hi)] = any(
                self.bands[a - 1] in CLOUD_TRY for a in range(max(g.lo, 1), min(g.hi, 6) + 1)
            )
        return got

    def expected(
        self,
        row: list[float],
        probs: tuple[float, ...],
        edges: tuple[str | None, ...],
        idx: tuple[int, ...],
        hz_cost: float,
    ) -> float:
        """Expected value of a group's end(s) with one row of end values."""
        v = -hz_cost
        for prob, edge, ei in zip(probs, edges, idx, strict=True):
            if not prob:
                continue
            if edge is not None:
                v += prob * self.exit_value(edge)
            else:
                v += prob * row[ei]
        return v

    # ------------------------------------------------------------ the choice
    def best(self, speeds: list[int]) -> list[Tie]:
        """The (speed, steps, status, clouds) choices tied for the best value."""
        st = self.state.st
        p = self.p
        best_v = -math.inf
        tied: list[Tie] = []
        simple = not self.haz and not self.off  # no hazard, no edge within reach
        for speed in speeds:
            high = speed in st.high_speeds[self.i]
            key = (speed, high, p.alt, self.required, st.bomber[self.i], self.no_turn)
            # (simple: no member path is looked at, each group plays its first steps)
            ends, grps = groups(self.step_seqs(speed, key), key, p.facing, p.alt, not simple)
            vals, vals_try = self.end_values(ends)
            prob_of: dict[tuple[str, bool], float] = {}
            for g in grps:
                if g.dm is None:
                    probs: tuple[float, ...] = (1.0,)
                else:
                    probs = self.group_probs(g, high, prob_of)
                if simple:
                    steps, edges, hz_cost = g.first, _NO_EDGES[len(probs)], 0.0
                else:
                    steps, edges, hz_cost = self.route(g, probs)
                can_try = self.clouds_on and self.can_try(g)
                # the commonest shapes of expected(), inline and operation for operation
                idx = g.idx
                sure = len(probs) == 1 and edges[0] is None  # one sure end on the map
                both = len(probs) == 2 and edges[0] is None and edges[1] is None
                lo, hi = g.lo, g.hi
                for si, s in enumerate(self.statuses):
                    if (s == STATUS_DIVING and lo <= 1) or (s == STATUS_CLIMBING and hi >= 6):
                        continue
                    if sure:
                        v = -hz_cost + vals[si][idx[0]]
                    elif both:
                        row = vals[si]
                        v = -hz_cost
                        if probs[0]:
                            v += probs[0] * row[idx[0]]
                        if probs[1]:
                            v += probs[1] * row[idx[1]]
                    else:
                        v = self.expected(vals[si], probs, edges, idx, hz_cost)
                    cl = False
                    if can_try:
                        vt = self.expected(vals_try[si], probs, edges, g.idx, hz_cost)
                        if vt > v + 1e-9:  # try only where hiding is worth more
                            v, cl = vt, True
                    if v > best_v + 1e-9:
                        best_v = v
                        tied = [(speed, steps, STATUSES[s], cl)]
                    elif v >= best_v - 1e-9:
                        tied.append((speed, steps, STATUSES[s], cl))
        return tied


def plan_choices(state: Any, w: Mapping[str, float]) -> tuple[int, list[Tie]]:
    """(the aircraft to move, its best plans tied) for the side to act."""
    i = move_order(state)
    speeds = sorted({a.speed for a in state.legal_actions() if getattr(a, "plane", -1) == i})
    if not speeds:
        return i, []
    return i, Planner(state, w, i, speeds).best(speeds)


def make_plan(i: int, tie: Tie) -> MovePlan:
    speed, steps, status, cl = tie
    return MovePlan(i, speed, steps, status, cl)
