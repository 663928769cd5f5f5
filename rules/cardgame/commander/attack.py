"""The attacker's plan: which plane flies which mission (003 "MISSION PHASE").

The plan is worked out from the state alone (not from the assignments made so
far), so the commander reaches it one ``Assign`` / ``Unassign`` at a time and
then launches. Readings: docs/rulings.md, "Computer commander".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import ESPIONAGE
from .estimate import any_success, mission_force, mission_value, payload_chance

if TYPE_CHECKING:
    from ..state import GameState

MIN_GAIN = 0.01  # an extra bomber goes where it adds at least this much


def plan_assignments(state: GameState, side: str) -> dict[str, str]:
    """Plane -> mission for ``side``'s Mission phase.

    1. Missions by value (003 "STRATEGY PHASE"), each manned with the
       strength it needs: 003 "MISSION PHASE" "at least 1 Bomber with SF
       ability ... per Level" (SBM), "1 Plane with GF ability ... per Level"
       (GSM), the best bombers for it first. A mission it cannot man stays home.
    2. Every other plane able to bomb one of the manned missions joins the one
       where it raises the expected value most (more bombing rolls: "As long
       as one plane succeeds the Mission is a Success").
    3. The rest fly as escorts (003 "MISSION PHASE": "Bombers and Fighter
       escort"), spread over the manned missions by value: they shoot at the
       interceptors and take the hits first (003 "INTERCEPTION SEGMENT": "A
       player determines which of his planes on a mission are shot down"), and
       every plane that flies gains experience (003 "EXPERIENCE PHASE"). The
       number of hits a mission takes does not grow with its planes, so flying
       more planes costs little.
    """
    free = sorted(p for p, plane in state.planes.items()
                  if plane["side"] == side and p not in state.grounded)  # fmt: skip
    missions = [m for m in state.missions_in_play if state.mission_spec(m).kind != ESPIONAGE]
    value = {m: mission_value(state, side, m) for m in missions}
    chance = {(p, f): payload_chance(state, p, f) for p in free for f in ("sf", "gf")}
    order = sorted(missions, key=lambda m: (-value[m], missions.index(m)))
    plan: dict[str, str] = {}
    bombers: dict[str, list[str]] = {}
    for m in order:
        force = mission_force(state, m)
        able = [p for p in free if p not in plan and chance[p, force] > 0]
        able.sort(key=lambda p: (-chance[p, force], _versatility(state, p), p))
        level = state.mission_spec(m).level
        if len(able) < max(level, 1):
            continue
        bombers[m] = able[:level] if level else able[:1]
        for p in bombers[m]:
            plan[p] = m
    if not bombers:
        return plan
    _add_extra_bombers(state, free, plan, bombers, value, chance)
    _add_escorts(free, plan, bombers, value)
    return plan


def _versatility(state: GameState, plane: str) -> int:
    """Planes that can also do something else are kept for last."""
    spec = state.plane_spec(plane)
    return int(spec.sf is not None) + int(spec.gf is not None) + int(spec.is_fighter)


def _success(chance: dict[tuple[str, str], float], force: str, planes: list[str]) -> float:
    return any_success([chance[p, force] for p in planes])


def _add_extra_bombers(
    state: GameState,
    free: list[str],
    plan: dict[str, str],
    bombers: dict[str, list[str]],
    value: dict[str, float],
    chance: dict[tuple[str, str], float],
) -> None:
    force = {m: mission_force(state, m) for m in bombers}
    for p in free:
        if p in plan:
            continue
        best, gain = "", MIN_GAIN
        for m, planes in bombers.items():
            if chance[p, force[m]] <= 0:
                continue
            before = _success(chance, force[m], planes)
            g = value[m] * (_success(chance, force[m], [*planes, p]) - before)
            if g > gain:
                best, gain = m, g
        if best:
            bombers[best].append(p)
            plan[p] = best


def _add_escorts(
    free: list[str], plan: dict[str, str], bombers: dict[str, list[str]], value: dict[str, float]
) -> None:
    count = {m: len(planes) for m, planes in bombers.items()}
    for p in free:
        if p in plan:
            continue
        m = max(bombers, key=lambda m: (value[m] / (1 + count[m]), -list(bombers).index(m)))
        plan[p] = m
        count[m] += 1
