"""What the battle pages draw for a battle's game (issue 25): Angels 20's hex map, its
legend and rules card are its own drawing (000's map and counters, battles.report); another
game is drawn from what it describes (rules.tactical: ``describe_board``, ``phase_text``,
``log_sentence``; battles.board_drawing) with the same map code, or, describing no map
(the tests' plain duels), shown by its turn, choices, event log and result alone; its
computer pilot is its own."""

from __future__ import annotations

from typing import Any

from rules.tactical import DEFAULT_SYSTEM, seen_whole, system_named

from . import play
from .board_drawing import checked_board, game_texts, play_map
from .models import Battle
from .play_seats import default_pilot


def draws_map(battle: Battle) -> bool:
    """Are the battle's aircraft drawn on Angels 20's hex map?"""
    return battle.system == DEFAULT_SYSTEM


def page_parts(battle: Battle) -> dict[str, Any]:
    """What the play page and the report take from the battle's game: ``angels_parts``
    (Angels 20's rules card, legend, aircraft table), ``map_shown`` (a map is drawn)."""
    angels = draws_map(battle)
    return {"map_shown": angels, "angels_parts": angels, "stand_in": default_pilot(battle.system)}


def play_parts(battle: Battle, view: dict[str, Any], shown: list[dict[str, Any]]) -> dict[str, Any]:
    """The play page's map as the game describes it to the viewer's side (everything once
    the battle is over), Angels 20's too (its acting aircraft marked), and another game's
    latest events (``shown``, one per log entry at ``i``, the generic sentence) in its own
    words (Angels 20's are the report's, already in ``shown``)."""
    state = play.battle_state(battle)
    everything, side = play._viewer(battle, view["your_sides"])
    seen = seen_whole(state) if everything else state  # one person flying every side
    board = checked_board(seen, None if everything or state.is_over() else side)
    if draws_map(battle):
        return (
            play_map(board, view["aircraft_to_act"]) if board is not None else {"map_shown": False}
        )
    system = system_named(battle.system)
    entries = [view["log"][e["i"] - view["log_since"]] for e in shown]
    texts = game_texts(system, entries, [e["text"] for e in shown])
    parts: dict[str, Any] = {"shown": [{**e, "text": t} for e, t in zip(shown, texts, strict=True)]}
    return parts | (play_map(board) if board is not None else {})
