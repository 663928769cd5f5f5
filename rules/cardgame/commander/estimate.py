"""Estimates the computer commander plays by: roll odds, what a mission is
worth, what a plane or an event card is worth (003 "INTERCEPTION SEGMENT",
"BOMBING SEGMENT", "STRATEGY PHASE", "VICTORY").

All values are in "mission levels": one level of a completed mission (one
strategy token gained, or one production point destroyed) is worth about 1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import EVENT_RULES, GROUND, STRATEGIC, experience_bonus, other, production_draws
from ..engagement import FLAK_AF
from ..phases import VICTORY_ST_MINIMUM

if TYPE_CHECKING:
    from ..state import GameState

WIN = 100.0  # a completed mission that wins the game (003 "VICTORY")
PLANE = 0.3  # a plane in play, lost or kept
FLAK_HIT = (11 - FLAK_AF) / 10  # 003 "INTERCEPTION SEGMENT": flak hits on 7+ of 1D10


def p_roll(target: int, modifier: int) -> float:
    """The chance that 1D10 + ``modifier`` >= ``target`` (a force roll)."""
    need = target - modifier
    return min(1.0, max(0.0, (11 - need) / 10))


def any_success(chances: list[float]) -> float:
    """003 "BOMBING SEGMENT": "As long as one plane succeeds the Mission is a Success."."""
    fail = 1.0
    for p in chances:
        fail *= 1.0 - p
    return 1.0 - fail


def mission_force(state: GameState, mission: str) -> str:
    """SF for a strategic bombing mission, GF for a ground support mission."""
    return "sf" if state.mission_spec(mission).kind == STRATEGIC else "gf"


def mission_value(state: GameState, side: str, mission: str) -> float:
    """What completing ``mission`` is worth to ``side`` (003 "STRATEGY PHASE"):
    a GSM gains its level in strategy tokens, a SBM takes its level of the
    opponent's production points. Both count at the Strategy phase, so the
    missions already completed this turn count too; a completion that wins
    is worth WIN, one that wins together with the other missions still to fly
    this turn is worth CLOSE (003 "VICTORY")."""
    spec = state.mission_spec(mission)
    opp = other(side)
    level = spec.level
    done = {GROUND: 0, STRATEGIC: 0}
    if side == state.active:
        for r in state.results:
            if r["success"]:
                done[r["kind"]] += r["level"]
    rest = _rest_levels(state, spec.kind, mission)
    if spec.kind == GROUND:
        st = state.st[side] + done[GROUND] + level
        if _st_wins(st, state.st[opp]):
            return WIN
        bonus = 0.5 * level if state.st[opp] >= VICTORY_ST_MINIMUM - 2 else 0.0
        close = CLOSE if _st_wins(st + rest, state.st[opp]) else 0.0
        return 1.2 * level + bonus + close
    pp = state.pp[opp] - done[STRATEGIC] - level
    if pp <= 0:
        return WIN
    bonus = 0.5 if production_draws(pp + level) > production_draws(pp) else 0.0
    close = CLOSE if pp - rest <= 0 else 0.0
    return 1.0 * level + bonus + close


CLOSE = 5.0


def _st_wins(st: int, opp_st: int) -> bool:
    return st >= VICTORY_ST_MINIMUM and st >= 2 * opp_st


def _rest_levels(state: GameState, kind: str, mission: str) -> int:
    """The levels of the other missions of ``kind`` that may still fly this
    turn: those launched and not yet flown, or before the launch all in play."""
    if state.flight_queue:
        others = state.flight_queue[state.mission_index :]
    else:
        others = state.missions_in_play
    return sum(state.mission_spec(m).level for m in others
               if m != mission and state.mission_spec(m).kind == kind)  # fmt: skip


def payload_chance(state: GameState, plane: str, force: str, extra: int = 0) -> float:
    """The chance of one plane's bombing roll with its experience (003
    "EXPERIENCE PHASE") and ``extra`` (cards in play, air supremacy)."""
    target = getattr(state.plane_spec(plane), force)
    if target is None:
        return 0.0
    return p_roll(target, experience_bonus(state.planes[plane]["xm"]) + extra)


def hit_chance(state: GameState, plane: str, extra: int = 0) -> float:
    """The chance of one plane's air attack roll (003 "INTERCEPTION SEGMENT")."""
    return p_roll(state.plane_spec(plane).af, experience_bonus(state.planes[plane]["xm"]) + extra)


def plane_worth(state: GameState, plane: str) -> float:
    """How much a plane is worth keeping: its best force, experience counted."""
    spec = state.plane_spec(plane)
    best = hit_chance(state, plane) if spec.is_fighter else 0.0
    for force in ("sf", "gf"):
        best = max(best, payload_chance(state, plane, force))
    return PLANE + best + 0.05 * experience_bonus(state.planes[plane]["xm"])


# How much an event card is worth holding (for the debriefing discard).
CARD_WORTH = {
    "gain_pp": 3.0,
    "draw_plane": 3.0,
    "discard_mission": 2.5,
    "ground_plane": 2.0,
    "draw_mission": 2.0,
    "pilot_training": 2.0,
    "extra_flak": 1.5,
}


def card_worth(name: str) -> float:
    rule = EVENT_RULES[name]
    if rule.effect in CARD_WORTH:
        return CARD_WORTH[rule.effect]
    if rule.force in ("sf", "gf", "payload"):
        return 1.0 + 0.25 * rule.amount
    if rule.force == "all":
        return 0.8
    return 1.0 + 0.1 * abs(rule.amount)
