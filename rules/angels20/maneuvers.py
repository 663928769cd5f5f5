"""What a difficult maneuver does, succeeded or failed (000 "DIFFICULT MANEUVERS").

One pure function that the battle state applies to an aircraft and the
computer pilots use to foresee a path, so the rule is written once.
"""

from __future__ import annotations

from typing import NamedTuple


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
