"""Where a move's steps take an aircraft (000 "MOVING AIRCRAFT", "DIFFICULT MANEUVERS").

:func:`maneuver_outcome`, what a difficult maneuver does succeeded or failed,
is what the battle state applies to an aircraft; :func:`walk`, a whole
sequence of steps foreseen over any hex grid given as a neighbour table, is
how the move choices of the play page (on the map) and the computer pilots
(relative to the aircraft) foresee a path. Each rule is written once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple, TypeVar

from .actions import Straight, Turn

if TYPE_CHECKING:
    from .actions import Action

_H = TypeVar("_H")


class ManeuverOutcome(NamedTuple):
    """Where an aircraft goes when it flies a maneuver.

    ``enter`` is the direction of the hex it enters (None: it stays in its
    hex); ``facing`` and ``climb`` (altitude bands gained, negative for a
    dive) take effect once that hex has been entered on the map.
    """

    enter: int | None
    facing: int
    climb: int


def maneuver_outcome(kind: str, option: int, facing: int, ok: bool) -> ManeuverOutcome:
    """The effect of maneuver ``kind`` with ``option`` for an aircraft facing ``facing``."""
    if kind in ("break", "barrel_roll"):
        if not ok:
            return ManeuverOutcome(facing, facing, 0)
        # sideslip to 10 / 2 o'clock; Break also turns one hex side that way
        side = (facing + option) % 6
        return ManeuverOutcome(side, side if kind == "break" else facing, 0)
    if kind == "climb":
        return ManeuverOutcome(facing, facing, 1 if ok else 0)
    if kind == "power_dive":
        return ManeuverOutcome(facing, facing, -option if ok else -1)
    if kind == "split_s":
        return ManeuverOutcome(facing, (facing + option) % 6 if ok else facing, -1)
    if kind == "scissors":
        # success: remain in the hex, counting it as one hex of movement
        return ManeuverOutcome(None, facing, 0) if ok else ManeuverOutcome(facing, facing, 0)
    if kind == "tight_turn":
        return ManeuverOutcome(facing, (facing + (2 * option if ok else option)) % 6, 0)
    raise ValueError(f"unknown maneuver {kind!r}")


def walk(
    neighbour: Sequence[int],
    at: int,
    facing: int,
    alt: int,
    steps: Iterable[Action],
    ok: bool,
    names: Sequence[_H],
    before: list[tuple[int, int, int]] | None = None,
) -> tuple[list[_H], int, int, int]:
    """Where ``steps`` take an aircraft in hex ``at`` with ``facing`` and ``alt``.

    ``neighbour[h * 6 + d]`` is the hex in direction ``d`` from ``h``, negative
    off the grid (a map's edge code, :class:`.hexmap.HexMap`). As the engine's
    step (``movement.step``): straight and a normal turn enter the hex ahead, a
    turn then turns one hex side; a difficult maneuver's effect, with ``ok`` its
    check's result, is :func:`maneuver_outcome`. Leaving the grid ends the walk
    (000 "THE BATTLE MAP": the aircraft has retreated), facing and altitude as
    they were before that step.

    Returns (``names[h]`` of each hex ``h`` entered, in order; the end hex or
    the negative code of the grid edge left by; facing; altitude). ``before``,
    if given, receives (hex, facing, altitude) before each step flown, the
    leaving step included: where the step's maneuver check is rolled.
    """
    entered: list[_H] = []
    for st in steps:
        if before is not None:
            before.append((at, facing, alt))
        t = type(st)
        if t is Straight or t is Turn:
            nxt = neighbour[at * 6 + facing]
            if nxt < 0:
                return entered, nxt, facing, alt
            at = nxt
            entered.append(names[at])
            if t is Turn:
                facing = (facing + st.direction) % 6  # type: ignore[attr-defined]
            continue
        out = maneuver_outcome(st.kind, st.option, facing, ok)  # type: ignore[attr-defined]
        if out.enter is not None:
            nxt = neighbour[at * 6 + out.enter]
            if nxt < 0:
                return entered, nxt, facing, alt
            at = nxt
            entered.append(names[at])
        facing = out.facing
        alt += out.climb
    return entered, at, facing, alt
