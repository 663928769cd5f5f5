"""What the tactical pilot wants: the value of kills, damage, exits and objectives.

Heuristics, not rules: each scenario's objective (000 "SCENARIOS") is turned
into points the pilot weighs against the shots of a position.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from .reach import dist

# Per aircraft: (kill value, damage value, armor, vital, remaining hits, crippled)
TargetValue = tuple[float, float, int, int, int, int]


def kill_value(state: Any, w: Mapping[str, float], t: int) -> float:
    st = state.st
    kind = state.scenario.kind
    v = float(st.cost[t])
    role = st.role[t]
    if kind in ("dogfight", "intercept"):
        v += w["win"]
    elif kind == "schnellbomber" and role == "strafer":
        v += 30.0
    elif kind == "bomber_escort" and role == "bomber":
        v += 60.0
    elif kind == "limited_fuel" and role == "bomber":
        v += 20.0
    return v


def damage_value(state: Any, w: Mapping[str, float], t: int, kv: float) -> float:
    st = state.st
    sc = state.scenario
    p = state.planes[t]
    remaining = st.hits[t] - p.damage
    base = kv * 0.5 / max(1, remaining - 1)
    if sc.kind == "intercept" and p.side == 1 and p.damage == 0:
        base += w["win"] * 0.8  # any damage spoils the Allied climb
    if (
        sc.kind == "limited_fuel"
        and st.role[t] == "bomber"
        and all(q.damage == 0 for q in state.planes if st.role[q.id] == "bomber" and q.out != 1)
    ):
        base += 60.0  # the first damage on a bomber breaks the Axis auto-win
    return base


def target_values(state: Any, w: Mapping[str, float]) -> list[TargetValue]:
    """Per aircraft: (kill value, damage value, armor, vital, remaining hits, crippled)."""
    st = state.st
    out = []
    for p in state.planes:
        kv = kill_value(state, w, p.id)
        rem = st.hits[p.id] - p.damage
        out.append(
            (
                kv,
                damage_value(state, w, p.id, kv),
                st.armor[p.id],
                st.vital[p.id],
                rem,
                1 if (p.damage and rem == 1) else 0,
            )
        )
    return out


def retreat_value(state: Any, w: Mapping[str, float], i: int, edge: str | None) -> float:
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
        return -(cost + w["win"])
    if kind == "intercept":
        return -(cost + w["win"] * 0.7)
    if kind == "limited_fuel" and role == "bomber":
        return -cost / 2
    if kind == "bomber_escort" and role == "bomber":
        return -80.0
    if kind == "bomber_escort":
        return -cost / 4
    return -cost / 2


def _fuel_deadline(state: Any, i: int, row: int, f: int) -> float:
    """Limited Fuel: the fuel-limited fighters must be off the south edge in time."""
    st = state.st
    sc = state.scenario
    deadline = sc.must_exit_by_turn or 4
    left = deadline - state.turn  # whole turns after this one
    s = sc.aircraft[i].stats
    fast = s.high_speed_max or s.speed_max
    to_go = st.map.height - row  # hexes south to step off the edge
    # hexes lost to turning south first (a diagonal hex gains half a row)
    turning = (4, 3, 1, 0, 1, 3)[f]
    turns_needed = math.ceil((to_go + turning) / fast)
    v = 0.0
    if turns_needed > left:
        v -= float(st.cost[i]) * min(1.0, 0.6 * (turns_needed - left))
    if left <= 2:
        v -= 0.3 * (to_go + turning)  # a gentle pull south
    return v


def _nearest_bomber(state: Any, side: int, mine: bool, q: int, r: int) -> int | None:
    """Distance to the nearest bomber in play of my side (``mine``) or the enemy's."""
    st = state.st
    m = st.map
    bombers = [
        p
        for p in state.planes
        if st.role[p.id] == "bomber" and p.out == 0 and (p.side == side) == mine
    ]
    if not bombers:
        return None
    return min(dist(m.q[b.hex] - q, m.r[b.hex] - r) for b in bombers)


def objective_matters(state: Any, i: int) -> bool:
    """Whether :func:`objective` may be anything but 0.0 for aircraft i (its branches' tests)."""
    sc = state.scenario
    kind = sc.kind
    role = state.st.role[i]
    return (
        (kind == "intercept" and state.planes[i].side == 1)
        or (kind == "limited_fuel" and role == "fuel_limited" and sc.free_exit_edge == "south")
        or (role == "bomber" and sc.bomber_exit_edge == "north")
        or (kind == "schnellbomber" and role == "strafer")
        or (kind in ("bomber_escort", "limited_fuel") and role != "bomber")
    )


def objective(state: Any, i: int, q: int, r: int, f: int, alt: int) -> float:
    """The scenario objective's terms for aircraft i ending at (q, r) facing f at alt.

    Keep :func:`objective_matters` in step with the branches below.
    """
    st = state.st
    sc = state.scenario
    me = state.planes[i]
    kind = sc.kind
    role = st.role[i]
    v = 0.0
    row = r + (q - (q & 1)) // 2
    if kind == "intercept" and me.side == 1:
        allied = [p for p in state.planes if p.side == 1]
        if all(p.damage == 0 and p.out == 0 for p in allied):
            v += 25.0 * min(alt, 5)
    elif kind == "limited_fuel" and role == "fuel_limited" and sc.free_exit_edge == "south":
        v += _fuel_deadline(state, i, row, f)
    elif role == "bomber" and sc.bomber_exit_edge == "north":
        v += 4.0 * (st.map.height - row)
    elif kind == "schnellbomber" and role == "strafer":
        v += 12.0 if alt == 1 else -5.0 * (alt - 1)
    if kind == "bomber_escort" and role != "bomber":
        dmin = _nearest_bomber(state, me.side, True, q, r)
        if dmin is not None:
            v -= 1.0 * max(0, dmin - 3)
    if kind in ("bomber_escort", "limited_fuel") and role != "bomber":
        # interceptors close on the enemy bombers
        dmin = _nearest_bomber(state, me.side, False, q, r)
        if dmin is not None:
            v -= 1.5 * max(0, dmin - 2)
    return v
