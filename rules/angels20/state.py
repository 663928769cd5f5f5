"""The battle state: the whole Angels 20 tactical game (000 "SEQUENCE OF PLAY").

Shape of python-chess / OpenSpiel: a frozen :class:`~rules.angels20.scenario.Scenario`
and a mutable :class:`BattleState` with :meth:`~BattleState.current_side`,
sorted :meth:`~BattleState.legal_actions`, checked :meth:`~BattleState.apply`
(raising :class:`IllegalAction`, which names the rule), fast
:meth:`~BattleState.apply_unchecked`, :meth:`~BattleState.undo` by snapshot,
cheap :meth:`~BattleState.clone`, :meth:`~BattleState.is_over`,
:meth:`~BattleState.result`, and exact JSON round trip.

Phases run by themselves where nobody has a choice: the initiative roll,
the stacking check at the end of the Movement phase, a side with no attack
left in the Attack phase, and the end of the game turn. Every die goes
through the state's one :class:`~rules.dice.Dice` and every step is
an event in :attr:`BattleState.log` (plain JSON-ready dicts).
"""

from __future__ import annotations

import json
from functools import lru_cache
from itertools import combinations
from typing import Any

from rules.dice import Dice, ScriptedDice

from . import abilities
from .actions import (
    ALL_MANEUVERS,
    DECLINE,
    END_MOVES,
    ENTER_CLOUDS,
    MANEUVER_BONUS,
    MANEUVERS,
    PASS,
    STATUS_CLIMBING,
    STATUS_DIVING,
    STATUS_EVADING_LEFT,
    STATUS_EVADING_RIGHT,
    STATUS_NONE,
    STATUSES,
    STRAIGHT,
    TURN_LEFT,
    TURN_RIGHT,
    Action,
    Activate,
    Attack,
    ChoosePosition,
    Decline,
    Direct,
    EndMove,
    EnterClouds,
    Maneuver,
    MovePlan,
    Pass,
    Reposition,
    Straight,
    Turn,
    action_from_json,
)
from .hexmap import (
    ARC_TABLE,
    ASPECT_TABLE,
    CLOCK_NAMES,
    EDGE_NAMES,
    FRONT_TABLE,
    MAX_TABLE_RANGE,
    REAR_TABLE,
    hex_map,
)
from .maneuvers import maneuver_outcome
from .scenario import Scenario
from .stats import FIGHTER_KINDS, PILOT_RANK, SIDES

FORMAT_VERSION = 1

# phases
INITIATIVE, POSITION, DIRECTION, MOVEMENT, REPOSITION, ATTACK, OVER = (
    "initiative",
    "position",
    "direction",
    "movement",
    "reposition",
    "attack",
    "over",
)

# 000 "RANDOM CLOUD ARRANGEMENT": chart column by d6 (1, 2, 3-4, 5-6), bands 1-6.
CLOUD_CHART = (
    ("light", "solid", "heavy", "heavy", "light", "clear"),
    ("clear", "solid", "heavy", "light", "clear", "clear"),
    ("clear", "heavy", "light", "clear", "clear", "clear"),
    ("clear", "light", "light", "clear", "clear", "clear"),
)
CLOUD_COLUMN = {1: 0, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}
# 000 "CLOUDS": the roll to enter the clouds at the end of a move.
CLOUD_NEED = {"heavy": 3, "light": 5}
# 000 "ILLUMINATION": illuminated on this roll or higher, by aircraft class.
ILLUMINATION_NEED = {
    "heavy bomber": 2,
    "medium bomber": 3,
    "bomber": 3,
    "light bomber": 4,
    "heavy fighter": 4,
    "fighter": 5,
    "naval fighter": 5,
}
FLAK_TARGET = 4  # 000 "FLAK FIELDS" / Resolve Attacks Normally

# what became of an aircraft
IN_PLAY, DESTROYED, RETREATED, EXITED = 0, 1, 2, 3
OUT_NAMES = ("in play", "destroyed", "retreated", "exited")

_SPAN = 2 * MAX_TABLE_RANGE + 1


class IllegalAction(ValueError):
    """An action the rules do not allow now. ``rule`` names the rule broken."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} [{rule}]")
        self.rule = rule
        self.message = message


class Plane:
    """Mutable per-battle record of one aircraft (ids index ``scenario.aircraft``)."""

    __slots__ = (
        "id",
        "side",
        "hex",
        "facing",
        "alt",
        "speed",
        "high",
        "status",
        "damage",
        "moved",
        "fired",
        "grounded",
        "out",
        "prev_hex",
        "seq",
        "dm_tried",
        "attacked",
        "killer",
        "survival",
        "exit_edge",
        "cloud",
        "directed",
        "lit",
        "adjusted",
    )

    FIELDS = __slots__

    def copy(self) -> Plane:
        p = Plane.__new__(Plane)
        for f in Plane.__slots__:
            setattr(p, f, getattr(self, f))
        return p

    def as_tuple(self) -> tuple[Any, ...]:
        return tuple(getattr(self, f) for f in Plane.__slots__)

    @classmethod
    def from_tuple(cls, t: tuple[Any, ...] | list[Any]) -> Plane:
        p = Plane.__new__(Plane)
        for f, v in zip(Plane.__slots__, t, strict=True):
            setattr(p, f, v)
        return p


def _illumination_need(kind: str, is_bomber: bool) -> int:
    """000 "ILLUMINATION" by class; a fighter card flying as a bomber counts as a medium bomber."""
    if is_bomber and kind in FIGHTER_KINDS:
        kind = "medium bomber"
    return ILLUMINATION_NEED[kind]


class _Static:
    """Per-scenario tables shared (never mutated) by every clone of a battle."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self.rules = scenario.rules
        self.map = hex_map(scenario.width, scenario.height)
        n = len(scenario.aircraft)
        self.n = n
        self.side = tuple(SIDES.index(a.side) for a in scenario.aircraft)
        self.cost = tuple(a.stats.cost for a in scenario.aircraft)
        self.rank = tuple(PILOT_RANK[a.pilot_quality] for a in scenario.aircraft)
        self.attack = tuple(a.stats.attack for a in scenario.aircraft)
        self.armor = tuple(a.stats.armor for a in scenario.aircraft)
        self.vital = tuple(a.stats.vital_armor for a in scenario.aircraft)
        self.hits = tuple(a.stats.hits for a in scenario.aircraft)
        self.bonus = tuple(
            {
                "turn": a.stats.turn,
                "roll": a.stats.roll,
                "climb": a.stats.climb,
                "dive": a.stats.dive,
            }
            for a in scenario.aircraft
        )
        self.climb = tuple(a.stats.climb for a in scenario.aircraft)
        self.bomber = tuple(a.stats.is_bomber for a in scenario.aircraft)
        self.role = tuple(a.role for a in scenario.aircraft)
        self.names = tuple(f"#{i} {a.stats.name}" for i, a in enumerate(scenario.aircraft))
        self.hooks = tuple(abilities.hooks_for(a.stats.abilities) for a in scenario.aircraft)
        self.any_hooks = {h: any(h in hk for hk in self.hooks) for h in abilities.HOOKS}
        normal = []
        high = []
        for i, a in enumerate(scenario.aircraft):
            s = a.stats
            normal.append(tuple(Activate(i, v) for v in range(s.speed_min, s.speed_max + 1)))
            if s.high_speed_min is None:
                high.append(())
            else:
                high.append(
                    tuple(Activate(i, v) for v in range(s.high_speed_min, s.high_speed_max + 1))
                )
        self.act_normal = tuple(normal)
        self.act_high = tuple(high)
        self.high_speeds = tuple(frozenset(a.speed for a in h) for h in high)
        self.attack_actions = tuple(tuple(Attack(a, t) for t in range(n)) for a in range(n))
        self.edge_free = scenario.free_exit_edge
        self.edge_goal = scenario.bomber_exit_edge
        self.plan_cache: dict[tuple[Any, ...], tuple[MovePlan, ...]] = {}
        # abilities that are data rather than hooks
        self.extra_dm = tuple(
            abilities.extra_maneuvers(a.stats.abilities) for a in scenario.aircraft
        )
        self.darkness_ok = tuple(
            abilities.fights_in_darkness(a.stats.abilities) for a in scenario.aircraft
        )
        self.reposition = tuple("reposition_options" in hk for hk in self.hooks)
        self.poor = tuple(r == 0 for r in self.rank)
        self.fighter = tuple(
            a.stats.kind in FIGHTER_KINDS and not a.stats.is_bomber for a in scenario.aircraft
        )
        self.illumination_need = tuple(
            _illumination_need(a.stats.kind, a.stats.is_bomber) for a in scenario.aircraft
        )
        # optional rules and special conditions (000 "SPECIAL CONDITIONS")
        r = self.rules
        self.night_penalty = r.night != "day"
        self.dark = r.night == "darkness"
        self.direction = r.fighter_direction if self.dark else (0, 0)
        self.illuminate = self.dark and any(r.searchlights)
        self.clouds_on = bool(
            r.random_clouds or r.cloud_shapes or any(c != "clear" for c in r.clouds)
        )
        m = self.map
        self.cloud_cells = frozenset(
            (m.index(c, rw), alt)
            for shape in r.cloud_shapes
            for c, rw in shape.hexes
            for alt in range(shape.base, shape.top + 1)
        )
        flak: dict[int, set[int]] = {}
        for c, rw, alt in r.flak_fields:
            centre = m.index(c, rw)
            # 000 "FLAK FIELDS": one central hex and all six adjacent hexes
            for h in (centre, *(m.neighbour[centre * 6 + d] for d in range(6))):
                if h >= 0:
                    flak.setdefault(h, set()).add(alt)
        self.flak = {h: frozenset(a) for h, a in flak.items()}
        self.balloons = frozenset(m.index(c, rw) for c, rw in r.barrage_balloons)
        self.hazards = bool(self.flak or self.balloons)


