"""The defender's plan: which fighters intercept which mission (003 "SCRAMBLE SEGMENT").

A fighter "can intercept only one Mission per turn", and the missions fly one
after the other, so the defender spreads its fighters over the missions still
to fly, each fighter where it lowers the attacker's expected gain most.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..missions import bombers_for
from .estimate import (
    FLAK_HIT,
    PLANE,
    any_success,
    hit_chance,
    mission_force,
    mission_value,
    payload_chance,
)

if TYPE_CHECKING:
    from ..state import GameState


def threat(state: GameState, mission: str, defenders: int, kills: float) -> float:
    """The attacker's expected gain from ``mission`` with ``defenders``
    interceptors expected to shoot down ``kills`` planes (flak included).

    003 "AIR SUPREMACY RULE": with no defending fighter the attackers get +1
    to their payload rolls. 003 "INTERCEPTION SEGMENT": the attacker chooses
    his losses, so the escorts (planes that cannot bomb this mission) go
    first and the weakest bombers after them.
    """
    attacker = state.active
    force = mission_force(state, mission)
    planes = state.attackers_on(mission)
    extra = 1 if defenders == 0 else 0
    chances = sorted(payload_chance(state, p, force, extra) for p in planes)
    chances = [c for c in chances if c > 0]
    lost = max(0.0, kills - (len(planes) - len(chances)))
    whole = int(lost)
    kept = chances[whole:]
    ok = any_success(kept)
    if lost > whole and kept:
        ok -= (lost - whole) * (ok - any_success(kept[1:]))
    return mission_value(state, attacker, mission) * ok


def plan_scramble(state: GameState, side: str) -> list[str]:
    """The fighters ``side`` sends against the mission now in flight
    (those already scrambled to it included)."""
    queue = state.flight_queue[state.mission_index :]
    current = queue[0]
    sent: dict[str, list[str]] = {m: state.defenders_on(m) for m in queue}
    fighters = [p for p, plane in state.planes.items()
                if plane["side"] == side and p not in state.scrambled
                and state.plane_spec(p).is_fighter]  # fmt: skip
    fighters.sort(key=lambda p: (-hit_chance(state, p, _nf(state, p)), p))
    for p in fighters:
        best, gain = "", 0.0
        for m in queue:
            g = _gain(state, m, sent[m], p)
            if g > gain:
                best, gain = m, g
        if not best:
            break
        sent[best].append(p)
    return sent[current]


def _nf(state: GameState, plane: str) -> int:
    """003 "INTERCEPTION SEGMENT": "Defending Night Fighters get AF +1"."""
    return 1 if state.plane_spec(plane).night_fighter else 0


def _kills(state: GameState, defenders: list[str]) -> float:
    return FLAK_HIT + sum(hit_chance(state, p, _nf(state, p)) for p in defenders)


def _gain(state: GameState, mission: str, defenders: list[str], plane: str) -> float:
    """What one more interceptor on ``mission`` is worth to the defender."""
    before = threat(state, mission, len(defenders), _kills(state, defenders))
    after = threat(state, mission, len(defenders) + 1, _kills(state, [*defenders, plane]))
    attackers = state.attackers_on(mission)
    shots = sum(hit_chance(state, p) for p in attackers)  # hits on the interceptors
    risk = PLANE * max(0.0, min(1.0, shots - len(defenders)))
    kill = PLANE * hit_chance(state, plane, _nf(state, plane)) if attackers else 0.0
    return before - after + kill - risk


def threat_now(state: GameState, mission: str) -> float:
    """The attacker's expected gain from ``mission`` as things stand."""
    defenders = state.defenders_on(mission)
    return threat(state, mission, len(defenders), _kills(state, defenders))


def bombing_chance(state: GameState, mission: str, extra: dict[str, int] | None = None) -> float:
    """The chance the mission in flight succeeds now (bombing window), with
    the modifiers in play and ``extra`` more per plane."""
    force = mission_force(state, mission)
    supremacy = 0 if state.defenders_on(mission) else 1
    chances = []
    for p in bombers_for(state, mission):
        target = getattr(state.plane_spec(p), force)
        mod = state.modifier(p, force) + supremacy + (extra or {}).get(p, 0)
        chances.append(min(1.0, max(0.0, (11 - (target - mod)) / 10)))
    return any_success(chances)


__all__ = ["bombing_chance", "plan_scramble", "threat", "threat_now"]
