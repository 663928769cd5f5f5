"""The tactical computer pilot of 002: it scores each legal action by what it foresees.

* **Place** (002 2f): behind the tail of the enemy with the most room to fly on (one no
  maneuver keeps on the board leaves the battle, 3b) when the enemy is placed already
  (the holder passes the sequence marker to place second, 3a2), else from the middle of
  an edge facing into the board; the wingman beside the leader.
* **Mark** (5c): each maneuver the unit may mark is flown on in the pilot's head
  (``foresight``): the shot it gives on completion (forward guns fire only then, 6a),
  less the shots the enemies' own markers give them at it on the way; then the best next
  maneuver likewise (competent), and the position reached: enemies ahead and close,
  better from their tails; enemies with it ahead of them, worse.
* **Fire** (6a, 6b): the victory points a shot is expected to score (6d, 6e, 13b, [8];
  an aimed attack at a bomber, 20e, by the area it strikes),
  fired when worth the ammunition box it costs (13a3): with few boxes and much of the
  game left, only good shots; else held.
* **Change** ([7]): the new altitude and speed scored as a maneuver is, and the altitude
  within one level of the nearest enemy (6a1), level with it (6c1.2); a speed keeping up
  with it, 4 or less when close (a straight of one hex: a chance to fire at every hex,
  5d2.2), faster than it when three or more hexes off (closing on a bounced unit flying
  straight, 9f), never one a marked tight turn or half loop would take below the minimum (3e2).
* **Break contact** ([16]): a unit out of ammunition, one more hit likely fatal while
  behind, or every unit when its side leads on victory points (16b2: the hits scored stay).
* **Honcho** (17c, an option): an ace pushes the envelope (one chart line higher) when
  the sooner completion is worth more than the once-a-game push and the risk of a fatal
  hit on the way.
* **Spot** (15b, an option): every unit tries, at the enemy likeliest to be tallied.
* **Sun** (9a1.7): along the gameboard's length; units are placed facing it (15b3.4).
* **What it reads** (``view``): the battle as its side sees it: an enemy not yet spotted
  under the bounce at a guessed altitude and speed (9f), an enemy's hidden starting
  ammunition as its printed card (13a6).
* Any other action kind, from a rule added since, falls back to the passive choice among
  them (a kind named like ``hold``, ``decline`` or ``end_*``), else the engine's first.

Deterministic given its seed: ties are broken by its own :class:`rules.dice.Dice`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from rules.dice import Dice

from .. import bombers as bb
from .. import fire as fr
from .. import odds
from .. import spotting as sp
from ..actions import MANEUVERS
from ..charts import IMPULSES, TURNS
from ..hexes import ahead, shift_to_fit
from ..maneuvers import SLOWING, plan, refusal
from ..units import SIDES, Unit
from . import foresight as fs
from .view import SideView

T = TypeVar("T")
TIE = 1e-9
PASSIVE = ("hold", "decline", "end_announcements", "no", "none", "skip", "pass_turn")
# phases where acting after the enemy shows its choice first (3a1, 3a2)
SECOND_IS_BETTER = ("place", "setup_mark", "mark", "change")


@dataclass(frozen=True)
class Strength:
    """How well a pilot flies: the settings that make a novice and a competent pilot."""

    name: str
    second_ply: bool  # looks one maneuver further
    threat: float  # weight of the enemies' shots foreseen at it
    danger: float  # weight of a position in front of an enemy
    ammo_care: bool  # keeps its ammunition for good shots (13a3)
    pass_marker: bool  # passes the sequence marker to choose second (3a2)
    fly_change: bool  # chooses altitude and speed by looking ahead ([7])
    break_contact: bool  # breaks contact when beaten or ahead ([16])


NOVICE = Strength("novice", False, 0.0, 0.2, False, False, False, False)
COMPETENT = Strength("competent", True, 0.6, 0.5, True, True, True, True)
STRENGTHS = {s.name: s for s in (NOVICE, COMPETENT)}

HORIZON = 12  # impulses a maneuver is flown on before it is judged without completing
NEXT = 0.7  # the second maneuver's worth against the first's
PLACES = 16  # edge hexes considered for a unit: those nearest its wingman or the enemy
EDGE = 3.0  # victory points a hex of overflowing the gameboard costs (3b)
ALTITUDE = 0.8  # victory points a level beyond firing range of the nearest enemy costs
CLOSE = 0.06  # victory points a hex from the nearest enemy costs
PURSUIT = 0.4  # a far enemy dead ahead, against one dead astern: twice this
AMMO = 0.7  # the share of the best shot a box is kept for when boxes are scarce (13a3)
BEAM = 3  # maneuvers looked at a maneuver further
ROOM = 6  # hexes ahead an enemy placed needs to stay in the battle a while (3b)
STRAIGHT_FIRE = 0.15  # victory points a speed with one-hex straights is worth (5d2.2)
FAR = 8  # hexes beyond which no shot is foreseen two maneuvers ahead
POSITION = 0.8  # victory points of a clean position on one enemy's tail
CHASE = 0.5  # victory points each speed short of the nearest enemy's plus one costs, 3+ off
IMPULSES_A_SHOT = 6
HONCHO_KEEP = 0.3  # victory points the one push of a game (17c) is kept for
# 13b2: the chance a hit strikes the engine, crew, wing or rudder (17c's fatal parts)
HONCHO_FATAL = sum(fs.LOCATION[p] for p in ("engine", "crew", "wing", "rudder"))
SUN_FACING = 0.3  # victory points facing the sun is worth at the set-up (15b3.4)  # a good shot expected about once a turn when engaged


class Stuck(RuntimeError):
    """The engine awaits a side that has no legal action (an engine fault, not a pilot's)."""


def kind_of(action: Any) -> str:
    return str(getattr(action, "KIND", type(action).__name__.lower()))


class TacticalPilot:
    """A computer pilot of 002 of a given :class:`Strength`."""

    strength = COMPETENT

    def __init__(self, seed: int, strength: Strength | None = None) -> None:
        self.dice = Dice(seed, record=False)
        self.board = (28, 16)  # the battle's gameboard, read at each decision
        self.cramped = 0  # hexes the battle lacks on the gameboard before this decision
        if strength is not None:
            self.strength = strength

    # -- the one entry point --------------------------------------------------------
    def choose(self, battle: Any) -> Any:
        legal = battle.legal_actions()
        side = battle.current_side()
        if not legal:
            raise Stuck(f"{battle.phase_name()}: side {side} has no legal action")
        self.board = (battle.scenario.width, battle.scenario.height)
        by_kind: dict[str, list[Any]] = {}
        for a in legal:
            by_kind.setdefault(kind_of(a), []).append(a)
        if "pass" in by_kind and self._passes(battle, side):
            return by_kind["pass"][0]
        if "move" in by_kind:
            return by_kind["move"][0]  # 5b: every unit moves; the order changes nothing
        if "mark" in by_kind:
            return self._mark(battle, side, by_kind["mark"])
        if "fire" in by_kind or "hold" in by_kind:
            return self._fire(battle, by_kind.get("fire", []), by_kind.get("hold", []))
        if "change" in by_kind:
            return self._change(battle, side, by_kind["change"])
        if "break_contact" in by_kind or "end_announcements" in by_kind:
            return self._break(battle, side, by_kind.get("break_contact", []), legal)
        if "place" in by_kind:
            return self._place(battle, side, by_kind["place"])
        if "spot" in by_kind:
            return self._spot(battle, by_kind["spot"])
        if "sun" in by_kind:
            return self._sun(by_kind["sun"])
        return self._default(legal)

    @staticmethod
    def _default(legal: Sequence[Any]) -> Any:
        """An action of a kind this pilot does not know: the passive one if any."""
        for a in legal:
            kind = kind_of(a)
            if kind in PASSIVE or kind.startswith(("end_", "no_", "decline")):
                return a
        rest = [a for a in legal if kind_of(a) != "pass"]
        return (rest or list(legal))[0]

    def _pick(self, options: Sequence[T], score: Callable[[T], float]) -> T:
        best, tied = -float("inf"), []
        for o in options:
            v = score(o)
            if v > best + TIE:
                best, tied = v, [o]
            elif v >= best - TIE:
                tied.append(o)
        if len(tied) == 1:
            return tied[0]
        return tied[self.dice.roll(len(tied)) - 1]

    def _passes(self, battle: Any, side: int) -> bool:
        """3a2: pass the sequence marker where choosing after the enemy helps, and only
        when the enemy has something to do in this phase."""
        return (
            self.strength.pass_marker
            and battle.phase in SECOND_IS_BETTER
            and bool(battle.pending(1 - side))
        )

    # -- what the pilot knows ---------------------------------------------------------
    def _ghosts(self, battle: Any, side: int) -> list[fs.Ghost]:
        """Every unit in play as a ghost, an enemy as ``side`` may read it (9f, 13a6)."""
        seen = SideView(battle, side)
        out = []
        for u in battle.units:
            if u.eliminated or u.hex is None:
                continue
            g = fs.ghost(seen.stand_in(u), SIDES.index(u.side))
            if g.side == side:
                g.spec.allowed = tuple(m for m in MANEUVERS if refusal(u, m) is None)
            out.append(g)
        return out

    @staticmethod
    def _left(battle: Any) -> int:
        """Impulses left in the game after this one ([8]: eight turns)."""
        return (TURNS - battle.turn) * IMPULSES + IMPULSES - battle.impulse

    # -- marking a maneuver (5c) ------------------------------------------------------
    def _mark(self, battle: Any, side: int, marks: list[Any]) -> Any:
        uid = marks[0].unit  # one unit at a time: the next one sees this one's marker
        mine = [a for a in marks if a.unit == uid]
        ghosts = self._ghosts(battle, side)
        start = battle.impulse % IMPULSES + 1
        left = self._left(battle)
        me = next(g for g in ghosts if g.uid == uid)
        enemies = [g for g in ghosts if g.spec.side != side]
        # the room already lacking now: only what a maneuver adds to it counts (3b)
        self.cramped = fs.overflow(me, ghosts, *self.board, everyone=False)
        near = fs.nearest(me, enemies) <= FAR  # far off, the position is all that counts

        def glance(a: Any) -> float:
            return self._fly(ghosts, uid, a.maneuver, start, left, further=False, honcho=_pushes(a))

        if not (near and self.strength.second_ply):
            return self._pick(mine, glance)
        # the maneuvers best at a glance are looked at a maneuver further
        ranked = sorted(range(len(mine)), key=lambda i: -glance(mine[i]))
        best = [mine[i] for i in sorted(ranked[:BEAM])]

        def score(a: Any) -> float:
            return self._fly(ghosts, uid, a.maneuver, start, left, honcho=_pushes(a))

        return self._pick(best, score)

    def _fly(
        self,
        ghosts: list[fs.Ghost],
        uid: int,
        maneuver: str | None,
        start: int,
        left: int,
        further: bool = True,
        honcho: bool = False,
    ) -> float:
        """What flying unit ``uid`` on with ``maneuver`` (None: its marker as it is) is
        worth: the first maneuver's shots given and taken, then the best next one's (when
        ``further`` and the strength looks so far) or the position reached. ``honcho``:
        the maneuver marked one line higher (17c), once a game and at the risk of any
        engine, crew, wing or rudder hit on the way eliminating the unit."""
        gs = [g.copy() for g in ghosts]
        me = next(g for g in gs if g.uid == uid)
        if maneuver is not None:
            fs.plan(me, maneuver, higher=1 if honcho else 0)
        value, spent, done = self._segment(gs, me, start, left, pushing=honcho)
        if honcho:
            value -= HONCHO_KEEP  # the one push of the game, spent
        if not done:
            return value + self._position(me, gs)
        if not (further and self.strength.second_ply) or left - spent <= 0:
            return value + self._position(me, gs)
        after = (start - 1 + spent) % IMPULSES + 1
        best = -float("inf")
        for m in me.spec.allowed:
            if MANEUVERS[m][0] in SLOWING and me.speed - 1 < me.spec.min_speed:
                continue  # 3e2 (maneuvers.refusal) at the speed it will have then
            gs2 = [g.copy() for g in gs]
            me2 = next(g for g in gs2 if g.uid == uid)
            fs.plan(me2, m)
            v, _, _ = self._segment(gs2, me2, after, left - spent)
            best = max(best, v + self._position(me2, gs2))
        if best == -float("inf"):
            best = self._position(me, gs)
        return value + NEXT * best

    def _segment(
        self, gs: list[fs.Ghost], me: fs.Ghost, impulse: int, left: int, pushing: bool = False
    ) -> tuple[float, int, bool]:
        """Fly every ghost on until ``me`` completes its maneuver: (its shot then less the
        enemies' shots at it on the way, impulses spent, whether it completed). While
        ``pushing`` the envelope (17c), a hit on the engine, crew, wing or rudder (13b2's
        chances, ``HONCHO_FATAL``) eliminates it: worth the enemy 10 ([8])."""
        value = 0.0
        side, threat = me.spec.side, self.strength.threat
        enemies = [g for g in gs if g.spec.side != side]
        for spent in range(1, min(HORIZON, left) + 1):
            done = fs.advance(gs, impulse)
            for g in done:
                if threat and g.spec.side != side:
                    value -= threat * fs.shot(g, me)
                if pushing and g.spec.side != side and me not in done:
                    value -= fs.hit_chance(g, me) * HONCHO_FATAL * (fs.ELIMINATED - me.spec.damage)
            if me in done:
                value += max((fs.shot(me, e) for e in enemies), default=0.0)
                return value, spent, True
            impulse = impulse % IMPULSES + 1
        return value, HORIZON, False

    def _position(self, me: fs.Ghost, gs: list[fs.Ghost]) -> float:
        side = me.spec.side
        enemies = [g for g in gs if g.spec.side != side]
        if not enemies:
            return 0.0
        offence, danger = fs.position(me, enemies, [])
        close = fs.nearest(me, enemies)
        if close > 3:  # far off: turn toward the nearest enemy
            heading = max(
                fs.aspect(me, e)[0] for e in enemies if fs.axial_distance(me.pos, e.pos) == close
            )
            offence += PURSUIT * heading
        edge = EDGE * max(0, fs.overflow(me, gs, *self.board, everyone=False) - self.cramped)
        return POSITION * (offence - self.strength.danger * danger) - CLOSE * close - edge

    # -- the Fire Phase (6a, 6b) ------------------------------------------------------
    def _fire(self, battle: Any, fires: list[Any], holds: list[Any]) -> Any:
        left = self._left(battle) + 1
        best, chosen = 0.0, None
        for a in fires:
            firer, target = battle.unit(a.unit), battle.unit(a.target)
            value = shot_worth(battle, firer, target, a.gun)
            margin = value - self._ammo_cost(firer, target, a.gun, left)
            if value > 0.02 and margin > best + TIE:
                best, chosen = margin, a
        if chosen is not None:
            return chosen
        return holds[0] if holds else fires[0]

    def _ammo_cost(self, firer: Unit, target: Unit, gun: str, left: int) -> float:
        """13a3: what marking off a box gives up: with fewer boxes than the good shots the
        rest of the game may offer, a share of the best shot this target could be given;
        nothing in the last impulses ([8]: eight turns), with no shot left to keep it for."""
        if not self.strength.ammo_care:
            return 0.0
        if gun == "rear":
            boxes = int(firer.card["rear_ammunition"]) - firer.rear_ammunition_used
            factor = int(firer.card["rear_gun_factor"])
        else:
            boxes = int(firer.card["ammunition"]) - firer.ammunition_used
            factor = int(firer.card["gun_factor"]) + fr.ATTACK_QUALITY[firer.quality]
        chances = left / IMPULSES_A_SHOT
        scarcity = max(0.0, 1.0 - (boxes - 1) / max(chances, 1.0))
        defence = sum(fr.defence_modifier(target).values())
        top = fs.shot_value(factor + 1, defence, fs.kill_chance(target), damage_of(target))
        # a box kept is worth no more than the shots the game has time left for
        return AMMO * scarcity * top * min(1.0, chances)

    # -- the Change Phase ([7]) -------------------------------------------------------
    def _change(self, battle: Any, side: int, changes: list[Any]) -> Any:
        uid = changes[0].unit
        mine = [a for a in changes if a.unit == uid]
        unit = battle.unit(uid)
        enemies = [u for u in battle.units if u.side != unit.side and not u.eliminated]
        if not self.strength.fly_change or unit.hex is None or not enemies:
            seen = SideView(battle, side)
            return self._steady(unit, [seen.stand_in(e) for e in enemies], mine)
        ghosts = self._ghosts(battle, side)
        left = self._left(battle)  # the Change Phase closes the turn: impulse VI is done
        self.cramped = 0
        low = int(unit.card["min_speed"])
        slowing = unit.marker is not None and MANEUVERS[unit.marker["maneuver"]][0] in SLOWING
        me0 = next(g for g in ghosts if g.uid == uid)
        foes = sorted((fs.axial_distance(me0.pos, g.pos), g.uid, g) for g in ghosts
                      if g.spec.side != side)  # fmt: skip
        target = foes[0][2] if foes else None

        def score(a: Any) -> float:
            gs = [g.copy() for g in ghosts]
            me = next(g for g in gs if g.uid == uid)
            me.alt, me.speed = a.altitude, a.speed
            value = self._fly(gs, uid, None, 1, left, further=False)
            value -= (0.3 if a.speed <= low else 0.0) + 0.01 * abs(a.speed - 5)
            if STRAIGHT_FIRE and a.speed <= 4 and a.speed > low:
                value += STRAIGHT_FIRE  # 5d2.2: a straight of one hex, a chance to fire each
            if slowing and a.speed - 1 < low:
                value -= 5.0  # 3e2: the marked maneuver would complete below the minimum
            if target is not None:  # 6a1, 6c1.2: within one altitude of the target, level
                apart = abs(a.altitude - target.alt)
                value -= ALTITUDE * max(0, apart - 1) + 0.2 * (apart > 0)
                value -= 0.15 * max(0, min(target.speed, 6) - a.speed)  # keep up with it
                if CHASE and foes[0][0] >= 3:  # close in on it: faster than it (4b)
                    value -= CHASE * max(0, min(target.speed + 1, 6) - a.speed)
                if foes[0][0] > FAR:  # far off: closing is all (speeds above 6 gain nothing)
                    value -= 0.2 * max(0, 6 - a.speed)
            return value

        return self._pick(mine, score)

    def _steady(self, unit: Unit, enemies: list[Unit], mine: list[Any]) -> Any:
        """The change nearest the nearest enemy's altitude at the present speed."""
        aim = unit.altitude
        if unit.hex is not None:
            here = fs.to_axial(unit.hex)
            away = [(fs.axial_distance(here, fs.to_axial(e.hex)), e.altitude) for e in enemies
                    if e.hex is not None]  # fmt: skip
            aim = min(away)[1] if away else unit.altitude
        return min(mine, key=lambda a: (abs(a.altitude - aim), abs(a.speed - unit.speed)))

    # -- breaking contact ([16]) -------------------------------------------------------
    def _break(self, battle: Any, side: int, breaks: list[Any], legal: list[Any]) -> Any:
        ends = [a for a in legal if kind_of(a) == "end_announcements"]
        if self.strength.break_contact:
            points = battle.victory_points()
            lead = points[SIDES[side]] - points[SIDES[1 - side]]
            for a in breaks:
                if beaten(battle.unit(a.unit)) or lead > 0:
                    return a
        return ends[0] if ends else self._default(legal)

    # -- spotting (15b, option ``spotting``) ----------------------------------------------
    def _spot(self, battle: Any, spots: list[Any]) -> Any:
        """15b2: an attempt costs nothing and a unit fires only at a unit it has tallied
        (15b9), so every unit tries: at the enemy its modifiers (15b3) make likeliest, a
        friend in its hex (13d1.2) only when no enemy is left to try; an enemy not yet
        seen at the altitude the pilot guesses for it (9f: ``view``)."""
        sun = battle.spotting["sun"] if battle.spotting else None
        seen = SideView(battle, battle.current_side())

        def score(a: Any) -> float:
            spotter, target = battle.unit(a.unit), seen.stand_in(battle.unit(a.target))
            chance = sum(sp.modifiers(spotter, target, sun).values())
            return chance + (100.0 if target.side != spotter.side else 0.0)

        return self._pick(spots, score)

    def _sun(self, suns: list[Any]) -> Any:
        """9a1.7: the holder, who places first (2f), lays the sun along the gameboard's
        length (east or west), so its units may face it from an edge with the whole board
        ahead of them: a unit facing the sun above its spotter is hard to see (15b3.4)."""
        return self._pick(suns, lambda a: 1.0 if a.direction % 3 == 0 else 0.0)

    # -- set-up (2f) ---------------------------------------------------------------------
    def _place(self, battle: Any, side: int, places: list[Any]) -> Any:
        uid = places[0].unit
        mine = [a for a in places if a.unit == uid]
        placed = self._ghosts(battle, side)
        w, h = battle.scenario.width, battle.scenario.height
        enemies = [g for g in placed if g.side != side]
        # an enemy no maneuver keeps on a battle already as wide as the board leaves it
        # (3b), each checked in turn without those gone before it, as the battle does
        gone: set[int] = set()
        for e in sorted(enemies, key=lambda g: g.uid):
            if trapped(battle.unit(e.uid), battle, gone):
                gone.add(e.uid)
        enemies = [e for e in enemies if e.uid not in gone] or enemies
        # and of those, the ones with the most room ahead (one flying off the board's
        # edge, away from the rest, will leave it soon)
        rooms = {e.uid: room(battle.unit(e.uid), battle, gone) for e in enemies}
        enemies = [e for e in enemies if rooms[e.uid] >= min(ROOM, max(rooms.values()))]
        allies = [g for g in placed if g.side == side]
        me = fs.ghost(battle.unit(uid), side)
        sun = battle.spotting["sun"] if battle.spotting else None
        centre = _point(fs.to_axial(((w - 1) // 2, (h - 1) // 2)))
        # first on the board with the sun laid: from the middle of the edge it shines
        # across, facing it (15b3.4), the whole board ahead
        start = centre if sun is None else _point(fs.to_axial(_edge_facing(sun, w, h)))
        near = allies or enemies or [start]
        spots = {fs.to_axial(a.hex): a.hex for a in mine}
        ranked = sorted(spots, key=lambda p: (min(fs.axial_distance(p, g.pos) for g in near), p))
        closest = {spots[p] for p in ranked[:PLACES]}  # the edge hexes nearest those
        mine = [a for a in mine if a.hex in closest]

        def score(a: Any) -> float:
            me.pos, me.facing = fs.to_axial(a.hex), a.facing
            value = 0.0
            if enemies:
                offence, danger = fs.position(me, enemies, allies)
                value += offence - danger - 0.05 * fs.nearest(me, enemies)
            else:
                toward, _, d = fs.aspect(me, centre)
                value += toward - 0.02 * d
            if allies:
                value -= 0.3 * max(0, fs.nearest(me, allies) - 1)
            if a.facing == sun:  # 15b3.4: facing the sun, hard to see from below
                value += SUN_FACING
            return value - EDGE * fs.overflow(me, placed, w, h, everyone=False)

        return self._pick(mine, score)


def _pushes(action: Any) -> bool:
    return bool(getattr(action, "honcho", False))


def _edge_facing(sun: int, width: int, height: int) -> tuple[int, int]:
    """The middle hex of the gameboard's edge from which facing ``sun`` flies across it."""
    row = (height - 1) // 2
    if sun in (0, 1, 5):  # toward the east: from the west edge
        return (0, row)
    return (width - 1, row)


def _point(pos: fs.Axial) -> fs.Ghost:
    g = fs.Ghost.__new__(fs.Ghost)
    g.pos, g.facing = pos, 0
    return g


def trapped(unit: Unit, battle: Any, gone: set[int] | None = None) -> bool:
    """No maneuver ``unit`` may mark keeps it and every unit placed on the gameboard (but
    those ``gone``), the whole battle shifted (3b, ``hexes.shift_to_fit``): it will leave
    the battle."""
    assert unit.hex is not None
    gone = gone or set()
    others = [u.hex for u in battle.units
              if u is not unit and u.hex is not None and u.id not in gone]  # fmt: skip
    w, h = battle.scenario.width, battle.scenario.height
    for maneuver in MANEUVERS:
        if refusal(unit, maneuver) is None:
            planned = plan(unit, maneuver)
            if shift_to_fit([*others, unit.hex, *planned["path"], planned["end"]], w, h):
                return False
    return True


def room(unit: Unit, battle: Any, gone: set[int]) -> int:
    """How many hexes (up to ``ROOM``) ``unit`` may fly straight on with every other unit
    placed (but those ``gone``) and the whole battle kept on the gameboard (3b)."""
    assert unit.hex is not None
    others = [u.hex for u in battle.units
              if u is not unit and u.hex is not None and u.id not in gone]  # fmt: skip
    w, h = battle.scenario.width, battle.scenario.height
    path = ahead(unit.hex, unit.facing, ROOM)
    for n in range(ROOM):
        if shift_to_fit([*others, unit.hex, *path[: n + 1]], w, h) is None:
            return n
    return ROOM


def damage_of(unit: Unit) -> int:
    return sum(unit.damage.values())


def shot_worth(battle: Any, firer: Unit, target: Unit, gun: str) -> float:
    """The victory points a shot now is expected to score, by the engine's own modifiers
    (6c1, 6c2, 6a6, 6c3; under their options 15b9 and 20b-20c), an aimed attack (20e)
    striking its chosen area with every hit and missing on the bomber's 10."""
    attack, defence = odds.shot_modifiers(battle, firer, target, gun)
    area = bb.aimed_area(gun)
    kill = fs.kill_chance(target, area)
    return fs.shot_value(sum(attack.values()), sum(defence.values()), kill,
                         damage_of(target), area is not None)  # fmt: skip


def beaten(unit: Unit) -> bool:
    """[16]: a unit with nothing left to fire, or whose next hit is likely its last."""
    forward = int(unit.card["ammunition"]) - unit.ammunition_used
    rear = int(unit.card["rear_ammunition"]) - unit.rear_ammunition_used
    rear = rear if int(unit.card["rear_guns"]) >= 1 else 0
    return (forward < 1 and rear < 1) or fs.kill_chance(unit) >= 0.5
