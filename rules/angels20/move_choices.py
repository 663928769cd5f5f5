"""Whole moves as a player sees them on the map: end hexes, the paths there, and the odds.

The engine's whole-move plans (:func:`.plans.legal_move_plans`, 000 "MOVING
AIRCRAFT") of the side to act are grouped by where each ends if every
maneuver check succeeds: its end hex, facing and altitude. Each path lists
the hexes it enters, its difficult maneuvers with the chance that each check
succeeds (000 "MANEUVER CHECKS": two dice plus the maneuver bonus against 10,
or 13 at high speed; computed by the engine's own :func:`.preview.maneuver_chance`
on the state as it will be when the check is rolled), and where the aircraft
ends if the check(s) fail (000 "DIFFICULT MANEUVERS"): each path flown by
the engine's walk of a move, :func:`.maneuvers.walk`, which the computer
pilots share. The closing status (000 "AIRCRAFT STATUS") and the attempt to
enter the clouds (000 "CLOUDS") are left to the player: a path lists the
statuses its plans allow.

A plan that leaves the map (000 "THE BATTLE MAP": the aircraft retreats, or
exits by its scenario's edge) has no end hex: it is listed as a way off the
map, by the hex it leaves from and the edge it leaves by (the one the
engine's ``leave_map`` records), the steps after leaving never flown.
Nothing here rolls a die or changes the state.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .actions import Action, Activate, Maneuver, MovePlan, Straight, Turn
from .hexmap import EDGE_NAMES
from .maneuvers import walk
from .phases import MOVEMENT
from .plans import legal_move_plans
from .preview import maneuver_chance

if TYPE_CHECKING:
    from .state import BattleState

PATHS_PER_END = 3  # the likeliest paths to one end; the others are counted, not listed
# the ways off the map from one hex listed: twice the paths to an end (every edge hex is
# left by straight flight, turns and sideslips at several speeds)
WAYS_PER_EXIT = 2 * PATHS_PER_END


@dataclass(frozen=True, slots=True)
class Check:
    """One maneuver check of a path: at hex ``step`` (1 = the first hex of the move)."""

    step: int
    maneuver: Maneuver
    chance: float  # P(success), 000 "MANEUVER CHECKS"


def all_succeed(checks: Sequence[Check]) -> float:
    """P(every check succeeds): the checks are independent rolls (000 "MANEUVER CHECKS")."""
    return math.prod(c.chance for c in checks)


@dataclass(frozen=True, slots=True)
class Place:
    """Where a path leaves the aircraft: hex index (-1: off the map), facing, altitude."""

    hex: int
    facing: int
    altitude: int
    edge: str | None = None  # off the map: the edge left by, as leave_map records it


@dataclass(frozen=True, slots=True)
class Path:
    """One way to an end: speed and steps (a :class:`MovePlan` without its status)."""

    plane: int
    speed: int
    steps: tuple[Action, ...]
    hexes: tuple[int, ...]  # hexes entered, in order (a successful Scissors enters none)
    checks: tuple[Check, ...]
    statuses: tuple[str, ...]  # closing statuses its plans allow
    clouds: bool  # a plan of this path may try to enter the clouds
    failed: Place | None  # where it ends if its check(s) fail; None without a check

    @property
    def chance(self) -> float:
        """P(every check succeeds): the checks are independent rolls."""
        return all_succeed(self.checks)

    def plan(self, status: str = "none", clouds: bool = False) -> MovePlan:
        return MovePlan(self.plane, self.speed, self.steps, status, clouds)


@dataclass(frozen=True, slots=True)
class End:
    """A reachable end (every check succeeding) and the likeliest paths to it."""

    place: Place
    paths: tuple[Path, ...]
    more: int  # further paths to this end, not listed


@dataclass(frozen=True, slots=True)
class Way:
    """One way off the map (000 "THE BATTLE MAP"): a move flown until it leaves.

    The steps after leaving are never flown; a last step straight on or turning
    leaves by the hex ahead (the turn is never made), so those are one way, shown
    straight on. ``status`` is one its plans allow (the move ends off the map).
    """

    plane: int
    speed: int
    steps: tuple[Action, ...]  # the plan's steps, the unflown ones included
    flown: int  # steps flown, the one leaving the map included
    hexes: tuple[int, ...]  # hexes entered before leaving, in order
    checks: tuple[Check, ...]  # the checks of the steps flown
    status: str
    left_from: int  # the hex it leaves the map from
    edge: str  # the edge it leaves by
    failed: Place | None  # where it ends if its check(s) fail; None without a check

    @property
    def chance(self) -> float:
        """P(every check succeeds): it leaves the map."""
        return all_succeed(self.checks)

    def plan(self) -> MovePlan:
        return MovePlan(self.plane, self.speed, self.steps, self.status, False)


@dataclass(frozen=True, slots=True)
class Exit:
    """A hex and edge the aircraft may leave the map by: how many ways, the surest one's chance."""

    hex: int
    edge: str
    ways: int
    chance: float


