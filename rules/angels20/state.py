"""The battle state: the whole Angels 20 tactical game (000 "SEQUENCE OF PLAY").

Shape of python-chess / OpenSpiel: a frozen :class:`~rules.angels20.scenario.Scenario`
and a mutable :class:`BattleState` with :meth:`~BattleState.current_side`,
sorted :meth:`~BattleState.legal_actions`, checked :meth:`~BattleState.apply`
(raising :class:`IllegalAction`, which names the rule), fast
:meth:`~BattleState.apply_unchecked`, :meth:`~BattleState.undo` by snapshot,
cheap :meth:`~BattleState.clone`, :meth:`~BattleState.is_over`,
:meth:`~BattleState.result`, and exact JSON round trip.

The rules live in one module per rulebook section, as plain functions of the
state, called as such (``turns.start_turn(state)``, ``plans.legal_move_plans(state)``);
the state's own methods are only the battle's public interface above and
:meth:`~BattleState.tailing` and :meth:`~BattleState.condition`, which the apps show.
The section modules import one another as modules (``from . import attacks``),
never names, so their import cycles resolve in any order:

* :mod:`.turns` - 000 "SEQUENCE OF PLAY", "INITIATIVE PHASE", "END OF TURN";
* :mod:`.movement` - 000 "MOVEMENT PHASE", "MOVING AIRCRAFT", "MANEUVER CHECKS",
  "STACKING", "MOVEMENT AND SPECIAL ABILITIES"; :mod:`.plans` - step options
  and whole-move plans; :mod:`.maneuvers` - each difficult maneuver's effect;
* :mod:`.attacks` - 000 "ATTACK AND DEFENSE", "RESOLVING ATTACKS", "EFFECTS OF DAMAGE";
* :mod:`.advanced` - 000 "ADVANCED RULES" (tailing, turn position, status);
* :mod:`.conditions` - 000 "OPTIONAL RULES", "SPECIAL CONDITIONS";
* :mod:`.victory` - winning each scenario and the result;
* :mod:`.legality` - legal actions and the rule an illegal one breaks;
* :mod:`.plane` - :class:`Plane`; :mod:`.tables` - the per-scenario tables.

Phases run by themselves where nobody has a choice: the initiative roll,
the stacking check at the end of the Movement phase, a side with no attack
left in the Attack phase, and the end of the game turn. Every die goes
through the state's one :class:`~rules.dice.Dice` and every step is
an event in :attr:`BattleState.log` (plain JSON-ready dicts).
"""

from __future__ import annotations

import json
import operator
from typing import Any, NamedTuple

from rules.dice import Dice, ScriptedDice

from . import advanced, attacks, conditions, legality, movement, pages, preview, turns, victory
from .actions import (
    END_MOVES,
    ENTER_CLOUDS,
    STATUS_NONE,
    STATUSES,
    Action,
    Activate,
    Attack,
    ChoosePosition,
    Decline,
    Direct,
    EndMove,
    EnterClouds,
    IllegalAction,
    Maneuver,
    MovePlan,
    Pass,
    Reposition,
    Straight,
    Turn,
    action_from_json,
)
from .conditions import CLOUD_CHART, CLOUD_COLUMN, CLOUD_NEED, FLAK_TARGET, ILLUMINATION_NEED
from .phases import ATTACK, DIRECTION, INITIATIVE, MOVEMENT, OVER, POSITION, REPOSITION
from .plane import DESTROYED, EXITED, FIELDS, IN_PLAY, OUT_NAMES, RETREATED, Plane
from .scenario import Scenario
from .stats import SIDES
from .tables import ScenarioTables, tables_for

__all__ = [
    "ATTACK",
    "CLOUD_CHART",
    "CLOUD_COLUMN",
    "CLOUD_NEED",
    "DESTROYED",
    "DIRECTION",
    "EXITED",
    "FLAK_TARGET",
    "FORMAT_VERSION",
    "ILLUMINATION_NEED",
    "INITIATIVE",
    "IN_PLAY",
    "MOVEMENT",
    "OUT_NAMES",
    "OVER",
    "POSITION",
    "REPOSITION",
    "RETREATED",
    "BattleState",
    "IllegalAction",
    "Plane",
    "ScenarioTables",
    "new_battle",
    "replay",
]

FORMAT_VERSION = 1

# the state's scalar fields, in snapshot and JSON order
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
_get_scalars = operator.attrgetter(*_SCALARS)  # a tuple of them, in one C call


class DicePosition(NamedTuple):
    """Where the battle's dice stood, enough to take back every die rolled since."""

    generator: int  # the generator's state (Dice._state)
    rolled: int  # dice rolled so far (Dice.count)
    script_position: int | None  # the next scripted value (ScriptedDice), else None
    recorded: int  # rolls recorded so far (len(Dice.rolls))


