"""Battles of 002 set up by hand for the tests: units placed where a test wants them."""

from __future__ import annotations

from typing import Any

from rules.airpirates.actions import Change, Mark, Move, Place
from rules.airpirates.change import steady
from rules.airpirates.state import AirPiratesBattle
from rules.airpirates.units import Scenario, catalog_card

SPITFIRE = "Spitfire Mk I Ace"  # the catalog's Spitfire Mk I (turn number 2, printed)
BF109 = "Bf 109E Wingman"


def unit(side: str, aircraft: str, **extra: Any) -> dict[str, Any]:
    card = catalog_card(aircraft)
    return {"side": side, "name": aircraft, "card": card, **extra}


def battle(
    units: list[dict[str, Any]],
    places: list[tuple[tuple[int, int], int]],
    *,
    marker: str = "axis",
    seed: int = 1,
    width: int = 28,
    height: int = 16,
) -> AirPiratesBattle:
    """A battle whose units stand at ``places`` ((hex, facing), in unit order) with no
    marker yet: the set-up's placing done through the edge rule's back door (tests of
    movement start anywhere on the board)."""
    scenario = {"name": "test", "width": width, "height": height, "units": units}
    scenario["sequence_marker"] = marker
    b = AirPiratesBattle(Scenario.from_json(scenario), seed)
    for u, (hex_, facing) in zip(b.units, places, strict=True):
        u.hex, u.facing = hex_, facing
    b.phase = "place"
    b._advance()
    return b


def mark_all(b: AirPiratesBattle, choices: dict[int, str]) -> None:
    """Mark every unit waiting for a marker, in the order the sequence marker sets; after
    impulse VI, every unit flies on through the Change Phase as steadily as it may ([7])."""
    when = (b.turn, b.impulse)
    phases = ("setup_mark", "mark", "change")
    while b.phase in phases and not b.is_over() and (b.turn, b.impulse) == when:
        side = b.current_side()
        assert side is not None
        u = b.pending(side)[0]
        if b.phase == "change":
            b.apply(Change(u.id, *steady(u, b.zooms(u))))
        else:
            b.apply(Mark(u.id, choices.get(u.id, "straight")))


def move_all(b: AirPiratesBattle) -> list[int]:
    """Every move of this Move Phase; returns the units moved."""
    moved = []
    when = (b.turn, b.impulse)
    while b.phase == "move" and not b.is_over() and (b.turn, b.impulse) == when:
        side = b.current_side()
        assert side is not None
        u = b.pending(side)[0]
        b.apply(Move(u.id))
        moved.append(u.id)
    return moved


def last_mark(b: AirPiratesBattle, uid: int) -> dict[str, Any]:
    """The log's last marking of unit ``uid``."""
    return [e for e in b.log if e["event"] == "marked" and e["unit"] == uid][-1]


__all__ = ["Place", "battle", "mark_all", "move_all", "unit"]
