"""The strategic card game of ``003_93ec40e0c2d0344c.txt`` as a rules engine.

A frozen :class:`GameSetup` (the cards) and a mutable :class:`GameState`:
``current_side()``, sorted ``legal_actions()``, ``apply(action)`` (checked,
raising :class:`RuleError` citing the rule, ``003 'SECTION'``), ``clone()``,
``is_over()``, ``result()``, ``to_json()`` / ``GameState.from_json()``. Every
die and every shuffle comes from the state's :class:`~rules.dice.Dice`, so
``replay(setup, seed, actions)`` rebuilds the same state.

This module holds the state itself (its fields, the decks, whose move it is,
copies and JSON); the rules it follows live by what they are about:

* :mod:`~rules.cardgame.setup` -- the cards of a game and 003 "SETUP";
* :mod:`~rules.cardgame.phases` -- 003 "TURN SEQUENCE" and the phases;
* :mod:`~rules.cardgame.missions` -- 003 "MISSION PHASE" and its segments;
* :mod:`~rules.cardgame.events` -- what playing an event card does;
* :mod:`~rules.cardgame.checks` -- legality, shared by ``legal_actions`` and ``apply``.

Flow of a side's turn (003 "TURN SEQUENCE"): the eight phases are *phase
steps* in which the side whose turn it is holds priority; entering a phase
does its automatic part (draws, +1 PP, production, briefing, strategy,
experience) and ``Advance`` leaves it. The Mission phase starts with the
``assign`` step; launching (``Advance``) flies each mission that has planes,
in the order the missions came into play, through the *mission windows*
``scramble`` -> ``interception`` -> (``losses``) -> ``bombing``. In a window
both sides may act; a window closes when both sides pass (``Advance``) in a
row, starting with the defender in the scramble window and the attacker in
the others.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from rules.dice import Dice, ScriptedDice

from . import events, missions, phases
from .actions import (
    Action,
    Advance,
    Assign,
    ChooseLoss,
    Discard,
    EnterResult,
    GiveExperience,
    PlayEvent,
    ScrambleFighter,
    SetEngagementMode,
    Unassign,
    action_from_json,
    action_sort_key,
)
from .cards import ALLIED, ESPIONAGE, EVENT_RULES, SIDES, MissionSpec, PlaneSpec, other
from .checks import PP_RULE, ST_RULE, XM_RULE, RuleError, action_error, check, turn_error
from .engagement import STANDARD_RESOLUTION, EngagementResult, Resolution
from .phases import (
    ASSIGN,
    AWAITING_RESULT,
    BOMBING,
    BRIEFING,
    BRIEFING_DRAW,
    DEBRIEFING,
    ESPIONAGE_DRAW,
    EVENT,
    EVENT_DRAW,
    EXPERIENCE,
    INDUSTRY,
    INTERCEPTION,
    LOSSES,
    MISSION,
    OVER,
    PHASES,
    PRODUCTION,
    SCRAMBLE,
    STRATEGY,
    VICTORY_ST_MINIMUM,
    WINDOWS,
)
from .setup import RULES_VERSION, GameSetup, copy_json, default_setup, start_game

__all__ = [
    "ASSIGN",
    "AWAITING_RESULT",
    "BOMBING",
    "BRIEFING",
    "BRIEFING_DRAW",
    "DEBRIEFING",
    "ESPIONAGE_DRAW",
    "EVENT",
    "EVENT_DRAW",
    "EXPERIENCE",
    "INDUSTRY",
    "INTERCEPTION",
    "LOSSES",
    "MISSION",
    "OVER",
    "PHASES",
    "PRODUCTION",
    "RULES_VERSION",
    "SCRAMBLE",
    "STRATEGY",
    "VICTORY_ST_MINIMUM",
    "WINDOWS",
    "GameSetup",
    "GameState",
    "RuleError",
    "default_setup",
    "new_game",
    "other",
    "replay",
]

# -- state -----------------------------------------------------------------------
_STATE_FIELDS = (
    "turn",
    "active",
    "phase",
    "step",
    "priority",
    "passes",
    "turns_taken",
    "pp",
    "st",
    "plane_deck",
    "plane_discard",
    "mission_deck",
    "mission_discard",
    "event_deck",
    "event_discard",
    "hands",
    "planes",
    "next_plane",
    "missions_in_play",
    "assignments",
    "grounded",
    "flight_queue",
    "mission_index",
    "scrambled",
    "flown",
    "mission_mods",
    "extra_flak",
    "engagement",
    "losses_todo",
    "losses_chosen",
    "retreated",
    "results",
    "pending",
    "log",
    "history",
    "kills",
    "lost",
    "engagements",
    "winner",
    "end_reason",
    "mode_overrides",
    "first_roll",
    "engagement_input",
)


# Records that only ever get new entries appended (entries never change).
_APPEND_ONLY = frozenset({"log", "history", "kills", "engagements"})


class GameState:
    """The mutable state of one game. Build it with :func:`new_game`."""

    #: what resolves each engagement mode (engagement.Resolution); a game that
    #: resolves a mode itself sets its own (not part of the record: no rule changes)
    resolution: Resolution = STANDARD_RESOLUTION

    def __init__(self, setup: GameSetup, dice: Dice) -> None:
        self.setup = setup
        self.dice = dice
        self.turn = 1
        self.active = ALLIED
        self.phase = EVENT
        self.step = ""
        self.priority: str | None = ALLIED
        self.passes = 0
        self.turns_taken = {s: 0 for s in SIDES}
        self.pp = {s: setup.starting_pp for s in SIDES}
        self.st = {s: 0 for s in SIDES}
        self.plane_deck = {s: list(setup.plane_decks[s]) for s in SIDES}
        self.plane_discard: dict[str, list[str]] = {s: [] for s in SIDES}
        self.mission_deck = list(setup.mission_cards)
        self.mission_discard: list[str] = []
        self.event_deck = list(setup.event_cards)
        self.event_discard: list[str] = []
        self.hands: dict[str, list[str]] = {s: [] for s in SIDES}
        self.planes: dict[str, dict[str, Any]] = {}  # instance id -> plane in play
        self.next_plane = {s: 1 for s in SIDES}
        self.missions_in_play: list[str] = []
        self.assignments: dict[str, str] = {}  # attacking plane -> mission
        self.grounded: list[str] = []  # Navigation Error, this turn
        self.flight_queue: list[str] = []
        self.mission_index = 0
        self.scrambled: dict[str, str] = {}  # defending fighter -> mission
        self.flown: dict[str, str] = {}  # attacking plane -> mission it flies
        self.mission_mods: list[dict[str, Any]] = []
        self.extra_flak = 0
        self.engagement: dict[str, Any] | None = None
        self.losses_todo: dict[str, list[str]] = {}
        self.losses_chosen: dict[str, list[str]] = {}
        self.retreated: list[str] = []
        self.results: list[dict[str, Any]] = []
        self.pending: dict[str, Any] | None = None
        self.log: list[dict[str, Any]] = []
        self.history: list[dict[str, Any]] = []
        self.kills: list[dict[str, Any]] = []
        self.lost: dict[str, dict[str, Any]] = {}
        self.engagements: list[dict[str, Any]] = []
        self.winner: str | None = None
        self.end_reason = ""
        self.mode_overrides: dict[str, str] = {}
        self.first_roll: dict[str, Any] = {}
        self.engagement_input: dict[str, Any] | None = None  # what an engine/table resolves
        self._dice_buffer: list[list[Any]] = []

    # -- small helpers -----------------------------------------------------------
    @property
    def defender(self) -> str:
        return other(self.active)

    @property
    def round(self) -> int:
        return (self.turn + 1) // 2

    @property
    def current_mission(self) -> str | None:
        if self.phase == MISSION and self.step in (*WINDOWS, LOSSES, AWAITING_RESULT):
            return self.flight_queue[self.mission_index]
        return None

    def mission_in_flight(self) -> str:
        """The mission being flown (in a mission window, the losses step or
        while its engagement waits for a result)."""
        mission = self.current_mission
        if mission is None:
            raise RuntimeError("no mission is being flown now")
        return mission

    def plane_spec(self, plane_id: str) -> PlaneSpec:
        return self.setup.plane_cards[self.planes[plane_id]["card"]]

    def mission_spec(self, mission_id: str) -> MissionSpec:
        return self.setup.mission_cards[mission_id]

    def card_name(self, card_id: str) -> str:
        return self.setup.card_name(card_id)

    def attackers_on(self, mission_id: str) -> list[str]:
        return [p for p, m in self.flown.items() if m == mission_id and p in self.planes]

    def defenders_on(self, mission_id: str) -> list[str]:
        return [p for p, m in self.scrambled.items() if m == mission_id and p in self.planes]

    def _roll(self, purpose: str) -> int:
        value = self.dice.d10(purpose)
        self._dice_buffer.append([purpose, 10, value])
        return value

    def _log(self, kind: str, /, **data: Any) -> dict[str, Any]:
        entry = {"n": len(self.log), "turn": self.turn, "side": self.active, "phase": self.phase}
        if self.step:
            entry["step"] = self.step
        entry["type"] = kind
        entry.update(data)
        if self._dice_buffer:
            entry["dice"] = self._dice_buffer
            self._dice_buffer = []
        self.log.append(entry)
        return entry

    # -- decks -------------------------------------------------------------------
    def _piles(self, deck: str) -> tuple[list[str], list[str]]:
        if deck == "mission":
            return self.mission_deck, self.mission_discard
        if deck == "event":
            return self.event_deck, self.event_discard
        side = deck.split(":", 1)[1]
        return self.plane_deck[side], self.plane_discard[side]

    def _shuffle(self, cards: list[str], deck: str) -> None:
        before = len(self.dice.rolls)
        count = self.dice.count
        self.dice.shuffle(cards, f"shuffle {deck}")
        swaps = [r.to_json() for r in self.dice.rolls[before:]] if self.dice.record else []
        # The order and the swaps are secret: views drop "secret".
        self._log("shuffle", deck=deck, cards=len(cards), draws=self.dice.count - count,
                  secret={"dice": swaps, "order": list(cards)})  # fmt: skip

    def _draw(self, deck: str, n: int) -> list[str]:
        """Draw ``n`` from the top (index 0). 003 "THE DECKS": "If any deck ever
        runs out, shuffle its discard and draw from it." With deck and discard
        both empty, the draw stops short (rulings: "exhausted decks")."""
        pile, discard = self._piles(deck)
        drawn: list[str] = []
        for _ in range(n):
            if not pile:
                if not discard:
                    self._log("deck_exhausted", deck=deck, wanted=n, drawn=len(drawn))
                    break
                pile.extend(discard)
                discard.clear()
                self._log("reshuffle", deck=deck, cards=len(pile))
                self._shuffle(pile, deck)
            drawn.append(pile.pop(0))
        return drawn

    def _draw_events(self, side: str, n: int, reason: str) -> None:
        cards = self._draw("event", n)
        self.hands[side].extend(cards)
        self._log("draw_events", who=side, reason=reason, count=len(cards), private_to=side,
                  private={"cards": cards, "names": [self.card_name(c) for c in cards]})  # fmt: skip

    def _put_planes_in_play(self, side: str, n: int, reason: str) -> list[str]:
        ids = []
        for card in self._draw(f"plane:{side}", n):
            pid = f"{side}-{self.next_plane[side]}"
            self.next_plane[side] += 1
            self.planes[pid] = {
                "id": pid,
                "card": card,
                "side": side,
                "xm": 0,
                "kills": 0,
                "since": self.turn,
            }
            ids.append(pid)
        self._log("planes_into_play", who=side, reason=reason,
                  planes=[{"id": p, "card": self.planes[p]["card"], "name": self.plane_spec(p).name} for p in ids])  # fmt: skip
        return ids

    def _put_missions_in_play(self, n: int, reason: str) -> None:
        # 003 "BRIEFING PHASE": leave bombing missions in play; discard each
        # espionage mission and draw 2 event cards for it.
        for card in self._draw("mission", n):
            spec = self.mission_spec(card)
            if spec.kind == ESPIONAGE:
                self.mission_discard.append(card)
                self._log("espionage", mission=card, name=spec.name, reason=reason)
                self._draw_events(self.active, ESPIONAGE_DRAW, f"espionage {card}")
            else:
                self.missions_in_play.append(card)
                self._log("mission_into_play", mission=card, name=spec.name, kind=spec.kind,
                          level=spec.level, reason=reason)  # fmt: skip

    # -- whose move ----------------------------------------------------------------
    def current_side(self) -> str | None:
        if self.phase == OVER or self.step == AWAITING_RESULT:
            return None
        if self.pending is not None:
            return self.pending["side"]
        return self.priority

    def is_over(self) -> bool:
        return self.phase == OVER

    def result(self) -> dict[str, Any] | None:
        if self.phase != OVER:
            return None
        return {"winner": self.winner, "reason": self.end_reason, "turn": self.turn,
                "pp": dict(self.pp), "st": dict(self.st)}  # fmt: skip

    # -- legal actions ----------------------------------------------------------------
    def _candidates(self, side: str) -> Iterable[Action]:
        yield Advance(side)
        if self.pending is not None:
            for pid in self.planes:
                yield GiveExperience(side, pid)
            return
        if self.step == LOSSES:
            for pid in self.losses_candidates(side):
                yield ChooseLoss(side, pid)
            return
        if self.phase == DEBRIEFING:
            for card in self.hands[side]:
                yield Discard(side, card)
        if self.step == ASSIGN:
            missions = [m for m in self.missions_in_play if self.mission_spec(m).kind != ESPIONAGE]
            for pid, plane in self.planes.items():
                if plane["side"] != side:
                    continue
                if pid in self.assignments:
                    yield Unassign(side, pid)
                else:
                    for m in missions:
                        yield Assign(side, pid, m)
        if self.step == SCRAMBLE:
            for pid, plane in self.planes.items():
                if plane["side"] == side:
                    yield ScrambleFighter(side, pid)
        targets = [""]
        if self.step in WINDOWS:
            mission = self.mission_in_flight()
            targets += self.attackers_on(mission) + self.defenders_on(mission)
            for m in self.flight_queue[self.mission_index :]:
                targets.append(m)
                if m != mission:
                    targets += self.attackers_on(m)
        seen: set[str] = set()
        for card in self.hands[side]:
            name = self.card_name(card)
            if name in seen:  # identical cards give identical actions
                continue
            seen.add(name)
            rule = EVENT_RULES[name]
            options = ("af", "gf") if rule.force == "af_or_gf" else ("",)
            for target in targets if rule.target else ("",):
                for option in options:
                    yield PlayEvent(side, card, target, option)

    def legal_actions(self) -> list[Action]:
        side = self.current_side()
        if side is None or turn_error(self, side) is not None:
            return []
        # The candidates are the current side's, so only the per-action checks run
        # (the same checks as ``apply``: rules.cardgame.checks).
        actions = [a for a in self._candidates(side) if action_error(self, a) is None]
        actions.sort(key=action_sort_key)
        return actions

    def losses_candidates(self, side: str) -> list[str]:
        if self.step != LOSSES:
            return []
        mission = self.mission_in_flight()
        on = self.attackers_on(mission) if side == self.active else self.defenders_on(mission)
        chosen = self.losses_chosen.get(side, [])
        return [p for p in on if p not in chosen]

    # -- checking and applying ------------------------------------------------------
    def check(self, action: Action) -> RuleError | None:
        """Why ``action`` is illegal now (a :class:`RuleError`), or None."""
        return check(self, action)

    def apply(self, action: Action) -> None:
        """Apply a legal action; raise :class:`RuleError` citing the rule otherwise."""
        err = check(self, action)
        if err is not None:
            raise err
        self.apply_unchecked(action)

    def apply_unchecked(self, action: Action) -> None:
        _APPLY[type(action)](self, action)

    def modifier(self, plane_id: str, force: str) -> int:
        """Everything added to a force roll of ``plane_id`` on the current
        mission (see :func:`rules.cardgame.missions.modifier`)."""
        return missions.modifier(self, plane_id, force)

    def correct(
        self, *, pp: Mapping[str, int] | None = None, st: Mapping[str, int] | None = None
    ) -> None:
        """An umpire's correction of the running totals, logged like any event.

        Not a player's action: the Django layer records it (with who and why)
        in the campaign's action record, so replays apply it in its place.
        """
        for name, values in (("pp", pp), ("st", st)):
            for side, value in (values or {}).items():
                if side not in SIDES or int(value) < 0:
                    # 003 "PRODUCTION POINT SCORE" / "STRATEGY TOKENS": running totals
                    rule = PP_RULE if name == "pp" else ST_RULE
                    raise RuleError(rule, f"{name} of {side!r} cannot be set to {value!r}")
                getattr(self, name)[side] = int(value)
        self._log("correction", pp=dict(pp or {}), st=dict(st or {}))

    def pilot_experience(self, markers: Mapping[str, int]) -> None:
        """The experience markers planes in play start with because of who flies them
        (ruling "A pilot's quality and his plane's rank"): a plane keeps what it has
        when that is more. Like :meth:`correct`, the Django layer records it in the
        campaign's action record right after the action that gave the plane its pilot,
        so replays apply it in its place."""
        given: dict[str, int] = {}
        for plane_id, value in markers.items():
            plane = self.planes.get(plane_id)
            if plane is None or int(value) < 0:
                # 003 "EXPERIENCE PHASE": markers are earned by planes in play
                raise RuleError(XM_RULE, f"no plane {plane_id!r} in play to give {value!r} XM")
            plane["xm"] = max(int(plane["xm"]), int(value))
            given[plane_id] = plane["xm"]
        self._log("pilot_experience", planes=given)

    def submit_engagement_result(self, result: EngagementResult) -> None:
        """Apply the result the game is waiting for (003 "INTERCEPTION SEGMENT").
        Players' programs should record it as the action
        ``EnterResult(json.dumps(result.to_json()))`` so that ``replay`` sees
        it; this is what that action does."""
        missions.submit_engagement_result(self, result)

    # -- copies and JSON --------------------------------------------------------------
    def clone(self) -> GameState:
        """An independent copy (the append-only records share their entries,
        which are never changed once written)."""
        new = GameState.__new__(GameState)
        new.setup = self.setup
        new.dice = self.dice.clone()
        for name in _STATE_FIELDS:
            value = getattr(self, name)
            setattr(new, name, list(value) if name in _APPEND_ONLY else copy_json(value))
        new._dice_buffer = []
        if "resolution" in self.__dict__:  # a game given its own resolution keeps it
            new.resolution = self.resolution
        return new

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-able data (read-only: the log entries are
        shared with the state)."""
        data: dict[str, Any] = {"setup": self.setup.to_json(), "dice": self.dice.to_json()}
        for name in _STATE_FIELDS:
            value = getattr(self, name)
            data[name] = list(value) if name in _APPEND_ONLY else copy_json(value)
        return data

    @classmethod
    def from_json(
        cls, data: Mapping[str, Any], setup: GameSetup | None = None, *, copy: bool = True
    ) -> GameState:
        """Rebuild a state. ``copy=False`` adopts ``data``'s lists and dicts
        as they are: for data freshly parsed from JSON that nothing else holds."""
        setup = setup or GameSetup.from_json(data["setup"])
        d = data["dice"]
        if "script" in d:
            scripted = ScriptedDice(d["script"])
            scripted.position = int(d["position"])
            scripted.count = int(d["count"])
            dice: Dice = scripted
        else:
            dice = Dice.from_json(d)
        state = cls(setup, dice)
        for name in _STATE_FIELDS:
            setattr(state, name, copy_json(data[name]) if copy else data[name])
        return state


