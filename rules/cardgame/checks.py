"""Legality: why an action is illegal now, as a :class:`RuleError` citing 003.

One set of named checks serves ``GameState.legal_actions`` (which keeps the
candidates no check refuses), the checked ``GameState.apply`` and the places
where the game itself must refuse (an engagement mode without a resolver, an
engagement result that does not fit, a mission left under strength by
Navigation Error, the planes Pilot Training may still pick).

The ``rule`` of every error is a rulebook citation ``003 'SECTION'``: the
file number, then the section heading as the rulebook spells it (see
:data:`SECTIONS`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .actions import (
    Action,
    Advance,
    Assign,
    ChooseLoss,
    Discard,
    EnterResult,
    GiveExperience,
    PlayEvent,
    ScrambleFighter,
    SetEngagementMode,
    Unassign,
)
from .cards import ESPIONAGE, EVENT_RULES, SIDES, STRATEGIC, EventRule
from .engagement import FLAK, EngagementResult
from .phases import (
    ASSIGN,
    AWAITING_RESULT,
    BOMBING,
    DEBRIEFING,
    INTERCEPTION,
    LOSSES,
    MISSION,
    OVER,
    PHASES,
    SCRAMBLE,
    WINDOWS,
)

if TYPE_CHECKING:
    from .state import GameState

# -- citations -------------------------------------------------------------------
RULEBOOK = "003"
# The section headings of 003_93ec40e0c2d0344c.txt, in the order of the book.
SECTIONS = (
    "INTRODUCTION",
    "VICTORY",
    "THE DECKS",
    "EXPERIENCE MARKERS",
    "PRODUCTION POINT SCORE",
    "STRATEGY TOKENS",
    "PLANES",
    "SETUP",
    "TURN SEQUENCE",
    "EVENT PHASE",
    "INDUSTRY PHASE",
    "PRODUCTION PHASE",
    "BRIEFING PHASE",
    "MISSION PHASE",
    "SCRAMBLE SEGMENT",
    "INTERCEPTION SEGMENT",
    "BOMBING SEGMENT",
    "AIR SUPREMACY RULE",
    "STRATEGY PHASE",
    "EXPERIENCE PHASE",
    "DEBRIEFING PHASE",
    "MISSION DECK CARD NOTATION",
    "MISSION DECK CARD LIST",
    "EVENT DECK CARD LIST",
    "PLANE DECK CARD NOTATION",
    "ALLIED PLANE DECK CARD LIST",
    "LUFTWAFFEN PLANE DECK CARD LIST",
)


def cite(section: str) -> str:
    """The citation ``003 'SECTION'`` of a section of the card game's rulebook."""
    if section not in SECTIONS:
        raise ValueError(f"003 has no section {section!r}")
    return f"{RULEBOOK} '{section}'"


VICTORY_RULE = cite("VICTORY")
PP_RULE = cite("PRODUCTION POINT SCORE")  # "A running Total"
ST_RULE = cite("STRATEGY TOKENS")  # "A running Total"
XM_RULE = cite("EXPERIENCE PHASE")
SETUP_RULE = cite("SETUP")
TURN_RULE = cite("TURN SEQUENCE")  # "Players take turns."
EVENT_PHASE_RULE = cite("EVENT PHASE")  # "Draw 2 Event cards and put them in your hand."
MISSION_RULE = cite("MISSION PHASE")
SCRAMBLE_RULE = cite("SCRAMBLE SEGMENT")
INTERCEPTION_RULE = cite("INTERCEPTION SEGMENT")
BOMBING_RULE = cite("BOMBING SEGMENT")
DEBRIEFING_RULE = cite("DEBRIEFING PHASE")
EVENT_CARD_RULE = cite("EVENT DECK CARD LIST")  # each event card's note