# DMs allowed at each altitude (000 "DIFFICULT MANEUVERS"; altitude limits,
# ruling "Maneuvers at the altitude limits").
def _dm_ok(m: Maneuver, alt: int) -> bool:
    if m.kind == "climb":
        return alt <= 5
    if m.kind == "power_dive":
        return alt - m.option >= 1
    if m.kind == "split_s":
        return alt >= 2
    return True


_DMS_AT_ALT = {alt: tuple(m for m in ALL_MANEUVERS if _dm_ok(m, alt)) for alt in range(1, 7)}
_STEP_OPTIONS: dict[tuple[bool, bool, int], tuple[Action, ...]] = {}
for _alt in range(1, 7):
    for _turn_ok in (False, True):
        for _dm in (False, True):
            _opts: list[Action] = [STRAIGHT]
            if _turn_ok:
                _opts += [TURN_LEFT, TURN_RIGHT]
            if _dm:
                _opts += list(_DMS_AT_ALT[_alt])
            _STEP_OPTIONS[(_turn_ok, _dm, _alt)] = tuple(_opts)

_SCALARS = (
    "cloud_bands",
    "awaiting_cloud",
    "dm_first",
    "extra_used",
    "turn",
    "phase",
    "first",
    "to_act",
    "last_mover",
    "init_winner",
    "mover",
    "steps_left",
    "step_no",
    "last_man",
    "dm_used",
    "required",
    "awaiting_status",
    "seq",
    "declined",
    "vp",
    "winner",
    "reason",
    "first_success",
)


def _dice_to_json(d: Dice) -> dict[str, Any]:
    if isinstance(d, ScriptedDice):
        return {"type": "scripted", **d.to_json()}
    return {"type": "seeded", **d.to_json()}


def _dice_from_json(d: dict[str, Any]) -> Dice:
    if d.get("type") == "scripted":
        sd = ScriptedDice(list(d["script"]))
        sd.position = d["position"]
        sd.count = d["count"]
        return sd
    return Dice.from_json(d)


def _second_dms(extra: tuple[tuple[str, str], ...], first: str, lo: int, hi: int) -> list[Action]:
    """Maneuvers an ability allows after ``first`` in the same move, legal at any altitude lo..hi."""
    kinds = {second for f, second in extra if f == first}
    return [
        m
        for m in ALL_MANEUVERS
        if m.kind in kinds and all(_dm_ok(m, a) for a in range(max(lo, 1), min(hi, 6) + 1))
    ]


