"""The tactical computer pilot.

A one-ply evaluation of where each of the aircraft's legal move plans leaves
it (:mod:`.planning`, scored by :mod:`.scoring`); in the Attack phase the
best expected shot, concentrating fire on damaged and crippled targets; and
answers for the optional phases. See ``docs/computer-pilots.md``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .. import abilities
from ..actions import MANEUVER_BONUS as _BONUS_OF
from ..actions import (
    STATUS_CLIMBING,
    STATUS_DIVING,
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
)
from ..attacks import can_attack, crippled
from ..hexmap import DIRECTIONS, target_aspect
from .base import TieBreaker
from .context import Context, attack_mod, build_context
from .odds import attack_odds, hazard_costs, maneuver_odds
from .planning import make_plan, plan_choices
from .reach import dist, simulate
from .scoring import _EVADING, edge_of, hex_at, position_score
from .values import TargetValue, retreat_value, target_values

T = TypeVar("T")

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


class TacticalPolicy(TieBreaker):
    """One-ply evaluation of the legal move plans' end positions; greedy best shot."""

    name = "tactical"

    def __init__(self, seed: int = 0, **weights: float) -> None:
        unknown = set(weights) - set(DEFAULT_WEIGHTS)
        if unknown:
            raise TypeError(f"unknown TacticalPolicy weights: {sorted(unknown)}")
        super().__init__(seed)
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
        legal: list[Action] = state.legal_actions()
        if not legal:
            raise ValueError("no legal action: the battle is over")
        return legal[0]

    def _pick(self, options: Sequence[T], score: Callable[[T], float]) -> T:
        return self.pick(options, score)

    # ------------------------------------------------------------ views used by tests
    def _target_values(self, state: Any) -> list[TargetValue]:
        return target_values(state, self.w)

    def _mod(self, state: Any, a: int, t: int, tv: list[TargetValue]) -> int:
        return attack_mod(state, a, t, tv)

    def _context(self, state: Any, i: int) -> Context:
        return build_context(state, self.w, i)

    def _score(
        self, state: Any, ctx: Context, q: int, r: int, f: int, alt: int, status: int
    ) -> float:
        return float(position_score(state, self.w, ctx, q, r, f, alt, status))

    # ------------------------------------------------------------ movement
    def _choose_plan(self, state: Any) -> MovePlan | None:
        i, tied = plan_choices(state, self.w)
        if not tied:
            return None
        return make_plan(i, self.one_of(tied))

    def _choose_step(self, state: Any) -> Action:
        """Mid-move (someone started this move step by step): greedy over the rest of it."""
        legal = state.legal_actions()
        i = state.mover
        p = state.planes[i]
        m = state.st.map
        ctx = self._context(state, i)
        q0, r0 = m.q[p.hex], m.r[p.hex]
        if state.awaiting_cloud:
            # 000 "CLOUDS": try to enter them where hiding is worth more than staying out
            vn, vc = position_score(state, self.w, ctx, q0, r0, p.facing, p.alt, p.status, True)
            want = vc > vn + 1e-9
            return next(a for a in legal if isinstance(a, EnterClouds) and a.attempt == want)
        if state.awaiting_status:
            return self._pick(
                legal,
                lambda a: self._score(
                    state, ctx, q0, r0, p.facing, p.alt, STATUSES.index(a.status)
                ),
            )
        stepper = _Stepper(self, state, ctx, i)
        return self._pick(legal, stepper.score)

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
        best: list[Action] = [next(a for a in legal if isinstance(a, Pass))]
        best_gain = 1e-9
        base: dict[int, tuple[Context, float, int]] = {}
        for a in legal:
            if not isinstance(a, Reposition) or state.planes[a.plane].cloud:
                continue  # 000 "EFFECTS OF BEING IN THE CLOUDS": no shots either way
            gain = self._reposition_gain(state, a, base)
            if gain is None:
                continue
            if gain > best_gain + 1e-9:
                best, best_gain = [a], gain
            elif gain >= best_gain - 1e-9 and gain > 1e-9:
                best.append(a)
        return self.one_of(best)

    def _reposition_gain(
        self, state: Any, a: Reposition, base: dict[int, tuple[Context, float, int]]
    ) -> float | None:
        """How much better aircraft ``a.plane`` stands after the adjustment (None: no move)."""
        st = state.st
        m = st.map
        i = a.plane
        p = state.planes[i]
        if i not in base:
            status = p.status if st.rules.status else 0
            ctx = self._context(state, i)
            v0 = self._score(state, ctx, m.q[p.hex], m.r[p.hex], p.facing, p.alt, status)
            base[i] = (ctx, v0, status)
        ctx, v0, status = base[i]
        n0 = len(state.log)
        c = state.clone()
        c.apply_unchecked(a)
        ev = next(
            (e for e in reversed(c.log[n0:]) if e["e"] == "reposition" and e["plane"] == i),
            None,
        )
        if ev is None or ev["hex"] is None:
            return None
        h = m.index(*ev["hex"])
        return self._score(state, ctx, m.q[h], m.r[h], ev["facing"], ev["alt"], status) - v0

    # ------------------------------------------------------------ attacks
    def _attack_value(
        self, state: Any, a: int, t: int, tv: list[TargetValue]
    ) -> tuple[float, float]:
        """(expected value, P(kill)) of a's attack on t (000 "RESOLVING ATTACKS")."""
        st = state.st
        pa, pt = state.planes[a], state.planes[t]
        m = st.map
        dq, dr = m.q[pt.hex] - m.q[pa.hex], m.r[pt.hex] - m.r[pa.hex]
        nd = st.attack[a][dist(dq, dr) - 1]
        tn = target_aspect(-dq, -dr, pt.facing)[0]  # 000 "TARGET ASPECT"
        mod = attack_mod(state, a, t, tv)
        if st.rules.status:
            # 000 "ADVANCED RULES": status modifiers
            if pa.status in _EVADING:
                mod -= 1
            if pt.status in _EVADING:
                mod -= 1
            if pt.status == STATUS_CLIMBING and st.climb[a] > st.climb[t]:
                mod += 1
            if pa.status == STATUS_DIVING and pt.alt == pa.alt - 1:
                mod += 1
        kv, dv, armor, vital, rem, _ = tv[t]
        pk, pd = attack_odds(nd, tn - mod, armor, vital, rem, st.rules.later_sixes)
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
                    if can_attack(state, x, y):
                        best = max(best, self._attack_value(state, x, y, tv)[0])
            danger[x] = best

        def score(a: Attack) -> float:
            v, pk = self._attack_value(state, a.attacker, a.target, tv)
            return v + pk * danger[a.target]

        return self._pick(attacks, score)


