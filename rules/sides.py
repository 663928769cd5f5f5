"""The two sides of every game here, defined once (000 "CHOOSING SIDES", 002 2b
"the sides (Allied or Axis)", 003 "SETUP" "(Choose Sides)").

Two orders are in use, and each use names the one it needs:

- :data:`ALLIED_FIRST`: the card game's (003 "SETUP": the Allied deck and hand are
  dealt first) and the campaign's, which plays it;
- :data:`AXIS_FIRST`: the tactical games' (Angels 20 keeps its aircraft tables and
  ``SIDE_INDEX`` Axis = 0, Allied = 1; Air Pirates lists its sides as the engine
  does) and the pages that set up a battle for them.

Changing either order changes stored records and golden replays (the order decks
are dealt and sides iterated), so they stay as they are.
"""

from __future__ import annotations

from typing import Final, Literal

Side = Literal["allied", "axis"]

ALLIED: Final = "allied"
AXIS: Final = "axis"

# The orders are typed ``str`` pairs: sides arrive as ``str`` from JSON, forms and
# the database, and every game keys its dicts by them; ``Side`` names the values.
ALLIED_FIRST: Final[tuple[str, str]] = (ALLIED, AXIS)
AXIS_FIRST: Final[tuple[str, str]] = (AXIS, ALLIED)

#: each side's opponent
OPPONENT: Final[dict[str, Side]] = {ALLIED: AXIS, AXIS: ALLIED}