class Snapshot(NamedTuple):
    """The battle just before one :meth:`BattleState.apply`, which :meth:`~BattleState.undo`
    restores (python-chess ``pop``): everything an action may change, no deep copy."""

    scalars: tuple[Any, ...]  # the fields named in _SCALARS, in that order
    declined: list[bool]
    vp: list[float]
    planes: list[tuple[Any, ...]]  # Plane.as_tuple() of each aircraft
    log_length: int  # the log is only ever appended to: cut back to this
    dice_position: DicePosition


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


class BattleState:
    """Everything about a battle in progress. Build with :func:`new_battle`."""

    scenario: Scenario
    st: ScenarioTables
    dice: Dice
    planes: list[Plane]
    turn: int
    phase: str
    first: int  # the first player (moves and attacks first)
    to_act: int
    last_mover: int
    init_winner: int
    mover: int  # the aircraft moving, or -1
    steps_left: int
    step_no: int
    last_man: int  # step of the last turn or maneuver (000 "High Speed")
    dm_used: bool
    required: int  # 000 "Required Maneuver" of the moving aircraft
    awaiting_status: bool
    seq: int
    declined: list[bool]
    vp: list[float]
    winner: int | None
    reason: str
    first_success: int
    cloud_bands: tuple[str, ...]
    awaiting_cloud: bool
    dm_first: str
    extra_used: bool
    log: list[dict[str, Any]]
    _history: list[Snapshot]  # one per apply(), for undo()

    def __init__(
        self, scenario: Scenario, dice: Dice | None = None, *, seed: int = 0, start: bool = True
    ) -> None:
        self.scenario = scenario
        self.st = tables_for(scenario)
        self.dice = dice if dice is not None else Dice(seed)
        m = self.st.map
        self.planes = [
            Plane.start(i, self.st.side[i], m.index(a.col, a.row), a.facing, a.altitude)
            for i, a in enumerate(scenario.aircraft)
        ]
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
        self.winner = None
        self.reason = ""
        self.first_success = -1
        self.cloud_bands = tuple(scenario.rules.clouds) or ("clear",) * 6
        self.awaiting_cloud = False
        self.dm_first = ""
        self.extra_used = False
        self.log = []
        self._history = []
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
                conditions.roll_clouds(self)
            elif self.st.clouds_on:
                self._log("clouds", bands=list(self.cloud_bands), roll=None)
            conditions.card_flak(self)
            turns.start_turn(self)

    # ------------------------------------------------------------------ the public interface
    # What programs and the apps ask of a battle (rules.tactical.TacticalBattle, battles/);
    # every other rule is a function of its section module, called as such.
    def legal_actions(self) -> list[Action]:
        """The actions the side to act may take now, sorted (:func:`.legality.legal_actions`)."""
        return legality.legal_actions(self)

    def result(self) -> dict[str, Any]:
        """The result of the finished battle, as documented in ``rules/angels20/__init__.py``
        (:func:`.victory.result`); raises :class:`IllegalAction` while it is not over."""
        return victory.result(self)

    def tailing(self, a: int, b: int) -> bool:
        """Whether aircraft ``a`` is tailing enemy aircraft ``b`` (000 "TAILING";
        :func:`.advanced.tailing`)."""
        return advanced.tailing(self, a, b)

    def condition(self, i: int) -> str:
        """Aircraft ``i``'s condition: intact, damaged, crippled or destroyed (000 "EFFECTS
        OF DAMAGE"; :func:`.attacks.condition`)."""
        return attacks.condition(self, i)

    def describe_board(self, side: int | None) -> dict[str, Any]:
        """The map the pages draw, as plain data (rules.tactical.Board; :mod:`.pages`)."""
        return pages.describe_board(self, side)

    def decision_odds(self, side: int, action: Action) -> dict[str, Any] | None:
        """An attack's odds for every game's pages (rules.tactical.decision_odds;
        :func:`.preview.attack_odds`); the play page's own odds stay attack_preview's."""
        return preview.attack_odds(self, side, action)

    def phase_text(self) -> str:
        """The turn and phase in words (:func:`.pages.phase_text`)."""
        return pages.phase_text(self)

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

    def in_play(self, side: int | None = None) -> list[int]:
        return [p.id for p in self.planes if p.out == IN_PLAY and (side is None or p.side == side)]

    def current_side(self) -> int | None:
        """0 (axis) or 1 (allied) to act, or None when the battle is over."""
        return None if self.phase == OVER else self.to_act

    def is_over(self) -> bool:
        return self.phase == OVER

    # ------------------------------------------------------------------ apply
    def apply(self, action: Action) -> None:
        """Apply a legal action, or raise :class:`IllegalAction` naming the rule (state unchanged)."""
        if self.phase == OVER:
            raise IllegalAction("000 'END OF TURN'", "the battle is over")
        snap = self._snapshot()
        if type(action) is MovePlan:
            try:
                self._apply_plan(action, checked=True)
            except IllegalAction:
                self._restore(snap)
                raise
        else:
            if action not in legality.legal_actions(self):
                raise legality.why_illegal(self, action)
            self._dispatch(action)
        self._history.append(snap)

    def apply_unchecked(self, action: Action) -> None:
        """Apply an action known to be legal: no check, no undo snapshot."""
        if type(action) is MovePlan:  # type(): Action is an ABC, whose isinstance is slow
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
            if act not in legality.legal_actions(self):
                raise legality.why_illegal(self, act)
            if len(plan.steps) != plan.speed:
                raise IllegalAction(
                    "000 'MOVING AIRCRAFT'",
                    f"a move at speed {plan.speed} is {plan.speed} hexes, the plan has {len(plan.steps)}",
                )
        self._dispatch(act)
        for step in plan.steps:
            if self.mover != plan.plane or self.awaiting_status:
                break  # left the map: the rest of the plan is void
            if checked and step not in legality.legal_actions(self):
                raise legality.why_illegal(self, step)
            self._dispatch(step)
        if self.mover == plan.plane and self.awaiting_status:
            end = EndMove(plan.status)
            if end not in advanced.status_options(self, self.planes[plan.plane]):
                if checked and plan.status not in STATUSES:
                    raise IllegalAction("000 'AIRCRAFT STATUS'", f"unknown status {plan.status!r}")
                end = END_MOVES[STATUS_NONE]  # the maneuver's result made the status impossible
            self._dispatch(end)
        if self.mover == plan.plane and self.awaiting_cloud:
            self._dispatch(ENTER_CLOUDS[plan.clouds])

    def _dispatch(self, a: Action) -> None:
        # type() rather than isinstance(): Action is an ABC, whose isinstance is slow
        if type(a) is Straight:
            movement.step(self, 0, None)
        elif type(a) is Turn:
            movement.step(self, a.direction, None)
        elif type(a) is Maneuver:
            movement.step(self, 0, a)
        elif type(a) is Activate:
            movement.activate(self, a.plane, a.speed)
        elif type(a) is Attack:
            attacks.attack(self, a.attacker, a.target)
        elif type(a) is Decline:
            attacks.decline(self)
        elif type(a) is EndMove:
            advanced.end_move_status(self, STATUSES.index(a.status))
        elif type(a) is ChoosePosition:
            advanced.choose_position(self, a.first)
        elif type(a) is EnterClouds:
            conditions.enter_clouds(self, a.attempt)
        elif type(a) is Direct:
            conditions.direct(self, a.planes)
        elif type(a) is Reposition:
            movement.reposition(self, a.plane, a.option)
        elif type(a) is Pass:
            movement.pass_reposition(self)
        else:
            raise IllegalAction("000 'SEQUENCE OF PLAY'", f"unknown action {a!r}")

    # ------------------------------------------------------------------ copy / undo / JSON
    def _snapshot(self) -> Snapshot:
        d = self.dice
        return Snapshot(
            _get_scalars(self),
            list(self.declined),
            list(self.vp),
            [p.as_tuple() for p in self.planes],
            len(self.log),
            DicePosition(d._state, d.count, getattr(d, "position", None), len(d.rolls)),
        )

    def _restore(self, snap: Snapshot) -> None:
        scalars, declined, vp, planes, log_length, dice_position = snap  # unpacked: cheaper
        for n, v in zip(_SCALARS, scalars, strict=True):
            setattr(self, n, v)
        self.declined = list(declined)
        self.vp = list(vp)
        self.planes = [Plane.from_tuple(t) for t in planes]
        del self.log[log_length:]
        generator, rolled, script_position, recorded = dice_position
        d = self.dice
        d._state, d.count = generator, rolled
        if script_position is not None and isinstance(d, ScriptedDice):
            d.position = script_position
        del d.rolls[recorded:]

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
        return {
            "format": FORMAT_VERSION,
            "scenario": self.scenario.to_json(),
            "dice": _dice_to_json(self.dice),
            "state": {n: getattr(self, n) for n in _SCALARS},
            "planes": [dict(zip(FIELDS, p.as_tuple(), strict=True)) for p in self.planes],
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
        # fields added by the optional rules default to off in older records
        o.planes = [Plane(*(d.get(f, False) for f in FIELDS)) for d in data["planes"]]
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