class _Stepper:
    """Scores the next step of a move started step by step: greedy over the rest of it."""

    def __init__(self, pol: TacticalPolicy, state: Any, ctx: Context, i: int) -> None:
        st = state.st
        p = state.planes[i]
        self.pol, self.state, self.ctx, self.i, self.p = pol, state, ctx, i, p
        self.q0, self.r0 = st.map.q[p.hex], st.map.r[p.hex]
        self.left = state.steps_left
        self.crippled = crippled(state, i)
        # 000 "FLAK FIELDS" / "BARRAGE BALLOONS" (built once per battle by the engine)
        self.flak, self.balloons = st.flak, st.balloons
        self.flak_c = self.balloon_c = 0.0
        if self.flak or self.balloons:
            self.flak_c, self.balloon_c = hazard_costs(ctx.tv[i])
            self.flak_c *= pol.w["hazard"]
            self.balloon_c *= pol.w["hazard"]

    def hazard(self, q: int, r: int, a: int) -> float:
        """A roll in the hex just entered."""
        h = hex_at(self.state, q, r)
        return (self.flak_c if a in self.flak.get(h, ()) else 0.0) + (
            self.balloon_c if a == 1 and h in self.balloons else 0.0
        )

    def retreat(self, q: int, r: int) -> float:
        return retreat_value(self.state, self.pol.w, self.i, edge_of(self.state, q, r))

    def rest_value(self, q: int, r: int, f: int, a: int, n: int) -> float:
        """Best end over straight / turn continuations (map edges respected)."""
        if n == 0:
            return self.pol._score(self.state, self.ctx, q, r, f, a, 0)
        best = -math.inf
        dq, dr = DIRECTIONS[f]
        nq, nr = q + dq, r + dr
        if hex_at(self.state, nq, nr) < 0:
            return self.retreat(nq, nr)
        for t in (0, -1, 1):
            best = max(best, self.rest_value(nq, nr, (f + t) % 6, a, n - 1))
        return best

    def score(self, a: Action) -> float:
        p = self.p
        if isinstance(a, EndMove):
            return self.pol._score(
                self.state, self.ctx, self.q0, self.r0, p.facing, p.alt, STATUSES.index(a.status)
            )
        outs = [(1.0, True)]
        if isinstance(a, Maneuver):
            bonus = self.state.st.bonus[self.i][_BONUS_OF[a.kind]]
            ps = maneuver_odds(bonus, p.high, self.crippled)
            outs = [(ps, True), (1.0 - ps, False)]
        v = 0.0
        for prob, ok in outs:
            path, f, alt = simulate((a,), p.facing, p.alt, ok)
            q, r = (self.q0 + path[-1][0], self.r0 + path[-1][1]) if path else (self.q0, self.r0)
            if hex_at(self.state, q, r) < 0:
                v += prob * self.retreat(q, r)
            else:
                v += prob * self.rest_value(q, r, f, alt, min(self.left - 1, 4))
                if path and (self.flak_c or self.balloon_c):
                    v -= prob * self.hazard(q, r, alt)
        return v
