"""Playing an event card: what each card's effect does (003 "EVENT DECK CARD LIST").

The cards' rules (:class:`EventRule`, :data:`EVENT_RULES`: effect, who plays
it, force, scope, target) are part of the cards (:mod:`rules.cardgame.cards`);
when a card may be played is checked in :mod:`rules.cardgame.checks`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import GiveExperience, PlayEvent
from .cards import EVENT_RULES, EventRule
from .checks import check_train, strength_error
from .missions import scrub

if TYPE_CHECKING:
    from .state import GameState

__all__ = ["EVENT_RULES", "EventRule", "do_play", "do_train"]


def do_play(state: GameState, a: PlayEvent) -> None:
    name = state.card_name(a.card)
    rule = EVENT_RULES[name]
    state.hands[a.side].remove(a.card)
    state.event_discard.append(a.card)
    state.passes = 0
    state._log("play_event", who=a.side, card=a.card, name=name, target=a.target, option=a.option)
    effect = rule.effect
    if effect == "gain_pp":  # Industrialization, Boost Production: "Gain 1 PP"
        state.pp[a.side] += rule.amount
        state._log("pp", who=a.side, change=rule.amount, pp=state.pp[a.side], reason=name)
    elif effect == "draw_plane":  # Exceed Quotas: "Draw and put in play 1 Plane card"
        state._put_planes_in_play(a.side, 1, name)
    elif effect == "draw_mission":  # "Draw and put in play 1 Mission card"
        state._put_missions_in_play(1, name)
    elif effect == "pilot_training":  # "Give 3 planes 1 XP each"
        state.pending = {"kind": "pilot_training", "side": a.side, "card": a.card,
                         "remaining": rule.amount, "chosen": []}  # fmt: skip
        finish_training_if_done(state)
    elif effect == "extra_flak":  # Heavy Flak, Air Defense: "Get an extra Flak Roll"
        state.extra_flak += rule.amount
    elif effect == "discard_mission":  # Storm, Decoy Target, ...: "Discard target Mission"
        state.missions_in_play.remove(a.target)
        state.mission_discard.append(a.target)
        state._log("mission_discarded", mission=a.target, reason=name)
        scrub(state, a.target)
    elif effect == "ground_plane":
        _ground_plane(state, a.target, name)
    else:
        _add_modifier(state, a, name, rule)


def _ground_plane(state: GameState, plane: str, name: str) -> None:
    """Navigation Error: "Target Plane cannot go on a Mission this turn"; a
    mission left under strength (003 "MISSION PHASE") is not flown."""
    mission = state.flown.pop(plane)
    state.assignments.pop(plane, None)
    state.grounded.append(plane)
    planes = state.attackers_on(mission)
    if not planes or strength_error(state, mission, planes):
        state._log("mission_aborted", mission=mission, reason=f"{name}: under strength")
        scrub(state, mission)


def _add_modifier(state: GameState, a: PlayEvent, name: str, rule: EventRule) -> None:
    """A roll modifier for the rest of the current mission."""
    force = a.option if rule.force == "af_or_gf" else rule.force
    state.mission_mods.append({"card": a.card, "name": name, "side": a.side, "force": force,
                               "amount": rule.amount, "scope": rule.scope, "target": a.target})  # fmt: skip


def do_train(state: GameState, a: GiveExperience) -> None:
    """Pilot Training: one of the 3 planes gets 1 XM."""
    pending = state.pending
    if pending is None:
        raise RuntimeError("no Pilot Training is being resolved")
    state.planes[a.plane]["xm"] += 1
    pending["chosen"].append(a.plane)
    pending["remaining"] -= 1
    state._log("experience", plane=a.plane, xm=state.planes[a.plane]["xm"], reason="Pilot Training")
    finish_training_if_done(state)


def finish_training_if_done(state: GameState) -> None:
    """Pilot Training ends after 3 planes, or when no plane of the side can
    still be chosen (the same check as the choice itself)."""
    pending = state.pending
    if pending is None:
        return
    side = pending["side"]
    eligible = [p for p in state.planes if check_train(state, GiveExperience(side, p)) is None]
    if pending["remaining"] <= 0 or not eligible:
        state.pending = None