@dataclass(frozen=True, slots=True)
class PlaneMoves:
    plane: int
    start: Place
    reach: tuple[Reach, ...]  # every end hex, by hex index
    ends: tuple[End, ...]  # the ends in the hex asked about
    plans: int  # whole-move plans of this aircraft, every status and cloud choice counted
    off_map: int  # (speed, steps) flown that leave the map
    exits: tuple[Exit, ...]  # every hex and edge left by, by hex index then edge
    ways: tuple[Way, ...]  # the ways off the map from the hex asked about, likeliest first


def fly(
    s: BattleState, plane: int, steps: tuple[Any, ...], ok: bool
) -> tuple[tuple[int, ...], Place, tuple[int, ...]]:
    """(hexes entered, end place, altitude before each step) of ``steps`` from the plane's place.

    The engine's walk of a move (:func:`.maneuvers.walk`, which the computer
    pilots share), ``ok`` the result of its maneuver checks. Leaving the map
    ends the path (hex -1 and the edge left by, the altitudes up to the step that leaves).
    """
    hexes, end, before = _walk(s, plane, steps, ok)
    return hexes, end, tuple(b[2] for b in before)


def _walk(
    s: BattleState, plane: int, steps: tuple[Any, ...], ok: bool
) -> tuple[tuple[int, ...], Place, list[tuple[int, int, int]]]:
    """:func:`fly` with (hex, facing, altitude) before each step flown."""
    p = s.planes[plane]
    before: list[tuple[int, int, int]] = []
    m = s.st.map
    # the hexes entered listed by their index on the map
    hexes, h, f, alt = walk(m.neighbour, p.hex, p.facing, p.alt, steps, ok, range(m.size), before)
    end = Place(h, f, alt) if h >= 0 else Place(-1, f, alt, EDGE_NAMES[h])
    return tuple(hexes), end, before


class _Odds:
    """Maneuver check chances for one aircraft and speed, on a copy just activated.

    The copy is set to where each check is rolled: the step, and with a
    maneuver ability the aircraft's hex, facing and altitude; the rest of it
    is the state as the move starts.
    """

    def __init__(self, s: BattleState, plane: int, speed: int) -> None:
        self.state = s.clone()
        self.state.apply_unchecked(Activate(plane, speed))  # sets high speed, required status
        self.plane = plane
        # an ability's bonus (abilities: the "maneuver" hook) may read anything of the state
        self.hooked = bool(s.st.hooks[plane].get("maneuver"))
        self.memo: dict[tuple[Any, ...], float] = {}

    def chance(self, index: int, kind: str, alt: int, at: tuple[int, int] | None = None) -> float:
        """The check of ``kind`` announced leaving hex ``index`` (0 = the start) at ``alt``;
        ``at``: (hex, facing) there (None: the start's)."""
        c = self.state
        p = c.planes[self.plane]
        hx, facing = (p.hex, p.facing) if at is None else at
        # without an ability maneuver_chance reads of the step only whether it is the
        # first (000 "CLIMBING STATUS"); with one, all that is set here
        key = (index, kind, hx, facing, alt) if self.hooked else (index == 0, kind)
        got = self.memo.get(key)
        if got is None:
            keep = (c.step_no, c.steps_left, p.hex, p.facing, p.alt, p.dm_tried)
            # as the engine's step when it rolls the check (movement.step)
            c.step_no, c.steps_left = index, p.speed - index
            p.hex, p.facing, p.alt, p.dm_tried = hx, facing, alt, True
            try:
                got = self.memo[key] = maneuver_chance(c, self.plane, kind)
            finally:
                c.step_no, c.steps_left, p.hex, p.facing, p.alt, p.dm_tried = keep
        return got


@dataclass(frozen=True, slots=True)
class Reach:
    """A hex the aircraft may end its move in: how many ends there, the surest path's chance."""

    hex: int
    ends: int  # distinct (facing, altitude) ends in this hex
    chance: float  # P(arriving as planned) of its surest path


def movable(s: BattleState, legal: Sequence[Action] | None = None) -> list[int]:
    """The aircraft the side to act may start moving now (000 "MOVEMENT PHASE");
    ``legal``: ``s.legal_actions()`` when the caller has them already."""
    if s.phase != MOVEMENT or s.mover >= 0:
        return []
    actions = s.legal_actions() if legal is None else legal
    return sorted({a.plane for a in actions if type(a) is Activate})


