"""Shared helpers for the engine tests: place aircraft by axial coordinates."""

from __future__ import annotations

from rules.angels20 import CATALOGUE, AircraftSetup, Rules, ScriptedDice, new_battle
from rules.angels20.hexmap import axial_to_offset, offset_to_axial

Q0, R0 = 12, 2  # axial shift so that small axial coordinates land mid-map (Q0 even)
W, H = 30, 30


def at(q: int, r: int) -> tuple[int, int]:
    """Map (col, row) of axial (q, r) relative to the test origin."""
    return axial_to_offset(q + Q0, r + R0 + 6)


def axial(col: int, row: int) -> tuple[int, int]:
    q, r = offset_to_axial(col, row)
    return q - Q0, r - R0 - 6


def plane(name: str, side: str, q: int, r: int, facing: int, alt: int = 3, **kw) -> AircraftSetup:
    stats = kw.pop("stats", None) or CATALOGUE[name]
    col, row = at(q, r)
    return AircraftSetup(
        stats=stats, side=side, col=col, row=row, facing=facing, altitude=alt, **kw
    )


PAD = [6, 6, 1, 1] * 6  # spare initiative rolls (Axis wins) for turns a test runs into


def battle(
    aircraft, dice, rules: Rules | None = None, pad: bool = True, kind: str = "custom", **kw
):
    from rules.angels20 import Scenario

    sc = Scenario(
        name="test",
        kind=kind,
        aircraft=tuple(aircraft),
        rules=rules or Rules(),
        width=W,
        height=H,
        **kw,
    )
    return new_battle(sc, ScriptedDice(list(dice) + (PAD if pad else [])))


def where(state, i: int) -> tuple[tuple[int, int], int, int]:
    """(axial position, facing, altitude) of aircraft ``i``."""
    p = state.planes[i]
    return axial(*state.st.map.colrow(p.hex)), p.facing, p.alt


def events(state, kind: str) -> list[dict]:
    return [e for e in state.log if e["e"] == kind]


def play(state, *actions) -> None:
    for a in actions:
        state.apply(a)


def back(q: int, r: int, facing: int, n: int = 2) -> tuple[int, int]:
    """The hex ``n`` hexes behind (q, r) for an aircraft facing ``facing``."""
    from rules.angels20.hexmap import DIRECTIONS

    dq, dr = DIRECTIONS[facing]
    return q - n * dq, r - n * dr


def pre(name: str, side: str, q: int, r: int, facing: int, alt: int = 3, **kw) -> AircraftSetup:
    """An aircraft placed so that 2 hexes straight ahead put it at (q, r)."""
    bq, br = back(q, r, facing)
    return plane(name, side, bq, br, facing, alt, **kw)


def advance(state, status: str = "none", then_dice=None) -> None:
    """Fly every aircraft straight at speed 2 until the Movement phase ends.

    ``then_dice`` are appended to a scripted dice just before the move that
    ends the phase (the attack phase or the next initiative may roll at once).
    """
    from rules.angels20 import Activate, EndMove, Straight

    turn = state.turn
    while state.phase == "movement" and state.turn == turn:
        last = state.mover >= 0 and sum(1 for p in state.planes if not p.out and not p.moved) == 1
        if (
            last
            and then_dice is not None
            and (state.awaiting_status or (state.steps_left == 1 and not state.st.rules.status))
        ):
            state.dice.extend(list(then_dice))
            then_dice = None
        if state.mover < 0:
            act = next(a for a in state.legal_actions() if isinstance(a, Activate) and a.speed == 2)
            state.apply(act)
        elif state.awaiting_status:
            state.apply(EndMove(status))
        else:
            state.apply(Straight())


def at_attack(aircraft, attack_dice=(), rules: Rules | None = None, init=(6, 6, 1, 1), **kw):
    """A battle whose aircraft (placed with :func:`pre`) are now in the Attack phase.

    With the default initiative dice the Axis wins: the Allies are first player.
    """
    s = battle(aircraft, list(init), rules, pad=False, **kw)
    advance(s, then_dice=list(attack_dice) + PAD)
    return s