class RuleError(ValueError):
    """An illegal action; ``rule`` cites the rule it breaks (``003 'SECTION'``)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"[{rule}] {message}")
        self.rule = rule
        self.message = message


Check = Callable[["GameState", Any], "RuleError | None"]


# -- whose move ----------------------------------------------------------------------
def game_over_error(state: GameState) -> RuleError | None:
    """003 "VICTORY": once a side has won, nothing more happens."""
    if state.phase == OVER:
        return RuleError(VICTORY_RULE, "the game is over")
    return None


def turn_error(state: GameState, side: str) -> RuleError | None:
    """Whether ``side`` may act now: 003 "TURN SEQUENCE" ("Players take
    turns"; in a phase step or mission window one side holds priority), and
    nobody acts while an engagement waits for its result."""
    if err := game_over_error(state):
        return err
    if side not in SIDES:  # 003 "SETUP": "(Choose Sides)"
        return RuleError(SETUP_RULE, f"{side!r} is not a side")
    if state.step == AWAITING_RESULT:
        return RuleError(INTERCEPTION_RULE, "the engagement result has not been entered yet")
    if side != state.current_side():
        return RuleError(TURN_RULE, f"{side} cannot act now: {state.current_side()} holds priority")
    return None


def check(state: GameState, action: Action) -> RuleError | None:
    """Why ``action`` is illegal now, or None."""
    if err := game_over_error(state):
        return err
    if isinstance(action, SetEngagementMode):
        return check_mode(state, action)
    if isinstance(action, EnterResult):
        return check_result(state, action)
    return turn_error(state, action.side) or action_error(state, action)


def action_error(state: GameState, action: Action) -> RuleError | None:
    """The checks of the action itself, for the side that holds priority."""
    return CHECKS[type(action)](state, action)


# -- the engagement (umpire actions) -----------------------------------------------------
def engagement_mode(state: GameState, mission: str | None) -> str:
    return state.mode_overrides.get(mission or "", state.setup.engagement_mode)


def resolver_error(state: GameState, mode: str) -> RuleError | None:
    """003 "INTERCEPTION SEGMENT" is resolved by the resolver of the mode (the
    game's own ``state.resolution``)."""
    if state.resolution.resolver(mode) is None:
        return RuleError(INTERCEPTION_RULE, f"no resolver for engagement mode {mode!r}")
    return None


def check_mode(state: GameState, a: SetEngagementMode) -> RuleError | None:
    if err := resolver_error(state, a.mode):
        return err
    if a.mission not in state.missions_in_play:
        return RuleError(MISSION_RULE, f"{a.mission} is not a mission in play")
    resolved = a.mission in state.flight_queue[: state.mission_index] or (
        a.mission == state.current_mission and state.step not in (SCRAMBLE, INTERCEPTION)
    )
    if resolved:
        return RuleError(INTERCEPTION_RULE, f"the engagement of {a.mission} is already resolved")
    return None


def awaiting_result_error(state: GameState) -> RuleError | None:
    if state.step != AWAITING_RESULT:
        return RuleError(INTERCEPTION_RULE, "no engagement is waiting for a result")
    return None


def check_result(state: GameState, a: EnterResult) -> RuleError | None:
    if err := awaiting_result_error(state):
        return err
    try:
        result = EngagementResult.from_json(json.loads(a.result))
    except (ValueError, KeyError, TypeError) as exc:
        return RuleError(INTERCEPTION_RULE, f"not an engagement result: {exc}")
    return result_error(state, result)


def result_error(state: GameState, result: EngagementResult) -> RuleError | None:
    """003 "INTERCEPTION SEGMENT": the result names planes on the mission (or
    the flak roll), and no side hits more planes than it has on it."""
    m = state.mission_in_flight()
    if result.mission_id != m:
        return RuleError(INTERCEPTION_RULE, f"result is for {result.mission_id}, not {m}")
    attackers, defenders = state.attackers_on(m), state.defenders_on(m)
    on = {*attackers, *defenders}
    for pid in (*result.losses, *result.retreats):
        if pid not in on:
            return RuleError(INTERCEPTION_RULE, f"{pid} is not a plane on mission {m}")
    for kill in result.kills:
        if kill.victim_id not in result.losses or kill.shooter_id not in (*on, FLAK):
            return RuleError(
                INTERCEPTION_RULE, f"kill {kill.shooter_id}->{kill.victim_id} is not on mission {m}"
            )
    for side, shooters in result.pending_hits:
        if side not in SIDES:
            return RuleError(INTERCEPTION_RULE, f"{side!r} is not a side")
        if len(shooters) > len(attackers if side == state.active else defenders):
            return RuleError(INTERCEPTION_RULE, f"more hits than planes of {side} on the mission")
    return None


# -- shared checks -----------------------------------------------------------------------
def own_plane_error(state: GameState, side: str, plane: str, rule: str) -> RuleError | None:
    p = state.planes.get(plane)
    if p is None or p["side"] != side:
        return RuleError(rule, f"{plane} is not a plane of {side} in play")
    return None


def hand_limit_error(state: GameState, side: str) -> RuleError | None:
    """003 "DEBRIEFING PHASE": "Max hand size is 7 cards. Discard excess cards." """
    if state.phase == DEBRIEFING and len(state.hands[side]) > state.setup.hand_limit:
        return RuleError(
            DEBRIEFING_RULE, f"max hand size is {state.setup.hand_limit}; discard first"
        )
    return None


def strength_error(state: GameState, mission: str, planes: list[str]) -> RuleError | None:
    """003 "MISSION PHASE": "A SBM must have at least 1 Bomber with SF ability
    assigned to it per Level of the Mission. A GSM must have at least 1 Plane
    with GF ability assigned to it per Level" (only for missions with planes)."""
    if not planes:
        return None
    spec = state.mission_spec(mission)
    force = "sf" if spec.kind == STRATEGIC else "gf"
    able = sum(1 for p in planes if getattr(state.plane_spec(p), force) is not None)
    if able < spec.level:
        kind = "strategic bombing" if spec.kind == STRATEGIC else "ground support"
        return RuleError(MISSION_RULE,
                         f"{spec.name} (level {spec.level} {kind}) needs "
                         f"{spec.level} plane(s) with {force.upper()}, has {able}")  # fmt: skip
    return None


def assign_step_error(state: GameState, message: str) -> RuleError | None:
    """003 "MISSION PHASE": planes are assigned before the missions are resolved."""
    if state.phase != MISSION or state.step != ASSIGN:
        return RuleError(MISSION_RULE, message)
    return None


# -- the players' actions ------------------------------------------------------------------
def check_advance(state: GameState, a: Advance) -> RuleError | None:
    # The second pass of the interception window rolls the interception.
    rolls = state.step == INTERCEPTION and state.passes == 1
    if rolls and (err := resolver_error(state, engagement_mode(state, state.current_mission))):
        return err
    if state.pending is not None:
        return RuleError(EVENT_CARD_RULE, "choose the planes Pilot Training gives experience to")
    if err := hand_limit_error(state, a.side):
        return err
    if state.step == ASSIGN:
        for m in state.missions_in_play:
            err = strength_error(state, m, [p for p, mm in state.assignments.items() if mm == m])
            if err:
                return err
    return None


def check_assign(state: GameState, a: Assign) -> RuleError | None:
    if err := assign_step_error(state, "planes are assigned to missions in the Mission phase"):
        return err
    if state.turns_taken[a.side] == 0:
        # 003 "SETUP": "Players cannot go on Missions on their first turn."
        return RuleError(SETUP_RULE, "players cannot go on missions on their first turn")
    if err := own_plane_error(state, a.side, a.plane, MISSION_RULE):  # "Assign your Planes"
        return err
    if a.plane in state.grounded:  # 003 "EVENT DECK CARD LIST": Navigation Error
        return RuleError(
            EVENT_CARD_RULE, f"{a.plane} cannot go on a mission this turn (Navigation Error)"
        )
    if a.plane in state.assignments:
        # 003 "SCRAMBLE SEGMENT": "A Plane can only go on one Mission per turn"
        return RuleError(SCRAMBLE_RULE, f"{a.plane} already flies a mission this turn")
    if a.mission not in state.missions_in_play or state.mission_spec(a.mission).kind == ESPIONAGE:
        return RuleError(MISSION_RULE, f"{a.mission} is not a mission in play")
    return None


def check_unassign(state: GameState, a: Unassign) -> RuleError | None:
    if err := assign_step_error(state, "assignments change only before the missions launch"):
        return err
    if a.plane not in state.assignments:
        return RuleError(MISSION_RULE, f"{a.plane} is not assigned to a mission")
    return None


def check_scramble(state: GameState, a: ScrambleFighter) -> RuleError | None:
    """003 "SCRAMBLE SEGMENT": "The Defending Player (the other Player) may
    assign Fighters to intercept your Planes." and "A fighter can intercept
    only one Mission per turn." """
    if state.step != SCRAMBLE:
        return RuleError(SCRAMBLE_RULE, "fighters scramble in the scramble segment")
    if a.side != state.defender:
        return RuleError(SCRAMBLE_RULE, "only the defending player scrambles")
    if err := own_plane_error(state, a.side, a.plane, SCRAMBLE_RULE):
        return err
    if not state.plane_spec(a.plane).is_fighter:
        return RuleError(SCRAMBLE_RULE, f"{a.plane} is not a fighter (F or FB)")
    if a.plane in state.scrambled:
        return RuleError(SCRAMBLE_RULE, f"{a.plane} already intercepts a mission this turn")
    return None


def check_loss(state: GameState, a: ChooseLoss) -> RuleError | None:
    """003 "INTERCEPTION SEGMENT": "A player determines which of his planes
    on a mission are shot down." """
    if state.step != LOSSES:
        return RuleError(INTERCEPTION_RULE, "losses are chosen after the interception rolls")
    if len(state.losses_chosen.get(a.side, [])) >= len(state.losses_todo.get(a.side, [])):
        return RuleError(INTERCEPTION_RULE, f"{a.side} has no more losses to choose")
    if a.plane not in state.losses_candidates(a.side):
        return RuleError(INTERCEPTION_RULE, f"{a.plane} is not a plane of {a.side} on this mission")
    return None


def check_train(state: GameState, a: GiveExperience) -> RuleError | None:
    """003 "EVENT DECK CARD LIST": Pilot Training, "Give 3 planes 1 XP each"."""
    if state.pending is None:
        return RuleError(EVENT_CARD_RULE, "no Pilot Training is being resolved")
    if err := own_plane_error(state, a.side, a.plane, EVENT_CARD_RULE):
        return err
    if a.plane in state.pending["chosen"]:
        return RuleError(
            EVENT_CARD_RULE, f"Pilot Training gives 3 different planes 1 XP each; {a.plane} has it"
        )
    return None


def check_discard(state: GameState, a: Discard) -> RuleError | None:
    if state.phase != DEBRIEFING:
        return RuleError(DEBRIEFING_RULE, "excess cards are discarded in debriefing")
    if a.card not in state.hands[a.side]:
        return RuleError(DEBRIEFING_RULE, f"{a.card} is not in the hand of {a.side}")
    if len(state.hands[a.side]) <= state.setup.hand_limit:
        return RuleError(DEBRIEFING_RULE, f"the hand is within {state.setup.hand_limit} cards")
    return None


# -- event cards (their notes: 003 "EVENT DECK CARD LIST"; timings: docs/rulings.md) ---------
def _no_target(name: str) -> RuleError:
    return RuleError(EVENT_CARD_RULE, f"{name} takes no target")


def check_play(state: GameState, a: PlayEvent) -> RuleError | None:
    if a.card not in state.hands[a.side]:  # 003 "EVENT PHASE": cards "in your hand"
        return RuleError(EVENT_PHASE_RULE, f"{a.card} is not in the hand of {a.side}")
    name = state.card_name(a.card)
    rule = EVENT_RULES[name]
    if state.pending is not None or state.step == LOSSES:
        return RuleError(EVENT_CARD_RULE, f"{name} cannot be played while a choice is being made")
    if rule.player == "own_turn":
        return _own_turn_card_error(state, a, name, rule)
    return _mission_card_error(state, a, name, rule)


def _own_turn_card_error(
    state: GameState, a: PlayEvent, name: str, rule: EventRule
) -> RuleError | None:
    """A card played in a phase step of the player's own turn."""
    if a.side != state.active or state.step in WINDOWS:
        return RuleError(
            EVENT_CARD_RULE, f"{name} is played in a phase of your own turn, not during a mission"
        )
    if a.target or a.option:
        return _no_target(name)
    if rule.effect == "draw_mission" and (
        PHASES.index(state.phase) > PHASES.index(MISSION) or state.step not in ("", ASSIGN)
    ):
        return RuleError(EVENT_CARD_RULE, f"{name} is played before the missions launch")
    if rule.effect == "pilot_training" and not any(
        p["side"] == a.side for p in state.planes.values()
    ):
        return RuleError(EVENT_CARD_RULE, "Pilot Training needs a plane of yours in play")
    return None


def _mission_card_error(
    state: GameState, a: PlayEvent, name: str, rule: EventRule
) -> RuleError | None:
    """A card played in a window of the mission being resolved."""
    if state.step not in WINDOWS:
        return RuleError(
            EVENT_CARD_RULE,
            f"{name} is played during a mission (scramble, interception or bombing)",
        )
    if rule.player == "attacker" and a.side != state.active:
        return RuleError(EVENT_CARD_RULE, f"{name} is played by the attacking side")
    if rule.player == "defender" and a.side != state.defender:
        return RuleError(EVENT_CARD_RULE, f"{name} is played by the defending side")
    later = state.flight_queue[state.mission_index :]
    if rule.effect in ("discard_mission", "ground_plane"):
        if state.step != SCRAMBLE:
            return RuleError(
                EVENT_CARD_RULE, f"{name} is played in a scramble segment, before the interception"
            )
        if rule.effect == "discard_mission" and (a.target not in later or a.option):
            return RuleError(
                EVENT_CARD_RULE, f"{name}: target a mission that has not been flown yet"
            )
        if rule.effect == "ground_plane" and (state.flown.get(a.target) not in later or a.option):
            return RuleError(EVENT_CARD_RULE,
                             f"{name}: target an attacking plane whose mission has not been flown")  # fmt: skip
        return None
    if rule.effect == "extra_flak":
        if state.step == BOMBING:  # 003 "INTERCEPTION SEGMENT": "the Flak roll"
            return RuleError(INTERCEPTION_RULE, f"{name} is played before the interception rolls")
        return _no_target(name) if a.target or a.option else None
    return _modifier_error(state, a, name, rule)


def _modifier_error(state: GameState, a: PlayEvent, name: str, rule: EventRule) -> RuleError | None:
    """A roll modifier: 003 "INTERCEPTION SEGMENT" / "BOMBING SEGMENT":
    "various Event cards can be played to boost or negate" the rolls."""
    force = rule.force
    if force == "af_or_gf":
        if a.option not in ("af", "gf"):
            return RuleError(EVENT_CARD_RULE, f"{name}: choose af or gf")
        force = a.option
    elif a.option:
        return RuleError(EVENT_CARD_RULE, f"{name} has no option")
    if force == "af" and state.step == BOMBING:
        return RuleError(INTERCEPTION_RULE,
                         f"{name} changes air attack rolls: play it before the interception rolls")  # fmt: skip
    if rule.scope != "target":
        return _no_target(name) if a.target else None
    return _modifier_target_error(state, a, name, rule, force)


def _modifier_target_error(
    state: GameState, a: PlayEvent, name: str, rule: EventRule, force: str
) -> RuleError | None:
    mission = state.mission_in_flight()
    attackers = state.attackers_on(mission)
    if a.target not in attackers + state.defenders_on(mission):
        return RuleError(EVENT_CARD_RULE, f"{name}: target a plane on the current mission")
    owner = state.planes[a.target]["side"]
    if rule.target == "own_plane" and owner != a.side:
        return RuleError(EVENT_CARD_RULE, f"{name}: target one of your own planes")
    if rule.target == "enemy_plane" and owner == a.side:
        return RuleError(EVENT_CARD_RULE, f"{name}: target an enemy plane")
    spec = state.plane_spec(a.target)
    flt = rule.target_filter
    if (
        (flt == "fighter" and not spec.is_fighter)
        or (flt == "bomber" and not spec.is_bomber)
        or (flt == "non_heavy_bomber" and (not spec.is_bomber or spec.is_heavy))
    ):
        return RuleError(EVENT_CARD_RULE, f"{name}: {a.target} is not a {flt.replace('_', '-')}")
    if force in ("sf", "gf", "payload"):
        needed = "sf" if state.mission_spec(mission).kind == STRATEGIC else "gf"
        if force == "payload":
            force = needed
        if a.target not in attackers or force != needed or getattr(spec, force) is None:
            # 003 "BOMBING SEGMENT": the SF (SBM) or GF (GSM) roll of a surviving attacker
            return RuleError(BOMBING_RULE,
                             f"{name}: {a.target} makes no {force.upper()} roll on this mission")  # fmt: skip
    return None


# SetEngagementMode and EnterResult are umpire actions, checked in ``check``.
CHECKS: dict[type, Check] = {
    Advance: check_advance,
    Assign: check_assign,
    Unassign: check_unassign,
    ScrambleFighter: check_scramble,
    PlayEvent: check_play,
    ChooseLoss: check_loss,
    GiveExperience: check_train,
    Discard: check_discard,
}
