"""Movement by clicking on the map (issue 14): the turn view's ``move_choices``.

The person whose decision it is asks for one aircraft (``moves``): every hex it may
end its move in (the engine's whole-move plans grouped by
``rules.angels20.move_choices``), and with ``to`` (a hex "col,row") the ends in that
hex with the paths there, their maneuvers and each check's chance. A path's
``action`` is a ``move_plan`` in the engine's JSON form; with a status of its
``statuses`` (and ``clouds`` if it offers them) it is posted like any action, through
the checked apply. Computed only on request and only for the seat to act: the other
side never sees them, and a poll that does not ask pays nothing.

Moves that leave the map (000 "THE BATTLE MAP": the aircraft retreats, or exits by its
scenario's edge) the engine lists too: ``exits``, each hex left from with the edge left by,
and with ``to`` that hex's ways off (``exit_paths``), flown like any path. This module
only parses and checks the request (400s naming the field) and calls the engine.
"""

from __future__ import annotations

import re
from typing import Any

from angels.errors import RuleViolation
from angels.numbers import whole_number
from rules.angels20 import BattleState
from rules.angels20.move_choices import choices_json, move_choices

HEX = re.compile(r"([0-9]{1,3}),([0-9]{1,3})")
MOVE_RULE = "000 'MOVING AIRCRAFT'"


def parse_request(moves: str | None, to: str | None) -> tuple[int | None, tuple[int, int] | None]:
    """The query's ``moves`` (an aircraft number) and ``to`` ("col,row"); 400 naming the field."""
    plane = None if moves in (None, "") else whole_number(moves, field="moves", high=999)
    if to in (None, ""):
        return plane, None
    m = HEX.fullmatch(to or "")
    if m is None:
        raise RuleViolation('to is a hex as "column,row", e.g. "7,12"', field="to", code="format")
    if plane is None:
        raise RuleViolation("to needs moves (the aircraft)", field="moves", code="required")
    return plane, (int(m.group(1)), int(m.group(2)))


def moves_view(
    state: BattleState, plane: int | None, to: tuple[int, int] | None
) -> dict[str, Any] | None:
    """``move_choices`` of ``plane`` (None: not asked, or it may not start a move now).

    Call only for the seat to act. An aircraft or hex the battle does not have is a 400."""
    if plane is None:
        return None
    if plane >= len(state.planes):
        raise RuleViolation(
            f"the battle has no aircraft #{plane}", field="moves", rule=MOVE_RULE, code="exists"
        )
    to_hex = None
    if to is not None:
        m = state.st.map
        if not (0 <= to[0] < m.width and 0 <= to[1] < m.height):
            raise RuleViolation(
                f"hex {to[0]},{to[1]} is off the {m.width} x {m.height} map",
                field="to",
                rule="000 'THE BATTLE MAP'",
                code="range",
            )
        to_hex = m.index(*to)
    found = move_choices(state, plane, to_hex)
    return None if found is None else choices_json(state, found, to_hex)
