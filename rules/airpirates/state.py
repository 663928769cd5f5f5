"""An *Air Pirates* battle: the set-up (002 [2]), the sequence marker (3a), turns of six
impulses (3f, [4]), movement by maneuver markers ([5]), fire ([6], 13b) and the end ([8]).

Each impulse runs its phases in 3f's order; this engine holds the Move Phase (5b), the
Fire Phase (6) and the Maneuver Marking Phase (5c), with the optional Break Contact Phase
([16]) before a turn's first impulse; the Change Phase closes each turn: each unit's new
altitude and speed ([7], ``change.py``), then its fires (13b4). With the option, the sun's
direction opens the set-up (9a1.7) and a Spotting Phase comes between each impulse's Move
and Fire Phases (15b1, ``spotting.py``; the bounce, 9f: ``bounce.py``). In every phase the
side holding the sequence marker goes first (3a1) and may pass the
marker before anyone acts (3a2), at most once a phase (3b3).

The state is a JSON object; :meth:`AirPiratesBattle.undo` replays the actions but the
last from the scenario and seed, so it survives a JSON round trip.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from rules.dice import Dice

from . import ammunition as am
from . import bombers as bb
from . import bounce as bo
from . import change as ch
from . import collisions as co
from . import crew as cw
from . import effects as fx
from . import exits as ex
from . import fire as fr
from . import honcho as ho
from . import interception as ic
from . import maneuvers as mv
from . import oblique as ob
from . import odds, pages
from . import spotting as sp
from . import victory as vp
from .actions import (
    MANEUVERS,
    Action,
    BreakContact,
    Change,
    EndAnnouncements,
    EndSpotting,
    Fire,
    Hold,
    IllegalAction,
    Mark,
    Move,
    PassMarker,
    Place,
    Spot,
    Sun,
)
from .charts import IMPULSES, ROMAN, TURNS, moves
from .hexes import EDGES, FACING, edge_hexes, is_edge, neighbour, translate
from .outcome import battle_result
from .units import SIDES, Scenario, Unit, unit_from_scenario

HOLDER_FIRST = "002 '3a1'"
PASSING = "002 '3a2'"
PASS_ONCE = "002 '3b3'"
PLACING = "002 '2f'"
PLAY = "002 '3f'"
MOVE = "002 '5b'"
END = "002 [8]"

# the phases this engine plays, in 3f's order; "place" and "setup_mark" are 2f and 2g
PHASES = ("sun", "place", "setup_mark", "break", "move", "spot", "fire", "mark", "change")


# the actions each phase takes
EXPECTED: dict[str, tuple[type, ...]] = {
    "place": (Place,), "setup_mark": (Mark,), "mark": (Mark,), "move": (Move,),
    "fire": (Fire, Hold), "break": (BreakContact, EndAnnouncements), "change": (Change,),
    "sun": (Sun,), "spot": (Spot, EndSpotting),  # 9a1.7, 15b (spotting.py)
}  # fmt: skip
BREAK = "002 [16]"
TAIL_CHASE = "002 '18d' TAIL CHASE"
# 16b1: the breaking side's modifier by turn (turn 1: no attempt, 16a1)
BREAK_MODIFIER = {2: -6, 3: -5, 4: -4, 5: -3, 6: -2, 7: -1, 8: 0}


class AirPiratesBattle:
    """One battle of 002 in progress. Sides are numbered by their index in ``SIDES``."""

    def __init__(self, scenario: Scenario, seed: int, dice: Dice | None = None) -> None:
        self.scenario = scenario
        self.seed = seed
        self.dice = Dice(seed) if dice is None else dice  # tests script the dice
        self.units = [unit_from_scenario(u, i) for i, u in enumerate(scenario.units)]
        self.turn = 1
        self.impulse = 0  # 0 during set-up; 1..6 the numbered impulses
        self.phase = "place"
        self.phase_started = False
        self.passed = False
        self.moved: list[int] = []
        self.completed: dict[int, str] = {}  # maneuvers completed this impulse (6a)
        self.fired: list[str] = []  # "unit:gun" fired or held in this Fire Phase
        self.shots: list[list[Any]] = []  # [unit, gun, target] of this Fire Phase (6a5.4)
        self.entered: dict[int, int] = {}  # the order of the last entry into a hex (6a3.2)
        self.kills: list[dict[str, Any]] = []
        self.announced: list[int] = []  # 16a2: attempts announced this Break Contact Phase
        self.announcing_done: list[str] = []  # sides that announced all they will
        self.changed: list[int] = []  # units whose change is made in this Change Phase ([7])
        self.over = False
        self.reason = ""
        self.actions: list[dict[str, Any]] = []
        self.log: list[dict[str, Any]] = []
        am.starting_ammunition(self)  # 13a5 (option variable_ammunition)
        self.holder = self._sequence_marker()
        self.spotting = sp.initial(self)  # 15b; None with the option off
        sp.start(self)
        ic.card_flak(self)  # a campaign engagement's flak before the battle (003)
        self._advance()

    # -- 2a: who holds the sequence marker first ---------------------------------------
    def _sequence_marker(self) -> int:
        if self.scenario.seed_marker is not None:
            holder = SIDES.index(self.scenario.seed_marker)
            self._record("sequence marker given by the scenario", "002 '2a'", side=SIDES[holder])
            return holder
        while True:
            start = len(self.dice.rolls)
            rolls = [self.dice.d10(f"002 2a sequence marker: {side}") for side in SIDES]
            made = [r.to_json() for r in self.dice.rolls[start:]]
            if rolls[0] != rolls[1]:
                holder = 0 if rolls[0] > rolls[1] else 1
                self._record("competitive die roll", "002 '2a'", rolls=made, side=SIDES[holder])
                return holder
            self._record("competitive die roll tied: rolled again", "002 '2a'", rolls=made)

    def _record(self, event: str, rule: str, **detail: Any) -> None:
        self.log.append(
            {"turn": self.turn, "impulse": self.impulse, "phase": self.phase, "event": event,
             "rule": rule, **detail}
        )  # fmt: skip

    # -- who acts ------------------------------------------------------------------
    def unit(self, uid: int) -> Unit:
        for u in self.units:
            if u.id == uid:
                return u
        raise IllegalAction("002 '3d3'", f"there is no air unit {uid}")

    def pending(self, side: int) -> list[Unit]:
        """The side's units still to act in this phase."""
        mine = [u for u in self.units if u.side == SIDES[side] and not u.eliminated]
        if self.phase == "place":
            return [u for u in mine if u.hex is None]
        if self.phase == "break":
            if SIDES[side] in self.announcing_done:
                return []
            return [u for u in mine if u.id not in self.announced]
        if self.phase in ("setup_mark", "mark"):
            return [u for u in mine if u.marker is None]
        if self.phase == "move":
            return [u for u in mine if moves(u.speed, self.impulse) and u.id not in self.moved]
        if self.phase == "fire":
            guns = ("forward", "rear", "oblique", "ram")
            return [u for u in mine if any(self.targets(u, g) for g in guns)]
        if self.phase == "change":
            return [u for u in mine if u.id not in self.changed]
        if self.phase in ("sun", "spot"):
            return sp.pending(self, side)
        return []

    def fire_phase_number(self) -> int:
        """The game's Fire Phases counted from 1 (turn 1 impulse I), for 6a5.1."""
        return (self.turn - 1) * IMPULSES + self.impulse

    def targets(self, unit: Unit, gun: str = "forward") -> list[Unit]:
        """The opposing units ``unit``'s ``gun`` may fire at now (6a1-6a5)."""
        if not self._may_fire(unit, gun):
            return []
        return [t for t in self.units if self._fire_refusal(unit, t, gun) is None]

    def _fire_refusal(self, unit: Unit, target: Unit, gun: str) -> tuple[str, str] | None:
        if (untallied := sp.fire_refusal(self, unit, target)) is not None:
            return untallied  # 15b9
        if gun in bb.AIMED:  # 20e
            return self._fire_refusal(unit, target, "forward") or bb.aimed_refusal(
                self, unit, target, gun
            )
        if gun == "forward":
            head_on = "head_on" in self.scenario.options
            return fr.refusal(unit, target, self.entered, head_on)
        if gun == "ram":  # 13d2
            return co.ram_refusal(self, unit, target)
        if gun == "oblique":  # 6a6
            return ob.refusal(unit, target, self.entered, "head_on" in self.scenario.options)
        if any([unit.id, g, target.id] in self.shots for g in ("forward", "oblique")):
            return fr.REAR_SAME_TARGET, "a rear gun may not fire at its own unit's forward target"
        if cw.gun_silent(unit):
            return cw.MULTICREW, f"{unit.name}'s rear gunner is out of action"
        return fr.rear_refusal(unit, target, self.fire_phase_number())

    def current_side(self) -> int | None:
        if self.over:
            return None
        if self._acting(self.holder):
            return self.holder
        return 1 - self.holder

    def _acting(self, side: int) -> list[Unit]:
        """The side's units that may act now: those pending, less, under the tail chase
        option, any unit waiting for the enemy ahead of it to mark first (18d), unless
        every unit still to mark waits (then the sequence marker orders them)."""
        pending = bb.first(self, self.pending(side))  # 20a: bombers mark and change first
        if "tail_chase" not in self.scenario.options or self.phase not in ("setup_mark", "mark"):
            return pending
        if not any(u for s in (0, 1) for u in self.pending(s) if not self.tailing(u)):
            return pending
        return [u for u in pending if not self.tailing(u)]

    def tailing(self, unit: Unit) -> bool:
        """18d: ``unit`` is in the hex immediately to the rear of an enemy still to mark."""
        return unit.hex is not None and any(
            e.side != unit.side and not e.eliminated and e.marker is None and e.hex is not None
            and unit.hex == neighbour(e.hex, e.facing + 3)
            for e in self.units
        )  # fmt: skip

    def is_over(self) -> bool:
        return self.over

    # -- legal actions ------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        side = self.current_side()
        if side is None:
            return []
        out: list[Action] = []
        if self._may_pass():
            out.append(PassMarker())
        units = self._acting(side)
        if self.phase == "place":
            spots = edge_hexes(self.scenario.width, self.scenario.height)
            size = self.scenario.width, self.scenario.height
            for u in units:
                out += [
                    Place(u.id, h, f) for h, f in ex.placings(u, spots, *size, bo.held(self, u))
                ]
        elif self.phase in ("setup_mark", "mark"):
            out += [
                Mark(u.id, m) for u in units for m in MANEUVERS if self._mark_refusal(u, m) is None
            ]
            out += ho.legal(self, units, self._mark_refusal)  # 17c (option honcho)
        elif self.phase == "move":
            out += [Move(u.id) for u in units]
        elif self.phase == "fire":
            for u in units:
                out += [Fire(u.id, t.id) for t in self.targets(u)]
                out += [Fire(u.id, t.id, "rear") for t in self.targets(u, "rear")]
                out += [Fire(u.id, t.id, "oblique") for t in self.targets(u, "oblique")]
                out += [Fire(u.id, t.id, "ram") for t in self.targets(u, "ram")]
                out += [Fire(u.id, t.id, g) for g in bb.AIMED for t in self.targets(u, g)]
                out.append(Hold(u.id))
        elif self.phase == "break":
            out += [BreakContact(u.id) for u in units] + [EndAnnouncements()]
        elif self.phase == "change":
            out += [Change(u.id, a, s) for u in units
                    for a, s in bb.change_options(self, u, ch.options(u, self.zooms(u)))
                    if bo.change_refusal(self, u, a, s) is None]  # fmt: skip
        elif self.phase in ("sun", "spot"):
            out += sp.legal(self, units)
        return out

    def zooms(self, unit: Unit) -> bool:
        """17d: the option is in play and ``unit`` may zoom-climb in this Change Phase."""
        return ch.may_zoom(unit, self.turn, "zoom_climb" in self.scenario.options)

    def _may_pass(self) -> bool:
        started = self.phase_started or self.phase == "sun"  # 9a1.7: the holder's decision
        return not started and not self.passed and self.current_side() == self.holder

    def _mark_refusal(self, unit: Unit, maneuver: str) -> tuple[str, str] | None:
        why = self._maneuver_refusal(unit, maneuver)
        if why is not None:
            return why
        room = self._room(unit)
        if not room.fits(unit, maneuver):
            return EDGES, "no shift of the whole battle keeps this maneuver on the gameboard"
        refusal = self._maneuver_refusal
        if ex.forces_exit(unit, maneuver, room, refusal) and any(
            m != maneuver
            and refusal(unit, m) is None
            and room.fits(unit, m)
            and not ex.forces_exit(unit, m, room, refusal)
            for m in MANEUVERS
        ):
            return ex.FORCED
        return None

    def _maneuver_refusal(self, unit: Unit, maneuver: str) -> tuple[str, str] | None:
        """Why ``unit`` may not mark ``maneuver``, the gameboard's edge aside."""
        why = mv.refusal(unit, maneuver) or bo.mark_refusal(self, unit, maneuver)
        return why or bb.maneuver_refusal(self, unit, maneuver)

    def _room(self, unit: Unit) -> ex.Room:
        """The room ``unit`` (or it as it will be) has, the others flying as marked now."""
        others = tuple(h for u in self.units if u.id != unit.id for h in mv.crossing(u))
        return ex.Room(self.scenario.width, self.scenario.height, others)

    def _shift_for(self, unit: Unit, maneuver: str) -> tuple[int, int] | None:
        room = self._room(unit)
        assert room.others is not None
        return ex.shift_for(unit, maneuver, room.others, room.width, room.height)

    # -- apply ----------------------------------------------------------------------
    def refusal(self, action: Action) -> IllegalAction | None:
        """Why ``action`` is refused now, or None (the one check of ``apply``)."""
        side = self.current_side()
        if side is None:
            return IllegalAction(END, "the game is over")
        if isinstance(action, PassMarker):
            if self.passed:
                return IllegalAction(PASS_ONCE, "the sequence marker was passed in this phase")
            if self.phase == "sun":
                return IllegalAction(sp.SUN, "the holder indicates the sun; it is not passed")
            if self.phase_started or side != self.holder:
                return IllegalAction(
                    PASSING, "only its holder passes the sequence marker, at a phase's start"
                )
            return None
        if isinstance(action, EndAnnouncements):
            if self.phase != "break":
                return IllegalAction(BREAK, "announcements belong to the Break Contact Phase")
            return None
        if isinstance(action, Sun | EndSpotting):
            return sp.refusal(self, action)
        try:
            unit = self.unit(action.unit)
        except IllegalAction as error:
            return error
        if isinstance(action, Fire) and self._may_fire(unit, action.gun):
            # a unit free to fire hears why this target is refused, whoever acts first
            try:
                why = self._fire_refusal(unit, self.unit(action.target), action.gun)
            except IllegalAction as error:
                return error
            if why is not None:
                return IllegalAction(*why)
        own = SIDES.index(unit.side)
        if isinstance(action, (Mark, Change)) and (first := bb.order_refusal(self, unit)):
            return IllegalAction(*first)
        if isinstance(action, Mark) and unit in self.pending(own) and unit not in self._acting(own):
            return IllegalAction(TAIL_CHASE, f"{unit.name}, right behind an enemy, marks after it")
        if unit.side != SIDES[side]:
            return IllegalAction(HOLDER_FIRST, f"{SIDES[side]} goes first in this phase")
        expected = EXPECTED[self.phase]
        if not isinstance(action, expected):
            return IllegalAction(
                PLAY, f"this is the {self.phase_name()}: {action} is not part of it"
            )
        if unit not in self.pending(side):
            return IllegalAction(PLAY, f"{unit.name} has nothing to do in the {self.phase_name()}")
        if isinstance(action, Fire) and not self._may_fire(unit, action.gun):
            rule = {"rear": fr.REAR, "oblique": ob.OBLIQUE, "ram": co.RAMMING}.get(action.gun)
            what = "try to ram" if action.gun == "ram" else f"fire its {action.gun} guns"
            return IllegalAction(rule or fr.POSSIBLE, f"{unit.name} may not {what} now")
        if isinstance(action, Place):
            if not is_edge(action.hex, self.scenario.width, self.scenario.height):
                return IllegalAction(
                    PLACING, "air units are placed on an edge hex of the gameboard"
                )
            if action.facing not in range(6):
                return IllegalAction(FACING, "a facing points at one of the six hexsides (0-5)")
            size = self.scenario.width, self.scenario.height
            if (action.hex, action.facing) not in ex.placings(
                unit, [action.hex], *size, bo.held(self, unit)
            ):
                return IllegalAction(*ex.STRANDED)
        if isinstance(action, Mark):
            why = self._mark_refusal(unit, action.maneuver)
            why = why or (ho.refusal(self, unit, action.maneuver) if action.honcho else None)
            if why is not None:
                return IllegalAction(*why)
        if isinstance(action, Change):
            why = ch.refusal(unit, action.altitude, action.speed, self.zooms(unit))
            why = why or bo.change_refusal(self, unit, action.altitude, action.speed)
            options = ch.options(unit, self.zooms(unit))
            why = why or bb.change_refusal(self, unit, action.altitude, action.speed, options)
            if why is not None:
                return IllegalAction(*why)
        if isinstance(action, Spot):
            spotting = sp.spot_refusal(self, unit, action.target)
            if spotting is not None:
                return spotting
        return None

    def _may_fire(self, unit: Unit, gun: str = "forward") -> bool:
        """In this Fire Phase ``unit``'s ``gun`` has not yet fired, and the forward guns only
        of a unit that just completed a maneuver (6a); a rear gun in any Fire Phase (6a5.1)."""
        if self.phase != "fire" or unit.eliminated or f"{unit.id}:{gun}" in self.fired:
            return False
        if bb.silenced(self, unit):  # 20f: a bomber's guns are its defensive gunnery
            return False
        if gun in bb.AIMED:  # 20e: the forward guns, the area chosen
            return bb.may_aim(self, unit) and self._may_fire(unit, "forward")
        if gun == "ram":  # 13d2: with its tally kept, so before its guns fire (13d)
            return "ramming" in self.scenario.options and not (
                {f"{unit.id}:forward", f"{unit.id}:oblique"} & set(self.fired)
            )
        if gun == "oblique":  # 6a6.1: the forward guns "or" the OF guns in a Fire Phase
            return (
                unit.card["oblique_gun_factor"] >= 1
                and unit.id in self.completed
                and f"{unit.id}:forward" not in self.fired
            )
        if gun == "forward" and f"{unit.id}:oblique" in self.fired:
            return False
        return unit.id in self.completed if gun == "forward" else unit.card["rear_guns"] >= 1

    def apply(self, action: Action) -> None:
        error = self.refusal(action)
        if error is not None:
            raise error
        self.apply_unchecked(action)

    def apply_unchecked(self, action: Action) -> None:
        self.actions.append(action.to_json())
        if isinstance(action, PassMarker):
            self.holder = 1 - self.holder
            self.passed = True
            self._record("sequence marker passed", PASSING, side=SIDES[self.holder])
            self._advance()
            return
        self.phase_started = True
        if isinstance(action, EndAnnouncements):
            side = self.current_side()
            assert side is not None  # refusal() answered "the game is over" otherwise
            self.announcing_done.append(SIDES[side])
            self._advance()
            return
        if isinstance(action, Sun | EndSpotting):  # 9a1.7, 15b2.1 (spotting.py)
            sp.announce(self, action)
            self._advance()
            return
        unit = self.unit(action.unit)
        if isinstance(action, Place):
            unit.hex, unit.facing = action.hex, action.facing
            self._record(
                "placed", PLACING, unit=unit.id, hex=list(action.hex), facing=action.facing
            )
        elif isinstance(action, Mark):
            self._mark(unit, action.maneuver)
            ho.push(self, unit, action)  # 17c (option honcho)
        elif isinstance(action, Move):
            self.moved.append(unit.id)
            before = unit.speed  # 13e1.2: the speed the tight turn is attempted at
            event = mv.step(unit)
            self.entered[unit.id] = len(self.log)
            if event["completed"]:
                self.completed[unit.id] = event["completed"]
            self.log.append({"turn": self.turn, "impulse": self.impulse, "phase": "move",
                             "event": "moved", "rule": MOVE, **event})  # fmt: skip
            if event["completed"] and MANEUVERS[event["completed"]][0] == "tight_turn":
                fx.spin(self, unit, before)
        elif isinstance(action, Fire):
            self.fired.append(f"{unit.id}:{bb.slot(action.gun)}")  # 20e: aimed, the forward
            self.shots.append([unit.id, bb.slot(action.gun), action.target])
            if action.gun == "ram":  # 13d2: resolved after the Fire Phase; no guns fired
                self.fired += [f"{unit.id}:forward", f"{unit.id}:oblique"]
                self._record("announced: ram", co.RAMMING, unit=unit.id, target=action.target)
            else:
                fx.fire(self, unit, self.unit(action.target), action.gun)
        elif isinstance(action, BreakContact):
            self.announced.append(unit.id)
            self._record("announced: break contact", "002 '16a2'", unit=unit.id)
        elif isinstance(action, Hold):
            self.fired += [f"{unit.id}:forward", f"{unit.id}:rear"]
            self._record("held its fire", fr.POSSIBLE, unit=unit.id)
        elif isinstance(action, Change):
            self.changed.append(unit.id)
            fx.change(self, unit, action.altitude, action.speed)
        elif isinstance(action, Spot):
            sp.spot(self, unit, self.unit(action.target))
        self._advance()

    def _eliminate(self, unit: Unit, by: int | None, rule: str, **detail: Any) -> None:
        """6f2 and 13c1 (``effects.eliminate``), for the modules resolving other rules."""
        fx.eliminate(self, unit, by, rule, **detail)

    def _mark(self, unit: Unit, maneuver: str) -> None:
        shift = self._shift_for(unit, maneuver)
        assert shift is not None
        if shift != (0, 0):
            for u in self.units:
                if u.hex is not None:
                    u.hex = translate(u.hex, shift)
                if u.marker is not None:
                    u.marker["hex"] = translate(tuple(u.marker["hex"]), shift)
            self._record("the whole battle shifted to avoid the edge", EDGES, shift=list(shift))
        planned = mv.plan(unit, maneuver)
        unit.marker = {"maneuver": maneuver, "hex": planned["hex"], "line": planned["line"]}
        self._record(
            "marked", mv.MARKING, unit=unit.id, maneuver=maneuver, hex=list(planned["hex"]),
            hexes=len(planned["path"]), line=planned["line"], speed=unit.speed,
        )  # fmt: skip

    # -- the sequence of play (3f) -----------------------------------------------------
    def phase_name(self) -> str:
        return {
            "place": "set-up (placing air units)",
            "setup_mark": "set-up (placing maneuver markers)",
            "move": f"Move Phase of impulse {ROMAN[max(self.impulse, 1) - 1]}",
            "fire": f"Fire Phase of impulse {ROMAN[max(self.impulse, 1) - 1]}",
            "break": f"Break Contact Phase of turn {self.turn}",
            "sun": "set-up (the sun's direction)",
            "spot": f"Spotting Phase of impulse {ROMAN[max(self.impulse, 1) - 1]}",
            "change": f"Change Phase of turn {self.turn}",
            "mark": f"Maneuver Marking Phase of impulse {ROMAN[max(self.impulse, 1) - 1]}",
        }.get(self.phase, self.phase)

    def _advance(self) -> None:
        """Step past every phase in which nobody has anything left to do."""
        while not self.over and not (self.pending(0) or self.pending(1)):
            self._next_phase()
        if not self.over and self.phase in ("setup_mark", "mark"):
            self._disengage_trapped()

    def _disengage_trapped(self) -> None:
        """A unit no maneuver keeps on the board leaves it (docs/rulings.md, 'Air Pirates:
        the gameboard'); as a unit that broke contact (16b2) it is not eliminated."""
        for u in self.units:
            if u.eliminated or u.marker is not None or u.hex is None:
                continue
            if all(self._mark_refusal(u, m) is not None for m in MANEUVERS):
                u.eliminated, u.disengaged, u.hex = True, True, None
                self._record("left the gameboard: no maneuver stays on it", EDGES, unit=u.id,
                             disengaged=True)  # fmt: skip
        if self._side_gone():
            self._end(self._side_gone())
        elif not (self.pending(0) or self.pending(1)):
            self._advance()

    def _next_phase(self) -> None:
        self.phase_started, self.passed = False, False
        if self.phase == "sun":
            self.phase = "place"
        elif self.phase == "place":
            self.phase = "setup_mark"
        elif self.phase == "setup_mark" or (self.phase == "mark" and self.impulse < IMPULSES):
            self.impulse += 1
            self._new_impulse()
            self._record(f"impulse {ROMAN[self.impulse - 1]}", "002 '4a'")
        elif self.phase == "move":
            self.phase = sp.begin(self)  # 15b1: the Spotting Phase with the option
        elif self.phase == "spot":
            sp.end_spotting(self)
            self.phase = "fire"
        elif self.phase == "fire":
            bb.defensive_fire(self)  # 20f: the bombers' gunnery, each Fire Phase
            sp.end_fire(self)  # 15b7.3: tallies lost at the end of the Fire Phase
            co.resolve(self)  # 13d: "immediately after the Fire Phase"
            self.phase = "mark"
        elif self.phase == "break":
            self._break_contact()
            self.phase = "move"
        elif self.phase == "mark":  # after impulse VI: the Change Phase (3f5, [7])
            self.phase, self.changed = "change", []
            self._record("change phase", "002 [7]")
        else:  # the Change Phase done: the next turn
            if self.turn == TURNS:
                self._end("the eighth Turn has been completed")
                return
            self.turn += 1
            self.impulse = 1
            self._new_impulse()
            self._record(f"turn {self.turn}, impulse I", "002 '3d1'")
            if "break_contact" in self.scenario.options:
                self.phase, self.announced, self.announcing_done = "break", [], []
        if not self.over and self._side_gone():
            self._end(self._side_gone())

    def _break_contact(self) -> None:
        """16b: each announced attempt in turn: the breaking side's d10 with the turn's
        modifier against the opponent's d10; more breaks contact (16b2)."""
        for uid in self.announced:
            unit = self.unit(uid)
            if unit.eliminated:
                continue
            mine = self.dice.d10(f"002 16b1 break contact: unit {uid}")
            theirs = self.dice.d10(f"002 16b1 break contact: against unit {uid}")
            total = mine + BREAK_MODIFIER[self.turn]
            done = total > theirs
            stays = done and "break_tallies" in self.scenario.options  # 17b
            self._record("broke contact" if done else "failed to break contact", "002 '16b2'",
                         unit=uid, roll=mine, modifier=BREAK_MODIFIER[self.turn],
                         against=theirs, disengaged=done and not stays)  # fmt: skip
            if stays:
                sp.break_tallies(self, unit)
            elif done:
                unit.eliminated, unit.disengaged, unit.hex, unit.marker = True, True, None, None

    def _new_impulse(self) -> None:
        self.phase, self.moved, self.completed = "move", [], {}
        self.fired, self.shots = [], []

    def _side_gone(self) -> str:
        """002 [8]: the game is over "if all air units on one side are eliminated" (the
        reason, else ""). A unit that left the battle (16b2, the edge ruling) is "not
        considered to be eliminated"; with every unit of a side eliminated or gone, the
        game plays on while a unit still in it has a fire burning (13b4: one not put out
        eliminates it, 10 victory points to the enemy), else nothing can change the score
        and it ends now (docs/rulings.md, 'Air Pirates: a side gone from the battle')."""
        if any(all(u.eliminated and not u.disengaged for u in self.units if u.side == s)
               for s in SIDES):  # fmt: skip
            return "all air units on one side are eliminated"
        if not any(all(u.eliminated for u in self.units if u.side == s) for s in SIDES):
            return ""
        if any(u.fires and not u.eliminated for u in self.units):
            return ""
        return "no air unit of one side is left in the battle"

    def _end(self, reason: str) -> None:
        self.over, self.reason, self.phase = True, reason, "over"
        self._record("game over: " + reason, END)

    # -- result, undo, clone, JSON ---------------------------------------------------
    def unit_points(self, unit: Unit) -> float:
        """What ``unit`` gives the enemy: eliminated, 10 ([8]) or its point value with its
        pilot and bail-out (option ``points``: 14a, 14b, 13c2); else 1 per hit ([8])."""
        if unit.eliminated and not unit.disengaged:
            if "points" in self.scenario.options:
                return float(vp.loss_value(unit, self.scenario.ground, unit.bailout))
            return 10.0
        return float(sum(unit.damage.values()) + unit.crew_other_hits)  # 13b2.1's too

    def victory_points(self) -> dict[str, float]:
        """002 [8]: the points each side scored on the other's units."""
        points = dict.fromkeys(SIDES, 0.0)
        for u in self.units:
            points[SIDES[1 - SIDES.index(u.side)]] += self.unit_points(u)
        return points

    def result(self) -> dict[str, Any]:
        """The one result shape (``rules.tactical.TacticalResult``): ``outcome.py``."""
        return battle_result(self)

    def view(self, side: int | None) -> dict[str, Any]:
        """What ``side`` may see now (13a6: ``ammunition.py``)."""
        return am.view(self, side)

    def log_for(self, side: int | None) -> list[dict[str, Any]]:
        return am.log_for(self, side)

    def describe_board(self, side: int | None) -> dict[str, Any]:
        """The gameboard as the battle pages draw it (``pages.py``)."""
        return pages.describe_board(self, side)

    def phase_text(self) -> str:
        """Turn, impulse, phase and the sequence marker's holder in words (``pages.py``)."""
        return pages.phase_text(self)

    def decision_odds(self, side: int, action: Action) -> dict[str, Any] | None:
        return odds.decision_odds(self, side, action)  # a shot's chance to hit (odds.py)

    def undo(self) -> None:
        if not self.actions:
            raise IllegalAction(PLAY, "nothing to take back")
        back = replay(self.scenario, self.seed, self.actions[:-1])
        self.__dict__.update(back.__dict__)

    def clone(self) -> AirPiratesBattle:
        return AirPiratesBattle.from_json(self.to_json())

    def to_json(self) -> dict[str, Any]:
        return {
            "system": "airpirates", "scenario": self.scenario.to_json(), "seed": self.seed,
            "dice": self.dice.to_json(), "units": [u.to_json() for u in self.units],
            "turn": self.turn, "impulse": self.impulse, "phase": self.phase,
            "phase_started": self.phase_started, "passed": self.passed,
            "holder": SIDES[self.holder], "moved": list(self.moved), "over": self.over,
            "completed": sorted([k, v] for k, v in self.completed.items()),
            "fired": list(self.fired), "shots": [list(x) for x in self.shots],
            "entered": sorted([k, v] for k, v in self.entered.items()),
            "kills": [dict(k) for k in self.kills], "announced": list(self.announced),
            "announcing_done": list(self.announcing_done), "changed": list(self.changed),
            "reason": self.reason, "actions": [dict(a) for a in self.actions],
            "log": [dict(e) for e in self.log],
            **({"spotting": copy.deepcopy(self.spotting)} if self.spotting else {}),
        }  # fmt: skip

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> AirPiratesBattle:
        battle = cls.__new__(cls)
        battle.scenario = Scenario.from_json(data["scenario"])
        battle.seed = data["seed"]
        battle.dice = Dice.from_json(data["dice"])
        battle.units = [Unit.from_json(u) for u in data["units"]]
        battle.turn, battle.impulse, battle.phase = data["turn"], data["impulse"], data["phase"]
        battle.phase_started, battle.passed = data["phase_started"], data["passed"]
        battle.holder = SIDES.index(data["holder"])
        battle.moved = list(data["moved"])
        battle.completed = {k: v for k, v in data["completed"]}
        battle.fired, battle.shots = list(data["fired"]), [list(x) for x in data["shots"]]
        battle.entered = {k: v for k, v in data["entered"]}
        battle.kills = [dict(k) for k in data["kills"]]
        battle.announced = list(data["announced"])
        battle.announcing_done = list(data["announcing_done"])
        battle.changed = list(data.get("changed", []))
        battle.over, battle.reason = data["over"], data["reason"]
        battle.actions = [dict(a) for a in data["actions"]]
        battle.log = [dict(e) for e in data["log"]]
        battle.spotting = copy.deepcopy(data.get("spotting"))
        return battle


def new_battle(scenario: dict[str, Any], seed: int) -> AirPiratesBattle:
    return AirPiratesBattle(Scenario.from_json(scenario), seed)


def replay(scenario: Scenario, seed: int, actions: Sequence[dict[str, Any]]) -> AirPiratesBattle:
    """The battle flown from its record (every action checked again)."""
    from .actions import action_from_json

    battle = AirPiratesBattle(scenario, seed)
    for data in actions:
        battle.apply(action_from_json(data))
    return battle
