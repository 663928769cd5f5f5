"""What each side (or a spectator) may see: the only views the web layer serves.

A side sees its own hand; the opponent's hand only as a count; no deck's
order (only counts), no shuffle's dice. Private log entries (cards drawn into
a hand) are shown only to their owner; the ``secret`` part of an entry (a
shuffle's order and draws) is never shown.
"""

from __future__ import annotations

from typing import Any

from .actions import action_to_json
from .cards import SIDES, experience_bonus, experience_rank
from .state import GameState


def _plane(state: GameState, plane: dict[str, Any]) -> dict[str, Any]:
    spec = state.setup.plane_cards[plane["card"]]
    return {
        "id": plane["id"],
        "card": plane["card"],
        "side": plane["side"],
        "name": spec.name,
        "type": spec.card_type,
        "af": spec.af,
        "sf": spec.sf,
        "gf": spec.gf,
        "night_fighter": spec.night_fighter,
        "xm": plane["xm"],
        "bonus": experience_bonus(plane["xm"]),
        "rank": experience_rank(plane["xm"]),
        "kills": plane["kills"],
        "since": plane["since"],
    }


def _log_entry(entry: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    out = {k: v for k, v in entry.items() if k not in ("secret", "private", "private_to")}
    owner = entry.get("private_to")
    if owner is not None and owner == viewer:
        out.update(entry.get("private", {}))
    return out


def _missions(state: GameState) -> list[dict[str, Any]]:
    missions = []
    for m in state.missions_in_play:
        spec = state.setup.mission_cards[m]
        missions.append({
            "id": m,
            "name": spec.name,
            "kind": spec.kind,
            "level": spec.level,
            "assigned": [p for p, mm in state.assignments.items() if mm == m],
            "flying": state.attackers_on(m),
            "scrambled": state.defenders_on(m),
        })  # fmt: skip
    return missions


def _cards(state: GameState, side: str | None) -> dict[str, Any]:
    """The hand of ``side`` (none for a spectator), counts of the other hand
    and of the decks, and the discard piles (face up)."""
    setup = state.setup
    return {
        "hand": (
            [{"id": c, "name": setup.event_cards[c]} for c in state.hands[side]]
            if side is not None
            else None
        ),
        "hand_counts": {s: len(state.hands[s]) for s in SIDES},
        "decks": {
            "plane": {s: len(state.plane_deck[s]) for s in SIDES},
            "mission": len(state.mission_deck),
            "event": len(state.event_deck),
        },
        "discards": {
            "plane": {
                s: [setup.plane_cards[c].name for c in state.plane_discard[s]] for s in SIDES
            },
            "mission": [setup.mission_cards[c].name for c in state.mission_discard],
            "event": [{"id": c, "name": setup.event_cards[c]} for c in state.event_discard],
        },
    }


def view_for(state: GameState, side: str | None, *, log_since: int = 0) -> dict[str, Any]:
    """The JSON-able view of ``side`` (``None`` for a spectator).

    ``log_since`` gives only the log entries from that index on (polling).
    Kills, lost planes and engagement results are those of the current turn
    (the whole record is public: ``state.kills``, ``state.lost``,
    ``state.engagements``, and the log).
    """
    if side is not None and side not in SIDES:
        raise ValueError(f"unknown side {side!r}")
    current = state.current_side()
    view: dict[str, Any] = {
        "viewer": side or "spectator",
        "turn": state.turn,
        "round": state.round,
        "active": state.active,
        "phase": state.phase,
        "step": state.step,
        "current_side": current,
        "pp": dict(state.pp),
        "st": dict(state.st),
        "turns_taken": dict(state.turns_taken),
        "winner": state.winner,
        "end_reason": state.end_reason,
        **_cards(state, side),
        "planes": [_plane(state, p) for p in state.planes.values()],
        "missions_in_play": _missions(state),
        "grounded": list(state.grounded),
        "flight_queue": list(state.flight_queue),
        "current_mission": state.current_mission,
        "modifiers": [dict(m) for m in state.mission_mods],
        "extra_flak": state.extra_flak,
        "engagement": state.engagement,
        "engagement_input": state.engagement_input,
        "mode_overrides": dict(state.mode_overrides),
        "losses_to_choose": {
            s: len(state.losses_todo.get(s, [])) - len(state.losses_chosen.get(s, []))
            for s in state.losses_todo
        },
        "pending": dict(state.pending) if state.pending else None,
        "results": [dict(r) for r in state.results],
        "history": [dict(h) for h in state.history],
        "kills": [dict(k) for k in state.kills if k["turn"] == state.turn],
        "lost_planes": [dict(v) for v in state.lost.values() if v["turn"] == state.turn],
        "engagements": [dict(e) for e in state.engagements if e["turn"] == state.turn],
        "log": [_log_entry(e, side) for e in state.log[log_since:]],
        "log_length": len(state.log),
        "legal_actions": (
            [action_to_json(a) for a in state.legal_actions()]
            if side is not None and side == current
            else []
        ),
        "result": state.result(),
    }
    return view


def spectator_view(state: GameState, *, log_since: int = 0) -> dict[str, Any]:
    """No hand at all, counts only."""
    return view_for(state, None, log_since=log_since)
