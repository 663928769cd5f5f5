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
scenario's edge) the engine's ``move_choices`` only counts (``off_map``); ``exits`` places
them on the hex they leave from, with the edge, and with ``to`` that hex lists the ways
off (``exit_paths``), flown like any path. Asked only when the engine counts some.
"""

from __future__ import annotations

import re
from typing import Any

from angels.errors import RuleViolation
from angels.numbers import whole_number
from rules.angels20 import BattleState
from rules.angels20.actions import Maneuver, MovePlan, Straight, Turn
from rules.angels20.hexmap import EDGE_NAMES
from rules.angels20.move_choices import PATHS_PER_END, _Odds, choices_json, fly, move_choices
from rules.angels20.plans import legal_move_plans

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
    if found is None:
        return None
    out = choices_json(state, found, to_hex)
    exits, paths = _exits(state, plane, to_hex) if found.off_map else ([], [])
    return {**out, "exits": exits, "exit_paths": paths}


def _exits(
    state: BattleState, plane: int, to_hex: int | None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The moves of ``plane`` that leave the map, by the hex they leave from: ``exits``
    (hex, edge, ways, the surest way's chance) and, for ``to_hex``, its ways off, likeliest
    first (the shape of a move path, with ``edge``).

    Grouped as ``move_choices`` groups the moves that stay: one way per speed and steps
    flown, the steps after leaving never flown (000 "THE BATTLE MAP"), and a last step
    straight or turning the same way off (a turn leaves the hex ahead before it turns);
    the checks' chances the engine's own (``_Odds``: the state as activated,
    000 "MANEUVER CHECKS")."""
    m = state.st.map
    start = state.planes[plane].hex
    statuses: dict[tuple[int, tuple[Any, ...]], list[str]] = {}
    for plan in legal_move_plans(state, plane):
        statuses.setdefault((plan.speed, plan.steps), []).append(plan.status)
    odds: dict[int, _Odds] = {}
    by_hex: dict[int, list[dict[str, Any]]] = {}
    seen: dict[tuple[Any, ...], dict[str, Any]] = {}
    for (speed, steps), allowed in statuses.items():
        hexes, place, alts = fly(state, plane, steps, True)
        if place.hex >= 0:
            continue
        edge_hex = hexes[-1] if hexes else start
        flown = steps[: len(alts)]  # up to the step that leaves
        last = flown[-1]
        same = (speed, flown[:-1], "ahead" if type(last) in (Straight, Turn) else last)
        if same in seen:  # the same way off, by a turn or straight on: straight on shown
            if type(last) is Straight:
                seen[same].update(steps=steps, flown=flown, status=allowed[0])
            continue
        checks = []
        for i, st in enumerate(flown):
            if type(st) is Maneuver:
                o = odds.get(speed) or odds.setdefault(speed, _Odds(state, plane, speed))
                checks.append((i + 1, st, o.chance(i, st.kind, alts[i])))
        chance = 1.0
        for c in checks:
            chance *= c[2]
        seen[same] = way = {
            "speed": speed, "steps": steps, "flown": flown, "hexes": hexes, "checks": checks,
            "chance": chance, "status": allowed[0], "edge": _edge(state, edge_hex, place.facing),
        }  # fmt: skip
        by_hex.setdefault(edge_hex, []).append(way)
    exits = [
        {
            "hex": list(m.colrow(h)),
            "edge": ways[0]["edge"],
            "ways": len(ways),
            "chance": round(max(w["chance"] for w in ways), 3),
        }
        for h, ways in sorted(by_hex.items())
    ]
    listed = sorted(
        by_hex.get(to_hex, []) if to_hex is not None else [],
        key=lambda w: (-w["chance"], len(w["checks"]), w["speed"], len(w["flown"])),
    )
    return exits, [_exit_path(state, plane, w) for w in listed[: 2 * PATHS_PER_END]]


def _edge(state: BattleState, h: int, facing: int) -> str:
    """The map edge beside hex ``h``, the one ahead (``facing``) first."""
    nb = state.st.map.neighbour
    for d in (facing, *range(6)):
        if nb[h * 6 + d] < 0:
            return EDGE_NAMES[nb[h * 6 + d]]
    return "map"  # not reached: a hex the map is left from has an edge beside it


def _exit_path(state: BattleState, plane: int, way: dict[str, Any]) -> dict[str, Any]:
    colrow = state.st.map.colrow
    failed = None
    if way["checks"]:
        hexes, place, _ = fly(state, plane, way["steps"], False)
        failed = {
            "hex": list(colrow(place.hex)) if place.hex >= 0 else None,
            "facing": place.facing,
            "altitude": place.altitude,
        }
    return {
        "action": MovePlan(plane, way["speed"], way["steps"], way["status"], False).to_json(),
        "speed": way["speed"],
        "label": ", ".join(map(str, way["flown"])),
        "hexes": [list(colrow(h)) for h in way["hexes"]],
        "maneuvers": [
            {"step": n, "kind": mv.kind, "label": str(mv), "chance": round(c, 3)}
            for n, mv, c in way["checks"]
        ],
        "chance": round(way["chance"], 3),
        "statuses": [way["status"]],
        "clouds": False,
        "if_failed": failed,
        "edge": way["edge"],
    }