def move_choices(
    s: BattleState,
    plane: int,
    to_hex: int | None = None,
    *,
    per_end: int = PATHS_PER_END,
    per_exit: int = WAYS_PER_EXIT,
) -> PlaneMoves | None:
    """The whole moves of ``plane`` grouped by end: every reachable hex and every hex and
    edge it may leave the map by, and for ``to_hex`` the ends there with their likeliest
    paths and its ways off the map. None if ``plane`` may not start a move now (outside the
    Movement phase, during a move flown step by step, another side's aircraft).
    """
    plans = legal_move_plans(s, plane)
    if not plans:
        return None
    odds: dict[int, _Odds] = {}
    reach: dict[int, tuple[set[tuple[int, int]], list[float]]] = {}
    ends: dict[Place, list[Path]] = {}
    # one way off the map: (speed, steps before the last flown, how the last one leaves)
    # -> the way as found (the last step straight on preferred)
    offs: dict[tuple[Any, ...], Way] = {}
    off = 0
    for (speed, steps), (statuses, clouds) in _by_steps(plans).items():
        hexes, place, before = _walk(s, plane, steps, True)
        if place.hex < 0:
            off += 1
            _add_way_off(s, plane, speed, steps, statuses[0], hexes, place, before, offs, odds)
            continue
        checks = _checks(s, plane, speed, steps, before, odds)
        chance = all_succeed(checks)
        got_r = reach.setdefault(place.hex, (set(), [0.0]))
        got_r[0].add((place.facing, place.altitude))
        got_r[1][0] = max(got_r[1][0], chance)
        if place.hex != to_hex:
            continue
        failed = fly(s, plane, steps, False)[1] if checks else None
        path = Path(plane, speed, steps, hexes, checks, tuple(statuses), bool(clouds), failed)
        ends.setdefault(place, []).append(path)
    listed = []
    for place in sorted(ends, key=lambda e: (e.facing, e.altitude)):
        paths = sorted(ends[place], key=_likeliest)
        listed.append(End(place, tuple(paths[:per_end]), max(0, len(paths) - per_end)))
    exits, ways = _exits_and_ways(s, plane, list(offs.values()), to_hex, per_exit)
    p = s.planes[plane]
    return PlaneMoves(
        plane,
        Place(p.hex, p.facing, p.alt),
        tuple(Reach(h, len(r[0]), r[1][0]) for h, r in sorted(reach.items())),
        tuple(listed),
        len(plans),
        off,
        exits,
        ways,
    )


def _by_steps(
    plans: Sequence[MovePlan],
) -> dict[tuple[int, tuple[Action, ...]], tuple[list[str], list[bool]]]:
    """The plans by (speed, steps): the statuses each allows, and whether it may try the clouds."""
    by_steps: dict[tuple[int, tuple[Action, ...]], tuple[list[str], list[bool]]] = {}
    for plan in plans:
        k = (plan.speed, plan.steps)
        got = by_steps.get(k)
        if got is None:
            got = by_steps[k] = ([], [])
        if plan.status not in got[0]:
            got[0].append(plan.status)
        if plan.clouds:
            got[1].append(True)
    return by_steps


def _add_way_off(
    s: BattleState,
    plane: int,
    speed: int,
    steps: tuple[Action, ...],
    status: str,
    hexes: tuple[int, ...],
    place: Place,
    before: list[tuple[int, int, int]],
    offs: dict[tuple[Any, ...], Way],
    odds: dict[int, _Odds],
) -> None:
    """A move that leaves the map (000 "THE BATTLE MAP"), kept once per way off: a last
    step straight on or turning leaves the same way (a turn enters the hex ahead first)."""
    flown = steps[: len(before)]  # up to the step that leaves
    last = flown[-1]
    same = (speed, flown[:-1], "ahead" if type(last) in (Straight, Turn) else last)
    seen = offs.get(same)
    if seen is not None:  # the same way off, by a turn or straight on: straight on kept
        if type(last) is Straight:
            offs[same] = dataclasses.replace(seen, steps=steps, status=status)
        return
    left_from = hexes[-1] if hexes else s.planes[plane].hex
    checks = _checks(s, plane, speed, flown, before, odds)
    assert place.edge is not None  # off the map: _walk names the edge
    offs[same] = Way(
        plane, speed, steps, len(flown), hexes, checks, status, left_from, place.edge, None
    )


