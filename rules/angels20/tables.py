"""Per-scenario tables every clone of a battle shares (never mutated).

The tables depend only on the aircraft (card, side, pilot, role), the rules,
the map size and the scenario's exit edges, never on where the aircraft
start, so :func:`tables_for` builds them once for every battle of the same
flights and rules (the battles of a batch, a season's engagements) instead
of once a battle.
"""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from . import abilities
from .actions import Activate, Attack, MovePlan
from .conditions import illumination_need
from .hexmap import hex_map
from .scenario import Scenario
from .stats import FIGHTER_KINDS, PILOT_RANK, SIDES


def tables_key(scenario: Scenario) -> tuple[Any, ...]:
    """Everything :class:`ScenarioTables` reads from a scenario: equal keys, equal tables."""
    return (
        scenario.rules,
        scenario.width,
        scenario.height,
        scenario.free_exit_edge,
        scenario.bomber_exit_edge,
        tuple((a.stats, a.side, a.pilot_quality, a.role) for a in scenario.aircraft),
    )


_TABLES: dict[tuple[Any, ...], ScenarioTables] = {}
_TABLES_MAX = 64  # distinct (flights, rules); the oldest is dropped beyond


def tables_for(scenario: Scenario) -> ScenarioTables:
    """The shared tables of ``scenario``: built once per :func:`tables_key`."""
    key = tables_key(scenario)
    st = _TABLES.get(key)
    if st is None:
        st = ScenarioTables(scenario)
        if len(_TABLES) >= _TABLES_MAX:
            # another thread (the web process's background battles) may be first
            with suppress(KeyError, StopIteration, RuntimeError):
                del _TABLES[next(iter(_TABLES))]
        _TABLES[key] = st
    return st


class ScenarioTables:
    """Per-scenario tables shared (never mutated) by every clone of a battle.

    Built from the fields :func:`tables_key` names only (build through
    :func:`tables_for` to share them between battles). ``plan_cache`` is the
    one thing that grows: whole-move plans, keyed by everything they depend on.
    """

    def __init__(self, scenario: Scenario) -> None:
        self.rules = scenario.rules
        self.map = hex_map(scenario.width, scenario.height)
        ac = scenario.aircraft
        n = len(ac)
        self.n = n
        self.side = tuple(SIDES.index(a.side) for a in ac)
        self.cost = tuple(a.stats.cost for a in ac)
        self.rank = tuple(PILOT_RANK[a.pilot_quality] for a in ac)
        self.attack = tuple(a.stats.attack for a in ac)
        self.armor = tuple(a.stats.armor for a in ac)
        self.vital = tuple(a.stats.vital_armor for a in ac)
        self.hits = tuple(a.stats.hits for a in ac)
        self.bonus = tuple(
            {
                "turn": a.stats.turn,
                "roll": a.stats.roll,
                "climb": a.stats.climb,
                "dive": a.stats.dive,
            }
            for a in ac
        )
        self.climb = tuple(a.stats.climb for a in ac)
        self.bomber = tuple(a.stats.is_bomber for a in ac)
        self.role = tuple(a.role for a in ac)
        self.names = tuple(f"#{i} {a.stats.name}" for i, a in enumerate(ac))
        self.hooks = tuple(abilities.hooks_for(a.stats.abilities) for a in ac)
        self.any_hooks = {h: any(h in hk for hk in self.hooks) for h in abilities.HOOKS}
        # 000 "Choose Speed": the Activate actions of each speed range
        normal: list[tuple[Activate, ...]] = []
        high: list[tuple[Activate, ...]] = []
        for i, a in enumerate(ac):
            s = a.stats
            normal.append(tuple(Activate(i, v) for v in range(s.speed_min, s.speed_max + 1)))
            if s.high_speed_min is None or s.high_speed_max is None:
                high.append(())
            else:
                high.append(
                    tuple(Activate(i, v) for v in range(s.high_speed_min, s.high_speed_max + 1))
                )
        self.act_normal = tuple(normal)
        self.act_high = tuple(high)
        self.high_speeds = tuple(frozenset(a.speed for a in h) for h in high)
        self.attack_actions = tuple(tuple(Attack(a, t) for t in range(n)) for a in range(n))
        self.edge_free = scenario.free_exit_edge
        self.edge_goal = scenario.bomber_exit_edge
        self.plan_cache: dict[tuple[Any, ...], tuple[MovePlan, ...]] = {}
        # abilities that are data rather than hooks
        self.extra_dm = tuple(abilities.extra_maneuvers(a.stats.abilities) for a in ac)
        self.darkness_ok = tuple(abilities.fights_in_darkness(a.stats.abilities) for a in ac)
        self.reposition = tuple("reposition_options" in hk for hk in self.hooks)
        self.poor = tuple(r == 0 for r in self.rank)
        self.fighter = tuple(a.stats.kind in FIGHTER_KINDS and not a.stats.is_bomber for a in ac)
        self.illumination_need = tuple(
            illumination_need(a.stats.kind, a.stats.is_bomber) for a in ac
        )
        self._special_conditions()

    def _special_conditions(self) -> None:
        """Optional rules and special conditions (000 "SPECIAL CONDITIONS")."""
        r = self.rules
        self.night_penalty = r.night != "day"
        self.dark = r.night == "darkness"
        self.direction = r.fighter_direction if self.dark else (0, 0)
        self.illuminate = self.dark and any(r.searchlights)
        self.clouds_on = bool(
            r.random_clouds or r.cloud_shapes or any(c != "clear" for c in r.clouds)
        )
        m = self.map
        self.cloud_cells = frozenset(
            (m.index(c, rw), alt)
            for shape in r.cloud_shapes
            for c, rw in shape.hexes
            for alt in range(shape.base, shape.top + 1)
        )
        flak: dict[int, set[int]] = {}
        for c, rw, alt in r.flak_fields:
            centre = m.index(c, rw)
            # 000 "FLAK FIELDS": one central hex and all six adjacent hexes
            for h in (centre, *(m.neighbour[centre * 6 + d] for d in range(6))):
                if h >= 0:
                    flak.setdefault(h, set()).add(alt)
        self.flak = {h: frozenset(a) for h, a in flak.items()}
        self.balloons = frozenset(m.index(c, rw) for c, rw in r.barrage_balloons)
        self.hazards = bool(self.flak or self.balloons)