_APPLY: dict[type, Callable[[GameState, Any], None]] = {
    Advance: missions.do_advance,
    Assign: missions.do_assign,
    Unassign: missions.do_unassign,
    ScrambleFighter: missions.do_scramble,
    PlayEvent: events.do_play,
    ChooseLoss: missions.do_loss,
    GiveExperience: events.do_train,
    Discard: phases.do_discard,
    SetEngagementMode: missions.do_mode,
    EnterResult: missions.do_result,
}


def new_game(setup: GameSetup, dice: Dice, *, shuffle: bool = True) -> GameState:
    """003 "SETUP": shuffle the decks, 10 PP each, roll high on 1D10 for the
    first turn (ties re-rolled), and start that side's Event phase.

    ``shuffle=False`` keeps the decks in list order (tests and worked examples
    stack them); the roll-off still uses ``dice``.
    """
    state = GameState(setup, dice)
    start_game(state, shuffle=shuffle)
    return state


def replay(
    setup: GameSetup,
    seed: int,
    actions: Iterable[Action | Mapping[str, Any]],
    *,
    shuffle: bool = True,
) -> GameState:
    """Rebuild a game from its canonical record ``(setup, seed, actions)``."""
    state = new_game(setup, Dice(seed), shuffle=shuffle)
    for a in actions:
        state.apply(a if not isinstance(a, Mapping) else action_from_json(a))
    return state
