"""Shared helpers for the engine tests: place aircraft by axial coordinates."""

from __future__ import annotations

from battles.engine import CATALOGUE, AircraftSetup, Rules, ScriptedDice, custom, new_battle
from battles.engine.hexmap import axial_to_offset, offset_to_axial

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


def battle(aircraft, dice, rules: Rules | None = None, **kw):
    sc = custom(aircraft, rules=rules or Rules(), width=W, height=H, **kw)
    return new_battle(sc, ScriptedDice(list(dice)))


def where(state, i: int) -> tuple[tuple[int, int], int, int]:
    """(axial position, facing, altitude) of aircraft ``i``."""
    p = state.planes[i]
    return axial(*state.st.map.colrow(p.hex)), p.facing, p.alt


def events(state, kind: str) -> list[dict]:
    return [e for e in state.log if e["e"] == kind]


def play(state, *actions) -> None:
    for a in actions:
        state.apply(a)
