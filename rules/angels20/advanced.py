"""Advanced rules (000 "ADVANCED RULES"): tailing, turn position, aircraft status.

Plain functions of the battle state, bound as its methods.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import attacks, conditions, plans
from .actions import (
    END_MOVES,
    STATUS_CLIMBING,
    STATUS_DIVING,
    STATUS_EVADING_LEFT,
    STATUS_EVADING_RIGHT,
    STATUS_NONE,
    STATUSES,
    Action,
)
from .hexmap import FRONT_TABLE, MAX_TABLE_RANGE, REAR_TABLE, TAIL_TABLE
from .plane import IN_PLAY, Plane
from .stats import SIDES

if TYPE_CHECKING:
    from .state import BattleState


# ---------------------------------------------------------------- 000 "TAILING"
_SPAN = 2 * MAX_TABLE_RANGE + 1
_CENTRE = MAX_TABLE_RANGE * _SPAN + MAX_TABLE_RANGE  # .attacks.key of a zero offset


def tailing(s: BattleState, a: int, b: int) -> bool:
    """000 "TAILING": is aircraft ``a`` tailing enemy aircraft ``b``?"""
    pa, pb = s.planes[a], s.planes[b]
    if pa.out or pb.out or pa.side == pb.side or abs(pa.alt - pb.alt) > 1:
        return False
    # 000 "EFFECTS OF BEING IN THE CLOUDS": can't tail or be tailed;
    # 000 "EFFECTS OF DARKNESS": ignore tailing
    if pa.cloud or pb.cloud or s.st.dark:
        return False
    d = s.st.map.distance(pa.hex, pb.hex)
    if not 1 <= d <= 4:
        return False
    return bool(
        REAR_TABLE[attacks.key(s, pb.hex, pa.hex)][pb.facing]
        and FRONT_TABLE[attacks.key(s, pa.hex, pb.hex)][pa.facing]
    )


def tailed_count(s: BattleState, side: int) -> int:
    """How many enemy aircraft ``side`` is tailing (each counted once).

    :func:`tailing` written out over the pairs (twice every game turn):
    the same tests, so the same count.
    """
    st = s.st
    if st.dark:
        return 0
    planes = s.planes
    mine = [p for p in planes if p.side == side and not p.out and not p.cloud]
    if not mine:
        return 0
    q, r = st.map.q, st.map.r
    n = 0
    for pb in planes:
        if pb.side == side or pb.out or pb.cloud:
            continue
        qb, rb, zb, fb = q[pb.hex], r[pb.hex], pb.alt, pb.facing
        for pa in mine:
            # HexMap.distance 1-4, the two halves (tailing()) and altitude within 1, as
            # one TAIL_TABLE lookup at the offset pa -> pb (attacks.key(s, pa.hex, pb.hex))
            dq = qb - q[pa.hex]
            if -MAX_TABLE_RANGE <= dq <= MAX_TABLE_RANGE:
                dr = rb - r[pa.hex]
                if (
                    -MAX_TABLE_RANGE <= dr <= MAX_TABLE_RANGE
                    and -1 <= pa.alt - zb <= 1
                    and TAIL_TABLE[((dq * _SPAN + dr + _CENTRE) * 6 + pa.facing) * 6 + fb]
                ):
                    n += 1
                    break
    return n


# ---------------------------------------------------------------- 000 "CHOOSING TURN POSITION"
def choose_position(s: BattleState, first: bool) -> None:
    """000 "CHOOSING TURN POSITION": the initiative winner moves first or second."""
    w = s.to_act
    s.first = w if first else 1 - w
    s._log("turn_position", side=SIDES[w], first=bool(first))
    conditions.after_initiative(s)


# ---------------------------------------------------------------- 000 "AIRCRAFT STATUS"
def required_options(s: BattleState, p: Plane) -> list[Action]:
    """000 "Required Maneuver": the first hex entered must hold it (status begun in)."""
    return plans.required_maneuvers(s.required, p.alt)


def status_options(s: BattleState, p: Plane) -> list[Action]:
    """000 "AIRCRAFT STATUS": the statuses to end a move in; no Diving at 1, no Climbing at 6."""
    out: list[Action] = [END_MOVES[STATUS_NONE]]
    if p.out == IN_PLAY and not s.st.bomber[p.id]:
        if p.alt > 1:
            out.append(END_MOVES[STATUS_DIVING])
        if p.alt < 6:
            out.append(END_MOVES[STATUS_CLIMBING])
        out.append(END_MOVES[STATUS_EVADING_LEFT])
        out.append(END_MOVES[STATUS_EVADING_RIGHT])
    return out


def end_move_status(s: BattleState, status: int) -> None:
    """000 "AIRCRAFT STATUS": the moving aircraft ends its move in ``status``."""
    p = s.planes[s.mover]
    p.status = status
    if status:
        s.log.append({"plane": p.id, "status": STATUSES[status], "e": "status", "turn": s.turn})
    conditions.complete_move(s, p)