def _exits_and_ways(
    s: BattleState, plane: int, offs: list[Way], to_hex: int | None, per_exit: int
) -> tuple[tuple[Exit, ...], tuple[Way, ...]]:
    """Every hex and edge left by, and the ways off from ``to_hex``, likeliest first
    (with where failed checks leave the aircraft)."""
    by_exit: dict[tuple[int, str], list[float]] = {}
    for w in offs:
        by_exit.setdefault((w.left_from, w.edge), []).append(w.chance)
    ways = sorted(
        (w for w in offs if w.left_from == to_hex),
        key=lambda w: (-w.chance, len(w.checks), w.speed, w.flown),
    )[:per_exit]
    return (
        tuple(Exit(h, e, len(c), max(c)) for (h, e), c in sorted(by_exit.items())),
        tuple(
            dataclasses.replace(w, failed=fly(s, plane, w.steps, False)[1]) if w.checks else w
            for w in ways
        ),
    )


def _checks(
    s: BattleState,
    plane: int,
    speed: int,
    steps: tuple[Action, ...],
    before: list[tuple[int, int, int]],
    odds: dict[int, _Odds],
) -> tuple[Check, ...]:
    """The maneuver checks of ``steps`` (flown at ``speed``; ``before``: where each is
    rolled, from :func:`_walk`), their chances the engine's (``odds``: by speed)."""
    checks = []
    for i, st in enumerate(steps):
        if type(st) is Maneuver:
            o = odds.get(speed)
            if o is None:
                o = odds[speed] = _Odds(s, plane, speed)
            h, f, alt = before[i]
            checks.append(Check(i + 1, st, o.chance(i, st.kind, alt, (h, f))))
    return tuple(checks)


def _likeliest(path: Path) -> tuple[Any, ...]:
    """Surest first, then fewer maneuvers, fewer turns, lower speed, the engine's order."""
    turns = sum(1 for st in path.steps if type(st) is Turn)
    key = tuple(st.sort_key() for st in path.steps)
    return (-path.chance, len(path.checks), turns, path.speed, key)


def choices_json(s: BattleState, pm: PlaneMoves, to_hex: int | None = None) -> dict[str, Any]:
    """:func:`move_choices` in JSON: hexes as [col, row], each path's action in the engine's
    form; a way off the map in the shape of a path, with its ``edge``."""
    colrow = s.st.map.colrow

    def place(pl: Place) -> dict[str, Any]:
        return {
            "hex": list(colrow(pl.hex)) if pl.hex >= 0 else None,
            "facing": pl.facing,
            "altitude": pl.altitude,
        }

    def checks(cs: tuple[Check, ...]) -> list[dict[str, Any]]:
        return [
            {"step": c.step, "kind": c.maneuver.kind, "label": str(c.maneuver),
             "chance": round(c.chance, 3)}
            for c in cs
        ]  # fmt: skip

    def path_json(path: Path) -> dict[str, Any]:
        return {
            "action": path.plan().to_json(),
            "speed": path.speed,
            "label": ", ".join(map(str, path.steps)),
            "hexes": [list(colrow(h)) for h in path.hexes],
            "maneuvers": checks(path.checks),
            "chance": round(path.chance, 3),
            "statuses": list(path.statuses),
            "clouds": path.clouds,
            "if_failed": place(path.failed) if path.failed else None,
        }

    def way_json(way: Way) -> dict[str, Any]:
        return {
            "action": way.plan().to_json(),
            "speed": way.speed,
            "label": ", ".join(map(str, way.steps[: way.flown])),
            "hexes": [list(colrow(h)) for h in way.hexes],
            "maneuvers": checks(way.checks),
            "chance": round(way.chance, 3),
            "statuses": [way.status],
            "clouds": False,
            "if_failed": place(way.failed) if way.failed else None,
            "edge": way.edge,
        }

    return {
        "plane": pm.plane,
        "name": s.st.names[pm.plane],
        "start": place(pm.start),
        "plans": pm.plans,
        "off_map": pm.off_map,
        "reach": [
            {"hex": list(colrow(r.hex)), "ends": r.ends, "chance": round(r.chance, 3)}
            for r in pm.reach
        ],
        "to": list(colrow(to_hex)) if to_hex is not None and to_hex >= 0 else None,
        "ends": [
            {**place(e.place), "more_paths": e.more, "paths": [path_json(p) for p in e.paths]}
            for e in pm.ends
        ],
        "exits": [
            {
                "hex": list(colrow(x.hex)),
                "edge": x.edge,
                "ways": x.ways,
                "chance": round(x.chance, 3),
            }
            for x in pm.exits
        ],  # fmt: skip
        "exit_paths": [way_json(w) for w in pm.ways],
    }