@lru_cache(maxsize=4096)
def _plan_steps(
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
            if required == STATUS_DIVING:
                opts: list[Action] = [m for m in _DMS_AT_ALT[alt] if m.kind == "power_dive"]
            elif required == STATUS_CLIMBING:
                opts = [m for m in _DMS_AT_ALT[alt] if m.kind == "climb"]
            else:
                d = -1 if required == STATUS_EVADING_LEFT else 1
                opts = [Turn(d), Maneuver("tight_turn", d)]
            opts = opts or [STRAIGHT]
        else:
            blocked = high and last == n
            if bomber:
                opts = list(_STEP_OPTIONS[(not blocked and not no_turn, False, alt)])
            else:
                opts = list(_STEP_OPTIONS[(not blocked, not blocked and not dm, alt)])
                if dm and first and extra and not blocked:
                    opts += _second_dms(extra, first, lo, hi)
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


class BattleState:
    """Everything about a battle in progress. Build with :func:`new_battle`."""

    def __init__(
        self, scenario: Scenario, dice: Dice | None = None, *, seed: int = 0, start: bool = True
    ) -> None:
        self.scenario = scenario
        self.st = _Static(scenario)
        self.dice = dice if dice is not None else Dice(seed)
        m = self.st.map
        self.planes: list[Plane] = []
        for i, a in enumerate(scenario.aircraft):
            p = Plane.__new__(Plane)
            p.id = i
            p.side = self.st.side[i]
            p.hex = m.index(a.col, a.row)
            p.facing = a.facing
            p.alt = a.altitude
            p.speed = 0
            p.high = False
            p.status = STATUS_NONE
            p.damage = 0
            p.moved = False
            p.fired = False
            p.grounded = False
            p.out = IN_PLAY
            p.prev_hex = p.hex
            p.seq = 0
            p.dm_tried = False
            p.attacked = False
            p.killer = -1
            p.survival = None
            p.exit_edge = None
            p.cloud = False
            p.directed = False
            p.lit = False
            p.adjusted = False
            self.planes.append(p)
        self.turn = 0
        self.phase = INITIATIVE
        self.first = 0
        self.to_act = 0
        self.last_mover = -1
        self.init_winner = -1
        self.mover = -1
        self.steps_left = 0
        self.step_no = 0
        self.last_man = -9
        self.dm_used = False
        self.required = STATUS_NONE
        self.awaiting_status = False
        self.seq = 0
        self.declined = [False, False]
        self.vp = [float(scenario.start_vp[0]), float(scenario.start_vp[1])]
        self.winner: int | None = None
        self.reason = ""
        self.first_success = -1
        self.cloud_bands: tuple[str, ...] = tuple(scenario.rules.clouds) or ("clear",) * 6
        self.awaiting_cloud = False
        self.dm_first = ""
        self.extra_used = False
        self.log: list[dict[str, Any]] = []
        self._history: list[tuple[Any, ...]] = []
        if start:
            self._log(
                "battle_start",
                scenario=scenario.name,
                kind=scenario.kind,
                setup_rolls=[list(x) for x in scenario.setup_rolls],
                vp={"axis": self.vp[0], "allied": self.vp[1]},
                aircraft=[self._pos(p) for p in self.planes],
                optional_rules=list(scenario.rules.optional_rules_on),
            )
            if scenario.rules.random_clouds:
                self._roll_clouds()
            elif self.st.clouds_on:
                self._log("clouds", bands=list(self.cloud_bands), roll=None)
            self._start_turn()

    # ------------------------------------------------------------------ helpers
    def _log(self, e: str, **kw: Any) -> None:
        kw["e"] = e
        kw["turn"] = self.turn
        self.log.append(kw)

    def _colrow(self, h: int) -> list[int]:
        w = self.st.map.width
        return [h % w, h // w]

    def _pos(self, p: Plane) -> dict[str, Any]:
        return {
            "plane": p.id,
            "name": self.st.names[p.id],
            "side": SIDES[p.side],
            "hex": self._colrow(p.hex) if p.hex >= 0 else None,
            "facing": p.facing,
            "alt": p.alt,
        }

    def crippled(self, i: int) -> bool:
        """000 "CRIPPLED": damaged and down to the last hit point."""
        p = self.planes[i]
        return p.damage > 0 and self.st.hits[i] - p.damage == 1

    def condition(self, i: int) -> str:
        p = self.planes[i]
        if p.out == DESTROYED:
            return "destroyed"
        if p.damage == 0:
            return "intact"
        return "crippled" if self.crippled(i) else "damaged"

    def in_play(self, side: int | None = None) -> list[int]:
        return [p.id for p in self.planes if p.out == IN_PLAY and (side is None or p.side == side)]

    def current_side(self) -> int | None:
        """0 (axis) or 1 (allied) to act, or None when the battle is over."""
        return None if self.phase == OVER else self.to_act

    def is_over(self) -> bool:
        return self.phase == OVER

    # ------------------------------------------------------------------ geometry
    def distance(self, a: int, b: int) -> int:
        return self.st.map.distance(self.planes[a].hex, self.planes[b].hex)

    def _key(self, frm: int, to: int) -> int:
        m = self.st.map
        return (m.q[to] - m.q[frm] + MAX_TABLE_RANGE) * _SPAN + (
            m.r[to] - m.r[frm] + MAX_TABLE_RANGE
        )

    def tailing(self, a: int, b: int) -> bool:
        """000 "TAILING": is aircraft ``a`` tailing enemy aircraft ``b``?"""
        pa, pb = self.planes[a], self.planes[b]
        if pa.out or pb.out or pa.side == pb.side or abs(pa.alt - pb.alt) > 1:
            return False
        # 000 "EFFECTS OF BEING IN THE CLOUDS": can't tail or be tailed;
        # 000 "EFFECTS OF DARKNESS": ignore tailing
        if pa.cloud or pb.cloud or self.st.dark:
            return False
        d = self.st.map.distance(pa.hex, pb.hex)
        if not 1 <= d <= 4:
            return False
        return (
            REAR_TABLE[self._key(pb.hex, pa.hex)][pb.facing]
            and FRONT_TABLE[self._key(pa.hex, pb.hex)][pa.facing]
        )

    def tailed_count(self, side: int) -> int:
        """How many enemy aircraft ``side`` is tailing (each counted once)."""
        mine = self.in_play(side)
        return sum(1 for b in self.in_play(1 - side) if any(self.tailing(a, b) for a in mine))

    def can_attack(self, a: int, t: int) -> bool:
        """Could ``a`` attack ``t`` now, ignoring whose turn it is? (000 "ATTACK AND DEFENSE")"""
        return self._attack_problem(a, t) is None

    def _attack_problem(self, a: int, t: int) -> tuple[str, str] | None:
        st = self.st
        pa, pt = self.planes[a], self.planes[t]
        if pt.out != IN_PLAY:
            return ("000 'DESTROYED'", f"{st.names[t]} is no longer in the battle")
        if pa.side == pt.side:
            return ("000 'ATTACK PHASE'", "you may only attack enemy aircraft")
        d = st.map.distance(pa.hex, pt.hex)
        if d == 0:
            return ("000 'No Range 0 Attacks'", "an aircraft can't attack an enemy in its own hex")
        if d > 3 or st.attack[a][d - 1] <= 0:
            return (
                "000 'RESOLVING ATTACKS' / range",
                f"{st.names[a]} has no attack dice at range {d}",
            )
        dz = pt.alt - pa.alt
        if dz:
            rule = "000 'Firing Arc and Altitude'"
            if not st.rules.status or abs(dz) > 1:
                return (rule, "the target must be at the same altitude")
            if dz == -1 and pa.status != STATUS_DIVING:
                return ("000 'DIVING STATUS'", "only a Diving aircraft can attack 1 altitude lower")
            if dz == 1 and pa.status != STATUS_CLIMBING:
                return (
                    "000 'CLIMBING STATUS'",
                    "only a Climbing aircraft can attack 1 altitude higher",
                )
        if not st.bomber[a] and not ARC_TABLE[self._key(pa.hex, pt.hex)][pa.facing]:
            return ("000 'FIRING ARC'", f"{st.names[t]} is not in {st.names[a]}'s front firing arc")
        if pa.cloud or pt.cloud:
            return (
                "000 'EFFECTS OF BEING IN THE CLOUDS'",
                "an aircraft in the clouds can't attack or be attacked",
            )
        if st.dark and not (st.darkness_ok[a] or pa.directed or pt.lit):
            return (
                "000 'EFFECTS OF DARKNESS' / Requirements to Attack",
                f"in darkness {st.names[a]} needs an ability to fight in darkness, "
                "fighter direction, or an illuminated target",
            )
        if st.any_hooks["can_attack"]:
            for i in (a, t):
                for fn in st.hooks[i].get("can_attack", ()):
                    if not fn(self, a, t):
                        return ("special ability", "a special ability forbids this attack")
        return None

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        """Every legal action for the side to act, sorted."""
        ph = self.phase
        if ph == MOVEMENT:
            if self.mover >= 0:
                if self.awaiting_cloud:
                    return list(ENTER_CLOUDS)
                return self._step_actions()
            return self._activations()
        if ph == ATTACK:
            out: list[Action] = []
            side = self.to_act
            planes = self.planes
            for pa in planes:
                if pa.side != side or pa.out or pa.fired or pa.grounded:
                    continue
                row = self.st.attack_actions[pa.id]
                for pt in planes:
                    if (
                        pt.side != side
                        and not pt.out
                        and self._attack_problem(pa.id, pt.id) is None
                    ):
                        out.append(row[pt.id])
            out.append(DECLINE)
            return out
        if ph == POSITION:
            return [ChoosePosition(True), ChoosePosition(False)]
        if ph == DIRECTION:
            return self._direction_options(self.to_act)
        if ph == REPOSITION:
            return self._reposition_options(self.to_act) + [PASS]
        return []

    def _direction_options(self, side: int) -> list[Action]:
        """000 "FIGHTER DIRECTION": any set of friendly fighters up to the capacity."""
        fighters = [
            p.id for p in self.planes if p.side == side and not p.out and self.st.fighter[p.id]
        ]
        cap = min(self.st.direction[side], len(fighters))
        out: list[Action] = []
        for k in range(cap + 1):
            out.extend(Direct(c) for c in combinations(fighters, k))
        return out

    def _reposition_options(self, side: int) -> list[Action]:
        """000 "MOVEMENT AND SPECIAL ABILITIES": adjustments still open to ``side``."""
        out: list[Action] = []
        st = self.st
        for p in self.planes:
            if p.side != side or p.out or p.adjusted or not st.reposition[p.id]:
                continue
            opts: set[int] = set()
            for fn in st.hooks[p.id]["reposition_options"]:
                opts.update(fn(self, p.id))
            out.extend(Reposition(p.id, o) for o in sorted(opts))
        return out

    def _activations(self) -> list[Action]:
        out: list[Action] = []
        st = self.st
        side = self.to_act
        for p in self.planes:
            if p.side == side and not p.out and not p.moved:
                out.extend(st.act_normal[p.id])
                # 000 "CRIPPLED": a crippled aircraft can't choose high speed
                if st.act_high[p.id] and not (p.damage and st.hits[p.id] - p.damage == 1):
                    out.extend(st.act_high[p.id])
        return out

    def _step_actions(self) -> list[Action]:
        p = self.planes[self.mover]
        if self.awaiting_status:
            return self._status_options(p)
        if self.step_no == 0 and self.required:
            return self._required_options(p)
        # 000 "High Speed": no turn or maneuver in consecutive hexes
        blocked = p.high and self.last_man == self.step_no
        if self.st.bomber[p.id]:
            # 000 "BOMBER STATS": bombers only turn or fly straight;
            # 000 "LIMITED FUEL": until attacked, the bombers can't turn
            can_turn = not blocked and not (self.scenario.kind == "limited_fuel" and not p.attacked)
            return list(_STEP_OPTIONS[(can_turn, False, p.alt)])
        opts = list(_STEP_OPTIONS[(not blocked, not blocked and not self.dm_used, p.alt)])
        if self.dm_used and self.dm_first and not self.extra_used and not blocked:
            extra = self.st.extra_dm[p.id]
            if extra:
                opts += _second_dms(extra, self.dm_first, p.alt, p.alt)
        return opts

    def _required_options(self, p: Plane) -> list[Action]:
        # 000 "AIRCRAFT STATUS" / Required Maneuver, in the first hex entered
        r = self.required
        if r == STATUS_DIVING:
            return [m for m in _DMS_AT_ALT[p.alt] if m.kind == "power_dive"] or [STRAIGHT]
        if r == STATUS_CLIMBING:
            return [m for m in _DMS_AT_ALT[p.alt] if m.kind == "climb"] or [STRAIGHT]
        d = -1 if r == STATUS_EVADING_LEFT else 1
        return [Turn(d), Maneuver("tight_turn", d)]

    def _status_options(self, p: Plane) -> list[Action]:
        # 000 "AIRCRAFT STATUS": no Diving at altitude 1, no Climbing at 6
        out = [END_MOVES[STATUS_NONE]]
        if p.out == IN_PLAY and not self.st.bomber[p.id]:
            if p.alt > 1:
                out.append(END_MOVES[STATUS_DIVING])
            if p.alt < 6:
                out.append(END_MOVES[STATUS_CLIMBING])
            out.append(END_MOVES[STATUS_EVADING_LEFT])
            out.append(END_MOVES[STATUS_EVADING_RIGHT])
        return out

    def legal_move_plans(
        self, plane: int | None = None, *, statuses: bool = True
    ) -> list[MovePlan]:
        """Whole-move plans for the side to act (movement phase, between activations).

        Steps are relative (straight / turn / maneuver), so a plan stays legal
        whatever its maneuver check rolls; a plan that flies off the map ends
        there. Closing statuses are those legal at every altitude the plan's
        maneuver could leave the aircraft at. Plans depend only on (speed,
        altitude, required maneuver, ...), never on the position, so they are
        built once per key and cached.
        """
        if self.phase != MOVEMENT or self.mover >= 0:
            return []
        st = self.st
        out: list[MovePlan] = []
        use_status = statuses and st.rules.status
        cache = st.plan_cache
        for act in self._activations():
            assert isinstance(act, Activate)
            if plane is not None and act.plane != plane:
                continue
            p = self.planes[act.plane]
            bomber = st.bomber[act.plane]
            key = (
                act.plane,
                act.speed,
                p.alt,
                p.status if st.rules.status else STATUS_NONE,
                bomber and self.scenario.kind == "limited_fuel" and not p.attacked,
                use_status and not bomber,
            )
            plans = cache.get(key)
            if plans is None:
                seqs = _plan_steps(
                    act.speed,
                    act.speed in st.high_speeds[act.plane],
                    p.alt,
                    key[3],
                    bomber,
                    key[4],
                    () if bomber else st.extra_dm[act.plane],
                )
                built = []
                bands = self.cloud_bands
                for steps, lo, hi in seqs:
                    # 000 "CLOUDS": a move that may end in a heavy or light band may try to enter them
                    choice = st.clouds_on and any(
                        bands[a - 1] in CLOUD_NEED for a in range(max(lo, 1), min(hi, 6) + 1)
                    )
                    for clouds in (False, True) if choice else (False,):
                        if not key[5]:
                            built.append(MovePlan(act.plane, act.speed, steps, "none", clouds))
                            continue
                        for s in STATUSES:
                            if s == "diving" and lo <= 1:
                                continue
                            if s == "climbing" and hi >= 6:
                                continue
                            built.append(MovePlan(act.plane, act.speed, steps, s, clouds))
                plans = cache[key] = tuple(built)
            out.extend(plans)
        return out

    # ------------------------------------------------------------------ apply
    def apply(self, action: Action) -> None:
        """Apply a legal action, or raise :class:`IllegalAction` naming the rule (state unchanged)."""
        if self.phase == OVER:
            raise IllegalAction("000 'END OF TURN'", "the battle is over")
        snap = self._snapshot()
        if isinstance(action, MovePlan):
            try:
                self._apply_plan(action, checked=True)
            except IllegalAction:
                self._restore(snap)
                raise
        else:
            if action not in self.legal_actions():
                raise self._why_illegal(action)
            self._dispatch(action)
        self._history.append(snap)

    def apply_unchecked(self, action: Action) -> None:
        """Apply an action known to be legal: no check, no undo snapshot."""
        if isinstance(action, MovePlan):
            self._apply_plan(action, checked=False)
        else:
            self._dispatch(action)

    def undo(self) -> None:
        """Take back the last :meth:`apply` (python-chess ``pop``)."""
        if not self._history:
            raise IndexError("nothing to undo")
        self._restore(self._history.pop())

    def _apply_plan(self, plan: MovePlan, *, checked: bool) -> None:
        act = Activate(plan.plane, plan.speed)
        if checked:
            if act not in self.legal_actions():
                raise self._why_illegal(act)
            if len(plan.steps) != plan.speed:
                raise IllegalAction(
                    "000 'MOVING AIRCRAFT'",
                    f"a move at speed {plan.speed} is {plan.speed} hexes, the plan has {len(plan.steps)}",
                )
        self._dispatch(act)
        for step in plan.steps:
            if self.mover != plan.plane or self.awaiting_status:
                break  # left the map: the rest of the plan is void
            if checked and step not in self.legal_actions():
                raise self._why_illegal(step)
            self._dispatch(step)
        if self.mover == plan.plane and self.awaiting_status:
            end = EndMove(plan.status)
            if end not in self._status_options(self.planes[plan.plane]):
                if checked and plan.status not in STATUSES:
                    raise IllegalAction("000 'AIRCRAFT STATUS'", f"unknown status {plan.status!r}")
                end = END_MOVES[STATUS_NONE]  # the maneuver's result made the status impossible
            self._dispatch(end)
        if self.mover == plan.plane and self.awaiting_cloud:
            self._dispatch(ENTER_CLOUDS[plan.clouds])

    def _dispatch(self, a: Action) -> None:
        t = type(a)
        if t is Straight:
            self._step(0, None)
        elif t is Turn:
            self._step(a.direction, None)  # type: ignore[attr-defined]
        elif t is Maneuver:
            self._step(0, a)  # type: ignore[arg-type]
        elif t is Activate:
            self._activate(a.plane, a.speed)  # type: ignore[attr-defined]
        elif t is Attack:
            self._attack(a.attacker, a.target)  # type: ignore[attr-defined]
        elif t is Decline:
            self._log("decline", side=SIDES[self.to_act])
            self.declined[self.to_act] = True
            self._advance_attack(1 - self.to_act)
        elif t is EndMove:
            self._end_move_status(STATUSES.index(a.status))  # type: ignore[attr-defined]
        elif t is ChoosePosition:
            w = self.to_act
            self.first = w if a.first else 1 - w  # type: ignore[attr-defined]
            self._log("turn_position", side=SIDES[w], first=bool(a.first))  # type: ignore[attr-defined]
            self._after_initiative()
        elif t is EnterClouds:
            self._enter_clouds(a.attempt)  # type: ignore[attr-defined]
        elif t is Direct:
            self._direct(a.planes)  # type: ignore[attr-defined]
        elif t is Reposition:
            self._reposition(a.plane, a.option)  # type: ignore[attr-defined]
        elif t is Pass:
            self._log("pass", side=SIDES[self.to_act])
            self.declined[self.to_act] = True
            self._advance_reposition(1 - self.to_act)
        else:
            raise IllegalAction("engine", f"unknown action {a!r}")

    def _why_illegal(self, a: Action) -> IllegalAction:
        """Name the rule an illegal action breaks (slow path, only on error)."""
        ph = self.phase
        if isinstance(a, ChoosePosition):
            return IllegalAction(
                "000 'CHOOSING TURN POSITION'", "only the initiative winner chooses, before moving"
            )
        if isinstance(a, Direct):
            if ph != DIRECTION:
                return IllegalAction(
                    "000 'FIGHTER DIRECTION' / Assigning Direction",
                    "direction is assigned after the Initiative phase, in darkness, by a side with capacity",
                )
            return IllegalAction(
                "000 'FIGHTER DIRECTION'",
                f"the {SIDES[self.to_act]} side may direct up to {self.st.direction[self.to_act]} "
                "of its own fighters still in the battle",
            )
        if isinstance(a, EnterClouds):
            return IllegalAction(
                "000 'CLOUDS'",
                "only an aircraft ending its move in a heavy or light cloud band tries to enter the clouds",
            )
        if isinstance(a, (Reposition, Pass)):
            if ph != REPOSITION:
                return IllegalAction(
                    "000 'MOVEMENT AND SPECIAL ABILITIES'",
                    "position-adjusting abilities are declared after the Movement phase",
                )
            return IllegalAction(
                "000 'MOVEMENT AND SPECIAL ABILITIES'",
                "no such ability use is open to this side now (each aircraft adjusts once)",
            )
        if isinstance(a, Activate):
            if ph != MOVEMENT:
                return IllegalAction(
                    "000 'SEQUENCE OF PLAY'", "aircraft move only in the Movement phase"
                )
            if self.mover >= 0:
                return IllegalAction(
                    "000 'MOVING AIRCRAFT'", "finish the current aircraft's move first"
                )
            if not 0 <= a.plane < self.st.n:
                return IllegalAction("engine", f"no aircraft #{a.plane}")
            p = self.planes[a.plane]
            if p.side != self.to_act:
                return IllegalAction(
                    "000 'UNEQUAL NUMBERS' / alternate movement",
                    f"it is the {SIDES[self.to_act]} side's move",
                )
            if p.out:
                return IllegalAction(
                    "000 'DESTROYED'", f"{self.st.names[p.id]} is out of the battle"
                )
            if p.moved:
                return IllegalAction(
                    "000 'Aircraft Must Move'", f"{self.st.names[p.id]} has already moved this turn"
                )
            if a.speed in self.st.high_speeds[p.id] and self.crippled(p.id):
                return IllegalAction(
                    "000 'CRIPPLED'", "a crippled aircraft can't choose high speed"
                )
            return IllegalAction(
                "000 'Choose Speed'", f"speed {a.speed} is not in {self.st.names[p.id]}'s ranges"
            )
        if isinstance(a, (Straight, Turn, Maneuver, EndMove)):
            if ph != MOVEMENT or self.mover < 0:
                return IllegalAction(
                    "000 'MOVING AIRCRAFT'", "activate an aircraft and choose its speed first"
                )
            p = self.planes[self.mover]
            if self.awaiting_cloud:
                return IllegalAction(
                    "000 'CLOUDS'", "the move is complete; try to enter the clouds or not"
                )
            if self.awaiting_status:
                if isinstance(a, EndMove):
                    return IllegalAction(
                        "000 'AIRCRAFT STATUS'",
                        "no Diving at altitude 1, no Climbing at altitude 6",
                    )
                return IllegalAction(
                    "000 'MOVING AIRCRAFT'", "the move is complete; choose a status"
                )
            if isinstance(a, EndMove):
                if not self.st.rules.status:
                    return IllegalAction(
                        "000 'MOVING AIRCRAFT'", f"{self.steps_left} hexes of movement remain"
                    )
                return IllegalAction(
                    "000 'MOVING AIRCRAFT'", f"{self.steps_left} hexes of movement remain"
                )
            if self.step_no == 0 and self.required:
                return IllegalAction(
                    "000 'AIRCRAFT STATUS' / Required Maneuver",
                    f"an aircraft that began in {STATUSES[self.required]} status must first "
                    + {STATUS_DIVING: "Power Dive", STATUS_CLIMBING: "Climb"}.get(
                        self.required, "turn or Tight Turn in its evading direction"
                    ),
                )
            if self.st.bomber[p.id] and isinstance(a, Maneuver):
                return IllegalAction("000 'BOMBER STATS'", "bombers can only turn or fly straight")
            if (
                self.st.bomber[p.id]
                and isinstance(a, Turn)
                and self.scenario.kind == "limited_fuel"
                and not p.attacked
            ):
                return IllegalAction(
                    "000 'LIMITED FUEL' / Special Rules", "until attacked, the bombers can't turn"
                )
            if p.high and self.last_man == self.step_no and isinstance(a, (Turn, Maneuver)):
                return IllegalAction(
                    "000 'High Speed'",
                    "at high speed you can't turn or maneuver in consecutive hexes",
                )
            if isinstance(a, Maneuver):
                if a.kind not in MANEUVERS or a not in ALL_MANEUVERS:
                    return IllegalAction("000 'DIFFICULT MANEUVERS'", f"no such maneuver {a}")
                if self.dm_used:
                    return IllegalAction(
                        "000 'Difficult Maneuvers'",
                        "only one difficult maneuver per move (unless an ability allows another)",
                    )
                return IllegalAction(
                    "000 'ALTITUDE'",
                    f"{a} would take the aircraft outside altitudes 1-6 (now {p.alt})",
                )
            if isinstance(a, Turn) and a.direction not in (-1, 1):
                return IllegalAction("000 'Turn (normal)'", "a normal turn is one hex side")
            return IllegalAction("000 'MOVING AIRCRAFT'", f"{a} is not legal now")
        if isinstance(a, (Attack, Decline)):
            if ph != ATTACK:
                return IllegalAction(
                    "000 'SEQUENCE OF PLAY'", "attacks are made only in the Attack phase"
                )
            if isinstance(a, Decline):
                return IllegalAction("000 'ATTACK PHASE'", "nothing to decline")
            if not (0 <= a.attacker < self.st.n and 0 <= a.target < self.st.n):
                return IllegalAction("engine", "no such aircraft")
            pa = self.planes[a.attacker]
            if pa.side != self.to_act:
                return IllegalAction(
                    "000 'Alternate Attacks'", f"it is the {SIDES[self.to_act]} side's attack"
                )
            if pa.out:
                return IllegalAction(
                    "000 'Immediate Effect'", f"{self.st.names[pa.id]} is out of the battle"
                )
            if pa.fired:
                return IllegalAction(
                    "000 'One Attack per Game Turn'", f"{self.st.names[pa.id]} has already attacked"
                )
            if pa.grounded:
                return IllegalAction(
                    "000 'STACKING'", "an aircraft moved back by stacking may not attack this turn"
                )
            prob = self._attack_problem(a.attacker, a.target)
            if prob:
                return IllegalAction(*prob)
        if isinstance(a, MovePlan):
            return IllegalAction("000 'MOVING AIRCRAFT'", "plan not legal")
        return IllegalAction("000 'SEQUENCE OF PLAY'", f"{a} is not legal in the {ph} phase")

    # ------------------------------------------------------------------ turn structure
    def _start_turn(self) -> None:
        """000 "INITIATIVE PHASE": 2d6 + bonuses; ties to the better bonus, then re-roll."""
        self.turn += 1
        self.phase = INITIATIVE
        for p in self.planes:
            p.moved = p.fired = p.grounded = p.dm_tried = p.lit = p.adjusted = False
        st = self.st
        bonus = [0, 0]
        tail = [0, 0]
        if st.rules.tailing:
            # 000 "TAILING": +2 to the side tailing more enemy aircraft
            tail = [self.tailed_count(0), self.tailed_count(1)]
            if tail[0] > tail[1]:
                bonus[0] += 2
            elif tail[1] > tail[0]:
                bonus[1] += 2
        if st.any_hooks["initiative"]:
            for p in self.planes:
                if not p.out:
                    for fn in st.hooks[p.id].get("initiative", ()):
                        bonus[p.side] += fn(self, p.id)
        d = self.dice
        while True:
            ax = (d.d6("initiative axis"), d.d6("initiative axis"))
            al = (d.d6("initiative allied"), d.d6("initiative allied"))
            tot = (ax[0] + ax[1] + bonus[0], al[0] + al[1] + bonus[1])
            if tot[0] != tot[1]:
                winner = 0 if tot[0] > tot[1] else 1
            elif bonus[0] != bonus[1]:
                winner = 0 if bonus[0] > bonus[1] else 1
            else:
                winner = -1
            self._log(
                "initiative",
                rolls={"axis": list(ax), "allied": list(al)},
                bonus={"axis": bonus[0], "allied": bonus[1]},
                tailing={"axis": tail[0], "allied": tail[1]},
                total={"axis": tot[0], "allied": tot[1]},
                winner=SIDES[winner] if winner >= 0 else None,
            )
            if winner >= 0:
                break
        self.init_winner = winner
        if st.rules.turn_position:
            # 000 "CHOOSING TURN POSITION"
            self.phase = POSITION
            self.to_act = winner
            return
        self.first = 1 - winner  # the winner moves second
        self._after_initiative()

    def _after_initiative(self) -> None:
        """000 "FIGHTER DIRECTION": after the Initiative phase, sides with capacity assign it."""
        if any(self.st.direction):
            self.phase = DIRECTION
            self.declined = [False, False]
            self._advance_direction(self.first)
        else:
            self._begin_movement()

    def _advance_direction(self, nxt: int) -> None:
        # the first player assigns first (ruling "Fighter direction")
        for side in (nxt, 1 - nxt):
            if self.declined[side]:
                continue
            if self.st.direction[side] and any(
                self.st.fighter[p.id] for p in self.planes if p.side == side and not p.out
            ):
                self.to_act = side
                return
            self.declined[side] = True
        self._begin_movement()

    def _direct(self, planes: tuple[int, ...]) -> None:
        side = self.to_act
        chosen = set(planes)
        for p in self.planes:
            if p.side == side:
                p.directed = p.id in chosen
        self._log("direction", side=SIDES[side], planes=sorted(chosen))
        self.declined[side] = True
        self._advance_direction(1 - side)

    def _begin_movement(self) -> None:
        self.phase = MOVEMENT
        self.last_mover = -1
        self._log("movement_phase", first=SIDES[self.first])
        nxt = self._next_mover()
        if nxt < 0:
            self._end_movement()
        else:
            self.to_act = nxt

    def _next_mover(self) -> int:
        """000 "UNEQUAL NUMBERS": the first player moves first, the second player last.

        The first player moves while it has at least as many aircraft left to
        move as the second player, or whenever the second player moved last;
        otherwise the second player moves.
        """
        f = self.first
        nf = ns = 0
        for p in self.planes:
            if not p.out and not p.moved:
                if p.side == f:
                    nf += 1
                else:
                    ns += 1
        if nf == 0:
            return 1 - f if ns else -1
        if ns == 0:
            return f
        if nf >= ns or self.last_mover != f:
            return f
        return 1 - f

    def _activate(self, i: int, speed: int) -> None:
        p = self.planes[i]
        st = self.st
        self.mover = i
        p.speed = speed
        p.high = speed in st.high_speeds[i]
        self.steps_left = speed
        self.step_no = 0
        self.last_man = -9
        self.dm_used = False
        self.dm_first = ""
        self.extra_used = False
        self.awaiting_status = False
        self.awaiting_cloud = False
        p.cloud = False  # 000 "EFFECTS OF BEING IN THE CLOUDS": until it moves again
        self.required = p.status if st.rules.status else STATUS_NONE
        p.status = STATUS_NONE  # the status lasts until the aircraft moves again
        p.prev_hex = p.hex
        self._log(
            "activate",
            plane=i,
            speed=speed,
            high=p.high,
            required=STATUSES[self.required] if self.required else None,
            hex=self._colrow(p.hex),
            facing=p.facing,
            alt=p.alt,
        )

    def _enter(self, p: Plane, direction: int) -> bool:
        """Move one hex in ``direction``; False if that leaves the map (000 "THE BATTLE MAP")."""
        nb = self.st.map.neighbour[p.hex * 6 + direction]
        if nb < 0:
            self._leave_map(p, EDGE_NAMES[nb])
            return False
        p.prev_hex = p.hex
        p.hex = nb
        return True

    def _step(self, turn: int, m: Maneuver | None) -> None:
        p = self.planes[self.mover]
        n = self.step_no + 1
        start_hex = p.hex
        kind = "straight"
        if m is None:
            if self._enter(p, p.facing) and turn:
                # 000 "Turn (normal)": one hex side after entering the hex
                p.facing = (p.facing + turn) % 6
                self.last_man = n
                kind = "turn left" if turn < 0 else "turn right"
        else:
            kind = m.kind
            if self.dm_used:
                self.extra_used = True  # the second maneuver an ability allows
            else:
                self.dm_first = m.kind
            self.dm_used = True
            p.dm_tried = True
            self.last_man = n
            ok = self._maneuver_check(p, m)
            self._maneuver_effect(p, m, ok)
        self.steps_left -= 1
        self.step_no = n
        if p.out:
            self._finish_move(p)
            return
        self._log(
            "step", plane=p.id, n=n, kind=kind, hex=self._colrow(p.hex), facing=p.facing, alt=p.alt
        )
        if self.st.hazards and p.hex != start_hex:
            self._hazards(p)
            if p.out:
                self._finish_move(p)
                return
        if self.steps_left == 0:
            if self.st.rules.status and not self.st.bomber[p.id]:
                self.awaiting_status = True
            else:
                self._complete_move(p)

    def _maneuver_check(self, p: Plane, m: Maneuver) -> bool:
        """000 "MANEUVER CHECKS": 2d6 + bonus vs 10 (normal speed) or 13 (high speed)."""
        st = self.st
        stat = MANEUVER_BONUS[m.kind]
        parts = [[stat, st.bonus[p.id][stat]]]
        if p.damage and st.hits[p.id] - p.damage == 1:
            parts.append(["crippled", -2])  # 000 "CRIPPLED"
        if self.step_no == 0 and self.required == STATUS_CLIMBING and m.kind == "climb":
            parts.append(["climbing status", 4])  # 000 "CLIMBING STATUS"
        if st.any_hooks["maneuver"]:
            for fn in st.hooks[p.id].get("maneuver", ()):
                v = fn(self, p.id, m.kind)
                if v:
                    parts.append(["ability", v])
        bonus = sum(v for _, v in parts)
        target = 13 if p.high else 10
        r1 = self.dice.d6("maneuver")
        r2 = self.dice.d6("maneuver")
        total = r1 + r2 + bonus
        ok = total >= target
        self._log(
            "maneuver",
            plane=p.id,
            maneuver=m.kind,
            option=m.option,
            dice=[r1, r2],
            bonus=bonus,
            bonus_parts=parts,
            target=target,
            total=total,
            success=ok,
        )
        return ok

    def _maneuver_effect(self, p: Plane, m: Maneuver, ok: bool) -> None:
        """000 "DIFFICULT MANEUVERS": each maneuver's success and failure."""
        out = maneuver_outcome(m.kind, m.option, p.facing, ok)
        if out.enter is None or self._enter(p, out.enter):
            p.facing = out.facing
            p.alt += out.climb

    def _leave_map(self, p: Plane, edge: str) -> None:
        """000 "THE BATTLE MAP": an aircraft that leaves the map has retreated."""
        p.exit_edge = edge
        p.hex = -1
        side = p.side
        i = p.id
        sc = self.scenario
        free = (
            sc.kind == "limited_fuel"
            and self.st.role[i] == "fuel_limited"
            and edge == self.st.edge_free
        ) or (
            self.st.role[i] == "bomber"
            and self.st.edge_goal is not None
            and edge == self.st.edge_goal
        )
        if free:
            p.out = EXITED
            self._log("exit", plane=i, edge=edge)
        else:
            p.out = RETREATED
            self._log("retreat", plane=i, edge=edge)
            self._score(1 - side, self.st.cost[i] / 2, f"{self.st.names[i]} retreated")
            if self.first_success < 0 and sc.kind == "dogfight":
                self.first_success = 1 - side

    def _finish_move(self, p: Plane) -> None:
        p.moved = True
        self.seq += 1
        p.seq = self.seq
        self.mover = -1
        self.awaiting_status = False
        self.last_mover = p.side
        self._log(
            "move_end",
            plane=p.id,
            hex=self._colrow(p.hex) if p.hex >= 0 else None,
            facing=p.facing,
            alt=p.alt,
            status=STATUSES[p.status],
            out=OUT_NAMES[p.out],
        )
        if self.scenario.kind == "intercept":
            self._check_intercept_climb()
        if self.phase == OVER:
            return
        nxt = self._next_mover()
        if nxt < 0:
            self._end_movement()
        else:
            self.to_act = nxt

    def _end_move_status(self, status: int) -> None:
        p = self.planes[self.mover]
        p.status = status
        if status:
            self._log("status", plane=p.id, status=STATUSES[status])
        self._complete_move(p)

    # ------------------------------------------------------------------ special conditions
    def _roll_clouds(self) -> None:
        """000 "RANDOM CLOUD ARRANGEMENT": one d6 when the scenario is set up."""
        r = self.dice.d6("cloud chart")
        self.cloud_bands = CLOUD_CHART[CLOUD_COLUMN[r]]
        self._log("clouds", bands=list(self.cloud_bands), roll=r)

    def _cloud_band(self, p: Plane) -> str:
        if (p.hex, p.alt) in self.st.cloud_cells:
            return "placed"
        return self.cloud_bands[p.alt - 1]

    def _complete_move(self, p: Plane) -> None:
        """The end of a move: 000 "CLOUDS" (solid: in the clouds; heavy/light: may try)."""
        if self.st.clouds_on and p.out == IN_PLAY:
            band = self._cloud_band(p)
            if band in ("solid", "placed"):
                p.cloud = True
                self._log(
                    "clouds_check", plane=p.id, band=band, roll=None, need=None, in_clouds=True
                )
            elif band in CLOUD_NEED:
                self.awaiting_cloud = True
                return
        self._finish_move(p)

    def _enter_clouds(self, attempt: bool) -> None:
        p = self.planes[self.mover]
        self.awaiting_cloud = False
        band = self._cloud_band(p)
        if attempt:
            need = CLOUD_NEED[band]
            r = self.dice.d6("clouds")
            p.cloud = r >= need
            self._log("clouds_check", plane=p.id, band=band, roll=r, need=need, in_clouds=p.cloud)
        else:
            self._log("clouds_check", plane=p.id, band=band, roll=None, need=None, in_clouds=False)
        self._finish_move(p)

    def _hazards(self, p: Plane) -> None:
        """Flak fields and barrage balloons in the hex just entered."""
        st = self.st
        alts = st.flak.get(p.hex)
        if alts is not None and p.alt in alts:
            self._flak(p)
        if not p.out and p.alt == 1 and p.hex in st.balloons:
            self._balloon(p)

    def _flak(self, p: Plane) -> None:
        """000 "FLAK FIELDS": on a 1 the aircraft is attacked by d6 dice at target number 4."""
        d6 = self.dice.d6
        r = d6("flak")
        where = {"plane": p.id, "hex": self._colrow(p.hex), "alt": p.alt, "roll": r}
        if r != 1:
            self._log("flak", **where, attacked=False)
            return
        n = d6("flak dice")
        rolls = []
        hits = 0
        for _ in range(n):
            raw = d6("flak attack")
            h = 2 if raw == 6 else (1 if raw >= FLAK_TARGET else 0)
            hits += h
            rolls.append([raw, raw, h])
        outcome = self._outcome(-1, p.id, hits)
        self._log(
            "flak", **where, attacked=True, dice=n, target_number=FLAK_TARGET, rolls=rolls,
            hits=hits, armor=self.st.armor[p.id], vital_armor=self.st.vital[p.id], outcome=outcome,
        )  # fmt: skip
        self._apply_outcome(p.id, -1, outcome, "flak")

    def _balloon(self, p: Plane) -> None:
        """000 "BARRAGE BALLOONS": on 1-2 the balloon attacks: 1-2 nothing, 3-4 damage, 5-6 destroyed."""
        d6 = self.dice.d6
        r = d6("balloon")
        where = {"plane": p.id, "hex": self._colrow(p.hex), "roll": r}
        if r > 2:
            self._log("balloon", **where, attacked=False)
            return
        e = d6("balloon attack")
        outcome = "miss" if e <= 2 else ("damage" if e <= 4 else "destroyed")
        self._log("balloon", **where, attacked=True, effect_roll=e, outcome=outcome)
        self._apply_outcome(p.id, -1, outcome, "barrage balloon")

    def _outcome(self, attacker: int, t: int, hits: int) -> str:
        """000 "RESOLVING ATTACKS": hits against armor and vital armor, then damage abilities."""
        st = self.st
        if hits >= st.vital[t]:
            outcome = "destroyed"
        elif hits >= st.armor[t]:
            outcome = "damage"
        else:
            outcome = "miss"
        if st.any_hooks["damage"]:
            for fn in st.hooks[t].get("damage", ()):
                outcome = fn(self, attacker, t, hits, outcome)
        return outcome

    def _apply_outcome(self, t: int, by: int, outcome: str, how: str) -> None:
        """Damage or destroy ``t``; ``by`` < 0 for flak, balloons and collisions."""
        pt = self.planes[t]
        before = self.condition(t)
        if outcome == "damage":
            pt.damage += 1
        if outcome == "destroyed":
            self._destroy(t, by, how if by < 0 else "vital armor")
        elif pt.damage >= self.st.hits[t]:
            self._destroy(t, by, "hit points" if by >= 0 else how)
        else:
            after = self.condition(t)
            if after != before:
                self._log("condition", plane=t, **{"from": before, "to": after})

    def _collisions(self) -> None:
        """000 "OPTIONAL RULE: MIDAIR COLLISION" (several aircraft: ruling "Midair collision")."""
        groups: dict[tuple[int, int], list[Plane]] = {}
        for p in self.planes:
            if not p.out:
                groups.setdefault((p.hex, p.alt), []).append(p)
        for (h, alt), group in groups.items():
            if len(group) < 2:
                continue
            rolls = []
            possible = []
            for p in group:
                r = self.dice.d6("collision")
                hit = r == 1 or (r == 2 and self.st.poor[p.id])
                rolls.append({"plane": p.id, "roll": r, "possible": hit})
                if hit:
                    possible.append(p.id)
            collided = possible if len(possible) >= 2 else []
            self._log("collision", hex=self._colrow(h), alt=alt, rolls=rolls, collided=collided)
            for i in collided:
                self._destroy(i, -1, "midair collision")

    def _illuminate(self) -> None:
        """000 "ILLUMINATION": before the Attack phase, searchlights roll for each enemy aircraft."""
        lights = self.st.rules.searchlights
        for p in self.planes:
            if p.out or not lights[1 - p.side]:
                continue
            need = self.st.illumination_need[p.id]
            r = self.dice.d6("illumination")
            p.lit = r >= need
            self._log("illumination", plane=p.id, roll=r, need=need, lit=p.lit)

    def _end_movement(self) -> None:
        """000 "STACKING", then abilities that adjust positions after movement, then attacks."""
        groups: dict[tuple[int, int, int], list[Plane]] = {}
        for p in self.planes:
            if not p.out:
                groups.setdefault((p.side, p.hex, p.alt), []).append(p)
        for g in groups.values():
            if len(g) > 1:
                g.sort(key=lambda q: q.seq)
                for q in g[1:]:
                    frm = q.hex
                    q.hex = q.prev_hex
                    q.grounded = True
                    self._log(
                        "stacking",
                        plane=q.id,
                        **{"from": self._colrow(frm)},
                        hex=self._colrow(q.hex),
                        facing=q.facing,
                        alt=q.alt,
                    )
        if any(self.st.reposition):
            # 000 "MOVEMENT AND SPECIAL ABILITIES": the first player declares
            # first, then alternate until both have used all they wish
            self.phase = REPOSITION
            self.declined = [False, False]
            self._advance_reposition(self.first)
        else:
            self._begin_attack()

    def _advance_reposition(self, nxt: int) -> None:
        for side in (nxt, 1 - nxt):
            if self.declined[side]:
                continue
            if self._reposition_options(side):
                self.to_act = side
                return
            self.declined[side] = True
        self._begin_attack()

    def _reposition(self, i: int, option: int) -> None:
        p = self.planes[i]
        hooks = self.st.hooks[i]
        for opts_fn, fn in zip(hooks["reposition_options"], hooks["reposition"], strict=False):
            if option in opts_fn(self, i):
                fn(self, i, option)
                break
        p.adjusted = True
        self._log(
            "reposition",
            plane=i,
            option=option,
            hex=self._colrow(p.hex),
            facing=p.facing,
            alt=p.alt,
        )
        self._advance_reposition(1 - p.side)

    def _begin_attack(self) -> None:
        """After all movement: midair collisions, illumination, then the Attack phase."""
        if self.st.rules.midair_collision:
            self._collisions()
        if self.st.illuminate:
            self._illuminate()
        self.phase = ATTACK
        self.declined = [False, False]
        self._log("attack_phase", first=SIDES[self.first])
        self._advance_attack(self.first)

    def _has_attack(self, side: int) -> bool:
        for pa in self.planes:
            if pa.side != side or pa.out or pa.fired or pa.grounded:
                continue
            for pt in self.planes:
                if pt.side != side and not pt.out and self._attack_problem(pa.id, pt.id) is None:
                    return True
        return False

    def _advance_attack(self, nxt: int) -> None:
        """000 "ATTACK PHASE": alternate; a side that declines (or has no shot) is done."""
        for side in (nxt, 1 - nxt):
            if self.declined[side]:
                continue
            if self._has_attack(side):
                self.to_act = side
                return
            self.declined[side] = True
            self._log("no_attacks", side=SIDES[side])
        self._end_turn()

    def _attack(self, a: int, t: int) -> None:
        """000 "RESOLVING ATTACKS"."""
        st = self.st
        pa, pt = self.planes[a], self.planes[t]
        d = st.map.distance(pa.hex, pt.hex)
        dice_n = st.attack[a][d - 1]
        if st.any_hooks["attack_dice"]:
            for fn in st.hooks[a].get("attack_dice", ()):
                dice_n = fn(self, a, t, dice_n)
        tn, sector = ASPECT_TABLE[self._key(pt.hex, pa.hex)][pt.facing]
        if st.any_hooks["target_number"]:
            for fn in st.hooks[a].get("target_number", ()):
                tn = fn(self, a, t, tn)
        mods: list[list[Any]] = []
        # 000 "ATTACK BONUSES AND PENALTIES" (they stack)
        if st.rank[a] > st.rank[t]:
            mods.append(["better pilot", 1])
        if pa.damage and st.hits[a] - pa.damage == 1:
            mods.append(["attacker crippled", -1])
        if pt.damage and st.hits[t] - pt.damage == 1:
            mods.append(["target crippled", 1])
        if st.rules.status:
            if pa.status in (STATUS_EVADING_LEFT, STATUS_EVADING_RIGHT):
                mods.append(["attacker evading", -1])
            if pt.status in (STATUS_EVADING_LEFT, STATUS_EVADING_RIGHT):
                mods.append(["target evading", -1])
            if pt.status == STATUS_CLIMBING and st.climb[a] > st.climb[t]:
                mods.append(["target climbing, better climb", 1])
            if pa.status == STATUS_DIVING and pt.alt == pa.alt - 1:
                mods.append(["diving on target below", 1])
        if st.night_penalty:
            mods.append([st.rules.night, -1])  # 000 "EFFECTS OF MOONLIGHT" / "OF DARKNESS"
        if st.any_hooks["attack_modifier"]:
            for fn in st.hooks[a].get("attack_modifier", ()):
                v = fn(self, a, t, "attacker")
                if v:
                    mods.append([f"{st.names[a]} ability", v])
            for fn in st.hooks[t].get("attack_modifier", ()):
                v = fn(self, a, t, "target")
                if v:
                    mods.append([f"{st.names[t]} ability", v])
        mod = 0
        for _, v in mods:
            mod += v
        rolls = []
        hits = 0
        d6 = self.dice.d6
        # An unmodified 6 is two hits whatever the modifiers; with the later
        # edition's rule, one hit where the modifiers raise the number to 7+.
        six = 1 if st.rules.later_sixes and tn - mod >= 7 else 2
        for _ in range(dice_n):
            raw = d6("attack")
            h = six if raw == 6 else (1 if raw + mod >= tn else 0)
            hits += h
            rolls.append([raw, raw + mod, h])
        armor, vital = st.armor[t], st.vital[t]
        outcome = self._outcome(a, t, hits)
        pa.fired = True
        pt.attacked = True
        self._log(
            "attack",
            attacker=a,
            target=t,
            attacker_at=[*self._colrow(pa.hex), pa.facing, pa.alt],
            target_at=[*self._colrow(pt.hex), pt.facing, pt.alt],
            range=d,
            aspect=CLOCK_NAMES[sector],
            target_number=tn,
            dice=dice_n,
            modifier=mod,
            modifiers=mods,
            rolls=rolls,
            hits=hits,
            armor=armor,
            vital_armor=vital,
            outcome=outcome,
            damage=pt.damage + (outcome == "damage"),
            hit_points=st.hits[t],
        )
        self._apply_outcome(t, a, outcome, "attack")
        self._advance_attack(1 - pa.side)

    def _destroy(self, t: int, by: int, how: str) -> None:
        pt = self.planes[t]
        before = self.condition(t)
        pt.out = DESTROYED
        pt.killer = by
        self._log(
            "destroyed",
            plane=t,
            by=by,
            how=how,
            hex=self._colrow(pt.hex),
            alt=pt.alt,
            **{"from": before},
        )
        pt.hex = -1
        # ruling "Losses to flak, balloons and collisions": the aircraft is
        # lost, so the other side scores it, but no enemy shot it down
        self._score(1 - pt.side, float(self.st.cost[t]), f"{self.st.names[t]} destroyed")
        if by >= 0 and self.first_success < 0 and self.scenario.kind in ("dogfight", "intercept"):
            self.first_success = 1 - pt.side
        if self.st.rules.pilot_survival:
            # 000 "PILOT SURVIVAL": d6, 4+ survives; +1 friendly, -1 enemy territory
            terr = self.scenario.territory[pt.side]
            mod = 1 if terr == "friendly" else (-1 if terr == "enemy" else 0)
            r = self.dice.d6("pilot survival")
            pt.survival = [r, mod, r + mod >= 4]
            self._log("survival", plane=t, roll=r, modifier=mod, survived=r + mod >= 4)

    def _score(self, side: int, amount: float, reason: str) -> None:
        if amount:
            self.vp[side] += amount
            self._log("vp", side=SIDES[side], amount=amount, reason=reason, total=self.vp[side])

    # ------------------------------------------------------------------ end of turn / victory
    def _end_turn(self) -> None:
        """000 "END OF TURN": score, check victory, pick up markers."""
        sc = self.scenario
        st = self.st
        kind = sc.kind
        if kind == "schnellbomber":
            # 000 "SCHNELLBOMBER": the Bf 110 at altitude 1 without a difficult maneuver strafes
            for p in self.planes:
                if st.role[p.id] == "strafer" and not p.out and p.alt == 1 and not p.dm_tried:
                    self._score(p.side, 10.0, f"{st.names[p.id]} strafes ground targets")
        if kind == "limited_fuel" and sc.must_exit_by_turn == self.turn:
            # 000 "LIMITED FUEL": Bf 109s still over the map count as destroyed
            for p in self.planes:
                if st.role[p.id] == "fuel_limited" and not p.out:
                    before = self.condition(p.id)
                    p.out = DESTROYED
                    self._log(
                        "destroyed",
                        plane=p.id,
                        by=None,
                        how="out of fuel",
                        hex=self._colrow(p.hex),
                        alt=p.alt,
                        **{"from": before},
                    )
                    p.hex = -1
                    self._score(1 - p.side, float(st.cost[p.id]), f"{st.names[p.id]} out of fuel")
        self._log("end_turn", vp={"axis": self.vp[0], "allied": self.vp[1]})
        verdict = self._victory()
        if verdict is not None:
            self._game_over(*verdict)
            return
        self._start_turn()

    def _remaining(self, side: int) -> int:
        return sum(1 for p in self.planes if p.side == side and not p.out)

    def _victory(self) -> tuple[int | None, str] | None:
        sc = self.scenario
        kind = sc.kind
        rem = (self._remaining(0), self._remaining(1))
        last_turn = self.turn >= sc.rules.max_turns
        if kind in ("dogfight", "intercept"):
            if self.first_success >= 0:
                what = "shot down or drove off" if kind == "dogfight" else "shot down"
                return self.first_success, f"first to have {what} an enemy aircraft"
            if rem[0] == 0 or rem[1] == 0 or last_turn:
                return self._tiebreak("no aircraft left" if not last_turn else "turn limit")
            return None
        if kind == "limited_fuel":
            bombers = [p for p in self.planes if self.st.role[p.id] == "bomber"]
            if last_turn or rem[0] == 0 or rem[1] == 0:
                if all(p.damage == 0 and p.out != DESTROYED for p in bombers):
                    return 0, "neither bomber damaged"
                if self.vp[0] != self.vp[1]:
                    return (0 if self.vp[0] > self.vp[1] else 1), "most victory points"
                return None, "victory points tied"
            return None
        if kind == "bomber_escort":
            esc = SIDES.index(sc.escort_side or "allied")
            bombers = [p for p in self.planes if self.st.role[p.id] == "bomber"]
            if any(not p.out for p in bombers) and not last_turn:
                return None
            reached = sum(1 for p in bombers if p.out == EXITED)
            if reached == 2:
                return esc, "both bombers reached the far side"
            if reached == 0:
                return 1 - esc, "no bomber reached the far side"
            killed = [0.0, 0.0]
            for p in self.planes:
                if p.out == DESTROYED and self.st.role[p.id] != "bomber" and p.killer >= 0:
                    killed[1 - p.side] += self.st.cost[p.id]
            if killed[0] != killed[1]:
                return (
                    0 if killed[0] > killed[1] else 1
                ), "one bomber through; more enemy fighter points destroyed"
            return None, "one bomber through; fighter losses equal"
        # standard, schnellbomber, custom: victory points to a target
        target = sc.vp_target
        # 000 "WINNING THE STANDARD SCENARIO": first to the target; both = higher score
        if (
            target is not None
            and (self.vp[0] >= target or self.vp[1] >= target)
            and self.vp[0] != self.vp[1]
        ):
            return (0 if self.vp[0] > self.vp[1] else 1), f"reached {target} victory points"
        if rem[0] == 0 or rem[1] == 0 or last_turn:
            return self._tiebreak("no aircraft left" if not last_turn else "turn limit")
        return None

    def _tiebreak(self, why: str) -> tuple[int | None, str]:
        # 000 "WINNING THE STANDARD SCENARIO": most aircraft remaining; then VP (ruling)
        rem = (self._remaining(0), self._remaining(1))
        if rem[0] != rem[1]:
            return (0 if rem[0] > rem[1] else 1), f"{why}: most aircraft remaining"
        if self.vp[0] != self.vp[1]:
            return (0 if self.vp[0] > self.vp[1] else 1), f"{why}: most victory points"
        return None, f"{why}: draw"

    def _game_over(self, winner: int | None, reason: str) -> None:
        self.phase = OVER
        self.winner = winner
        self.reason = reason
        self.mover = -1
        self._log("game_over", winner=SIDES[winner] if winner is not None else None, reason=reason)

    def _check_intercept_climb(self) -> None:
        # 000 "INTERCEPT THE INTERCEPTORS": both Allied aircraft at altitude 5, undamaged
        allied = [p for p in self.planes if p.side == 1]
        if all(p.out == IN_PLAY and p.alt >= 5 and p.damage == 0 for p in allied):
            self._game_over(1, "both Allied aircraft reached altitude 5 undamaged")

    # ------------------------------------------------------------------ result
    def result(self) -> dict[str, Any]:
        """The documented result of a finished battle (see ``rules/angels20/__init__.py``)."""
        if self.phase != OVER:
            raise IllegalAction("000 'END OF TURN'", "the battle is not over")
        sc = self.scenario
        planes = []
        kills = []
        for p in self.planes:
            a = sc.aircraft[p.id]
            if p.out == DESTROYED:
                fate = "destroyed"
            elif p.out in (RETREATED, EXITED):
                fate = "retreated"
            else:
                fate = "damaged" if p.damage else "intact"
            killer = p.killer if p.out == DESTROYED and p.killer >= 0 else None
            planes.append(
                {
                    "id": p.id,
                    "name": a.stats.name,
                    "side": a.side,
                    "pilot": a.pilot_quality,
                    "pilot_ref": a.pilot_ref,
                    "fate": fate,
                    "exit_edge": p.exit_edge,
                    "scored_exit": p.out == EXITED,
                    "damage": p.damage,
                    "destroyed_by": killer,
                    "destroyed_by_pilot_ref": sc.aircraft[killer].pilot_ref
                    if killer is not None
                    else None,
                    "survival_roll": p.survival[0] if p.survival else None,
                    "survival_modifier": p.survival[1] if p.survival else None,
                    "pilot_survived": p.survival[2] if p.survival else None,
                }
            )
            if killer is not None:
                turn = next(
                    (e["turn"] for e in self.log if e["e"] == "destroyed" and e["plane"] == p.id),
                    self.turn,
                )
                kills.append(
                    {
                        "attacker": killer,
                        "attacker_pilot_ref": sc.aircraft[killer].pilot_ref,
                        "target": p.id,
                        "target_pilot_ref": a.pilot_ref,
                        "turn": turn,
                    }
                )
        return {
            "scenario": sc.name,
            "kind": sc.kind,
            "winner": SIDES[self.winner] if self.winner is not None else None,
            "reason": self.reason,
            "victory_points": {"axis": self.vp[0], "allied": self.vp[1]},
            "turns_played": self.turn,
            "aircraft": planes,
            "kills": kills,
        }

    # ------------------------------------------------------------------ copy / undo / JSON
    def _snapshot(self) -> tuple[Any, ...]:
        d = self.dice
        dstate = (d._state, d.count, getattr(d, "position", None), len(d.rolls))
        scal = tuple(getattr(self, n) for n in _SCALARS)
        return (
            scal,
            list(self.declined),
            list(self.vp),
            [p.as_tuple() for p in self.planes],
            len(self.log),
            dstate,
        )

    def _restore(self, snap: tuple[Any, ...]) -> None:
        scal, declined, vp, planes, nlog, dstate = snap
        for n, v in zip(_SCALARS, scal, strict=True):
            setattr(self, n, v)
        self.declined = list(declined)
        self.vp = list(vp)
        self.planes = [Plane.from_tuple(t) for t in planes]
        del self.log[nlog:]
        d = self.dice
        d._state, d.count = dstate[0], dstate[1]
        if dstate[2] is not None:
            d.position = dstate[2]  # type: ignore[attr-defined]
        del d.rolls[dstate[3] :]

    def clone(self) -> BattleState:
        """A cheap independent copy (shares the frozen scenario tables; no undo history)."""
        o = BattleState.__new__(BattleState)
        o.scenario = self.scenario
        o.st = self.st
        o.dice = self.dice.clone()
        for n in _SCALARS:
            setattr(o, n, getattr(self, n))
        o.declined = list(self.declined)
        o.vp = list(self.vp)
        o.planes = [p.copy() for p in self.planes]
        o.log = list(self.log)
        o._history = []
        return o

    def to_json(self) -> dict[str, Any]:
        planes = []
        for p in self.planes:
            d = {f: getattr(p, f) for f in Plane.__slots__}
            planes.append(d)
        return {
            "format": FORMAT_VERSION,
            "scenario": self.scenario.to_json(),
            "dice": _dice_to_json(self.dice),
            "state": {n: getattr(self, n) for n in _SCALARS},
            "planes": planes,
            "log": self.log,
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BattleState:
        data = json.loads(json.dumps(data))  # own copy, JSON types only
        if data.get("format") != FORMAT_VERSION:
            raise ValueError(f"unknown battle format {data.get('format')!r}")
        sc = Scenario.from_json(data["scenario"])
        o = cls(sc, _dice_from_json(data["dice"]), start=False)
        for n, v in data["state"].items():
            setattr(o, n, v)
        o.cloud_bands = tuple(o.cloud_bands)
        o.declined = list(o.declined)
        o.vp = [float(v) for v in o.vp]
        o.planes = []
        for d in data["planes"]:
            p = Plane.__new__(Plane)
            for f in Plane.__slots__:
                # fields added by the optional rules default to off in older records
                setattr(p, f, d.get(f, False))
            o.planes.append(p)
        o.log = data["log"]
        return o

    @classmethod
    def loads(cls, s: str) -> BattleState:
        return cls.from_json(json.loads(s))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BattleState):
            return NotImplemented
        return self.dumps() == other.dumps()

    __hash__ = None  # type: ignore[assignment]

    # ------------------------------------------------------------------ convenience
    def replay(self, actions: list[Action]) -> None:
        for a in actions:
            self.apply(a)

    def describe(self) -> str:
        lines = [f"turn {self.turn}, {self.phase}, to act: {SIDES[self.to_act]}, VP {self.vp}"]
        for p in self.planes:
            where = self._colrow(p.hex) if p.hex >= 0 else "-"
            lines.append(
                f"  {self.st.names[p.id]} ({SIDES[p.side]}) {OUT_NAMES[p.out]} hex {where} facing {p.facing} "
                f"alt {p.alt} dmg {p.damage} status {STATUSES[p.status]}"
            )
        return "\n".join(lines)


def new_battle(scenario: Scenario, dice: Dice | None = None, *, seed: int = 0) -> BattleState:
    """Start a battle: log the set-up and roll the first initiative."""
    return BattleState(scenario, dice, seed=seed)


def replay(scenario: Scenario, seed: int, actions: list[Action | dict[str, Any]]) -> BattleState:
    """Rebuild a battle from its canonical record (scenario, seed, actions)."""
    s = new_battle(scenario, Dice(seed))
    for a in actions:
        s.apply(a if isinstance(a, Action) else action_from_json(a))
    return s
