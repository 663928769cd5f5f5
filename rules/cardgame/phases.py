"""The turn of the strategic card game: its phases and their automatic parts.

003 "TURN SEQUENCE": "Each Turn has 8 Phases". Entering a phase does its
automatic part (draws, +1 PP, production, briefing, strategy, experience);
``Advance`` leaves it. The Mission phase (its steps and windows) is in
:mod:`rules.cardgame.missions`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import Discard
from .cards import GROUND, STRATEGIC, production_draws

if TYPE_CHECKING:
    from .state import GameState

EVENT = "event"
INDUSTRY = "industry"
PRODUCTION = "production"
BRIEFING = "briefing"
MISSION = "mission"
STRATEGY = "strategy"
EXPERIENCE = "experience"
DEBRIEFING = "debriefing"
OVER = "over"
# 003 "TURN SEQUENCE": "Each Turn has 8 Phases" in this order.
PHASES = (EVENT, INDUSTRY, PRODUCTION, BRIEFING, MISSION, STRATEGY, EXPERIENCE, DEBRIEFING)

# The steps of the Mission phase (003 "MISSION PHASE": "a mini-turn of 3 Segments").
ASSIGN = "assign"
SCRAMBLE = "scramble"
INTERCEPTION = "interception"
LOSSES = "losses"
BOMBING = "bombing"
AWAITING_RESULT = "awaiting_result"
WINDOWS = (SCRAMBLE, INTERCEPTION, BOMBING)

VICTORY_ST_MINIMUM = 5  # 003 "VICTORY": "twice the Strategy Tokens of your opponent (Minimum 5)"
EVENT_DRAW = 2  # 003 "EVENT PHASE": "Draw 2 Event cards"
BRIEFING_DRAW = 3  # 003 "BRIEFING PHASE": "the top 3 cards of the Mission Deck"
ESPIONAGE_DRAW = 2  # 003 "BRIEFING PHASE": "2 Event cards for each Espionage Mission"


def enter(state: GameState, phase: str) -> None:
    """Enter ``phase`` of the active side's turn and do its automatic part."""
    state.phase = phase
    state.step = ""
    state.priority = state.active
    state.passes = 0
    side = state.active
    if phase == EVENT:  # 003 "EVENT PHASE"
        state._draw_events(side, EVENT_DRAW, "event phase")
    elif phase == INDUSTRY:  # 003 "INDUSTRY PHASE": "Gain 1 Production Point."
        state.pp[side] += 1
        state._log("pp", who=side, change=1, pp=state.pp[side], reason="industry")
    elif phase == PRODUCTION:  # 003 "PRODUCTION PHASE"
        n = production_draws(state.pp[side])
        state._put_planes_in_play(side, n, f"production ({state.pp[side]} PP)")
    elif phase == BRIEFING:  # 003 "BRIEFING PHASE"
        state._put_missions_in_play(BRIEFING_DRAW, "briefing")
    elif phase == MISSION:  # 003 "MISSION PHASE"
        state.step = ASSIGN
        if state.turns_taken[side] == 0:
            state._log("first_turn", note="003 SETUP: no missions on a player's first turn")
    elif phase == STRATEGY:
        strategy(state)
    elif phase == EXPERIENCE:
        experience(state)


def next_phase(state: GameState) -> None:
    """``Advance`` out of a phase step other than the Mission and Debriefing phases."""
    enter(state, PHASES[PHASES.index(state.phase) + 1])


def strategy(state: GameState) -> None:
    """003 "STRATEGY PHASE", then 003 "VICTORY"."""
    side, opp = state.active, state.defender
    gained = sum(r["level"] for r in state.results if r["success"] and r["kind"] == GROUND)
    bombed = sum(r["level"] for r in state.results if r["success"] and r["kind"] == STRATEGIC)
    state.st[side] += gained
    lost = min(bombed, state.pp[opp])
    state.pp[opp] -= lost
    state._log(
        "strategy", st_gained=gained, pp_destroyed=lost, st=dict(state.st), pp=dict(state.pp)
    )
    # 003 "VICTORY"
    if state.pp[opp] <= 0:
        end(state, side, "production")
    elif state.st[side] >= VICTORY_ST_MINIMUM and state.st[side] >= 2 * state.st[opp]:
        end(state, side, "strategy")


def experience(state: GameState) -> None:
    """003 "EXPERIENCE PHASE": each plane that flew a mission (and each
    fighter that intercepted one) this turn and survived gets 1 XM."""
    got = [p for p in (*state.flown, *state.scrambled) if p in state.planes]
    for p in got:
        state.planes[p]["xm"] += 1
    state._log("experience", planes={p: state.planes[p]["xm"] for p in got})


def do_discard(state: GameState, a: Discard) -> None:
    """003 "DEBRIEFING PHASE": "Max hand size is 7 cards. Discard excess cards." """
    state.hands[a.side].remove(a.card)
    state.event_discard.append(a.card)
    state._log(
        "discard", who=a.side, card=a.card, name=state.card_name(a.card), reason="hand limit"
    )


def end_turn(state: GameState) -> None:
    # 003 "DEBRIEFING PHASE": "Discard all Missions in Play."
    state.mission_discard.extend(state.missions_in_play)
    state._log("debriefing", discarded_missions=list(state.missions_in_play))
    for m in state.missions_in_play:
        state.mode_overrides.pop(m, None)
    state.missions_in_play = []
    clear_turn(state)
    record_history(state)
    state.turns_taken[state.active] += 1
    state.turn += 1
    state.active = state.defender  # 003 "TURN SEQUENCE": "Players take turns."
    enter(state, EVENT)


def clear_turn(state: GameState) -> None:
    state.assignments = {}
    state.grounded = []
    state.flight_queue = []
    state.mission_index = 0
    state.scrambled = {}
    state.flown = {}
    state.mission_mods = []
    state.extra_flak = 0
    state.engagement = None
    state.losses_todo = {}
    state.losses_chosen = {}
    state.retreated = []
    state.results = []


def record_history(state: GameState) -> None:
    state.history.append(
        {"turn": state.turn, "side": state.active, "pp": dict(state.pp), "st": dict(state.st)}
    )


def end(state: GameState, winner: str, reason: str) -> None:
    """003 "VICTORY": the game is over."""
    state.winner = winner
    state.end_reason = reason
    state._log("victory", winner=winner, reason=reason, pp=dict(state.pp), st=dict(state.st))
    record_history(state)
    state.phase = OVER
    state.step = ""
    state.priority = None
    state.pending = None
