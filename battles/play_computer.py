"""The computer's decisions in a battle flown by people (issue 14): a seat of a computer
pilot, a side or aircraft a person handed over (docs/rulings.md, "Play by web: handing
over"), and the pilot a person lets make one decision. Each decision's pilot is seeded from
the battle's seed, the side and the number of actions before it, so the same battle makes
the same decisions."""

from __future__ import annotations

from typing import Any, cast

from rules.angels20 import Action, BattleState
from rules.angels20.stats import SIDES as ENGINE_SIDES
from rules.dice import derive_seed
from rules.tactical import choose_for, deciding_sides, system_named

from .models import Battle
from .play_seats import default_pilot, seats_of

MAX_COMPUTER_ACTIONS = 20_000  # a computer seat's run of decisions; a bug, not a battle, beyond


def pilot_of(battle: Battle, side: str) -> str:
    """A side's computer pilot: its seat's, or its person's stand-in (default_pilot)."""
    return str(seats_of(battle).get(side, {}).get("pilot") or default_pilot(battle.system))


def _handed_aircraft(battle: Battle, state: BattleState, side: int) -> set[int] | None:
    """The side's aircraft the computer flies (None: the whole side)."""
    name = ENGINE_SIDES[side]
    seat = seats_of(battle).get(name, {})
    handed = (battle.handed or {}).get(name)
    if "user" not in seat or handed == "side":
        return None
    if not isinstance(state, BattleState):
        return set()  # a game without Angels 20's aircraft here: only a whole side is handed
    ids = set(handed or [])
    in_play = set(state.in_play(side))
    if in_play and in_play <= ids:
        return None  # every aircraft still flying is the computer's: so is the side
    return ids


def _decision_aircraft(state: BattleState) -> set[int]:
    """The aircraft this decision is about: the one moving, or those its choices name."""
    if state.mover >= 0:
        return {state.mover}
    named: set[int] = set()
    for action in state.legal_actions():
        data = action.to_json()
        for key in ("plane", "attacker"):
            if key in data:
                named.add(data[key])
        named.update(data.get("planes", ()))
    return named


def computer_decides(battle: Battle, state: BattleState) -> tuple[str, set[int] | None, int] | None:
    """Is a decision awaited now the computer's? (its pilot, the aircraft it may move, the
    side) or None; of several sides deciding at once (rules.tactical.deciding_sides), the
    first whose decision is the computer's."""
    for side in deciding_sides(state):
        who = computer_for(battle, state, side)
        if who is not None:
            return (*who, side)
    return None


def computer_for(
    battle: Battle, state: BattleState, side: int
) -> tuple[str, set[int] | None] | None:
    """Is ``side``'s decision the computer's? (its pilot, the aircraft it may move) or None.

    A seat of a computer pilot, a side handed to the computer, or a decision about
    the handed aircraft only. When the side chooses which aircraft moves next and some
    of its handed aircraft may, the computer flies one of those first (docs/rulings.md,
    "Play by web: handing over")."""
    seat = seats_of(battle).get(ENGINE_SIDES[side], {})
    if "user" not in seat:
        return (seat["pilot"], None) if "pilot" in seat else None
    handed = _handed_aircraft(battle, state, side)
    pilot = pilot_of(battle, ENGINE_SIDES[side])
    if handed is None:
        return pilot, None
    if not handed:
        return None
    about = _decision_aircraft(state)
    if about and about <= handed:
        return pilot, None
    if state.phase == "movement" and state.mover < 0 and about & handed:
        return pilot, about & handed
    return None


def _choose(
    battle: Battle,
    state: BattleState,
    pilot: str,
    before: int,
    only: set[int] | None = None,
    side: int | None = None,
) -> Action:
    """The computer's decision (for ``side``); with ``only``, one that moves one of those
    aircraft (the pilot chooses on a copy where the side's other aircraft have already moved)."""
    if only is None:
        return pilot_choice(battle, state, pilot, before, side)
    view = state.clone()
    for plane in view.planes:
        if plane.side == view.to_act and plane.id not in only:
            plane.moved = True
    return pilot_choice(battle, view, pilot, before)


def computer_acts(battle: Battle, state: BattleState, actions: list[dict[str, Any]]) -> int:
    """The computer decides while the decision is its (a computer seat, or what a person
    handed over); returns how many actions it took.

    Each decision's pilot is seeded from the battle's seed, the side and the
    number of actions before it (``derive_seed``), so the same battle makes the
    same decisions; the replay needs only the stored actions anyway."""
    taken = 0
    while (who := computer_decides(battle, state)) is not None:
        if taken >= MAX_COMPUTER_ACTIONS:
            raise RuntimeError(f"computer pilots took {taken} actions without a person's turn")
        pilot, only, side = who
        action = _choose(battle, state, pilot, len(actions), only, side)
        state.apply(action)
        actions.append(action.to_json())
        taken += 1
    return taken


def pilot_choice(
    battle: Battle, state: BattleState, pilot: str, before: int, side: int | None = None
) -> Action:
    """The computer pilot ``pilot``'s decision for ``side`` (the side to act unless given),
    ``before`` actions in."""
    system = system_named(battle.system)
    side = (state.current_side() or 0) if side is None else side
    seed = derive_seed(system.pilot_seed(battle.seed, system.sides[side]), f"decision {before}")
    return cast(Action, choose_for(system.computer_pilot(pilot, seed), state, side))
