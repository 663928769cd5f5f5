"""Helpers for the card-game tests: fixed deck orders, scripted dice, scenarios."""

from __future__ import annotations

from collections import Counter

from rules.cardgame import (
    ALLIED,
    AXIS,
    SIDES,
    Advance,
    Assign,
    GameState,
    default_setup,
    new_game,
)
from rules.cardgame.state import ASSIGN, MISSION
from rules.dice import ScriptedDice

SETUP = default_setup()


def fresh(first: str = ALLIED, dice: tuple[int, ...] = ()) -> GameState:
    """A new game with decks in list order; ``first`` wins the roll-off."""
    script = ScriptedDice([2, 1] if first == ALLIED else [1, 2])
    state = new_game(SETUP, script, shuffle=False)
    script.extend(list(dice))
    return state


def add_dice(state: GameState, *values: int) -> None:
    state.dice.extend(list(values))


def _find(state: GameState, pile: list[str], name: str) -> str:
    for cid in pile:
        if state.card_name(cid) == name:
            return cid
    raise AssertionError(f"{name!r} not in pile")


def stack_top(state: GameState, deck: str, names: list[str]) -> list[str]:
    """Move the named cards (from deck or discard) to the top of ``deck``, in order."""
    pile, discard = state._piles(deck)
    ids = []
    for name in names:
        for source in (pile, discard):
            if any(state.card_name(c) == name for c in source):
                cid = _find(state, source, name)
                source.remove(cid)
                ids.append(cid)
                break
        else:
            raise AssertionError(f"{name!r} is neither in {deck} nor its discard")
    pile[0:0] = ids
    return ids


def give_events(state: GameState, side: str, names: list[str]) -> list[str]:
    ids = []
    for name in names:
        for pile in (state.event_deck, state.event_discard, *state.hands.values()):
            if any(state.card_name(c) == name for c in pile):
                cid = _find(state, pile, name)
                pile.remove(cid)
                state.hands[side].append(cid)
                ids.append(cid)
                break
        else:
            raise AssertionError(f"event {name!r} not found")
    return ids


def empty_hands(state: GameState) -> None:
    for side in SIDES:
        state.event_deck.extend(state.hands[side])
        state.hands[side] = []


def put_plane(state: GameState, side: str, name: str, xm: int = 0) -> str:
    stack_top(state, f"plane:{side}", [name])
    (pid,) = state._put_planes_in_play(side, 1, "test")
    state.planes[pid]["xm"] = xm
    return pid


def put_mission(state: GameState, name: str) -> str:
    (mid,) = stack_top(state, "mission", [name])
    state._put_missions_in_play(1, "test")
    return mid


def mission_scenario(
    attack: dict[str, list[str]],
    defenders: list[str] = (),
    attacker: str = ALLIED,
    hands: dict[str, list[str]] | None = None,
    launch: bool = True,
    xm: dict[str, int] | None = None,
):
    """Attacker's Mission phase (not its first turn) with the given missions
    (in order) and planes assigned; defender fighters in play (unassigned).

    Returns (state, planes) where planes maps "<name>" (or "<name>#2" for a
    second copy) to instance ids and "m:<mission name>" to mission ids.
    """
    defender = AXIS if attacker == ALLIED else ALLIED
    state = fresh(first=attacker)
    empty_hands(state)
    state.turns_taken = {s: 1 for s in SIDES}
    ids: dict[str, str] = {}
    xm = xm or {}

    def key(name):
        k, n = name, 1
        while k in ids:
            n += 1
            k = f"{name}#{n}"
        return k

    assigned: list[tuple[str, str]] = []
    for mission, planes in attack.items():
        ids[f"m:{mission}"] = put_mission(state, mission)
        for name in planes:
            k = key(name)
            ids[k] = put_plane(state, attacker, name, xm.get(k, 0))
            assigned.append((k, mission))
    for name in defenders:
        k = key(name)
        ids[k] = put_plane(state, defender, name, xm.get(k, 0))
    for side, names in (hands or {}).items():
        give_events(state, side, names)
    state.phase = MISSION
    state.step = ASSIGN
    state.priority = attacker
    state.passes = 0
    for k, mission in assigned:
        state.apply(Assign(attacker, ids[k], ids[f"m:{mission}"]))
    if launch:
        state.apply(Advance(attacker))
    return state, ids


def card_locations(state: GameState) -> Counter[str]:
    """Every card id, counted once per place it is found."""
    where: Counter[str] = Counter()
    for side in SIDES:
        where.update(state.plane_deck[side])
        where.update(state.plane_discard[side])
        where.update(state.hands[side])
    where.update(p["card"] for p in state.planes.values())
    where.update(state.mission_deck)
    where.update(state.mission_discard)
    where.update(state.missions_in_play)
    where.update(state.event_deck)
    where.update(state.event_discard)
    return where


def assert_cards_consistent(state: GameState) -> None:
    where = card_locations(state)
    expected = Counter(state.setup.all_card_ids())
    if dict(where) != dict(expected):  # (plain dict comparison is much faster than Counter's)
        raise AssertionError({c: n for c, n in (where - expected) + (expected - where)})
