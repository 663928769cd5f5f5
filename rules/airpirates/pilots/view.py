"""What a computer pilot of 002 may know: its side's view of the battle, no more.

A person at the table reads only what the rules let a side see, and so does a pilot:

* **9f, the bounce:** "No player should reveal his altitude or speed until spotted." An
  enemy its side has not tallied (``bounce.hidden``) is read at the pilot's own guess: the
  altitude and speed of the pilot's own units (the basic game starts both sides alike,
  2d), never its real ones.
* **13a6, hidden ammunition:** "Starting ammunition information is written down and kept
  hidden from opponents until the end of the game." An enemy's boxes are read as its
  printed card gave them (13a5's roll is the hidden part), less the boxes it has marked off
  (every shot is seen).

:func:`stand_in` gives an enemy as the pilot may read it: the unit itself when nothing of
it is hidden, else a copy carrying the guesses, so that every rule the pilot consults
(``spotting.modifiers``, the look ahead of ``foresight``) sees only the side's view.
"""

from __future__ import annotations

import copy
from typing import Any

from .. import ammunition as am
from .. import bounce as bo
from ..units import SIDES, Unit


class SideView:
    """The battle as side ``side`` may read it now."""

    def __init__(self, battle: Any, side: int) -> None:
        self.side = side
        self.unseen = bo.hidden(battle, side)
        self.ammunition_hidden = am.hidden(battle)
        own = [u for u in battle.units if u.side == SIDES[side] and not u.eliminated]
        self.altitude = round(sum(u.altitude for u in own) / len(own)) if own else 0
        self.speed = round(sum(u.speed for u in own) / len(own)) if own else 1
        self.printed = _printed_ammunition(battle) if self.ammunition_hidden else {}
        self._cache: dict[int, Unit] = {}

    def stand_in(self, unit: Unit) -> Unit:
        """``unit`` as this side may read it (the unit itself when nothing is hidden)."""
        if unit.side == SIDES[self.side]:
            return unit
        hides_flight = unit.id in self.unseen
        hides_boxes = self.ammunition_hidden and unit.id in self.printed
        if not (hides_flight or hides_boxes):
            return unit
        if unit.id not in self._cache:
            seen = copy.copy(unit)
            if hides_flight:
                seen.altitude, seen.speed = self.altitude, self.speed
            if hides_boxes:
                seen.card = {**unit.card, **self.printed[unit.id]}
            self._cache[unit.id] = seen
        return self._cache[unit.id]


def _printed_ammunition(battle: Any) -> dict[int, dict[str, int]]:
    """13a5's log: each rolled row's boxes as the printed card gave them, by unit."""
    out: dict[int, dict[str, int]] = {}
    rows = {gun: row for gun, row, _f, _u, _w in am.POSITIONS}
    for entry in battle.log:
        if entry.get("event") == am.ROLLED and entry.get("gun") in rows:
            out.setdefault(entry["unit"], {})[rows[entry["gun"]]] = int(entry["card"])
    return out
