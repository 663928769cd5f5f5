"""A battle's notes: the lines of its log the engine does not write (a deadline passed,
a decision handed over), each placed before the event it precedes; the play page and
the report show them with the engine's own lines (issue 14)."""

from __future__ import annotations

from typing import Any

from rules.angels20 import BattleState

from .models import Battle


def note_add(battle: Battle, state: BattleState, text: str) -> None:
    """A line for the log the engine does not write, before the events that follow it."""
    battle.notes = [*(battle.notes or []), {"at": len(state.log), "text": text}]


def notes_since(battle: Battle, since: int = 0) -> list[dict[str, Any]]:
    """The log's lines the engine does not write (a deadline passed, a hand-over), each
    with ``at``: the index of the event it comes before."""
    return [dict(n) for n in battle.notes or [] if n.get("at", 0) >= since]


def notes_into_frames(frames: list[dict[str, Any]], battle: Battle) -> list[dict[str, Any]]:
    """The report's frames with each note's words before the event it precedes (a note
    after the last event goes with the last)."""
    if not frames:
        return frames
    by_index: dict[int, list[str]] = {}
    for n in battle.notes or []:
        at = min(int(n.get("at", 0)), len(frames) - 1)
        by_index.setdefault(at, []).append(n["text"][:1].upper() + n["text"][1:] + ".")
    for i, texts in by_index.items():
        frames[i] = {**frames[i], "text": " ".join([*texts, frames[i]["text"]])}
    return frames
