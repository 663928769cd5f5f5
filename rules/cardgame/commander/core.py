"""The computer commander's choice of one action (see the package docstring)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, TypeVar

from rules.dice import Dice

from ..actions import (
    Action,
    Advance,
    Assign,
    ChooseLoss,
    Discard,
    GiveExperience,
    PlayEvent,
    ScrambleFighter,
    Unassign,
)
from ..cards import experience_bonus
from ..phases import ASSIGN, DEBRIEFING, LOSSES, SCRAMBLE
from .attack import plan_assignments
from .defend import plan_scramble
from .estimate import card_worth, mission_force, plane_worth
from .play import may_play_now, play_threshold, score_play

if TYPE_CHECKING:
    from ..state import GameState

Commander = Callable[["GameState", str, Dice], Action]
A = TypeVar("A", bound=Action)


def _pick(options: Sequence[tuple[float, Action]], dice: Dice) -> Action:
    """The best-scored action; equal scores are settled by ``dice``."""
    best = max(score for score, _ in options)
    tied = [a for score, a in options if score >= best - 1e-9]
    return tied[0] if len(tied) == 1 else tied[dice.roll(len(tied), "commander tie") - 1]


def random_action(state: GameState, side: str, dice: Dice) -> Action:
    """The baseline commander: one of the legal actions, each as likely."""
    actions = _legal(state, side)
    return actions[dice.roll(len(actions), "random commander") - 1]


def _legal(state: GameState, side: str) -> list[Action]:
    if state.current_side() != side:
        raise ValueError(f"it is not {side}'s decision now ({state.current_side()} holds it)")
    actions = state.legal_actions()
    if not actions:
        raise ValueError(f"{side} has no legal action now")
    return actions


def choose_action(state: GameState, side: str, dice: Dice) -> Action:
    """One legal action for ``side`` (whose decision it must be).

    Only the actions it considers are checked (``state.check``), not every
    legal action, so a decision takes a millisecond or so.
    """
    if state.current_side() != side:
        raise ValueError(f"it is not {side}'s decision now ({state.current_side()} holds it)")
    choice = _choose(state, side, dice)
    if choice is not None and state.check(choice) is None:
        return choice
    actions = _legal(state, side)  # a rule of thumb found nothing legal: the first legal action
    return actions[0]


def _legal_of(state: GameState, actions: Iterable[A]) -> list[A]:
    return [a for a in actions if state.check(a) is None]


def _choose(state: GameState, side: str, dice: Dice) -> Action | None:
    if state.pending is not None:
        mine = [GiveExperience(side, p) for p, v in state.planes.items() if v["side"] == side]
        return _train(state, _legal_of(state, mine), dice)
    if state.step == LOSSES:
        losses = [ChooseLoss(side, p) for p in state.losses_candidates(side)]
        return _loss(state, _legal_of(state, losses), dice)
    if state.hands[side]:
        play = _best_play(state, side, dice)
        if play is not None:
            return play
    if state.check(Advance(side)) is not None and state.phase == DEBRIEFING:
        return _discard(
            state, _legal_of(state, (Discard(side, c) for c in state.hands[side])), dice
        )
    if state.step == ASSIGN:
        move = _assign_move(state, side)
        if move is not None and state.check(move) is None:
            return move
    if state.step == SCRAMBLE and side == state.defender:
        for plane in plan_scramble(state, side):
            if plane not in state.scrambled:
                return ScrambleFighter(side, plane)
    return Advance(side)


def _best_play(state: GameState, side: str, dice: Dice) -> Action | None:
    """The event card worth playing most now, if one is worth it: the plays
    are scored first and only those worth it are checked."""
    candidates = [a for a in state._candidates(side) if isinstance(a, PlayEvent)]
    scored = [(score_play(state, a), a) for a in candidates if may_play_now(state, a)]
    worth = [(s, a) for s, a in scored if s >= play_threshold(state, a)]
    legal = [(s, a) for s, a in worth if state.check(a) is None]
    return _pick(legal, dice) if legal else None


def _assign_move(state: GameState, side: str) -> Action | None:
    """The next step towards the plan (003 "MISSION PHASE"): first take off
    what does not belong, then assign; None when the plan stands."""
    if state.turns_taken[side] == 0:  # 003 "SETUP": no missions on the first turn
        return None
    plan = plan_assignments(state, side)
    for plane, mission in sorted(state.assignments.items()):
        if state.planes[plane]["side"] == side and plan.get(plane) != mission:
            return Unassign(side, plane)
    for plane, mission in sorted(plan.items()):
        if plane not in state.assignments:
            return Assign(side, plane, mission)
    return None


def _loss(state: GameState, actions: Sequence[Action], dice: Dice) -> Action | None:
    """003 "INTERCEPTION SEGMENT": "A player determines which of his planes
    on a mission are shot down": the least useful first; an attacker keeps
    the planes that can still bomb this mission."""
    mission = state.mission_in_flight()
    force = mission_force(state, mission)
    options: list[tuple[float, Action]] = []
    for a in actions:
        if isinstance(a, ChooseLoss):
            keep = plane_worth(state, a.plane)
            if a.side == state.active and getattr(state.plane_spec(a.plane), force) is not None:
                keep += 10.0
            options.append((-keep, a))
    return _pick(options, dice) if options else None


def _train(state: GameState, actions: Sequence[Action], dice: Dice) -> Action | None:
    """Pilot Training: the planes one marker short of a new rank first
    (003 "EXPERIENCE PHASE": 2, 5 and 9 markers), then the most useful."""
    options: list[tuple[float, Action]] = []
    for a in actions:
        if isinstance(a, GiveExperience):
            xm = state.planes[a.plane]["xm"]
            gain = experience_bonus(xm + 1) - experience_bonus(xm)
            options.append((gain + plane_worth(state, a.plane) / 10, a))
    return _pick(options, dice) if options else None


def _discard(state: GameState, actions: Sequence[Action], dice: Dice) -> Action | None:
    """003 "DEBRIEFING PHASE": "Max hand size is 7 cards. Discard excess
    cards.": the card least worth keeping."""
    options: list[tuple[float, Action]] = [
        (-card_worth(state.card_name(a.card)), a) for a in actions if isinstance(a, Discard)
    ]
    return _pick(options, dice) if options else None


COMMANDERS: dict[str, Commander] = {"computer": choose_action, "random": random_action}
