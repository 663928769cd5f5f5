"""Step options and whole-move plans (000 "MOVING AIRCRAFT", "DIFFICULT MANEUVERS").

The static tables of what a moving aircraft may do in its next hex, and
:func:`legal_move_plans`, every whole move an aircraft may announce.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from . import conditions, legality
from .actions import (
    ALL_MANEUVERS,
    STATUS_CLIMBING,
    STATUS_DIVING,
    STATUS_EVADING_LEFT,
    STATUS_NONE,
    STATUSES,
    STRAIGHT,
    TURN_LEFT,
    TURN_RIGHT,
    Action,
    Activate,
    Maneuver,
    MovePlan,
    Turn,
)
from .phases import MOVEMENT

if TYPE_CHECKING:
    from .plane import Plane
    from .state import BattleState


def dm_ok(m: Maneuver, alt: int) -> bool:
    """000 "DIFFICULT MANEUVERS" at the altitude limits (ruling "Maneuvers at the altitude limits")."""
    if m.kind == "climb":
        return alt <= 5
    if m.kind == "power_dive":
        return alt - m.option >= 1
    if m.kind == "split_s":
        return alt >= 2
    return True


# the maneuvers allowed at each altitude
DMS_AT_ALT = {alt: tuple(m for m in ALL_MANEUVERS if dm_ok(m, alt)) for alt in range(1, 7)}


def _step_options() -> dict[tuple[bool, bool, int], tuple[Action, ...]]:
    out: dict[tuple[bool, bool, int], tuple[Action, ...]] = {}
    for alt in range(1, 7):
        for turn_ok in (False, True):
            for dm in (False, True):
                opts: list[Action] = [STRAIGHT]
                if turn_ok:
                    opts += [TURN_LEFT, TURN_RIGHT]
                if dm:
                    opts += list(DMS_AT_ALT[alt])
                out[(turn_ok, dm, alt)] = tuple(opts)
    return out


# (may turn, may maneuver, altitude) -> the next hex's options (000 "MOVING AIRCRAFT")
STEP_OPTIONS = _step_options()


def high_speed_blocked(s: BattleState, p: Plane) -> bool:
    """000 "High Speed": no turn or maneuver in the hex after one."""
    return p.high and s.last_man == s.step_no


def fuel_no_turn(s: BattleState, p: Plane) -> bool:
    """000 "LIMITED FUEL": until attacked, the bombers can't turn."""
    return s.st.bomber[p.id] and s.scenario.kind == "limited_fuel" and not p.attacked


def second_dms(extra: tuple[tuple[str, str], ...], first: str, lo: int, hi: int) -> list[Action]:
    """Maneuvers an ability allows after ``first`` in the same move, legal at any altitude lo..hi."""
    kinds = {second for f, second in extra if f == first}
    return [
        m
        for m in ALL_MANEUVERS
        if m.kind in kinds and all(dm_ok(m, a) for a in range(max(lo, 1), min(hi, 6) + 1))
    ]


def required_maneuvers(required: int, alt: int) -> list[Action]:
    """000 "Required Maneuver": the options in the first hex entered, for the status begun in."""
    got = _REQUIRED.get((required, alt))
    return list(got if got is not None else _required_maneuvers(required, alt))


def _required_maneuvers(required: int, alt: int) -> tuple[Action, ...]:
    if required == STATUS_DIVING:
        opts: list[Action] = [m for m in DMS_AT_ALT[alt] if m.kind == "power_dive"]
    elif required == STATUS_CLIMBING:
        opts = [m for m in DMS_AT_ALT[alt] if m.kind == "climb"]
    else:
        d = -1 if required == STATUS_EVADING_LEFT else 1
        opts = [Turn(d), Maneuver("tight_turn", d)]
    return tuple(opts or [STRAIGHT])


# (status begun in, altitude) -> the options of the first hex entered
_REQUIRED = {
    (st, alt): _required_maneuvers(st, alt)
    for st in range(1, len(STATUSES))  # every status but none
    for alt in range(1, 7)
}


