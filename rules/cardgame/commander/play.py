"""When the computer commander plays an event card, and at what
(003 "EVENT DECK CARD LIST"; who may play a card when: docs/rulings.md,
"Strategic card game"). Every legal play is scored by what it changes now;
the best is played when it is worth more than keeping the card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import PlayEvent
from ..cards import EVENT_RULES, EventRule
from ..phases import (
    ASSIGN,
    BOMBING,
    BRIEFING,
    INTERCEPTION,
    LOSSES,
    MISSION,
    PHASES,
    SCRAMBLE,
    WINDOWS,
)
from .defend import bombing_chance, threat_now
from .estimate import FLAK_HIT, PLANE, mission_force, mission_value

if TYPE_CHECKING:
    from ..state import GameState

PLAY_AT = 0.12  # a card is played when it changes at least this much
# ... and a card that stops a whole mission is kept for a real threat (a
# mission likely to succeed, or worth more than a level), unless the hand is full.
KEEP_FOR_THREAT = 0.6


def play_threshold(state: GameState, a: PlayEvent) -> float:
    """How much playing ``a`` must be worth (003 "DEBRIEFING PHASE": a hand
    over 7 cards is discarded anyway)."""
    effect = EVENT_RULES[state.card_name(a.card)].effect
    full = len(state.hands[a.side]) >= state.setup.hand_limit
    if effect in ("discard_mission", "ground_plane") and not full:
        return KEEP_FOR_THREAT
    return PLAY_AT


def may_play_now(state: GameState, a: PlayEvent) -> bool:
    """Whether the card's player and moment fit now (the full check is
    ``state.check``; this cheap one spares scoring plays that cannot be)."""
    rule = EVENT_RULES[state.card_name(a.card)]
    if state.pending is not None or state.step == LOSSES:
        return False
    if rule.player == "own_turn":
        return a.side == state.active and state.step not in WINDOWS
    if state.step not in WINDOWS:
        return False
    if rule.player == "attacker":
        return a.side == state.active
    return rule.player == "either" or a.side == state.defender


def score_play(state: GameState, a: PlayEvent) -> float:
    """What playing ``a`` is worth now (<= 0: keep the card)."""
    rule = EVENT_RULES[state.card_name(a.card)]
    if rule.player == "own_turn":
        return _own_turn(state, a.side, rule)
    mission = state.mission_in_flight()
    if rule.effect == "discard_mission":
        later = state.flight_queue[state.mission_index :]
        return threat_now(state, a.target) if state.step == SCRAMBLE and a.target in later else 0.0
    if rule.effect == "ground_plane":
        return _ground(state, a.target)
    if rule.effect == "extra_flak":
        return FLAK_HIT * _kill_worth(state, mission) if state.step != BOMBING else 0.0
    return _modifier(state, a, rule, mission)


def _own_turn(state: GameState, side: str, rule: EventRule) -> float:
    """Cards of one's own turn: production and planes at once (before the
    Production and Mission phases use them), missions and training before
    the missions launch, and never on the first turn, when no plane may go
    on a mission (003 "SETUP")."""
    before_missions = PHASES.index(state.phase) < PHASES.index(MISSION) or state.step == ASSIGN
    if rule.effect in ("gain_pp", "draw_plane"):
        return 1.0
    if state.turns_taken[side] == 0 or not before_missions:
        return 0.0
    if rule.effect == "draw_mission":
        return 1.0 if state.phase in (BRIEFING, MISSION) else 0.0
    mine = sum(1 for p in state.planes.values() if p["side"] == side)
    return 1.0 if rule.effect == "pilot_training" and mine >= 3 else 0.0


def _kill_worth(state: GameState, mission: str) -> float:
    """What one more attacker shot down on ``mission`` is worth to the defender."""
    attackers = state.attackers_on(mission)
    force = mission_force(state, mission)
    bombers = [p for p in attackers if getattr(state.plane_spec(p), force) is not None]
    share = 1.0 / max(1, len(bombers)) if len(bombers) == len(attackers) else 0.1
    return PLANE + share * threat_now(state, mission)


def _ground(state: GameState, plane: str) -> float:
    """Navigation Error: worth the whole mission if it leaves it under strength."""
    mission = state.flown.get(plane)
    if mission is None or state.step != SCRAMBLE:
        return 0.0
    spec = state.mission_spec(mission)
    force = mission_force(state, mission)
    able = [p for p in state.attackers_on(mission) if getattr(state.plane_spec(p), force)]
    if plane in able and len(able) <= spec.level:
        return threat_now(state, mission)
    return PLANE * 0.5 if plane in able else 0.0


def _modifier(state: GameState, a: PlayEvent, rule: EventRule, mission: str) -> float:
    force = a.option or rule.force
    if force in ("sf", "gf", "payload", "all") and state.step == BOMBING:
        return _payload(state, a, rule, mission)
    if force in ("af", "all") and state.step == INTERCEPTION:
        return _air(state, a, rule, mission)
    return 0.0


def _reached(state: GameState, a: PlayEvent, rule: EventRule, planes: list[str]) -> list[str]:
    """The planes among ``planes`` the card would reach (its scope)."""
    out = []
    for p in planes:
        spec = state.plane_spec(p)
        mine = state.planes[p]["side"] == a.side
        ok = {
            "target": p == a.target,
            "own_fighters": mine and spec.is_fighter,
            "own_bombers": mine and spec.is_bomber,
            "own_heavy": mine and spec.is_heavy,
            "enemy_planes": not mine,
            "enemy_fighters": not mine and spec.is_fighter,
            "all_fighters": spec.is_fighter,
        }.get(rule.scope, True)
        if ok:
            out.append(p)
    return out


def _payload(state: GameState, a: PlayEvent, rule: EventRule, mission: str) -> float:
    """A bombing modifier, in the bombing window (003 "BOMBING SEGMENT")."""
    force = a.option or rule.force
    if force in ("sf", "gf") and force != mission_force(state, mission):
        return 0.0
    planes = _reached(state, a, rule, state.attackers_on(mission))
    gain = bombing_chance(state, mission, {p: rule.amount for p in planes}) - bombing_chance(
        state, mission
    )
    sign = 1.0 if a.side == state.active else -1.0
    return sign * gain * mission_value(state, state.active, mission)


def _air(state: GameState, a: PlayEvent, rule: EventRule, mission: str) -> float:
    """An air attack modifier, before the interception rolls: 0.1 per point
    per plane it reaches, worth a kill for one's own planes, a loss spared
    for the enemy's (003 "INTERCEPTION SEGMENT")."""
    attackers, defenders = state.attackers_on(mission), state.defenders_on(mission)
    if not defenders:
        return 0.0
    total = 0.0
    for p in _reached(state, a, rule, attackers + defenders):
        mine = state.planes[p]["side"] == a.side
        # an attacker's hit downs an interceptor; an interceptor's, an attacker
        worth = PLANE if p in attackers else _kill_worth(state, mission)
        total += 0.1 * rule.amount * worth * (1 if mine else -1)
    return total
