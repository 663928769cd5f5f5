"""What one user may see of a battle flown by people now (issue 14): their side's view and
log while it is in play (rules.tactical.view_for, log_for), the actions without the sealed
decisions not yet revealed, and the legal choices of a seat whose decision is awaited. Reads
only: nothing here writes a battle. Another game's turn parts come from its own description
(battles.board_drawing.other_game_turn); Angels 20's aircraft, odds and moves by map are
read from its state here."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from rules.angels20 import Action, BattleState
from rules.angels20.actions import STATUSES
from rules.angels20.move_choices import movable
from rules.angels20.plane import OUT_NAMES
from rules.angels20.preview import attack_preview, maneuver_chance
from rules.angels20.stats import SIDES as ENGINE_SIDES
from rules.tactical import (
    deciding_sides,
    listed_for,
    log_for,
    sealed_count,
    seen_whole,
    system_named,
    view_for,
)

from . import play_moves
from .board_drawing import other_game_turn
from .models import Battle, BattleStatus
from .play_notes import notes_since
from .play_seats import (
    deadline_seconds,
    offered_sides,
    seat_names,
    user_sides,
    waiting_for,
)
from .play_state import battle_state


def _aircraft(state: BattleState) -> list[dict[str, Any]]:
    st = state.st
    out = []
    for p in state.planes:
        tails = [q.id for q in state.planes if q.id != p.id and state.tailing(p.id, q.id)]
        out.append(
            {
                "id": p.id,
                "name": st.names[p.id],
                "side": ENGINE_SIDES[p.side],
                "hex": state._colrow(p.hex) if p.hex >= 0 else None,
                "facing": p.facing,
                "altitude": p.alt,
                "speed": p.speed,
                "high_speed": p.high,
                "status": STATUSES[p.status],
                "damage": p.damage,
                "hit_points": st.hits[p.id],
                "condition": state.condition(p.id),
                "state": OUT_NAMES[p.out],
                "moved": p.moved,
                "fired": p.fired,
                "in_cloud": p.cloud,
                "tailing": tails,
            }
        )
    return out


KINDS = {
    "choose_position": "initiative",
    "direct": "fighter direction",
    "activate": "movement",
    "straight": "movement",
    "turn": "movement",
    "maneuver": "movement",
    "end_move": "status",
    "enter_clouds": "clouds",
    "reposition": "abilities",
    "pass": "abilities",
    "attack": "attack",
    "decline": "attack",
}


def _choice(state: BattleState, action: Action) -> dict[str, Any]:
    data = action.to_json()
    choice: dict[str, Any] = {"kind": KINDS.get(data["type"], "other"), "label": str(action)}
    if data["type"] == "attack":
        choice["odds"] = attack_preview(state, data["attacker"], data["target"])
        names = state.st.names
        choice["label"] = f"{names[data['attacker']]} attacks {names[data['target']]}"
    elif data["type"] == "maneuver" and state.mover >= 0:
        choice["chance"] = round(maneuver_chance(state, state.mover, data["kind"]), 3)
    elif data["type"] == "activate":
        choice["label"] = f"fly {state.st.names[data['plane']]} at speed {data['speed']}"
    choice["action"] = data
    return choice


def _viewer(battle: Battle, mine: list[str]) -> tuple[bool, int | None]:
    """(sees everything?, the side whose view a user flying ``mine`` gets: None, a
    spectator's). Everyone sees everything once the battle is over, and so does a person
    flying every side."""
    names = system_named(battle.system).sides
    if battle.status == BattleStatus.FINISHED or set(names) <= set(mine):
        return True, None
    return False, names.index(mine[0]) if mine and mine[0] in names else None


def visible_log(battle: Battle, state: BattleState, mine: list[str]) -> list[dict[str, Any]]:
    """The log as a user flying ``mine`` may read it now (rules.tactical.log_for)."""
    everything, side = _viewer(battle, mine)
    return state.log if everything or state.is_over() else log_for(state, side)


def visible_record(battle: Battle, user: Any) -> tuple[list[dict[str, Any]], list[Any]]:
    """(log, actions) of ``battle`` as ``user`` may see them: while it is in play, the log
    as their side reads it and the actions without the sealed decisions not yet revealed."""
    if battle.status != BattleStatus.IN_PLAY:
        return battle.log, battle.actions
    state = battle_state(battle)
    sealed = sealed_count(state)
    actions = battle.actions[: len(battle.actions) - sealed] if sealed else battle.actions
    return visible_log(battle, state, user_sides(battle, user)), actions


def _angels_view(
    battle: Battle, state: BattleState, legal: list[Action], yours: bool, moves: Any, to: Any
) -> dict[str, Any]:
    """The parts of the turn that read Angels 20's state (another game: its set-up's name,
    its decisions labelled in its own words, the rest empty)."""
    if not isinstance(state, BattleState):
        return other_game_turn(battle, state, legal)
    return {
        "scenario": state.scenario.name,
        "phase": state.phase,
        "aircraft_to_act": state.mover if state.mover >= 0 else None,
        "victory_points": {"axis": state.vp[0], "allied": state.vp[1]},
        "aircraft": _aircraft(state),
        "choices": [_choice(state, a) for a in legal],
        "movable": movable(state, legal) if yours else [],
        "move_choices": play_moves.moves_view(state, moves, to) if yours else None,
    }


def turn_view(
    battle: Battle, user: Any, *, since: int = 0, moves: int | None = None, to: Any = None
) -> dict[str, Any]:
    """What ``user`` may see of ``battle`` now (their side's view and log while it is in
    play: rules.tactical.view_for, log_for); legal choices only for a seat whose decision
    is awaited (with ``moves``, an aircraft's whole moves by end hex: battles.play_moves).
    Several sides may decide at once (rules.tactical.deciding_sides): each sees its own."""
    state = battle_state(battle)
    names = system_named(battle.system).sides
    side = state.current_side()
    to_act = ENGINE_SIDES[side] if side is not None else None
    mine = user_sides(battle, user)
    due = battle.decision_due if battle.status == BattleStatus.IN_PLAY else None
    deciding = deciding_sides(state)
    ours = [s for s in deciding if names[s] in mine]
    yours = battle.status == BattleStatus.IN_PLAY and bool(ours)
    legal = [a for s in ours for a in listed_for(state, s)] if yours else []  # steps: none
    log = visible_log(battle, state, mine)
    everything, viewer = _viewer(battle, mine)
    since = max(0, min(since, len(log)))
    return {
        "battle": battle.pk,
        "version": battle.version,
        "status": battle.status,
        "turn": state.turn,
        "to_act": to_act,
        "deciding": [names[s] for s in deciding],
        "your_sides": mine,
        "offered_to_you": offered_sides(battle, user),  # issue 23: accept or decline
        "waiting_for": waiting_for(battle),
        "your_turn": yours,
        "seats": seat_names(battle),
        **_angels_view(battle, state, legal, yours, moves, to),
        "view": view_for(seen_whole(state) if everything else state, viewer),
        "legal_actions": [a.to_json() for a in legal],
        "log_since": since,
        "log": log[since:],
        "result": battle.result if battle.status == BattleStatus.FINISHED else None,
        "deadline_seconds": deadline_seconds(battle),
        "decision_due": due,
        "seconds_left": max(0, int((due - timezone.now()).total_seconds())) if due else None,
        "handed": {
            name: "side" if h == "side" else list(h) for name, h in (battle.handed or {}).items()
        },
        "notes": notes_since(battle, since),
    }