@lru_cache(maxsize=4096)
def plan_steps(
    speed: int,
    high: bool,
    alt: int,
    required: int,
    bomber: bool,
    no_turn: bool,
    extra: tuple[tuple[str, str], ...] = (),
) -> tuple[tuple[tuple[Action, ...], int, int], ...]:
    """Every relative step sequence of a whole move, with the altitude range it may end in.

    ``extra`` are the (first, second) maneuver pairs an ability allows in one
    move (abilities "extra_maneuver").
    """
    out: list[tuple[tuple[Action, ...], int, int]] = []

    def rec(
        n: int, last: int, dm: bool, steps: tuple[Action, ...], lo: int, hi: int, first: str = ""
    ) -> None:
        if n == speed:
            out.append((steps, lo, hi))
            return
        if n == 0 and required:
            opts = required_maneuvers(required, alt)
        else:
            blocked = high and last == n  # 000 "High Speed"
            if bomber:
                opts = list(STEP_OPTIONS[(not blocked and not no_turn, False, alt)])
            else:
                opts = list(STEP_OPTIONS[(not blocked, not blocked and not dm, alt)])
                if dm and first and extra and not blocked:
                    opts += second_dms(extra, first, lo, hi)
        for o in opts:
            if o is STRAIGHT:
                rec(n + 1, last, dm, (*steps, o), lo, hi, first)
            elif isinstance(o, Turn):
                rec(n + 1, n + 1, dm, (*steps, o), lo, hi, first)
            else:
                assert isinstance(o, Maneuver)
                nlo, nhi = lo, hi
                if o.kind == "climb":
                    nhi = hi + 1
                elif o.kind == "power_dive":
                    nlo, nhi = lo - o.option, hi - 1
                elif o.kind == "split_s":
                    nlo, nhi = lo - 1, hi - 1
                # a second maneuver (dm already True) closes the move's maneuvers
                rec(n + 1, n + 1, True, (*steps, o), nlo, nhi, "" if dm else o.kind)

    rec(0, -9, False, (), alt, alt)
    return tuple(out)


def legal_move_plans(
    s: BattleState, plane: int | None = None, *, statuses: bool = True
) -> list[MovePlan]:
    """Whole-move plans for the side to act (movement phase, between activations).

    Steps are relative (straight / turn / maneuver), so a plan stays legal
    whatever its maneuver check rolls; a plan that flies off the map ends
    there. Closing statuses are those legal at every altitude the plan's
    maneuver could leave the aircraft at. Plans depend only on (speed,
    altitude, required maneuver, ..., the cloud bands), never on the
    position, so they are built once per key and cached in the tables that
    every battle of the same aircraft and rules shares.
    """
    if s.phase != MOVEMENT or s.mover >= 0:
        return []
    st = s.st
    out: list[MovePlan] = []
    use_status = statuses and st.rules.status
    cache = st.plan_cache
    for act in legality.activations(s):
        assert type(act) is Activate  # not isinstance(): Action is an ABC (slow)
        if plane is not None and act.plane != plane:
            continue
        p = s.planes[act.plane]
        bomber = st.bomber[act.plane]
        k = (
            act.plane,
            act.speed,
            p.alt,
            p.status if st.rules.status else STATUS_NONE,
            fuel_no_turn(s, p),
            use_status and not bomber,
            # the random cloud bands differ battle to battle; the tables are shared
            s.cloud_bands if st.clouds_on else None,
        )
        plans = cache.get(k)
        if plans is None:
            plans = cache[k] = _build_plans(s, act, k)
        out.extend(plans)
    return out


def _build_plans(
    s: BattleState, act: Activate, k: tuple[int, int, int, int, bool, bool, tuple[str, ...] | None]
) -> tuple[MovePlan, ...]:
    """The plans of one cache key (see :func:`legal_move_plans`)."""
    st = s.st
    bomber = st.bomber[act.plane]
    seqs = plan_steps(
        act.speed,
        act.speed in st.high_speeds[act.plane],
        k[2],
        k[3],
        bomber,
        k[4],
        () if bomber else st.extra_dm[act.plane],
    )
    built = []
    bands = s.cloud_bands  # part of the key when clouds are on
    for steps, lo, hi in seqs:
        # 000 "CLOUDS": a move that may end in a heavy or light band may try to enter them
        choice = st.clouds_on and any(
            bands[a - 1] in conditions.CLOUD_NEED for a in range(max(lo, 1), min(hi, 6) + 1)
        )
        for clouds in (False, True) if choice else (False,):
            if not k[5]:
                built.append(MovePlan(act.plane, act.speed, steps, "none", clouds))
                continue
            for status in STATUSES:
                if status == "diving" and lo <= 1:
                    continue
                if status == "climbing" and hi >= 6:
                    continue
                built.append(MovePlan(act.plane, act.speed, steps, status, clouds))
    return tuple(built)
